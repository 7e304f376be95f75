// The MEWTOCOL half of a PLC endpoint (endpoint.ts): MEWTOCOL-COM `%` / `<` frames and, on FP7,
// MEWTOCOL7 `>` frames from the same bytes, each through its stream decoder. What is addressed to
// this PLC (its station, EE, EEE) is answered through `answer`, which applies the fault.
// MEWTOCOL7 error replies are sent as `!` + the two-digit MEWTOCOL code (the reference does not
// show their layout, mewtocol7-frame.ts keeps the text raw) [?].
import {
  asciiToBytes,
  createMew7StreamDecoder,
  createMewStreamDecoder,
  encodeMew7Message,
  encodeMewMessage,
  MEW_ERR,
  type Mew7Station,
  type Mew7StreamEvent,
  type MewHeader,
  type MewStation,
  type MewStreamEvent,
  mewErrorFrame,
} from '../../device/protocol/index.ts';
import type { Answer, EndpointParts } from './endpoint.ts';
import { answerMewtocol, type MewAnswer } from './mewtocol-responder.ts';
import { answerMewtocol7 } from './mewtocol7-responder.ts';
import { type Fault, MEWTOCOL_STATION_MAX, type VirtualPlc } from './virtual-plc.ts';

/** Frames of a text message, the first to send now and the rest on the host's next-frame requests. */
class LongReply {
  private rest: string[] = [];
  take(frames: string[]): string {
    this.rest = frames.slice(1);
    return frames[0]!;
  }
  next(): string | undefined {
    return this.rest.shift();
  }
  clear(): void {
    this.rest = [];
  }
}

export function mewtocolParts(plc: VirtualPlc, answer: Answer): EndpointParts {
  if (plc.station > MEWTOCOL_STATION_MAX) throw new RangeError(`MEWTOCOL station ${plc.station} not in 1-${MEWTOCOL_STATION_MAX}`);
  const com = createMewStreamDecoder();
  const mew7 = plc.memory.profile.mewtocol7 ? createMew7StreamDecoder() : undefined;
  const long = new LongReply();
  const long7 = new LongReply();
  const ours = (s: MewStation | Mew7Station | undefined) => s === 'EE' || s === 'EEE' || s === plc.station;

  const sendCom = (fault: Fault, frame: string) => answer(fault, asciiToBytes(frame), 'mew');
  const comError = (fault: Fault, header: MewHeader, station: MewStation, code: number) => sendCom(fault, mewErrorFrame(header, station, code));

  /** Header and station of what the host sent, when it is a command, a frame request or an answerable error. */
  function addressOf(e: MewStreamEvent, following: MewStreamEvent | undefined): { header: MewHeader; station: MewStation } | undefined {
    if (e.type === 'message') return e.message.kind === 'command' ? e.message : undefined; // not another station's reply on a shared line
    if (e.type !== 'error') return e;
    // a message interrupted by a new one: the new one is answered, not the old
    const superseded = e.code === 'procedure' && (following?.type === 'message' || following?.type === 'continue');
    return e.mewCode !== undefined && e.header && e.station !== undefined && !superseded ? { header: e.header, station: e.station } : undefined;
  }

  function onCom(e: MewStreamEvent, following: MewStreamEvent | undefined): void {
    const to = addressOf(e, following);
    if (!to || !ours(to.station)) return;
    const fault = plc.request();
    if (fault.kind === 'silent') return; // heard nothing: nothing is executed
    const { header, station } = to;
    if (fault.kind === 'error') {
      long.clear();
      if (e.type === 'continue') com.reset();
      return comError(fault, header, station, fault.code);
    }
    switch (e.type) {
      case 'error':
        return comError(fault, header, station, e.mewCode ?? MEW_ERR.FORMAT);
      case 'continue':
        return sendCom(fault, e.reply);
      case 'next': {
        const frame = long.next();
        return frame ? sendCom(fault, frame) : comError(fault, header, station, MEW_ERR.PROCEDURE);
      }
      case 'message': {
        long.clear();
        const a = answerMewtocol(plc.memory, e.message.kind === 'command' ? e.message.text : ''); // addressOf let only commands through
        if (!a.ok) return comError(fault, header, station, a.code);
        return sendCom(fault, long.take(encodeMewMessage({ kind: 'response', header, station, text: a.text })));
      }
    }
  }

  function onMew7(e: Mew7StreamEvent): void {
    // only a command, a frame request or a frame with a wrong check code whose station was read gets an answer
    const station =
      e.type === 'message' ? (e.message.kind === 'command' ? e.message.station : undefined) : e.type === 'error' && e.code !== 'crc' ? undefined : e.station;
    if (station === undefined || !ours(station)) return;
    const fault = plc.request();
    if (fault.kind === 'silent') return;
    const frameNo = e.type === 'message' ? e.message.frameNo : (e.frameNo ?? 0);
    const send = (frame: string) => answer(fault, asciiToBytes(frame), 'mew7');
    const error = (code: number) => send(encodeMew7Message({ kind: 'error', station, frameNo, text: String(code).padStart(2, '0') })[0]!);
    if (fault.kind === 'error') {
      long7.clear();
      if (e.type === 'continue') mew7!.reset();
      return error(fault.code);
    }
    if (e.type === 'error') return error(MEW_ERR.BCC);
    if (e.type === 'continue') return send(e.reply);
    if (e.type === 'next') {
      const frame = long7.next();
      return frame ? send(frame) : error(MEW_ERR.PROCEDURE);
    }
    long7.clear();
    const a: MewAnswer = answerMewtocol7(plc.memory, e.message.text) ?? { ok: false, code: MEW_ERR.NOT_SUPPORTED };
    if (!a.ok) return error(a.code);
    send(long7.take(encodeMew7Message({ kind: 'response', station, frameNo, text: a.text })));
  }

  return {
    receive(bytes) {
      const events = com.push(bytes);
      events.forEach((e, i) => onCom(e, events[i + 1]));
      if (mew7) mew7.push(bytes).forEach(onMew7);
    },
    reset() {
      com.reset();
      mew7?.reset();
      long.clear();
      long7.clear();
    },
  };
}
