// The PLC side of one IEC 104 connection entry (one redundancy group; docs/iec104.md "The PLC
// side"): every `plc_poll` ms it reads the PLC's monitor ring (device/model/blocks/iec104.ts) and
// hands the new events to the station in order, then writes the read index; it carries the
// station's commands into the command buffer one at a time and reports the PLC's answers; and it
// tells the station whether the PLC answers at all.
//
// The PLC is reached through the service control interface (pew.interface_plc): `link()` answers
// the link or throws a PlcError('link_down') when the interface is not enabled, as the other
// engines' accessors do. Each request waits at most the entry's `timeout` ms; a request that fails
// or runs out means the PLC is silent. A PLC that answers with an error (an address outside its
// memory) is alive: that is a fault of the buffers, shown in the status.
//
// Events are delivered at most once within a run: the unit keeps its read index R itself after
// reading it from the PLC at start; when writing R back fails, the next poll writes it again before
// reading anything. Records the station cannot send are skipped and counted.
import { PlcError, plcFailureReason } from '../com/dialog.ts';
import type { Link } from '../com/link.ts';
import { decodeRecord, encodeCommand, pendingRuns, RECORD_WORDS, type RecordErrorCode, readAnswer, ringCapacity, slotOffset } from '../model/blocks/iec104.ts';
import { reasonLog, type StatusReason } from '../model/reasons.ts';
import type { IecConnection } from '../model/sections/iec.ts';
import type { Logger } from '../system/log.ts';
import type { MonitorPoint, PlcCommand, PlcCommandAnswer } from './points.ts';

/** What the PLC side needs of a link: word reads and writes with a user name for the queue's fairness. */
export type PlcLink = Pick<Link, 'readWords' | 'writeWords'>;

/** Whether the PLC answers: the station sends its values invalid while not. */
export interface PlcState {
  ok: boolean;
  /** why not; absent while ok */
  reason?: StatusReason;
}

/** Why the PLC side asks for the group's IEC connections to be closed. */
export type DropReason =
  /** plc_live_check: the PLC stopped answering */
  | 'plc_silent'
  /** plc_reconnect_reset: the PLC answers again after a silence */
  | 'plc_reconnected';

export interface PlcSideDeps {
  entry: IecConnection;
  /** the connection entry's position 0-3 (the command buffer's word 15, the link user's name) */
  index: number;
  /** plc_poll, ms */
  pollMs: number;
  /** plc_live_check: close the connections when the PLC stops answering */
  liveCheck: boolean;
  /** plc_reconnect_reset: close the connections when the PLC answers again after a silence */
  reconnectReset: boolean;
  link: () => PlcLink;
  /** the unit's clock: the time stamp of the events read */
  clock: { now(): number };
  /** monotonic ms for the command deadlines (default performance.now) */
  monotonic?: () => number;
  log?: Logger;
  /** new events, in the order the PLC wrote them */
  points(points: MonitorPoint[]): void;
  answer(answer: PlcCommandAnswer): void;
  /** each change of whether the PLC answers */
  plcState(state: PlcState): void;
  /** the group's IEC connections are to be closed (only called when the matching setting is on) */
  dropConnections(reason: DropReason): void;
}

export interface PlcSideStatus {
  plc: 'unknown' | 'ok' | 'silent';
  /** why the PLC does not answer */
  reason?: StatusReason;
  /** a fault of the ring (an index out of range, an address the PLC refuses); empty when none */
  ringError: string;
  capacity: number;
  /** the slot the unit reads next; undefined until read from the PLC */
  readIndex?: number;
  /** events handed to the station */
  events: number;
  /** records skipped because the station cannot send them */
  skipped: number;
  lastSkipped?: { slot: number; code: RecordErrorCode; message: string };
  commands: { written: number; accepted: number; refused: number; done: number; noAnswer: number; waiting: number };
}

/** Commands waiting for the buffer beyond this are answered no_answer at once. */
export const COMMANDS_WAITING_MAX = 16;

class TimeoutError extends Error {}

interface Current {
  cmd: PlcCommand;
  /** monotonic deadline for the decision (w1) */
  deadline: number;
  accepted: boolean;
  /** monotonic time of the acceptance: given up for ACTTERM `timeout` ms later when another command waits */
  acceptedAt: number;
}

export class PlcSide {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  private chain: Promise<void> = Promise.resolve();
  /** a request that ran out of time but may still be in the link's queue: the next waits for it */
  private inflight: Promise<unknown> = Promise.resolve();
  private read: number | undefined;
  private readWritten = true;
  private state: PlcSideStatus['plc'] = 'unknown';
  private reason: StatusReason | undefined;
  private ringError = '';
  private readonly waiting: PlcCommand[] = [];
  private current: Current | undefined;
  private readonly counts = { events: 0, skipped: 0 };
  private lastSkipped: PlcSideStatus['lastSkipped'];
  private readonly cmdCounts = { written: 0, accepted: 0, refused: 0, done: 0, noAnswer: 0 };
  private readonly user: string;
  private readonly capacity: number;
  private readonly mono: () => number;

  constructor(private readonly d: PlcSideDeps) {
    this.user = `iec104.${d.index}`;
    this.capacity = ringCapacity(d.entry.plc_buffer_m_depth);
    this.mono = d.monotonic ?? (() => performance.now());
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.read = undefined; // read again from the PLC: events written while the unit was away follow
    this.schedule(0);
  }

  /** Stops polling; waits for the poll in progress. Waiting commands are answered no_answer. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.chain;
    const open = [...(this.current && !this.current.accepted ? [this.current.cmd] : []), ...this.waiting.splice(0)];
    this.current = undefined;
    for (const c of open) this.finish({ seq: c.seq, kind: 'no_answer' });
  }

  /** A command for the PLC: written when the buffer is free, answered through `answer`. */
  command(cmd: PlcCommand): void {
    if (!this.running || this.state === 'silent' || this.waiting.length >= COMMANDS_WAITING_MAX) return this.finish({ seq: cmd.seq, kind: 'no_answer' });
    try {
      encodeCommand(cmd); // a command the buffer cannot carry is refused now, not at the write
    } catch {
      return this.finish({ seq: cmd.seq, kind: 'refused', reason: 'other' });
    }
    this.waiting.push(cmd);
    // no need to wait for the next poll when the buffer is free
    if (!this.current) this.schedule(0);
  }

  status(): PlcSideStatus {
    return {
      plc: this.state,
      ...(this.reason ? { reason: this.reason } : {}),
      ringError: this.ringError,
      capacity: this.capacity,
      ...(this.read !== undefined ? { readIndex: this.read } : {}),
      ...this.counts,
      ...(this.lastSkipped ? { lastSkipped: this.lastSkipped } : {}),
      commands: { ...this.cmdCounts, waiting: this.waiting.length + (this.current ? 1 : 0) },
    };
  }

  /** Resolves once the poll in progress (if any) is over. */
  settled(): Promise<void> {
    return this.chain;
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.chain = this.chain.then(() => this.tick()).finally(() => this.schedule(this.d.pollMs));
    }, ms);
  }

  private async tick(): Promise<void> {
    if (!this.running) return;
    await this.inflight;
    // the ring and the command buffer apart: a ring address the PLC refuses does not stop commands
    try {
      await this.pollRing();
    } catch (e) {
      if (!this.refused(e, (m) => this.setRingError(`the PLC refused a ring address: ${m}`))) return this.silent(e);
    }
    try {
      await this.pollCommand();
    } catch (e) {
      if (!this.refused(e, () => this.refuseCurrent())) return this.silent(e);
    }
    this.setPlc(true);
  }

  // ---- requests -------------------------------------------------------------------------------

  /** One request, given up after the entry's timeout (it may still finish in the link's queue). */
  private async request<T>(op: (link: PlcLink) => Promise<T>): Promise<T> {
    const p = op(this.d.link());
    this.inflight = p.catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TimeoutError(`no answer within ${this.d.entry.timeout} ms`)), this.d.entry.timeout);
    });
    try {
      return await Promise.race([p, limit]);
    } finally {
      clearTimeout(timer);
    }
  }

  private readAt(offset: number, count: number): Promise<number[]> {
    return this.request((l) => l.readWords(this.d.entry.area, offset, count, this.user));
  }

  private writeAt(offset: number, words: readonly number[]): Promise<void> {
    return this.request((l) => l.writeWords(this.d.entry.area, offset, words, this.user));
  }

  /** Whether a failed request was the PLC's error answer (it is alive; a buffer fault), handled by `fault`. */
  private refused(e: unknown, fault: (message: string) => void): boolean {
    if (!(e instanceof PlcError && e.reason === 'plc_error')) return false;
    fault(e.message);
    return true;
  }

  /** A request failed or ran out: the PLC is silent; commands get no answer. */
  private silent(e: unknown): void {
    this.setPlc(false, plcFailureReason(e));
    const open = [...(this.current && !this.current.accepted ? [this.current.cmd] : []), ...this.waiting.splice(0)];
    this.current = undefined;
    for (const c of open) this.finish({ seq: c.seq, kind: 'no_answer' });
  }

  private setPlc(ok: boolean, why?: StatusReason): void {
    const next = ok ? 'ok' : 'silent';
    const before = this.state;
    this.reason = why;
    if (before === next) return;
    this.state = next;
    this.d.log?.[ok ? 'info' : 'warn'](ok ? 'IEC 104: the PLC answers' : 'IEC 104: the PLC does not answer', {
      entry: this.d.index,
      ...(why ? { detail: reasonLog(why) } : {}),
    });
    this.call(() => this.d.plcState({ ok, ...(why ? { reason: why } : {}) }));
    if (!ok && this.d.liveCheck) this.call(() => this.d.dropConnections('plc_silent'));
    if (ok && before === 'silent' && this.d.reconnectReset) this.call(() => this.d.dropConnections('plc_reconnected'));
  }

  private setRingError(text: string): void {
    if (text && text !== this.ringError) this.d.log?.warn('IEC 104: monitor ring fault', { entry: this.d.index, fault: text });
    this.ringError = text;
  }

  /** A callback of the owner: its failure is logged, never ends the poll. */
  private call(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.d.log?.error('IEC 104: a PLC side callback failed', { entry: this.d.index, error: e instanceof Error ? e.message : String(e) });
    }
  }

  // ---- the monitor ring -------------------------------------------------------------------------

  private async pollRing(): Promise<void> {
    const { plc_buffer_m: m, plc_buffer_rbm: rbm } = this.d.entry;
    const cap = this.capacity;
    if (cap === 0) return this.setRingError('the monitor buffer is shorter than one record');
    if (this.read === undefined) {
      const [r] = await this.readAt(rbm, 1);
      if (r === undefined || r >= cap) return this.setRingError(`read index ${r} is not in 0-${cap - 1}`);
      this.read = r;
      this.readWritten = true;
    }
    if (!this.readWritten) {
      await this.writeAt(rbm, [this.read]);
      this.readWritten = true;
    }
    const [w] = await this.readAt(m, 1);
    if (w === undefined || w >= cap) return this.setRingError(`write index ${w} is not in 0-${cap - 1}`);
    const runs = pendingRuns(this.read, w, cap);
    const words: { slot: number; words: number[] }[] = [];
    for (const [slot, count] of runs) words.push({ slot, words: await this.readAt(m + slotOffset(slot), count * RECORD_WORDS) });
    this.setRingError('');
    if (!runs.length) return;
    const at = this.d.clock.now();
    const points: MonitorPoint[] = [];
    for (const run of words) {
      for (let i = 0; i * RECORD_WORDS < run.words.length; i++) {
        const r = decodeRecord(run.words, i * RECORD_WORDS, at);
        if (r.ok) points.push(r.value);
        else {
          this.counts.skipped++;
          this.lastSkipped = { slot: run.slot + i, code: r.error.code, message: r.error.message };
          this.d.log?.warn('IEC 104: a monitor record skipped', { entry: this.d.index, slot: run.slot + i, code: r.error.code, message: r.error.message });
        }
      }
    }
    this.counts.events += points.length;
    if (points.length) this.call(() => this.d.points(points));
    this.read = w;
    this.readWritten = false;
    await this.writeAt(rbm, [w]);
    this.readWritten = true;
  }

  // ---- the command buffer -----------------------------------------------------------------------

  private async pollCommand(): Promise<void> {
    const c = this.d.entry.plc_buffer_c;
    const cur = this.current;
    if (cur) {
      const words = await this.readAt(c, 4);
      const a = readAnswer(words, cur.cmd.seq);
      const now = this.mono();
      if (!a) {
        if (!cur.accepted && now >= cur.deadline) {
          this.current = undefined;
          this.finish({ seq: cur.cmd.seq, kind: 'no_answer' });
          // withdrawn, so that the PLC does not act on it later
          await this.writeAt(c, [0]);
        } else if (cur.accepted && this.waiting.length && now >= cur.acceptedAt + this.d.entry.timeout) this.current = undefined;
        return;
      }
      if (a.kind === 'accepted') {
        if (!cur.accepted) {
          cur.accepted = true;
          cur.acceptedAt = now;
          this.finish(a);
        } else if (this.waiting.length && now >= cur.acceptedAt + this.d.entry.timeout) this.current = undefined;
        return;
      }
      this.current = undefined;
      if (a.kind === 'done' && !cur.accepted) this.finish({ seq: a.seq, kind: 'accepted' });
      this.finish(a);
    }
    const next = this.waiting.shift();
    if (!next) return;
    this.current = { cmd: next, deadline: Number.POSITIVE_INFINITY, accepted: false, acceptedAt: 0 };
    const words = encodeCommand(next);
    // the whole command with request 0 (no command) and the answer words cleared, then the request
    // number on its own: when the PLC sees a request number different from its answer, all is there
    await this.writeAt(c, [0, ...words.slice(1)]);
    await this.writeAt(c, [words[0]!]);
    this.cmdCounts.written++;
    this.current.deadline = this.mono() + this.d.entry.timeout;
  }

  /** The PLC refused the command buffer's address: the command in it is refused. */
  private refuseCurrent(): void {
    const cur = this.current;
    this.current = undefined;
    if (cur && !cur.accepted) this.finish({ seq: cur.cmd.seq, kind: 'refused', reason: 'other' });
  }

  private finish(a: PlcCommandAnswer): void {
    if (a.kind === 'accepted') this.cmdCounts.accepted++;
    else if (a.kind === 'refused') this.cmdCounts.refused++;
    else if (a.kind === 'done') this.cmdCounts.done++;
    else this.cmdCounts.noAnswer++;
    this.call(() => this.d.answer(a));
  }
}
