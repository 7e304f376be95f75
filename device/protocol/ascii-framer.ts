// Splits a stream of chars into CR-terminated frames that start with a header char. Shared by the
// MEWTOCOL-COM (`%`, `<`) and MEWTOCOL7 (`>`) stream decoders, which then check and assemble the
// frames. Serial lines deliver noise, partial frames and bytes from other stations, so this never
// throws and never holds more than one frame: a frame longer than its header's limit is dropped
// (and reported) up to its CR, a header char inside a frame starts a new frame (the header chars
// cannot occur in frame text, which is upper-case letters, digits and a few marks), and bytes
// outside any frame are counted as garbage. LF and stray CR between frames are ignored silently,
// for peers that end lines with CRLF.

import { bytesToAscii as bytesToText } from './ascii.ts';

const CR = 0x0d;
const LF = 0x0a;

export type FramerEvent =
  | { type: 'frame'; frame: string } // header .. last char before CR (CR removed)
  | { type: 'error'; code: 'garbage' | 'truncated' | 'too_long' | 'bad_char'; message: string; header?: string; start?: string };

export interface AsciiFramer {
  /** Feeds received chars (a string, or bytes taken as latin1); returns what they completed. */
  push(chunk: string | Uint8Array): FramerEvent[];
  /** Drops a partial frame (e.g. after a timeout); reports it as truncated when there was one. */
  reset(): FramerEvent[];
  /** Chars held for an unfinished frame (never more than the largest limit). */
  buffered(): number;
}

/**
 * `limits` maps each header char to the longest frame in chars, header and CR included
 * (mewtocol.md §1.3: `%` 118, `<` 2048; §5: `>` 4096).
 */
/**
 * Bytes that simply extend a frame (printable, not a header char), per header set: a framer takes
 * them a run at a time. Kept per limits object too, so that a framer made for each exchange with
 * the protocol's own limits finds its table at once.
 */
const PLAIN = new Map<string, Uint8Array>();
const PLAIN_OF = new WeakMap<object, Uint8Array>();
function plainBytes(limits: Readonly<Record<string, number>>): Uint8Array {
  let t = PLAIN_OF.get(limits);
  if (t) return t;
  const headers = Object.keys(limits).join('');
  t = PLAIN.get(headers);
  if (!t) {
    t = new Uint8Array(256);
    for (let b = 0x20; b <= 0x7e; b++) t[b] = headers.includes(String.fromCharCode(b)) ? 0 : 1;
    PLAIN.set(headers, t);
  }
  PLAIN_OF.set(limits, t);
  return t;
}

export function createAsciiFramer(limits: Readonly<Record<string, number>>): AsciiFramer {
  let frame = ''; // current frame text, '' when outside a frame
  let discarding = false; // inside an over-long or bad frame: skip to its CR
  let garbage = 0;
  const isHeader = (c: string) => limits[c] !== undefined;

  const flushGarbage = (out: FramerEvent[]) => {
    if (garbage > 0) out.push({ type: 'error', code: 'garbage', message: `${garbage} byte(s) outside a frame skipped` });
    garbage = 0;
  };

  function step(code: number, out: FramerEvent[]): void {
    const c = String.fromCharCode(code);
    if (isHeader(c)) {
      if (frame) out.push({ type: 'error', code: 'truncated', message: 'frame interrupted by a new header', header: frame[0] });
      flushGarbage(out);
      frame = c;
      discarding = false;
      return;
    }
    if (discarding) {
      if (code === CR) discarding = false;
      return;
    }
    if (!frame) {
      if (code !== CR && code !== LF) garbage++;
      return;
    }
    if (code === CR) {
      out.push({ type: 'frame', frame });
      frame = '';
      return;
    }
    const header = frame[0] as string;
    if (code < 0x20 || code > 0x7e) {
      out.push({ type: 'error', code: 'bad_char', message: `byte 0x${code.toString(16)} inside a frame`, header });
      frame = '';
      discarding = true;
    } else if (frame.length + 2 > (limits[header] as number)) {
      // +2: this char and the CR still to come must fit the limit
      // `start`: the frame's first characters, so that a too-long frame can be answered to its station
      out.push({ type: 'error', code: 'too_long', message: `frame longer than ${limits[header]} chars`, header, start: frame.slice(0, 8) });
      frame = '';
      discarding = true;
    } else frame += c;
  }

  const plain = plainBytes(limits);

  /** Appends the run of plain chars from `i` when the frame has room for it; returns where it stopped. */
  function run(text: string, i: number): number {
    if (!frame || discarding) return i;
    let j = i;
    while (j < text.length) {
      const c = text.charCodeAt(j);
      if (c > 0xff || !plain[c]) break;
      j++;
    }
    // each appended char needs room for itself and the CR still to come (see step)
    if (j === i || frame.length + (j - i) + 1 > (limits[frame[0]!] as number)) return i;
    frame += text.slice(i, j);
    return j;
  }

  return {
    push(chunk) {
      const out: FramerEvent[] = [];
      // bytes become chars once (latin1), then the text is taken a run of plain chars at a time
      const text = typeof chunk === 'string' ? chunk : bytesToText(chunk);
      for (let i = 0; i < text.length; ) {
        const j = run(text, i);
        if (j > i) i = j;
        else step(Math.min(text.charCodeAt(i++), 0xff), out); // beyond latin1 = not ASCII
      }
      flushGarbage(out);
      return out;
    },
    reset() {
      const out: FramerEvent[] = [];
      if (frame) out.push({ type: 'error', code: 'truncated', message: 'partial frame dropped', header: frame[0] });
      frame = '';
      discarding = false;
      garbage = 0;
      return out;
    },
    buffered: () => frame.length,
  };
}
