// The byte-level PLC: bytes from the line in, answer bytes out (through `send`, `scanMs` after the
// request has fully arrived, plus the delay of a `slow` fault). Answers leave in the order of their
// requests, as from a real PLC, which works through one request after the other: an answer due
// before the one of an earlier request waits for it.
//   MEWTOCOL  MEWTOCOL-COM frames with `%` or `<` header and, on FP7 only, MEWTOCOL7 `>` frames on
//             the same port (other models skip them as noise). Answers only its own station or
//             EE / EEE, with the station as addressed. Long replies go out as `&`-chained frames, each
//             next one when the host asks for it; multi-frame requests are collected, asking the host
//             for each next frame. A frame with a wrong check code gets `!40`, a malformed one `!41`,
//             a broken multi-frame procedure `!43`; noise is skipped.
//   MODBUS    RTU on serial: answers its unit id; unit 0 is a broadcast (writes executed, no answer);
//             frames with a wrong CRC are not heard; a function of unknown length is taken at the
//             3.5-character silence (`gapMs`) and answered with exception 01.
//             MBAP on TCP: every unit id is answered (the connection already selects the PLC), with
//             the transaction id echoed; a stream out of step is dropped and `close` is called.
import { realTimers, type Timers } from '../wire.ts';
import { type AnswerFormat, breakCheck, garble } from './answer-faults.ts';
import { mewtocolParts } from './mewtocol-endpoint.ts';
import { rtuParts, tcpParts } from './modbus-endpoint.ts';
import type { Fault, VirtualPlc } from './virtual-plc.ts';

export type PlcProtocol = 'MEWTOCOL' | 'MODBUS';
export type PlcTransport = 'serial' | 'tcp';

export interface PlcEndpointOptions {
  protocol: PlcProtocol;
  transport: PlcTransport;
  send(bytes: Uint8Array): void;
  /** Called when the stream is beyond repair (a Modbus/TCP header out of step): a server ends the connection. */
  close?(): void;
  timers?: Timers;
  /** Modbus RTU: ms of silence that ends a frame (3.5 characters at the line's speed); default 4. */
  gapMs?: () => number;
  /** told the number of answers still waiting for their scan time, whenever it changes (a half-closed client is ended at 0) */
  onAnswers?(pending: number): void;
  /** 0 ≤ x < 1, for the random delays of a `slow` fault with `maxDelayMs`; default Math.random */
  random?: () => number;
}

/** ms a fault adds to an answer: a `slow` fault's delay, random between delayMs and maxDelayMs when that is set. */
export function faultDelayMs(fault: Fault, random: () => number = Math.random): number {
  if (fault.kind !== 'slow') return 0;
  return fault.maxDelayMs === undefined ? fault.delayMs : fault.delayMs + random() * (fault.maxDelayMs - fault.delayMs);
}

export interface PlcEndpoint {
  receive(bytes: Uint8Array): void;
  /** Forgets partial frames, unsent frames of a long reply and answers not sent yet. */
  reset(): void;
}

export function createPlcEndpoint(plc: VirtualPlc, opts: PlcEndpointOptions): PlcEndpoint {
  const timers = opts.timers ?? realTimers;
  /** answers not sent yet, in the order of their requests; `ready` once their own time has come */
  const pending: { out: Uint8Array; handle: unknown; ready: boolean }[] = [];

  /** Sends the answers whose time has come, in order: one due earlier than an earlier answer waits for it. */
  const release = () => {
    while (pending[0]?.ready) {
      const { out } = pending.shift()!;
      plc.answered();
      opts.send(out);
      opts.onAnswers?.(pending.length);
    }
  };

  /** Sends `bytes` (or nothing for `silent`) after the scan time, spoiled as the fault says. */
  function answer(fault: Fault, bytes: Uint8Array, format: AnswerFormat): void {
    if (fault.kind === 'silent') return;
    const out = fault.kind === 'bad_check' ? breakCheck(bytes, format) : fault.kind === 'garble' ? garble(bytes, format) : bytes;
    const entry = { out, handle: undefined as unknown, ready: false };
    entry.handle = timers.setTimeout(() => {
      entry.ready = true;
      release();
    }, plc.scanMs + faultDelayMs(fault, opts.random));
    pending.push(entry);
    opts.onAnswers?.(pending.length);
  }
  const cancelAnswers = () => {
    for (const p of pending) timers.clearTimeout(p.handle);
    pending.length = 0;
  };

  const parts =
    opts.protocol === 'MEWTOCOL'
      ? mewtocolParts(plc, answer)
      : opts.transport === 'serial'
        ? rtuParts(plc, answer, timers, opts.gapMs)
        : tcpParts(plc, answer, opts.close);
  return {
    receive: (bytes) => parts.receive(bytes),
    reset() {
      cancelAnswers();
      parts.reset();
    },
  };
}

/** Sends an answer after the scan time, spoiled as the fault says (nothing for `silent`). */
export type Answer = (fault: Fault, bytes: Uint8Array, format: AnswerFormat) => void;
/** The protocol half of an endpoint. */
export interface EndpointParts {
  receive(bytes: Uint8Array): void;
  reset(): void;
}
