// MEWTOCOL-COM and MEWTOCOL7 exchanges as dialogs (device/com/dialog.ts): the command frames of a
// typed request, the next-frame handshake of multi-frame messages (mewtocol.md §1.3) in both
// directions, and the typed reply or the PLC's error code.
//
// An answer is this request's when its header and station match (any station for `EE`/`EEE`), its
// code is the request's (`$RD` to RD, `$RC` to RCS/RCP/RCC …) with the data length the request
// asks for, and, on MEWTOCOL7, its frame number is the request's. Anything else is a stray: no next
// frame is asked for it, it is counted and dropped. An error reply (`!nn`) names no command: one
// from the right station is the request's own only when no earlier answer of that station is owed
// (the PLC answers in order); while n are owed, the first n error replies are taken as theirs, late
// (line-guard.ts, docs/plc-links.md). MEWTOCOL7 error replies carry the frame number: always told apart.
import {
  asciiToBytes,
  bytesToAscii,
  createMew7StreamDecoder,
  createMewStreamDecoder,
  decodeMew7Reply,
  decodeMewReply,
  encodeMew7Message,
  encodeMew7Request,
  type Mew7Message,
  type Mew7Reply,
  type Mew7Request,
  type Mew7Station,
  type MewHeader,
  type MewMessage,
  type MewReplyFor,
  type MewRequest,
  type MewStation,
  mewCommandFrames,
  mewErrorInfo,
  mewReplyCode,
  mewReplyCount,
  mewReplyShape,
  type Result,
} from '../protocol/index.ts';
import { type AnswerKey, AnswerSort, type Dialog, PlcError, RawLog, type Step, unreadable } from './dialog.ts';

const bytesOf = (frame: string | undefined) => asciiToBytes(frame ?? '');

/** Resync reads of MEWTOCOL-COM: RT, then RD of DT0 with 1…27 words (one `%` frame each). */
const MEW_RESYNC_WORDS = 27;
/** Resync reads of MEWTOCOL7: STRD with frame numbers half the counter away from the request's. */
const MEW7_RESYNCS = 32;

/** What both stream decoders report, as far as a host needs it (`O`: what a first frame opens). */
type FrameEvent<M, O> =
  | { type: 'message'; message: M; frame?: string }
  | { type: 'continue'; reply: string; opens?: O }
  | { type: 'next' }
  | { type: 'error'; code: string; message: string };

/** A decoder of the other MEWTOCOL framing spoken on the same port (FP7 answers both): its whole answers are strays. */
interface OtherFraming {
  make(): { push(chunk: string): { type: string; opens?: unknown }[]; buffered(): number };
  /** whether a chunk may hold (the start of) one of its frames */
  present(text: string): boolean;
}

const OTHER_OF_COM: OtherFraming = { make: () => createMew7StreamDecoder(), present: (t) => t.includes('>') };
const OTHER_OF_MEW7: OtherFraming = { make: () => createMewStreamDecoder(), present: (t) => t.includes('%') || t.includes('<') };

interface Framing<T, M, O, C extends FrameEvent<M, O>> {
  frames: string[];
  decoder: { push(chunk: string): C[] };
  other: OtherFraming;
  key: AnswerKey;
  /** the first frame of a longer message: does it start this request's answer? */
  opensOwn(ev: Extract<C, { type: 'continue' }>): boolean;
  /** a whole message: undefined when it is not this request's answer, else how to take it (value, or a thrown PlcError) */
  answer(message: M, raw: RawLog, frame: string | undefined): (() => T) | undefined;
  resync(n: number): Dialog<unknown> | undefined;
  owedBefore?(n: number): void;
}

/**
 * The part both protocols share: the request's first frame, the rest sent on the PLC's next-frame
 * requests, the host's next-frame request for each `&` frame of the answer (not of a stray's),
 * unreadable frames as bad replies. Bytes outside any frame are skipped: noise, or frames of the
 * other framing (those are counted as strays by a decoder of their own, made when one shows).
 */
function framedDialog<T, M, O, C extends FrameEvent<M, O>>(f: Framing<T, M, O, C>): Dialog<T> {
  let sent = 1;
  /** a message of several frames coming in: this request's answer (each next frame is asked for) or another's (none is) */
  let open: 'own' | 'other' | undefined;
  const raw = new RawLog(true);
  const sort = new AnswerSort<T>();
  let other: ReturnType<OtherFraming['make']> | undefined;
  return {
    request: bytesOf(f.frames[0]),
    raw: () => raw.text(),
    answerKey: f.key,
    strays: () => sort.strays,
    resync: f.resync,
    ...(f.owedBefore ? { owedBefore: f.owedBefore } : {}),
    feed(chunk): Step<T> {
      const text = bytesToAscii(chunk); // once, for the raw log and the decoder
      raw.add(text);
      let send: Uint8Array | undefined;
      if (other?.buffered() || f.other.present(text)) {
        other ??= f.other.make();
        for (const ev of other.push(text)) if (ev.type === 'message' || (ev.type === 'continue' && ev.opens)) sort.stray();
      }
      for (const ev of f.decoder.push(text)) {
        if (ev.type === 'next') {
          if (!sort.decided && sent < f.frames.length) send = bytesOf(f.frames[sent++]);
        } else if (ev.type === 'continue') {
          if (ev.opens) {
            open = f.opensOwn(ev as Extract<C, { type: 'continue' }>) ? 'own' : 'other';
            if (open === 'other') sort.stray();
          }
          if (open === 'own' && !sort.decided) send = bytesOf(ev.reply);
        } else if (ev.type === 'error') {
          if (ev.code === 'garbage') continue; // not a frame: no answer to anything
          // another's long message, cut short by the next message, is no failure of this one
          const cut = open === 'other' && ev.code === 'procedure';
          open = undefined;
          if (!cut) sort.broken(() => unreadable(ev, raw.text()));
        } else {
          const rest = open === 'other'; // the last frame of another's long message: counted at its first
          open = undefined;
          if (rest) continue;
          const take = f.answer(ev.message, raw, ev.frame);
          if (take) sort.own(take);
          else sort.stray();
        }
      }
      return sort.step(send);
    },
  };
}

/** Whether a decoded reply of the right code answers another request (a read of another length). */
const otherRead = <V>(r: Result<V>, read: boolean): boolean => !r.ok && (r.error.code === 'unexpected_reply' || (read && r.error.code === 'bad_length'));

const badReply = (message: string, raw: RawLog) => new PlcError('bad_reply', `Unexpected answer: ${message}`, undefined, raw.text());

function plcError(code: number, raw: RawLog): PlcError {
  return new PlcError('plc_error', `PLC error ${String(code).padStart(2, '0')}: ${mewErrorInfo(code).text}`, code, raw.text());
}

function mewFraming<Q extends MewRequest, T>(station: MewStation, req: Q, header: MewHeader, value: (reply: MewReplyFor<Q>, frame: string | undefined) => T) {
  const ours = (h: MewHeader, s: MewStation) => h === header && (station === 'EE' || s === station);
  const read = mewReplyCount(req) > 0;
  /** error replies of this station that may still be owed answers of earlier requests */
  let lateErrors = 0;
  return framedDialog({
    frames: mewCommandFrames(station, req, { header }),
    decoder: createMewStreamDecoder(),
    other: OTHER_OF_COM,
    key: { party: station === 'EE' ? undefined : String(station), shape: header + mewReplyShape(req), errors: header },
    opensOwn: (ev) => ours(ev.header, ev.station) && ev.opens?.marker === '$' && ev.opens.text.startsWith(mewReplyCode(req)),
    answer: (m: MewMessage, raw, frame) => {
      if (m.kind === 'command' || !ours(m.header, m.station)) return undefined;
      if (m.kind === 'error') {
        if (lateErrors > 0) {
          lateErrors--;
          return undefined;
        }
        const code = m.code;
        return () => {
          throw plcError(code, raw);
        };
      }
      const r = decodeMewReply(req, m.text);
      if (otherRead(r, read)) return undefined;
      return () => {
        if (!r.ok) throw badReply(r.error.message, raw);
        return value(r.value, frame);
      };
    },
    resync: (n) =>
      n === 0
        ? mewDialog(station, { cmd: 'RT' }, header)
        : n <= MEW_RESYNC_WORDS
          ? mewDialog(station, { cmd: 'RD', area: 'DT', start: 0, count: n }, header)
          : undefined,
    owedBefore: (n) => {
      lateErrors = n;
    },
  });
}

export function mewDialog<Q extends MewRequest>(station: MewStation, req: Q, header: MewHeader = '%'): Dialog<MewReplyFor<Q>> {
  return mewFraming(station, req, header, (reply) => reply);
}

/**
 * mewDialog for a redirect thread: the typed reply (the answer checked as mewDialog checks it), and
 * the PLC's frame as it came when the answer was one frame, for the thread to pass on unchanged.
 */
export function mewForwardDialog<Q extends MewRequest>(
  station: MewStation,
  req: Q,
  header: MewHeader,
): Dialog<{ reply: MewReplyFor<Q>; frame: string | undefined }> {
  return mewFraming(station, req, header, (reply, frame) => ({ reply, frame }));
}

const STRD: Mew7Request = { cmd: 'STRD' };

/** MEWTOCOL7 (FP7): frame numbers count up per message sent on the link; the answer carries its request's. */
export function mew7Dialog(station: Mew7Station, frameNo: number, req: Mew7Request, encoded: string): Dialog<Mew7Reply> {
  const ours = (s: Mew7Station, n: number) => n === frameNo && (station === 'EEE' || s === station);
  return framedDialog({
    frames: encodeMew7Message({ kind: 'command', station, frameNo, text: encoded }),
    decoder: createMew7StreamDecoder(),
    other: OTHER_OF_MEW7,
    key: { party: station === 'EEE' ? undefined : String(station), shape: `>${frameNo}` },
    opensOwn: (ev) => ours(ev.station, ev.frameNo) && ev.opens?.kind === 'response',
    answer: (m: Mew7Message, raw) => {
      if (m.kind === 'command' || !ours(m.station, m.frameNo)) return undefined;
      if (m.kind === 'error') {
        // `!` + code value/name echo + 2-digit error code [?]: the last two digits carry the code
        const code = Number(m.text.slice(-2));
        return () => {
          throw new PlcError('plc_error', `PLC error ${m.text.slice(-2)}: ${mewErrorInfo(code).text}`, Number.isNaN(code) ? undefined : code, raw.text());
        };
      }
      const r = decodeMew7Reply(req, m.text);
      if (otherRead(r, req.cmd === 'MMRD')) return undefined;
      return () => {
        if (!r.ok) throw badReply(r.error.message, raw);
        return r.value;
      };
    },
    resync: (n) => (n < MEW7_RESYNCS ? mew7Dialog(station, (frameNo + 0x80 + n) & 0xff, STRD, encodeMew7Request(STRD)) : undefined),
  });
}
