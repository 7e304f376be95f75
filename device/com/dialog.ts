// One request/answer exchange on a byte channel. A Dialog knows its protocol: the bytes to send
// first, and what to do with each chunk that arrives (answer a next-frame request, finish with a
// value, or fail). `runDialog` drives it on a channel until it finishes, the channel closes or the
// caller aborts (the link queue aborts on its timeout).
import type { ByteChannel } from '../../hw/types.ts';
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

export type Step<T> = { done: true; value: T } | { done: false; send?: Uint8Array };

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
}

export interface ChannelIo {
  channel: ByteChannel;
  /** routes the channel's data to the running dialog; set by the link */
  setReceiver(fn: ((bytes: Uint8Array) => void) | undefined): void;
  countOut(n: number): void;
}

export function runDialog<T>(io: ChannelIo, dialog: Dialog<T>, abort: Abort): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (!io.channel.isOpen) return reject(new PlcError('link_down', 'The port is not open'));
    const given = () => new PlcError('no_answer', 'No answer from the PLC', undefined, dialog.raw());
    // given up before its turn came (the link took longer to open than the timeout): nothing is sent
    if (abort.aborted) return reject(given());
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const finish = (fn: () => void) => {
      io.setReceiver(undefined);
      abort.onAbort(undefined);
      if (quiet !== undefined) clearTimeout(quiet);
      fn();
    };
    abort.onAbort(() => finish(() => reject(given())));
    io.setReceiver((bytes) => {
      try {
        const step = dialog.feed(bytes);
        if (step.done) finish(() => resolve(step.value));
        else if (step.send) send(step.send);
      } catch (e) {
        finish(() => reject(e));
      }
    });
    const send = (b: Uint8Array) => {
      io.countOut(b.length);
      io.channel.write(b);
    };
    send(dialog.request);
    if (dialog.noAnswerMs !== undefined) quiet = setTimeout(() => finish(() => resolve(undefined as T)), dialog.noAnswerMs);
  });
}

/** Printable form of received bytes: ASCII protocols as text with CR shown as ⏎, anything else as hex. */
export function printable(bytes: readonly number[] | Uint8Array, ascii: boolean): string {
  const arr = Array.from(bytes);
  if (ascii) return arr.map((b) => (b === 13 ? '⏎' : b >= 32 && b < 127 ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('');
  return arr.map((b) => b.toString(16).padStart(2, '0')).join(' ');
}

/** Collects received bytes (bounded) for `Dialog.raw()`. */
export class RawLog {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;
  constructor(
    private readonly ascii: boolean,
    private readonly max = 4096,
  ) {}
  add(chunk: Uint8Array): void {
    const room = this.max - this.size;
    if (room <= 0) return;
    const kept = chunk.slice(0, room); // a copy: the channel may reuse its buffer
    this.chunks.push(kept);
    this.size += kept.length;
  }
  text(): string {
    const all = new Uint8Array(this.size);
    let at = 0;
    for (const c of this.chunks) {
      all.set(c, at);
      at += c.length;
    }
    return printable(all, this.ascii);
  }
}
