// The station's commands (docs/iec104.md "The station"): single, double, regulating step, set-points
// and bitstring, with and without CP56Time2a (types 45-51, 58-64), select-before-operate and direct
// execute. A select stays in the station (nothing reaches the PLC); an execute becomes a PlcCommand
// the PLC side writes into the command buffer, and the PLC's answer becomes the confirmations:
// accepted → ACTCON, refused / no answer → ACTCON negative (COT 47 when the PLC does not know the
// IOA), done → ACTTERM. Pure: every deadline is computed from the `now` the caller passes.

import { type Asdu, mirrorAsdu } from '../protocol/iec104/asdu.ts';
import { COT } from '../protocol/iec104/cot.ts';
import { cp56ToEpochMs } from '../protocol/iec104/cp56.ts';
import type { ElementValue } from '../protocol/iec104/elements.ts';
import type { PlcCommand, PlcCommandAnswer } from './points.ts';
import type { StationAction } from './station.ts';

/** A select reserves its IOA for this long; the execute must come within it. */
export const SELECT_TIMEOUT_MS = 10_000;
/** An accepted command without the PLC's `done` for this long ends with a negative ACTTERM. */
export const TERMINATION_TIMEOUT_MS = 30_000;
/** A time-tagged command whose time differs from the unit's clock by more than this is refused. */
export const COMMAND_MAX_AGE_MS = 30_000;

/** The command types the station executes (types.ts serves them all). */
export const COMMAND_TYPES: ReadonlySet<number> = new Set([45, 46, 47, 48, 49, 50, 51, 58, 59, 60, 61, 62, 63, 64]);

interface Selection {
  ioa: number;
  type: number;
  value: string; // the element without its S/E bit: the execute must carry the same command
  until: number; // monotonic ms: the reservation ends (SELECT_TIMEOUT_MS after the select)
}

interface Running<C> {
  seq: number;
  connection: C;
  request: Uint8Array; // the execute as received: every confirmation mirrors it
  stage: 'confirm' | 'terminate'; // waiting for the PLC's acceptance, or for its `done`
  deadline: number;
}

/** The element's command state without the S/E bit (bitstrings have none). */
function commandValue(e: ElementValue): string {
  return JSON.stringify('select' in e ? { ...e, select: false } : e);
}
const isSelect = (e: ElementValue): boolean => 'select' in e && e.select;

export class Commands<C> {
  private readonly selections = new Map<C, Selection>(); // at most one per connection
  private readonly running = new Map<number, Running<C>>();
  private lastSeq = 0;

  constructor(
    private readonly group: number,
    private readonly confirmTimeout: number,
  ) {}

  /** A command with cause activation. `plcOk` false: the PLC does not answer, nothing is written. */
  activate(now: number, wallNow: number, connection: C, a: Asdu, bytes: Uint8Array, plcOk: boolean): StationAction<C>[] {
    const answer = (cause: number, negative: boolean): StationAction<C>[] => [{ kind: 'to_connection', connection, asdu: mirrorAsdu(bytes, cause, negative) }];
    const refuse = () => answer(COT.activation_con, true);
    const obj = a.objects[0];
    // one object per command; a command marked test must not act on the process
    if (a.objects.length !== 1 || !obj || a.cot.test) return refuse();
    let at: number | undefined;
    if (obj.time) {
      const t = cp56ToEpochMs(obj.time);
      if (t === null || obj.time.invalid || Math.abs(wallNow - t) > COMMAND_MAX_AGE_MS) return refuse();
      at = t;
    }
    if (!plcOk) return refuse();
    if (this.heldByOther(now, connection, obj.ioa)) return refuse();
    const own = this.selections.get(connection);
    if (isSelect(obj.element)) {
      if (own && now < own.until && own.ioa !== obj.ioa) return refuse(); // one selection per connection
      this.selections.set(connection, { ioa: obj.ioa, type: a.type, value: commandValue(obj.element), until: now + SELECT_TIMEOUT_MS });
      return answer(COT.activation_con, false);
    }
    if (own && own.ioa === obj.ioa) {
      // the execute of a select takes the selection and must carry the same command within the
      // select timeout; a select that ran out more than one further timeout ago is forgotten, and
      // the execute is a direct one
      this.selections.delete(connection);
      const forgotten = now >= own.until + SELECT_TIMEOUT_MS;
      if (!forgotten && (now >= own.until || own.type !== a.type || own.value !== commandValue(obj.element))) return refuse();
    }
    if ([...this.running.values()].some((r) => r.stage === 'confirm')) return refuse(); // one command at a time
    const seq = this.nextSeq();
    this.running.set(seq, { seq, connection, request: bytes, stage: 'confirm', deadline: now + this.confirmTimeout });
    const command: PlcCommand = { seq, type: a.type, ioa: obj.ioa, element: obj.element, originator: a.originator, group: this.group };
    if (at !== undefined) command.at = at;
    return [{ kind: 'plc_command', command }];
  }

  /** A command with cause deactivation: breaks off this connection's selection of the IOA. */
  deactivate(now: number, connection: C, a: Asdu, bytes: Uint8Array): StationAction<C>[] {
    const obj = a.objects[0];
    const own = this.selections.get(connection);
    const ok = a.objects.length === 1 && obj !== undefined && own !== undefined && now < own.until && own.ioa === obj.ioa && own.type === a.type;
    if (ok) this.selections.delete(connection);
    return [{ kind: 'to_connection', connection, asdu: mirrorAsdu(bytes, COT.deactivation_con, !ok) }];
  }

  /** The PLC's answer; an answer for a command no longer waiting (ended by a timeout) is ignored. */
  answer(now: number, answer: PlcCommandAnswer): StationAction<C>[] {
    const r = this.running.get(answer.seq);
    if (!r) return [];
    const to = (cause: number, negative: boolean): StationAction<C> => ({
      kind: 'to_connection',
      connection: r.connection,
      asdu: mirrorAsdu(r.request, cause, negative),
    });
    const confirming = r.stage === 'confirm';
    switch (answer.kind) {
      case 'accepted':
        if (!confirming) return [];
        r.stage = 'terminate';
        r.deadline = now + TERMINATION_TIMEOUT_MS;
        return [to(COT.activation_con, false)];
      case 'done':
        this.running.delete(r.seq);
        return confirming ? [to(COT.activation_con, false), to(COT.activation_term, false)] : [to(COT.activation_term, false)];
      case 'refused':
        this.running.delete(r.seq);
        if (!confirming) return [to(COT.activation_term, true)];
        return [to(answer.reason === 'unknown_ioa' ? COT.unknown_ioa : COT.activation_con, true)];
      case 'no_answer':
        this.running.delete(r.seq);
        return [to(confirming ? COT.activation_con : COT.activation_term, true)];
    }
  }

  /** The PLC stopped answering: a command still waiting for its acceptance is refused now. */
  plcDown(): StationAction<C>[] {
    const out: StationAction<C>[] = [];
    for (const r of [...this.running.values()])
      if (r.stage === 'confirm') {
        this.running.delete(r.seq);
        out.push({ kind: 'to_connection', connection: r.connection, asdu: mirrorAsdu(r.request, COT.activation_con, true) });
      }
    return out;
  }

  /** Deadlines due at `now`: no acceptance in time → ACTCON negative; no `done` in time → ACTTERM negative. */
  tick(now: number): StationAction<C>[] {
    const out: StationAction<C>[] = [];
    for (const r of [...this.running.values()])
      if (now >= r.deadline) {
        this.running.delete(r.seq);
        const cause = r.stage === 'confirm' ? COT.activation_con : COT.activation_term;
        out.push({ kind: 'to_connection', connection: r.connection, asdu: mirrorAsdu(r.request, cause, true) });
      }
    return out;
  }

  deadline(): number | null {
    let at: number | null = null;
    for (const r of this.running.values()) if (at === null || r.deadline < at) at = r.deadline;
    return at;
  }

  /** Forgets the selections (a connection that ended, a reset process command). */
  dropSelections(connection?: C): void {
    if (connection === undefined) this.selections.clear();
    else this.selections.delete(connection);
  }

  status(now: number): { selected: number; confirming: number; terminating: number } {
    let selected = 0;
    for (const s of this.selections.values()) if (now < s.until) selected++;
    const rs = [...this.running.values()];
    return { selected, confirming: rs.filter((r) => r.stage === 'confirm').length, terminating: rs.filter((r) => r.stage === 'terminate').length };
  }

  /** A live selection of the IOA by another connection reserves it. */
  private heldByOther(now: number, connection: C, ioa: number): boolean {
    for (const [c, s] of this.selections) if (c !== connection && s.ioa === ioa && now < s.until) return true;
    return false;
  }

  /** The next request number 1-65535 (never 0, never one still waiting). */
  private nextSeq(): number {
    do this.lastSeq = (this.lastSeq % 0xffff) + 1;
    while (this.running.has(this.lastSeq));
    return this.lastSeq;
  }
}
