// The IEC 104 controlled station of one redundancy group (one connection entry of pew_60870), as a
// pure object like the link: driven by calls (an ASDU a started connection sent, a PLC event, the
// PLC's answer to a command, the PLC's state, the passing of time) with the monotonic `now` (ms)
// and, where a wall time is needed, `wallNow` (epoch ms) the caller passes in. It holds no timer
// and does no I/O; every call answers the actions to carry out, in order. docs/iec104.md
// "The station" lists what it answers; in short:
// - common address: the configured `asdu_address`; the broadcast 65535 only for interrogation,
//   counter interrogation and clock sync, answered once with the station's own address; any other
//   address is mirrored with COT 46;
// - interrogation and counter interrogation: ACTCON, the image's values, ACTTERM, all to the
//   requesting connection only; read: the value with COT 5, to the requester only; clock sync:
//   set_clock and ACTCON to the requester only; commands: commands.ts;
// - answers mirror the request's originator address; spontaneous data carries `originator`.

import type { Iec } from '../model/sections/iec.ts';
import { type Asdu, type AsduError, CA_BROADCAST, decodeAsdu, encodeAsdu, mirrorAsdu } from '../protocol/iec104/asdu.ts';
import { COT, counterCause, isInterrogationQoi } from '../protocol/iec104/cot.ts';
import { cp56ToEpochMs } from '../protocol/iec104/cp56.ts';
import { typeInfo } from '../protocol/iec104/types.ts';
import { check } from '../protocol/result.ts';
import { COMMAND_TYPES, Commands } from './commands.ts';
import { type AsduAddressing, answerAsdus, checkPoint, ProcessImage, spontaneousAsdu } from './image.ts';
import { Outbox, type TimerAction } from './outbox.ts';
import type { MonitorPoint, PlcCommand, PlcCommandAnswer } from './points.ts';

export interface StationSettings {
  asduAddress: number; // asdu_address, 1-65535
  originator: number; // originator, 0-255: the originator address of spontaneous data
  group: number; // the connection entry (redundancy group) 0-3, carried in every PlcCommand
  confirmTimeout: number; // ms: how long an execute may wait for the PLC's acceptance
}

/** The settings of the station of connection entry `group`. The PLC side (plc-side.ts) answers every
 * command itself: `no_answer` once the PLC gave no decision within the entry's `timeout` after the
 * command was written, and it withdraws the command from the buffer then. The station's own limit
 * for the acceptance is only a net for a wait that is never answered, so it lies beyond the PLC
 * side's longest path to an answer: an accepted command before it given up (`timeout` after its
 * acceptance, seen at a poll), the command's two writes, the PLC's decision time and the read of the
 * answer (each within `timeout`) and the poll between: 5 × timeout + 2 × plc_poll, plus one timeout. */
export function stationSettings(iec: Iec, group: number): StationSettings {
  const c = iec.connections[group];
  check(c !== undefined, `no connection entry ${group}`);
  return { asduAddress: iec.asdu_address, originator: iec.originator, group, confirmTimeout: 6 * c.timeout + 2 * iec.plc_poll };
}

export type StationAction<C> =
  /** an answer for one connection only (confirmations, read and interrogation answers) */
  | { kind: 'to_connection'; connection: C; asdu: Uint8Array }
  /** spontaneous data for the group's event queue */
  | { kind: 'event'; asdu: Uint8Array }
  /** an execute to write into the PLC's command buffer */
  | { kind: 'plc_command'; command: PlcCommand }
  /** a clock sync: set the unit's clock to this instant */
  | { kind: 'set_clock'; epochMs: number }
  /** an ASDU that cannot be trusted: close the connection that sent it */
  | { kind: 'close'; connection: C; code: AsduError['code']; reason: string }
  /** the next deadline to call tick() at (null: none) */
  | TimerAction;

/** The types a control station may send to the broadcast common address 65535. */
export const BROADCAST_TYPES: ReadonlySet<number> = new Set([100, 101, 103]);

export interface StationStatus {
  started: boolean;
  plcOk: boolean;
  points: number;
  selected: number;
  confirming: number;
  terminating: number;
}

export class Iec104Station<C = string> {
  private readonly image = new ProcessImage();
  private readonly commands: Commands<C>;
  private started = false;
  private readonly out = new Outbox<StationAction<C>>();

  constructor(private readonly settings: StationSettings) {
    this.commands = new Commands<C>(settings.group, settings.confirmTimeout);
  }

  /** End of initialization (M_EI_NA_1, COI 0 power on, COT 4) once, as the first event. */
  start(_now: number, _wallNow: number): StationAction<C>[] {
    this.ensureStarted();
    return this.done();
  }

  /** An ASDU a started connection of the group sent. */
  receive(now: number, wallNow: number, connection: C, bytes: Uint8Array): StationAction<C>[] {
    const r = decodeAsdu(bytes);
    if (r.ok) this.onAsdu(now, wallNow, connection, r.value, bytes);
    else this.onError(connection, bytes, r.error);
    return this.done();
  }

  /** A PLC event: the image takes the value and it goes out spontaneously with its time tag. Throws a
   * RangeError on a point no monitor ASDU can carry (checkPoint), before anything changed. */
  event(_now: number, point: MonitorPoint): StationAction<C>[] {
    this.image.set(point);
    this.ensureStarted();
    this.out.push({ kind: 'event', asdu: spontaneousAsdu(point, point.element, point.at, this.spontaneous()) });
    return this.done();
  }

  /** Current values the PLC side read that are not events (a reading of the PLC's values rather than
   * its ring buffer): the image takes them without spontaneous data, except for a point whose value
   * went stale in a PLC outage, whose return to good is sent. */
  refresh(_now: number, points: readonly MonitorPoint[]): StationAction<C>[] {
    points.forEach(checkPoint); // all or none: a bad point leaves the image as it was
    for (const p of points) {
      if (!this.image.set(p)) continue;
      this.ensureStarted();
      this.out.push({ kind: 'event', asdu: spontaneousAsdu(p, p.element, p.at, this.spontaneous()) });
    }
    return this.done();
  }

  /** The PLC's answer to a command. */
  plcAnswer(now: number, answer: PlcCommandAnswer): StationAction<C>[] {
    this.out.push(...this.commands.answer(now, answer));
    return this.done();
  }

  /** The PLC stopped answering (false) or answers again (true). Going down, every image value goes
   * out as invalid in answers from now on, a command waiting for its acceptance is refused and, when
   * `wallNow` is given, every image value is sent spontaneously with IV and NT set (time tag wallNow). */
  plcState(_now: number, ok: boolean, wallNow?: number): StationAction<C>[] {
    const was = this.image.plcAnswers;
    this.image.setPlc(ok);
    if (was && !ok) {
      this.out.push(...this.commands.plcDown());
      if (wallNow !== undefined) {
        this.ensureStarted();
        for (const p of this.image.pick(() => true)) this.out.push({ kind: 'event', asdu: spontaneousAsdu(p, p.element, wallNow, this.spontaneous()) });
      }
    }
    return this.done();
  }

  /** A connection of the group ended: its selections are dropped. */
  connectionClosed(_now: number, connection: C): StationAction<C>[] {
    this.commands.dropSelections(connection);
    return this.done();
  }

  /** Deadlines due at `now` (command acceptance and termination). */
  tick(now: number): StationAction<C>[] {
    this.out.push(...this.commands.tick(now));
    return this.done();
  }

  status(now: number): StationStatus {
    return { started: this.started, plcOk: this.image.plcAnswers, points: this.image.size, ...this.commands.status(now) };
  }

  private spontaneous(): AsduAddressing {
    return { ca: this.settings.asduAddress, originator: this.settings.originator, test: false };
  }

  private ensureStarted(): void {
    if (this.started) return;
    this.started = true;
    const asdu = encodeAsdu({
      type: 70,
      sq: false,
      cot: { cause: COT.initialized, negative: false, test: false },
      originator: this.settings.originator,
      ca: this.settings.asduAddress,
      objects: [{ ioa: 0, element: { kind: 'coi', cause: 0, localChange: false } }],
    });
    this.out.push({ kind: 'event', asdu });
  }

  private onError(connection: C, bytes: Uint8Array, e: AsduError): void {
    const send = (cause: number) => this.out.push({ kind: 'to_connection', connection, asdu: mirrorAsdu(bytes, cause, true) });
    if (e.header && (e.code === 'unknown_type' || (e.code === 'bad_time' && isMonitorType(e.header.type)))) send(COT.unknown_type);
    else if (e.header && e.code === 'bad_time') send(COT.activation_con);
    else this.out.push({ kind: 'close', connection, code: e.code, reason: e.message });
  }

  private onAsdu(now: number, wallNow: number, c: C, a: Asdu, bytes: Uint8Array): void {
    // a controlled station never receives monitor data: the type is unknown in this direction
    if (isMonitorType(a.type)) return this.mirror(c, bytes, COT.unknown_type);
    const own = this.settings.asduAddress;
    if (a.ca !== own && !(a.ca === CA_BROADCAST && BROADCAST_TYPES.has(a.type))) return this.mirror(c, bytes, COT.unknown_ca);
    if (COMMAND_TYPES.has(a.type)) {
      if (a.cot.cause === COT.activation) this.out.push(...this.commands.activate(now, wallNow, c, a, bytes, this.image.plcAnswers));
      else if (a.cot.cause === COT.deactivation) this.out.push(...this.commands.deactivate(now, c, a, bytes));
      else this.reply(c, bytes, COT.unknown_cause, true);
      return;
    }
    switch (a.type) {
      case 100:
        return this.interrogation(c, a, bytes);
      case 101:
        return this.counterInterrogation(c, a, bytes);
      case 102:
        return this.read(c, a, bytes);
      case 103:
        return this.clockSync(c, a, bytes);
      case 105:
        if (!this.systemCommand(c, a, bytes)) return;
        // general reset: the station drops its selections (nothing else of the process can be reset
        // from here); a reset of the event buffer (QRP 2) is refused: the group's queue keeps its events
        if (a.objects[0]?.element.kind === 'qrp' && a.objects[0].element.qrp === 1) {
          this.commands.dropSelections();
          return this.reply(c, bytes, COT.activation_con, false);
        }
        return this.reply(c, bytes, COT.activation_con, true);
      case 107:
        if (this.systemCommand(c, a, bytes)) this.reply(c, bytes, COT.activation_con, false);
        return;
      default:
        // a control type types.ts serves that this station has no handler for
        return this.mirror(c, bytes, COT.unknown_type);
    }
  }

  private interrogation(c: C, a: Asdu, bytes: Uint8Array): void {
    // the answers went out at once with the ACTCON: nothing runs that a deactivation could stop
    if (a.cot.cause === COT.deactivation) return this.reply(c, bytes, COT.deactivation_con, true);
    if (!this.systemCommand(c, a, bytes)) return;
    const e = a.objects[0]?.element;
    if (e?.kind !== 'qoi' || !isInterrogationQoi(e.qoi)) return this.reply(c, bytes, COT.activation_con, true);
    const group = e.qoi - COT.interrogated_station;
    // integrated totals answer the counter interrogation, not this one (their causes are 3, 37-41)
    const points = this.image.pick((p) => p.type !== 15 && (group === 0 || p.group === group));
    this.answerWith(c, bytes, answerAsdus(points, e.qoi, this.answering(a)));
  }

  private counterInterrogation(c: C, a: Asdu, bytes: Uint8Array): void {
    if (a.cot.cause === COT.deactivation) return this.reply(c, bytes, COT.deactivation_con, true);
    if (!this.systemCommand(c, a, bytes)) return;
    const e = a.objects[0]?.element;
    const cause = e?.kind === 'qcc' ? counterCause(e.request) : undefined;
    // FRZ 0 reads the counters; FRZ 1 (freeze) is confirmed without data: the values are the PLC's
    // as last read, and the next read answers them; FRZ 2 and 3 reset counters, which only the PLC
    // program can do: refused
    if (e?.kind !== 'qcc' || cause === undefined || e.freeze >= 2) return this.reply(c, bytes, COT.activation_con, true);
    const points = e.freeze === 0 ? this.image.pick((p) => p.type === 15 && (e.request === 5 || p.group === e.request)) : [];
    this.answerWith(c, bytes, answerAsdus(points, cause, this.answering(a)));
  }

  private read(c: C, a: Asdu, bytes: Uint8Array): void {
    if (a.cot.cause !== COT.request) return this.reply(c, bytes, COT.unknown_cause, true);
    const obj = a.objects[0];
    const p = a.objects.length === 1 && obj ? this.image.get(obj.ioa) : undefined;
    if (!p) return this.reply(c, bytes, COT.unknown_ioa, true);
    for (const asdu of answerAsdus([p], COT.request, this.answering(a))) this.send(c, asdu);
  }

  private clockSync(c: C, a: Asdu, bytes: Uint8Array): void {
    if (!this.systemCommand(c, a, bytes)) return;
    const e = a.objects[0]?.element;
    const at = e?.kind === 'cp56' && !e.time.invalid ? cp56ToEpochMs(e.time) : null;
    if (at === null) return this.reply(c, bytes, COT.activation_con, true);
    this.out.push({ kind: 'set_clock', epochMs: at });
    this.reply(c, bytes, COT.activation_con, false);
  }

  /** The checks every system command in control direction shares: cause activation (else COT 45),
   * one object (else a negative ACTCON) at IOA 0 (else COT 47). False: the answer is out. */
  private systemCommand(c: C, a: Asdu, bytes: Uint8Array): boolean {
    if (a.cot.cause !== COT.activation) this.reply(c, bytes, COT.unknown_cause, true);
    else if (a.objects.length !== 1) this.reply(c, bytes, COT.activation_con, true);
    else if (a.objects[0]?.ioa !== 0) this.reply(c, bytes, COT.unknown_ioa, true);
    else return true;
    return false;
  }

  /** ACTCON, the data, ACTTERM: in this order, to the requester only. */
  private answerWith(c: C, bytes: Uint8Array, data: Uint8Array[]): void {
    this.reply(c, bytes, COT.activation_con, false);
    for (const asdu of data) this.send(c, asdu);
    this.reply(c, bytes, COT.activation_term, false);
  }

  /** Answers carry the station's own address (also to a broadcast), the request's originator and test bit. */
  private answering(a: Asdu): AsduAddressing {
    return { ca: this.settings.asduAddress, originator: a.originator, test: a.cot.test };
  }

  /** The request mirrored with a new cause, with the station's own common address. */
  private reply(c: C, bytes: Uint8Array, cause: number, negative: boolean): void {
    const asdu = mirrorAsdu(bytes, cause, negative);
    asdu[4] = this.settings.asduAddress & 0xff;
    asdu[5] = this.settings.asduAddress >> 8;
    this.send(c, asdu);
  }

  /** The request mirrored as received (unknown type, unknown common address), P/N set. */
  private mirror(c: C, bytes: Uint8Array, cause: number): void {
    this.send(c, mirrorAsdu(bytes, cause, true));
  }

  private send(connection: C, asdu: Uint8Array): void {
    this.out.push({ kind: 'to_connection', connection, asdu });
  }

  private done(): StationAction<C>[] {
    return this.out.take(this.commands.deadline());
  }
}

function isMonitorType(type: number): boolean {
  const d = typeInfo(type)?.direction;
  return d === 'monitor' || d === 'system_monitor';
}
