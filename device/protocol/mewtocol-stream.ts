// MEWTOCOL-COM stream decoder: the state machine a COM link (host side) or a simulated PLC feeds
// with whatever the wire delivers, getting back whole logical messages (multi-frame replies and
// requests joined, mewtocol.md §1.3) or errors. It never throws and holds at most one frame plus
// one message of `maxMessageChars`: noise is skipped up to the next `%`/`<`.
//
// Events:
//   message   a complete command (`#`), reply (`$`) or error reply (`!`), frames joined
//   continue  a frame ending in `&` arrived; send `reply` (the next-frame request) to get the rest;
//             the first frame of a message also tells what it `opens` (marker and text so far), so
//             that a host can tell whether the rest is worth asking for
//   next      the peer sent a next-frame request: send it your next frame
//   error     a bad frame, with `mewCode` = what a PLC would answer (40 BCC, 41 format, 43 procedure,
//             27 frame over) and the header/station when they could be read, so a responder can answer
import { createAsciiFramer, type FramerEvent } from './ascii-framer.ts';
import { MEW_ERR } from './mewtocol-errors.ts';
import {
  decodeMewFrame,
  encodeMewNextRequest,
  MEW_FRAME_LIMIT,
  type MewFrame,
  type MewHeader,
  type MewMessage,
  type MewStation,
  parseStation,
} from './mewtocol-frame.ts';

export type MewStreamEvent =
  /** `frame`: a message of one frame, that frame as it came (without its CR) */
  | { type: 'message'; message: MewMessage; frames: number; frame?: string }
  | { type: 'continue'; header: MewHeader; station: MewStation; reply: string; opens?: { marker: '#' | '$' | '!'; text: string } }
  | { type: 'next'; header: MewHeader; station: MewStation }
  | { type: 'error'; code: string; message: string; mewCode?: number; header?: MewHeader; station?: MewStation };

export interface MewStreamDecoder {
  push(chunk: string | Uint8Array): MewStreamEvent[];
  /** Drops a partial frame and an unfinished multi-frame message (after a timeout or an abort). */
  reset(): MewStreamEvent[];
  /** Chars held (partial frame + assembled multi-frame text); bounded by the options. */
  buffered(): number;
}

export interface MewStreamOptions {
  /** Longest frame per header (default MEW_FRAME_LIMIT: `%` 118, `<` 2048). */
  limits?: Partial<Record<MewHeader, number>>;
  /** Longest logical message text over all frames (default 65536 chars). */
  maxMessageChars?: number;
  /** Answer `continue` with `**` instead of a BCC. */
  skipBcc?: boolean;
}

interface Assembly {
  header: MewHeader;
  station: MewStation;
  marker: '#' | '$' | '!';
  text: string;
  frames: number;
}

export function createMewStreamDecoder(opts: MewStreamOptions = {}): MewStreamDecoder {
  const framer = createAsciiFramer(opts.limits ? { ...MEW_FRAME_LIMIT, ...opts.limits } : MEW_FRAME_LIMIT);
  const maxText = opts.maxMessageChars ?? 65536;
  let asm: Assembly | undefined;

  function finish(a: Assembly, raw: string): MewStreamEvent {
    const { header, station } = a;
    if (a.marker === '!') {
      if (!/^\d\d$/.test(a.text)) return { type: 'error', code: 'format', message: `bad error code "${a.text.slice(0, 8)}"`, header, station };
      return { type: 'message', message: { kind: 'error', header, station, code: Number(a.text) }, frames: a.frames };
    }
    const kind = a.marker === '#' ? 'command' : 'response';
    const ev: MewStreamEvent = { type: 'message', message: { kind, header, station, text: a.text }, frames: a.frames };
    if (a.frames === 1) ev.frame = raw;
    return ev;
  }

  /** `raw`: the frame's text as the framer found it */
  function onFrame(f: MewFrame, raw: string, out: MewStreamEvent[]): void {
    const { header, station } = f;
    if (f.marker) {
      if (asm)
        out.push({
          type: 'error',
          code: 'procedure',
          message: 'new message before the last frame of the previous one',
          mewCode: MEW_ERR.PROCEDURE,
          header: asm.header,
          station: asm.station,
        });
      asm = { header, station, marker: f.marker, text: '', frames: 0 };
    } else if (!asm) {
      if (f.more && f.text === '') out.push({ type: 'next', header, station });
      else out.push({ type: 'error', code: 'procedure', message: 'continuation frame without a first frame', mewCode: MEW_ERR.PROCEDURE, header, station });
      return;
    } else if (asm.header !== header || asm.station !== station) {
      out.push({ type: 'error', code: 'procedure', message: 'continuation frame from another station', mewCode: MEW_ERR.PROCEDURE, header, station });
      asm = undefined;
      return;
    }
    asm.text += f.text;
    asm.frames++;
    if (asm.text.length > maxText) {
      out.push({ type: 'error', code: 'too_long', message: `message longer than ${maxText} chars`, mewCode: MEW_ERR.FRAME_OVER, header, station });
      asm = undefined;
    } else if (f.more) {
      const ev: MewStreamEvent = { type: 'continue', header, station, reply: encodeMewNextRequest(header, station, { skipBcc: opts.skipBcc }) };
      if (asm.frames === 1) ev.opens = { marker: asm.marker, text: asm.text };
      out.push(ev);
    } else {
      out.push(finish(asm, raw));
      asm = undefined;
    }
  }

  function handle(events: FramerEvent[]): MewStreamEvent[] {
    const out: MewStreamEvent[] = [];
    for (const e of events) {
      if (e.type === 'error') {
        const header = e.header === '%' || e.header === '<' ? e.header : undefined;
        const mewCode = e.code === 'too_long' ? MEW_ERR.FRAME_OVER : e.code === 'garbage' ? undefined : MEW_ERR.FORMAT;
        // a `%` frame over 118 chars is answered `!27` (frame over, mewtocol.md §3) when its station was read
        const station = e.code === 'too_long' && e.start ? parseStation(e.start.slice(1, 3)) : undefined;
        out.push({
          type: 'error',
          code: e.code,
          message: e.message,
          ...(mewCode ? { mewCode } : {}),
          ...(header ? { header } : {}),
          ...(station !== undefined ? { station } : {}),
        });
        if (e.code !== 'garbage') asm = undefined; // a broken frame breaks the message it belonged to
        continue;
      }
      const r = decodeMewFrame(e.frame);
      if (r.ok) onFrame(r.value, e.frame, out);
      else {
        out.push({ type: 'error', ...r.error });
        asm = undefined;
      }
    }
    return out;
  }

  return {
    push: (chunk) => handle(framer.push(chunk)),
    reset() {
      const open = asm;
      const out = handle(framer.reset());
      if (open) out.push({ type: 'error', code: 'truncated', message: 'unfinished multi-frame message dropped', header: open.header, station: open.station });
      asm = undefined;
      return out;
    },
    buffered: () => framer.buffered() + (asm?.text.length ?? 0),
  };
}
