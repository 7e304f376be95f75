// One request/answer exchange on a byte channel. A Dialog knows its protocol: the bytes to send
// first, and what to do with each chunk that arrives (answer a next-frame request, finish with a
// value, or fail). `runDialog` (or `startDialog`, with callbacks) drives it on a channel until it
// finishes, the channel closes or the caller aborts (the link queue aborts on its timeout).
//
// A dialog checks every whole answer against its request (station, command or function code, data
// length, transaction id or frame number, as far as the protocol carries them): one that does not
// fit is a stray, counted (`strays()`) and dropped, and the dialog listens on. Its `answerKey` says
// which other requests get answers it could not tell from its own; the link's line guard
// (line-guard.ts) uses it, and `resync`, to never put such a request on the wire while an answer of
// that key may still come.
import type { ByteChannel } from '../../hw/types.ts';
import { reason, type StatusReason } from '../model/reasons.ts';
import { asciiToBytes, bytesToAscii } from '../protocol/index.ts';
import type { Abort } from './queue.ts';

/** Why an exchange failed, in words the PLC test and the console can show (spec §8). */
export type PlcFailure = 'no_answer' | 'plc_error' | 'bad_reply' | 'link_down';

export class PlcError extends Error {
  constructor(
    readonly reason: PlcFailure,
    message: string,
    /** the PLC's error code (MEWTOCOL `!nn`, Modbus exception) when it sent one */
    readonly code?: number,
    /** what arrived, as text (ASCII protocols) or hex (Modbus), for the raw-reply box */
    readonly raw = '',
  ) {
    super(message);
  }
}

/** An answer whose check code (MEWTOCOL BCC, MEWTOCOL7 CRC, Modbus RTU CRC) does not match its bytes: garbled on the line. */
export class CheckCodeError extends PlcError {
  constructor(message: string, raw: string) {
    super('bad_reply', message, undefined, raw);
  }
}

/** The failure of an unreadable answer: a check-code error where the framer's `code` says so. */
export const unreadable = (ev: { code: string; message: string }, raw: string): PlcError =>
  ev.code === 'bcc' || ev.code === 'crc'
    ? new CheckCodeError(`Unreadable answer: ${ev.message}`, raw)
    : new PlcError('bad_reply', `Unreadable answer: ${ev.message}`, undefined, raw);

/** The service control interface (pew interface_plc) is not an enabled link: no control block can be read. */
export class ControlInterfaceOff extends PlcError {
  constructor() {
    super('link_down', 'The service control interface is not enabled');
  }
}

/** A failed PLC request as the console shows why (device/model/reasons.ts); other errors count as a link down, with their words. */
export function plcFailureReason(e: unknown): StatusReason {
  if (e instanceof ControlInterfaceOff) return reason('control_interface_off');
  if (!(e instanceof PlcError)) return reason('plc_link_down', undefined, e instanceof Error ? e.message : String(e));
  if (e.reason === 'no_answer') return reason('plc_no_answer');
  if (e.reason === 'plc_error') return e.code === undefined ? reason('plc_bad_reply') : reason('plc_error', { code: e.code });
  if (e.reason === 'bad_reply') return reason('plc_bad_reply');
  return reason('plc_link_down', undefined, e.message);
}

export type Step<T> = { done: true; value: T } | { done: false; send?: Uint8Array };

/**
 * Which answers a dialog takes for its own: those of its `party` (the station or unit they come
 * from; undefined = any, as MEWTOCOL `EE`) with its `shape` (mewReplyShape, modbusResponseShape, a
 * transaction id or frame number). Two keys overlap when a dialog of one could take the other's answer.
 */
export interface AnswerKey {
  party: string | undefined;
  shape: string;
  /**
   * The look of its error replies where they carry less than its answers, so that those of other
   * requests of the party cannot be told apart (MEWTOCOL-COM `!nn`: the header; a Modbus RTU
   * exception: the function code). Absent where they carry all an answer does (a transaction id, a
   * frame number).
   */
  errors?: string;
}

export const keysOverlap = (a: AnswerKey, b: AnswerKey): boolean =>
  a.shape === b.shape && (a.party === undefined || b.party === undefined || a.party === b.party);

export interface Dialog<T> {
  /** bytes of the request (first frame) */
  readonly request: Uint8Array;
  /** feeds received bytes; may ask to send more (multi-frame) or finish; throws PlcError on a bad or error answer */
  feed(chunk: Uint8Array): Step<T>;
  /** everything received so far, printable */
  raw(): string;
  /**
   * A request nobody answers (a Modbus broadcast to unit 0): the dialog ends with `undefined` this
   * many ms after the request was sent (the turnaround delay the slaves need to execute it).
   */
  readonly noAnswerMs?: number;
  /** the answers this dialog takes for its own (absent: it takes none, as a broadcast) */
  readonly answerKey?: AnswerKey;
  /** whole answers received so far that were not this request's (late or mismatched), dropped */
  strays?(): number;
  /**
   * A harmless read to the same party, different for each `n` from 0 (undefined past the last):
   * the line guard sends one whose key overlaps no answer still owed, so that its answer proves
   * every earlier answer in (a PLC answers in order).
   */
  resync?(n: number): Dialog<unknown> | undefined;
  /**
   * Told by the line guard before the dialog goes on the line: how many answers of its party whose
   * error replies look like its own (`AnswerKey.errors`) are still owed (requests given up before
   * their answer came). Its own error reply (MEWTOCOL-COM `!nn`, a Modbus RTU exception) cannot be
   * told from theirs: the first that many are taken as theirs, dropped and counted, and the dialog
   * waits on (line-guard.ts).
   */
  owedBefore?(n: number): void;
}

/**
 * What a dialog makes of the answers in one chunk: the first that is its own (a value, or the
 * failure it means) decides; every other whole answer is a stray.
 */
export class AnswerSort<T> {
  private outcome: { value: T } | { error: unknown } | undefined;
  strays = 0;

  get decided(): boolean {
    return this.outcome !== undefined;
  }

  /** an answer of this request: `take` gives its value or throws the failure it means */
  own(take: () => T): void {
    if (this.outcome) return this.stray();
    try {
      this.outcome = { value: take() };
    } catch (e) {
      this.outcome = { error: e };
    }
  }

  /** something unreadable arrived (a wrong check code): the request fails, unless it was decided */
  broken(error: () => unknown): void {
    this.outcome ??= { error: error() };
  }

  stray(): void {
    this.strays++;
  }

  /** the step of this chunk (throws the failure); starts over for the next chunk */
  step(send: Uint8Array | undefined): Step<T> {
    const o = this.outcome;
    this.outcome = undefined;
    if (!o) return send ? { done: false, send } : { done: false };
    if ('error' in o) throw o.error;
    return { done: true, value: o.value };
  }
}

export interface ChannelIo {
  channel: ByteChannel;
  /** routes the channel's data to the running dialog; set by the link */
  setReceiver(fn: ((bytes: Uint8Array) => void) | undefined): void;
  /** bytes about to be written (counted, and captured where a capture runs) */
  sent(bytes: Uint8Array): void;
  /** `n` whole answers arrived that the running dialog dropped as not its own */
  strays?(n: number): void;
}

export function runDialog<T>(io: ChannelIo, dialog: Dialog<T>, abort: Abort): Promise<T> {
  return new Promise<T>((resolve, reject) => startDialog(io, dialog, abort, resolve, reject));
}

/**
 * runDialog with callbacks: `answered` runs in the turn the last byte of the answer arrived (no
 * promise turn between the PLC's answer and what the caller does with it); exactly one of the two
 * is called, once.
 */
export function startDialog<T>(io: ChannelIo, dialog: Dialog<T>, abort: Abort, answered: (value: T) => void, failed: (e: unknown) => void): void {
  if (!io.channel.isOpen) return failed(new PlcError('link_down', 'The port is not open'));
  const given = () => new PlcError('no_answer', 'No answer from the PLC', undefined, dialog.raw());
  // given up before its turn came (the link took longer to open than the timeout): nothing is sent
  if (abort.aborted) return failed(given());
  let quiet: ReturnType<typeof setTimeout> | undefined;
  const finish = () => {
    io.setReceiver(undefined);
    abort.onAbort(undefined);
    if (quiet !== undefined) clearTimeout(quiet);
  };
  abort.onAbort(() => {
    finish();
    failed(given());
  });
  const send = (b: Uint8Array) => {
    io.sent(b);
    io.channel.write(b);
  };
  let strays = dialog.strays?.() ?? 0;
  io.setReceiver((bytes) => {
    let step: Step<T> | undefined;
    let error: unknown;
    try {
      const s = dialog.feed(bytes);
      if (!s.done && s.send) send(s.send);
      step = s;
    } catch (e) {
      error = e;
    }
    if (dialog.strays) {
      const n = dialog.strays();
      if (n > strays) io.strays?.(n - strays);
      strays = n;
    }
    if (!step) {
      finish();
      return failed(error);
    }
    if (step.done) {
      finish();
      answered(step.value);
    }
  });
  try {
    send(dialog.request);
  } catch (e) {
    finish();
    return failed(e);
  }
  if (dialog.noAnswerMs !== undefined)
    quiet = setTimeout(() => {
      finish();
      answered(undefined as T);
    }, dialog.noAnswerMs);
}

/** Printable form of received bytes: ASCII protocols as text with CR shown as ⏎, anything else as hex. */
export function printable(bytes: readonly number[] | Uint8Array, ascii: boolean): string {
  const arr = Array.from(bytes);
  if (ascii) return arr.map((b) => (b === 13 ? '⏎' : b >= 32 && b < 127 ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('');
  return arr.map((b) => b.toString(16).padStart(2, '0')).join(' ');
}

/** Collects received bytes (bounded) for `Dialog.raw()`. */
export class RawLog {
  /** the bytes as latin1 chars: a copy (the channel may reuse its buffer) that costs no buffer of its own */
  private kept = '';
  constructor(
    private readonly ascii: boolean,
    private readonly max = 4096,
  ) {}
  /** bytes, or the text they were already made into (latin1) */
  add(chunk: Uint8Array | string): void {
    const room = this.max - this.kept.length;
    if (room <= 0) return;
    const text = typeof chunk === 'string' ? chunk : bytesToAscii(chunk);
    this.kept += text.length > room ? text.slice(0, room) : text;
  }
  text(): string {
    return printable(asciiToBytes(this.kept), this.ascii);
  }
}
