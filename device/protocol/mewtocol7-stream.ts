// MEWTOCOL7 stream decoder: like the MEWTOCOL-COM one (mewtocol-stream.ts), for `>` frames.
// It never throws and holds at most one frame (4096 chars) plus one message of `maxMessageChars`.
// Multi-frame handling follows the inferred convention of mewtocol7-frame.ts [?]; the `continue`
// event's `reply` numbers the next-frame request one above the received frame number, a caller
// keeping its own frame counter can build its own with encodeMew7NextRequest.
import { createAsciiFramer } from './ascii-framer.ts';
import {
  decodeMew7Frame,
  encodeMew7NextRequest,
  MEW7_FRAME_LIMIT,
  type Mew7Frame,
  type Mew7Message,
  type Mew7Station,
  nextMew7FrameNo,
} from './mewtocol7-frame.ts';

export type Mew7StreamEvent =
  | { type: 'message'; message: Mew7Message; frames: number }
  /** `opens`: on the first frame of a message, its marker and text so far (as in mewtocol-stream.ts) */
  | { type: 'continue'; station: Mew7Station; frameNo: number; reply: string; opens?: { kind: Mew7Message['kind']; text: string } }
  | { type: 'next'; station: Mew7Station; frameNo: number }
  | { type: 'error'; code: string; message: string; station?: Mew7Station; frameNo?: number };

export interface Mew7StreamDecoder {
  push(chunk: string | Uint8Array): Mew7StreamEvent[];
  reset(): Mew7StreamEvent[];
  buffered(): number;
}

const KIND = { '#': 'command', $: 'response', '!': 'error' } as const;

export function createMew7StreamDecoder(opts: { maxMessageChars?: number; limit?: number; skipCrc?: boolean } = {}): Mew7StreamDecoder {
  const framer = createAsciiFramer({ '>': opts.limit ?? MEW7_FRAME_LIMIT });
  const maxText = opts.maxMessageChars ?? 65536;
  let asm: (Mew7Message & { frames: number }) | undefined;

  function onFrame(f: Mew7Frame, out: Mew7StreamEvent[]): void {
    const { station, frameNo } = f;
    if (f.marker) {
      if (asm) out.push({ type: 'error', code: 'procedure', message: 'new message before the last frame of the previous one', station: asm.station });
      asm = { kind: KIND[f.marker], station, frameNo, text: '', frames: 0 };
    } else if (!asm) {
      if (f.more && f.text === '') out.push({ type: 'next', station, frameNo });
      else out.push({ type: 'error', code: 'procedure', message: 'continuation frame without a first frame', station, frameNo });
      return;
    } else if (asm.station !== station) {
      out.push({ type: 'error', code: 'procedure', message: 'continuation frame from another station', station, frameNo });
      asm = undefined;
      return;
    }
    asm.text += f.text;
    asm.frames++;
    if (asm.text.length > maxText) {
      out.push({ type: 'error', code: 'too_long', message: `message longer than ${maxText} chars`, station, frameNo });
      asm = undefined;
    } else if (f.more) {
      const ev: Mew7StreamEvent = {
        type: 'continue',
        station,
        frameNo,
        reply: encodeMew7NextRequest(station, nextMew7FrameNo(frameNo), { skipCrc: opts.skipCrc }),
      };
      if (asm.frames === 1) ev.opens = { kind: asm.kind, text: asm.text };
      out.push(ev);
    } else {
      const { frames, ...message } = asm;
      out.push({ type: 'message', message, frames });
      asm = undefined;
    }
  }

  function handle(events: ReturnType<typeof framer.push>): Mew7StreamEvent[] {
    const out: Mew7StreamEvent[] = [];
    for (const e of events) {
      if (e.type === 'error') {
        out.push({ type: 'error', code: e.code, message: e.message });
        if (e.code !== 'garbage') asm = undefined;
        continue;
      }
      const r = decodeMew7Frame(e.frame);
      if (r.ok) onFrame(r.value, out);
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
      if (open) out.push({ type: 'error', code: 'truncated', message: 'unfinished multi-frame message dropped', station: open.station });
      asm = undefined;
      return out;
    },
    buffered: () => framer.buffered() + (asm?.text.length ?? 0),
  };
}
