// MEWTOCOL-COM and MEWTOCOL7 exchanges as dialogs (device/com/dialog.ts): the command frames of a
// typed request, the next-frame handshake of multi-frame messages (mewtocol.md §1.3) in both
// directions, and the typed reply or the PLC's error code.
import {
  asciiToBytes,
  bytesToAscii,
  createMew7StreamDecoder,
  createMewStreamDecoder,
  decodeMew7Reply,
  encodeMew7Message,
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
  mewReplyFromMessage,
} from '../protocol/index.ts';
import { type Dialog, PlcError, RawLog, type Step } from './dialog.ts';

const bytesOf = (frame: string | undefined) => asciiToBytes(frame ?? '');

/** What both stream decoders report, as far as a host needs it. */
type FrameEvent<M> =
  | { type: 'message'; message: M; frame?: string }
  | { type: 'continue'; reply: string }
  | { type: 'next' }
  | { type: 'error'; message: string };

/**
 * The part both protocols share: the request's first frame, the rest sent on the PLC's next-frame
 * requests, the host's next-frame request for each `&` frame of the answer, unreadable frames as
 * bad replies; `done` turns a whole message into the value (`frame`: the one frame it came in).
 */
function framedDialog<T, M>(
  frames: string[],
  decoder: { push(chunk: string): FrameEvent<M>[] },
  done: (message: M, raw: RawLog, frame: string | undefined) => T,
): Dialog<T> {
  let sent = 1;
  const raw = new RawLog(true);
  return {
    request: bytesOf(frames[0]),
    raw: () => raw.text(),
    feed(chunk): Step<T> {
      const text = bytesToAscii(chunk); // once, for the raw log and the decoder
      raw.add(text);
      let send: Uint8Array | undefined;
      for (const ev of decoder.push(text)) {
        if (ev.type === 'next' && sent < frames.length) send = bytesOf(frames[sent++]);
        else if (ev.type === 'continue') send = bytesOf(ev.reply);
        else if (ev.type === 'error') throw new PlcError('bad_reply', `Unreadable answer: ${ev.message}`, undefined, raw.text());
        else if (ev.type === 'message') return { done: true, value: done(ev.message, raw, ev.frame) };
      }
      return { done: false, send };
    },
  };
}

export function mewDialog<Q extends MewRequest>(station: MewStation, req: Q, header: MewHeader = '%'): Dialog<MewReplyFor<Q>> {
  return framedDialog(mewCommandFrames(station, req, { header }), createMewStreamDecoder(), (message, raw) => typedReply(req, message, raw));
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
  return framedDialog(mewCommandFrames(station, req, { header }), createMewStreamDecoder(), (message, raw, frame) => ({
    reply: typedReply(req, message, raw),
    frame,
  }));
}

function typedReply<Q extends MewRequest>(req: Q, message: MewMessage, raw: RawLog): MewReplyFor<Q> {
  const r = mewReplyFromMessage(req, message);
  if (r.ok) return r.value;
  const code = r.error.mewCode;
  if (code !== undefined) throw new PlcError('plc_error', `PLC error ${String(code).padStart(2, '0')}: ${mewErrorInfo(code).text}`, code, raw.text());
  throw new PlcError('bad_reply', `Unexpected answer: ${r.error.message}`, undefined, raw.text());
}

/** MEWTOCOL7 (FP7): frame numbers count up per message sent on the link. */
export function mew7Dialog(station: Mew7Station, frameNo: number, req: Mew7Request, encoded: string): Dialog<Mew7Reply> {
  const frames = encodeMew7Message({ kind: 'command', station, frameNo, text: encoded });
  return framedDialog(frames, createMew7StreamDecoder(), (m, raw) => {
    if (m.kind === 'error') {
      // `!` + code value/name echo + 2-digit error code [?]: the last two digits carry the code
      const code = Number(m.text.slice(-2));
      throw new PlcError('plc_error', `PLC error ${m.text.slice(-2)}: ${mewErrorInfo(code).text}`, Number.isNaN(code) ? undefined : code, raw.text());
    }
    if (m.kind !== 'response') throw new PlcError('bad_reply', 'A command arrived where an answer was expected', undefined, raw.text());
    const r = decodeMew7Reply(req, m.text);
    if (!r.ok) throw new PlcError('bad_reply', `Unexpected answer: ${r.error.message}`, undefined, raw.text());
    return r.value;
  });
}
