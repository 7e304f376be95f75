// The APCI link of one IEC 104 connection, as the controlled station runs it: a pure object driven
// by events (received octets, ASDUs to send, the owner's start decision, the passing of time) and a
// monotonic clock the owner passes in as `now` (ms). It holds no timer and does no I/O: every call
// answers the actions to carry out, in order (send these octets, hand this ASDU up, close, the next
// deadline to call tick() at). Rules, from IEC 60870-5-104 clause 5 (docs/iec104.md "The link"):
// - STARTDT/STOPDT/TESTFR act are answered with con; STARTDT act waits for the owner's decision
//   (acceptStart / refuseStart: the redundancy group's lock_mode); STOPDT con goes out once every
//   sent I-frame is acknowledged, after an S-frame for what was received.
// - k: at most k I-frames unacknowledged, more wait in the pending queue; w: an S-frame after w
//   received I-frames; t2: an S-frame at the latest t2 after the first unacknowledged I-frame.
// - t1: an I-frame or TESTFR act unacknowledged for t1 closes; t3: nothing received for t3 sends
//   TESTFR act, in the states where testfrm_in_start_dt / testfrm_in_stop_dt allow it.
// - a received N(S) other than V(R), an N(R) outside the unacknowledged window, an I-frame while
//   data transfer is stopped, a malformed frame: close. Sequence numbers wrap at 32768.

import type { IecConnection } from '../model/sections/iec.ts';
import { type Apdu, encodeApdu, seqAdd, seqDistance, type UFunction } from '../protocol/iec104/apci.ts';
import { createIec104Framer } from '../protocol/iec104/framer.ts';
import { Outbox, type TimerAction } from './outbox.ts';

export interface LinkSettings {
  t1: number; // ms
  t2: number;
  t3: number;
  k: number;
  w: number;
  testFramesStopped: boolean; // testfrm_in_stop_dt
  testFramesStarted: boolean; // testfrm_in_start_dt
}

/** The link settings of a saved connection (timers in s, spec §9: t timers 1-255). */
export const linkSettings = (c: IecConnection): LinkSettings => ({
  t1: c.t1 * 1000,
  t2: c.t2 * 1000,
  t3: c.t3 * 1000,
  k: c.k,
  w: c.w,
  testFramesStopped: c.testfrm_in_stop_dt,
  testFramesStarted: c.testfrm_in_start_dt,
});

export type LinkState = 'stopped' | 'start_pending' | 'started' | 'stopping' | 'closed';
export type CloseCode = 'bad_frame' | 'sequence' | 'bad_nr' | 'unexpected_i' | 'unexpected_u' | 't1' | 'start_refused' | 'closed_by_owner';

export type LinkAction =
  | { kind: 'send'; bytes: Uint8Array; apdu: Apdu }
  | { kind: 'asdu'; asdu: Uint8Array }
  | { kind: 'start_request' }
  | { kind: 'started' }
  | { kind: 'stopped' }
  | { kind: 'acked'; count: number }
  | { kind: 'close'; code: CloseCode; message: string }
  | TimerAction;

export interface LinkStats {
  state: LinkState;
  framesIn: number;
  framesOut: number;
  iFramesIn: number;
  iFramesOut: number;
  /** times I-frames had to wait because k were unacknowledged (the control station acknowledged too slowly) */
  windowStalls: number;
  vs: number; // V(S): N(S) of the next I-frame sent
  vr: number; // V(R): N(S) expected next
  unacknowledged: number;
  pending: number;
  lastError: { code: CloseCode; message: string } | null;
}

interface Sent {
  seq: number;
  asdu: Uint8Array;
  at: number;
}

export class Iec104Link {
  private state: LinkState = 'stopped';
  private readonly framer = createIec104Framer();
  private vs = 0;
  private vr = 0;
  private readonly unacked: Sent[] = [];
  private pending: Uint8Array[] = [];
  private received = 0; // I-frames received and not yet acknowledged
  private t2At: number | null = null;
  private lastRx: number;
  private testSentAt: number | null = null;
  private readonly out = new Outbox<LinkAction>();
  private stats = { framesIn: 0, framesOut: 0, iFramesIn: 0, iFramesOut: 0, windowStalls: 0 };
  /** the window is full with I-frames waiting: counted once until it has room again */
  private stalled = false;
  private lastError: LinkStats['lastError'] = null;

  constructor(
    private readonly settings: LinkSettings,
    now: number,
  ) {
    this.lastRx = now;
  }

  /** Actions for the octets a TCP read gave. */
  receive(now: number, bytes: Uint8Array): LinkAction[] {
    for (const e of this.framer.push(bytes)) {
      if (this.state === 'closed') break;
      if (e.type === 'error') this.close('bad_frame', `${e.code}: ${e.message}`);
      else this.onApdu(now, e.apdu);
    }
    return this.done();
  }

  /** Queues an ASDU; it goes out as an I-frame while data transfer is started and the k window has room. */
  sendAsdu(now: number, asdu: Uint8Array): LinkAction[] {
    if (this.state !== 'closed') {
      this.pending.push(asdu);
      this.flush(now);
    }
    return this.done();
  }

  /** The owner's yes to a STARTDT act (after start_request). */
  acceptStart(now: number): LinkAction[] {
    if (this.state === 'start_pending') {
      this.state = 'started';
      this.sendU('startdt_con');
      this.out.push({ kind: 'started' });
      this.flush(now);
    }
    return this.done();
  }

  /** The owner's no to a STARTDT act: the standard has no negative STARTDT con, so the connection closes. */
  refuseStart(message: string): LinkAction[] {
    if (this.state === 'start_pending') this.close('start_refused', message);
    return this.done();
  }

  /** Data transfer stopped by the owner (another connection of the group was started): no frame is sent. */
  deactivate(): LinkAction[] {
    if (this.state === 'started' || this.state === 'stopping' || this.state === 'start_pending') {
      this.state = 'stopped';
      this.out.push({ kind: 'stopped' });
    }
    return this.done();
  }

  /** The owner closes (shutdown, PLC live check); also the answer to the TCP connection ending. */
  shutdown(message: string): LinkAction[] {
    if (this.state !== 'closed') this.close('closed_by_owner', message);
    return this.done();
  }

  /** Actions due at `now`: t1, t2, t3. */
  tick(now: number): LinkAction[] {
    if (this.state === 'closed') return this.done();
    const s = this.settings;
    const oldest = this.unacked[0];
    if (oldest && now - oldest.at >= s.t1) this.close('t1', `I-frame ${oldest.seq} unacknowledged for t1 (${s.t1} ms)`);
    else if (this.testSentAt !== null && now - this.testSentAt >= s.t1) this.close('t1', `TESTFR act unanswered for t1 (${s.t1} ms)`);
    else {
      if (this.t2At !== null && now >= this.t2At) this.sendS();
      if (this.t3At() !== null && now >= (this.t3At() as number)) {
        this.testSentAt = now;
        this.sendU('testfr_act');
      }
    }
    return this.done();
  }

  /** The earliest deadline, or null: call tick() then. */
  deadline(): number | null {
    if (this.state === 'closed') return null;
    const all: number[] = [];
    const oldest = this.unacked[0];
    if (oldest) all.push(oldest.at + this.settings.t1);
    if (this.testSentAt !== null) all.push(this.testSentAt + this.settings.t1);
    if (this.t2At !== null) all.push(this.t2At);
    const t3 = this.t3At();
    if (t3 !== null) all.push(t3);
    return all.length ? Math.min(...all) : null;
  }

  /** The ASDUs sent and not acknowledged, oldest first: what a switch-over sends again. */
  unacknowledged(): Uint8Array[] {
    return this.unacked.map((s) => s.asdu);
  }

  /** Empties and answers the pending queue (ASDUs never sent), e.g. when the connection closed. */
  takePending(): Uint8Array[] {
    const p = this.pending;
    this.pending = [];
    return p;
  }

  status(): LinkStats {
    return {
      state: this.state,
      ...this.stats,
      vs: this.vs,
      vr: this.vr,
      unacknowledged: this.unacked.length,
      pending: this.pending.length,
      lastError: this.lastError,
    };
  }

  private t3At(): number | null {
    if (this.testSentAt !== null) return null;
    const allowed = this.state === 'started' || this.state === 'stopping' ? this.settings.testFramesStarted : this.settings.testFramesStopped;
    return allowed ? this.lastRx + this.settings.t3 : null;
  }

  private onApdu(now: number, a: Apdu): void {
    this.stats.framesIn++;
    this.lastRx = now;
    if (a.format === 'I') {
      this.stats.iFramesIn++;
      if (this.state !== 'started') return this.close('unexpected_i', `I-frame while data transfer is ${this.state.replace('_', ' ')}`);
      if (a.ns !== this.vr) return this.close('sequence', `N(S) ${a.ns} received, ${this.vr} expected`);
      if (!this.nrInWindow(a.nr)) return;
      // counted as received before the acknowledge is applied: an I-frame the freed window lets
      // out carries this frame's acknowledgement too
      this.vr = seqAdd(this.vr, 1);
      if (this.received++ === 0) this.t2At = now + this.settings.t2;
      this.out.push({ kind: 'asdu', asdu: a.asdu });
      this.ack(now, a.nr);
      if (this.received >= this.settings.w) this.sendS();
      return;
    }
    if (a.format === 'S') {
      if (this.nrInWindow(a.nr)) this.ack(now, a.nr);
      return;
    }
    this.onU(now, a.fn);
  }

  private onU(now: number, fn: UFunction): void {
    switch (fn) {
      case 'startdt_act':
        if (this.state === 'stopped') {
          this.state = 'start_pending';
          this.out.push({ kind: 'start_request' });
        } else if (this.state === 'started')
          this.sendU('startdt_con'); // a repeated act: confirmed again
        else if (this.state === 'stopping') {
          // started again before the STOPDT con went out: data transfer simply goes on
          this.state = 'started';
          this.sendU('startdt_con');
          this.flush(now);
        }
        return;
      case 'stopdt_act':
        if (this.state === 'started') {
          this.state = 'stopping';
          this.finishStop();
        } else if (this.state === 'stopped' || this.state === 'start_pending') {
          this.state = 'stopped';
          this.sendU('stopdt_con');
        }
        return;
      case 'testfr_act':
        this.sendU('testfr_con'); // always answered: the standard requires it in every state
        return;
      case 'testfr_con':
        this.testSentAt = null; // an unasked con is harmless
        return;
      default:
        this.close('unexpected_u', `${fn.replace('_', ' ').toUpperCase()} from the controlling station`);
    }
  }

  /** An N(R) must lie between the oldest unacknowledged frame and V(S); otherwise the link closes. */
  private nrInWindow(nr: number): boolean {
    if (seqDistance(this.oldestSeq(), nr) <= this.unacked.length) return true;
    this.close('bad_nr', `N(R) ${nr} outside the unacknowledged window ${this.oldestSeq()}-${this.vs}`);
    return false;
  }

  /** Drops the frames an N(R) (checked by nrInWindow) acknowledges and lets the window move on. */
  private ack(now: number, nr: number): void {
    const count = seqDistance(this.oldestSeq(), nr);
    if (count > 0) {
      this.unacked.splice(0, count);
      this.out.push({ kind: 'acked', count });
      if (this.state === 'stopping') this.finishStop();
      else this.flush(now);
    }
  }

  private oldestSeq(): number {
    return seqAdd(this.vs, -this.unacked.length);
  }

  private finishStop(): void {
    if (this.state !== 'stopping' || this.unacked.length > 0) return;
    if (this.received > 0) this.sendS();
    this.state = 'stopped';
    this.sendU('stopdt_con');
    this.out.push({ kind: 'stopped' });
  }

  private flush(now: number): void {
    while (this.state === 'started' && this.unacked.length < this.settings.k && this.pending.length > 0) {
      const asdu = this.pending.shift() as Uint8Array;
      const apdu: Apdu = { format: 'I', ns: this.vs, nr: this.vr, asdu };
      this.unacked.push({ seq: this.vs, asdu, at: now });
      this.vs = seqAdd(this.vs, 1);
      this.stats.iFramesOut++;
      this.acknowledged();
      this.emit(apdu);
    }
    const stalled = this.state === 'started' && this.pending.length > 0;
    if (stalled && !this.stalled) this.stats.windowStalls++;
    this.stalled = stalled;
  }

  private sendS(): void {
    this.acknowledged();
    this.emit({ format: 'S', nr: this.vr });
  }

  private sendU(fn: UFunction): void {
    this.emit({ format: 'U', fn });
  }

  /** Everything received is acknowledged by the frame about to go out. */
  private acknowledged(): void {
    this.received = 0;
    this.t2At = null;
  }

  private emit(apdu: Apdu): void {
    this.stats.framesOut++;
    this.out.push({ kind: 'send', bytes: encodeApdu(apdu), apdu });
  }

  private close(code: CloseCode, message: string): void {
    this.state = 'closed';
    this.lastError = code === 'closed_by_owner' ? this.lastError : { code, message };
    this.out.push({ kind: 'close', code, message });
  }

  private done(): LinkAction[] {
    return this.out.take(this.deadline());
  }
}
