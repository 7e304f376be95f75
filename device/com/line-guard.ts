// The line guard of a link: no answer is ever credited to a request it does not belong to.
//
// A PLC answers in order, but not always in time: the link queue gives an attempt up after the
// interface timeout, and its answer may still come. A MEWTOCOL or Modbus RTU read answer names no
// address, so if it arrived while the next request of the same shape was on the line (the retry of
// the same read, or any other one-word read of DT), that request would take it for its own, and
// its own answer would go to the request after it. The guard keeps the line in step:
//
// - Drain: bytes that arrive while no dialog is on the line go to the dialog that was on it last
//   (the listener), which recognises whole answers without sending anything (no next-frame
//   request): a late answer is counted and dropped there. After an attempt that got no answer or an
//   unreadable one, and after bytes that came unasked, the next request goes out only once the line
//   has been quiet for `quietMs` (quietMsOf: four characters at the line's speed, within 2-50 ms
//   and at most a quarter of the timeout; none on TCP and INTERNAL, which share no wire).
// - Owed answers: the answer key (dialog.ts) of every request that went out and got no answer (or,
//   while answers were owed, an unreadable one) is remembered, the last OWED_MAX of them. A request
//   whose key overlaps an owed one is not sent at once: a resync read goes first (the dialog's
//   `resync`, to the same station, with a key no owed answer has), and what comes before its answer
//   is dropped as late. The PLC answers in order, so once the resync read is answered no earlier
//   answer can follow: the owed answers of that station are forgotten. The resync read's timeout
//   starts again with each owed answer that comes meanwhile (the PLC is catching up); the request
//   then gets its whole timeout. Where answers carry a transaction id or frame number (Modbus/TCP,
//   MEWTOCOL7) keys never overlap and no resync read is needed.
// - Checks: every dialog drops the answers that are not its own (dialog.ts); the guard counts them.
//
// Counters: `answers` taken by their request; `lateAnswers`, answers dropped while answers were
// owed (an answer after its request was given up); `mismatched`, answers dropped while none was
// owed (fitting no request sent); `resyncs`, resync reads sent.
// - Error replies: a MEWTOCOL-COM error reply (`!nn`) names no command, a Modbus RTU exception only
//   its function (`AnswerKey.errors`). Before a dialog goes on the line it is told how many owed
//   answers of its station have error replies that look like its own (`owedBefore`); the first that
//   many error replies are taken as theirs (the PLC answers in order), dropped as late, and the
//   request waits on for its own answer. When the owed answer never comes, the request's own error
//   reply is dropped too: its attempt times out, and the retry goes behind a resync read, in step,
//   where an error reply is provably its own. A wrong error costs a timeout, never a wrong result.
//   Modbus/TCP exceptions carry the transaction id, MEWTOCOL7's the frame number: told apart.
import type { Clock, SerialSettings } from '../../hw/types.ts';
import { type AnswerKey, type ChannelIo, CheckCodeError, type Dialog, keysOverlap, PlcError, startDialog } from './dialog.ts';
import type { Abort } from './queue.ts';

export interface LineStats {
  answers: number;
  lateAnswers: number;
  mismatched: number;
  resyncs: number;
  /** answers whose check code (BCC, CRC) did not match */
  checkErrors: number;
  /** other answers that could not be read (framing, format, length) */
  invalidFrames: number;
  /** answers carrying a PLC error code (MEWTOCOL `!nn`, Modbus exception) */
  plcErrors: number;
  /** the last PLC error code answered (absent until one came) */
  lastPlcError?: number;
}

/** The counters of a line that has carried nothing yet. */
export const zeroLineStats = (): LineStats => ({ answers: 0, lateAnswers: 0, mismatched: 0, resyncs: 0, checkErrors: 0, invalidFrames: 0, plcErrors: 0 });

/** owed answers remembered (the oldest is forgotten); fewer than the resync reads of every protocol */
export const OWED_MAX = 16;
export const QUIET_CHARS = 4;
export const QUIET_MIN_MS = 2;
export const QUIET_MAX_MS = 50;

/** ms one character takes on a serial line (start bit, data bits, parity, stop bits) */
export const charMs = (baud: number, s: Pick<SerialSettings, 'dataBits' | 'parity' | 'stopBits'>): number =>
  ((1 + s.dataBits + (s.parity === 'none' ? 0 : 1) + s.stopBits) * 1000) / baud;

/** How long the line must be quiet before a request follows one that got no answer. */
export function quietMsOf(kind: 'serial' | 'tcp' | 'internal', serial: SerialSettings, baud: number, timeoutMs: number): number {
  if (kind !== 'serial') return 0;
  const ms = Math.min(QUIET_MAX_MS, Math.max(QUIET_MIN_MS, QUIET_CHARS * charMs(baud, serial)));
  return Math.min(ms, timeoutMs / 4);
}

export class LineGuard {
  readonly stats: LineStats = zeroLineStats();

  /** Starts the counters again from 0 (the diagnostics' reset). */
  resetCounters(): void {
    delete this.stats.lastPlcError;
    Object.assign(this.stats, zeroLineStats());
  }
  private receiver: ((bytes: Uint8Array) => void) | undefined;
  /** the dialog that was on the line last, and whether its answer is owed */
  private listener: { dialog: Dialog<unknown>; owes: boolean } | undefined;
  private owed: AnswerKey[] = [];
  /** the line must be quiet from `quietFrom` on before the next request (an attempt went unanswered, or bytes came unasked) */
  private unsettled = false;
  private quietFrom = 0;
  /** while a resync read is on the line: told of the late answers that come before its own */
  private caughtUp: ((n: number) => void) | undefined;

  constructor(
    private readonly clock: Clock,
    /** ms of quiet line, 0 for none (quietMsOf) */
    public quietMs: number,
  ) {}

  /** The channel as dialogs see it: their receiver set here, their strays counted here. */
  io(channel: ChannelIo['channel'], sent: (bytes: Uint8Array) => void): ChannelIo {
    return {
      channel,
      setReceiver: (fn) => {
        this.receiver = fn;
      },
      sent,
      strays: (n) => this.dropped(n),
    };
  }

  /** Bytes from the line: to the dialog on it, else to the listener. */
  data(bytes: Uint8Array): void {
    if (this.receiver) this.receiver(bytes);
    else this.overhear(bytes);
  }

  /** A new line (channel opened, baud rate found): nothing can be owed on it. */
  reset(): void {
    this.owed = [];
    this.listener = undefined;
    this.unsettled = false;
    this.caughtUp = undefined;
  }

  /**
   * Puts `dialog` on the line once the line is ready for it (quiet, in step), calling back as
   * startDialog does. `restartClock` restarts the attempt's timeout when a request goes out (the
   * wait for a quiet line counts against the attempt, a resync read does not).
   */
  exchange<T>(io: ChannelIo, dialog: Dialog<T>, abort: Abort, restartClock: () => void, answered: (v: T) => void, failed: (e: unknown) => void): void {
    this.whenQuiet(abort, failed, () => {
      const resync = dialog.answerKey && this.owes(dialog.answerKey) ? this.resyncFor(dialog, dialog.answerKey) : undefined;
      restartClock();
      if (!resync) return this.run(io, dialog, abort, answered, failed);
      this.stats.resyncs++;
      // the resync read is answered after every owed answer: while those come, its time starts again
      let catchUps = this.owed.length;
      this.caughtUp = (n) => {
        for (; n > 0 && catchUps > 0; n--, catchUps--) restartClock();
      };
      const inStep = () => {
        this.caughtUp = undefined;
        this.forgetCovered(resync.answerKey!);
        restartClock();
        this.run(io, dialog, abort, answered, failed);
      };
      this.run(io, resync, abort, inStep, (e) => {
        this.caughtUp = undefined;
        // an error answer is an answer too: the PLC has answered everything before it
        if (e instanceof PlcError && e.reason === 'plc_error') inStep();
        else failed(e);
      });
    });
  }

  /** Whether an answer that a dialog of `key` would take may still come. */
  owes(key: AnswerKey): boolean {
    return this.owed.some((k) => keysOverlap(k, key));
  }

  /** The first resync read of `dialog`'s party whose key overlaps neither the owed answers nor `key`. */
  private resyncFor(dialog: Dialog<unknown>, key: AnswerKey): Dialog<unknown> | undefined {
    for (let n = 0; ; n++) {
      const r = dialog.resync?.(n);
      if (!r) return undefined;
      if (r.answerKey && !keysOverlap(r.answerKey, key) && !this.owes(r.answerKey)) return r;
    }
  }

  /** The resync read of `key` was answered: the owed answers of its party came before, or never will. */
  private forgetCovered(key: AnswerKey): void {
    this.owed = this.owed.filter((k) => !(k.party === undefined || key.party === undefined || k.party === key.party));
  }

  /** How many owed answers could come as an error reply that a dialog of `key` cannot tell from its own. */
  private owedErrors(key: AnswerKey | undefined): number {
    if (key?.errors === undefined) return 0;
    const { party, errors } = key;
    return this.owed.filter((k) => k.errors === errors && (k.party === undefined || party === undefined || k.party === party)).length;
  }

  private owe(key: AnswerKey | undefined): void {
    if (!key) return;
    this.owed.push(key);
    if (this.owed.length > OWED_MAX) this.owed.shift();
  }

  /** One dialog on the line; afterwards it listens, and what it got no answer for is owed. */
  private run<T>(io: ChannelIo, dialog: Dialog<T>, abort: Abort, answered: (v: T) => void, failed: (e: unknown) => void): void {
    const sends = io.channel.isOpen && !abort.aborted; // else startDialog fails at once, sending nothing
    // in step (nothing owed), an unreadable answer can only be this request's own, garbled
    const inStep = this.owed.length === 0;
    this.listener = undefined;
    this.unsettled = false;
    const answers = dialog.noAnswerMs === undefined;
    const key = dialog.answerKey;
    dialog.owedBefore?.(this.owedErrors(key));
    startDialog(
      io,
      dialog,
      abort,
      (v) => {
        if (answers) this.stats.answers++;
        this.listener = { dialog, owes: false };
        answered(v);
      },
      (e) => {
        const reason = e instanceof PlcError ? e.reason : undefined;
        const owes = sends && (reason === 'no_answer' || (reason === 'bad_reply' && !inStep));
        if (reason === 'plc_error') this.countPlcError(e as PlcError);
        else if (e instanceof CheckCodeError) this.stats.checkErrors++;
        else if (reason === 'bad_reply') this.stats.invalidFrames++;
        if (owes) this.owe(dialog.answerKey);
        if (owes || reason === 'bad_reply') {
          this.unsettled = true;
          this.quietFrom = this.clock.now();
        }
        this.listener = { dialog, owes };
        failed(e);
      },
    );
  }

  private countPlcError(e: PlcError): void {
    this.stats.answers++;
    this.stats.plcErrors++;
    if (e.code !== undefined) this.stats.lastPlcError = e.code;
  }

  /** `n` answers dropped: late while answers are owed, else mismatched. */
  private dropped(n: number): void {
    if (this.owed.length > 0) this.stats.lateAnswers += n;
    else this.stats.mismatched += n;
    this.caughtUp?.(n);
  }

  /** Bytes while no dialog is on the line: the listener counts the whole answers among them. */
  private overhear(bytes: Uint8Array): void {
    this.unsettled = true;
    this.quietFrom = this.clock.now();
    const l = this.listener;
    if (!l) return;
    const before = l.dialog.strays?.() ?? 0;
    let own = false;
    let error: unknown;
    try {
      own = l.dialog.feed(bytes).done;
    } catch (e) {
      error = e; // an unreadable or error answer: an answer nobody waits for either
    }
    const n = (l.dialog.strays?.() ?? 0) - before + (own || error !== undefined ? 1 : 0);
    if (n > 0) this.dropped(n);
    // its own answer, late: no longer owed (an unreadable one may not have been its own)
    const answeredLate = own || (error instanceof PlcError && error.reason === 'plc_error');
    if (answeredLate && l.owes && l.dialog.answerKey) {
      const i = this.owed.findIndex((k) => keysOverlap(k, l.dialog.answerKey!));
      if (i >= 0) this.owed.splice(i, 1);
      l.owes = false;
    }
  }

  /** Runs `go` once the line has been quiet for quietMs since it was last unsettled (at once if it was not). */
  private whenQuiet(abort: Abort, failed: (e: unknown) => void, go: () => void): void {
    if (!this.unsettled || this.quietMs <= 0) return go();
    let timer: ReturnType<typeof setTimeout> | undefined;
    abort.onAbort(() => {
      clearTimeout(timer);
      failed(new PlcError('no_answer', 'The line did not fall quiet'));
    });
    const check = () => {
      const left = this.quietFrom + this.quietMs - this.clock.now();
      if (left > 0) {
        timer = setTimeout(check, left);
        timer.unref();
        return;
      }
      abort.onAbort(undefined);
      go();
    };
    check();
  }
}
