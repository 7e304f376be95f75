// MEWTOCOL7-COM frames (FP7, mewtocol.md §5):
//   `>` + `@` + station (3 digits, or `EEE` = answer whatever the station setting)
//   + frame number (2 hex, consecutive, FF wraps to 00) + marker (`#` command, `$` ok, `!` error)
//   + text (command code value 2 chars + command name 4 chars + parameters)
//   + check code (4 hex, CRC-16/MCRF4XX over header .. last text char; `****` skips it) + CR.
// Frames are up to 4096 chars.
//
// What the public facts leave uncertain [?], and what this code assumes:
//   - the CRC variant: the manual says only "CRC-16-CCITT"; MCRF4XX (reflected 0x1021 = 0x8408,
//     init 0xFFFF, no final XOR, printed big-endian) is the variant that reproduces MNET's captured
//     STRD reply (§5 vectors), so it is used here;
//   - station range: the manual says "@ and three digits"; FPWIN limits stations to 1–99, this
//     code accepts 1–999 on the wire;
//   - multi-frame: the manual shows only the host's next-frame request `>@EEE01****&` CR after a
//     command sent as frame 00; that later frames carry station + frame number + text without a
//     marker, that every non-final frame ends with CRC + `&`, and that the host numbers its
//     next-frame request one above the frame it received, are inferred from MEWTOCOL-COM (§1.3);
//   - error replies: the layout after `!` is not in the retrieved text; the text is kept raw.
import { hex, parseDec, parseHex } from './ascii.ts';
import { check, fail, isInt, ok, type ProtocolError, type Result } from './result.ts';

export type Mew7Station = number | 'EEE';
export type Mew7Marker = '#' | '$' | '!';

/** §5: up to 4096 chars per frame. */
export const MEW7_FRAME_LIMIT = 4096;
export const MEW7_NO_CRC = '****';

/** CRC-16/MCRF4XX (poly 0x1021 reflected, init 0xFFFF, no final XOR) of the chars' low bytes. */
export function crc16Mcrf4xx(text: string): number {
  let crc = 0xffff;
  for (let i = 0; i < text.length; i++) {
    crc ^= text.charCodeAt(i) & 0xff;
    for (let b = 0; b < 8; b++) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1;
  }
  return crc;
}

/** The 4-char check code of a frame from `>` up to the last text char. */
export const mew7Crc = (text: string): string => hex(crc16Mcrf4xx(text), 4);

export function formatMew7Station(s: Mew7Station): string {
  if (s === 'EEE') return 'EEE';
  check(isInt(s, 1, 999), `MEWTOCOL7 station ${s} not in 1-999 or EEE`);
  return String(s).padStart(3, '0');
}

export function parseMew7Station(text: string): Mew7Station | undefined {
  if (text === 'EEE') return 'EEE';
  const n = /^\d{3}$/.test(text) ? parseDec(text) : undefined;
  return n !== undefined && n >= 1 ? n : undefined;
}

/** Next frame number (§5: consecutive, FF wraps to 00). */
export const nextMew7FrameNo = (n: number): number => (n + 1) & 0xff;

export interface Mew7Frame {
  station: Mew7Station;
  frameNo: number;
  marker?: Mew7Marker;
  /** After the marker (or after the frame number without one), without CRC, `&` and CR. */
  text: string;
  more: boolean;
  /** False when the frame carried `****`. */
  checked: boolean;
}

export interface Mew7FrameError extends ProtocolError {
  station?: Mew7Station;
  frameNo?: number;
}

export function encodeMew7Frame(f: Omit<Mew7Frame, 'checked'>, opts: { skipCrc?: boolean } = {}): string {
  check(isInt(f.frameNo, 0, 255), `frame number ${f.frameNo} not in 00-FF`);
  const body = `>@${formatMew7Station(f.station)}${hex(f.frameNo, 2)}${f.marker ?? ''}${f.text}`;
  return `${body + (opts.skipCrc ? MEW7_NO_CRC : mew7Crc(body)) + (f.more ? '&' : '')}\r`;
}

export function decodeMew7Frame(raw: string): Result<Mew7Frame, Mew7FrameError> {
  const s = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (!s.startsWith('>@')) return fail('format', 'frame does not start with >@');
  const station = parseMew7Station(s.slice(2, 5));
  if (station === undefined) return fail('bad_station', `bad station "${s.slice(2, 5)}"`);
  const frameNo = parseHex(s.slice(5, 7));
  if (frameNo === undefined || s.slice(5, 7).length !== 2) return fail('format', 'bad frame number', { station });
  const more = s.endsWith('&');
  const end = s.length - (more ? 1 : 0);
  if (end < 11) return fail('format', 'frame too short', { station, frameNo });
  const code = s.slice(end - 4, end);
  const body = s.slice(0, end - 4);
  const checked = code !== MEW7_NO_CRC;
  if (checked && code !== mew7Crc(body)) return fail('crc', `check code ${code} does not match ${mew7Crc(body)}`, { station, frameNo });
  const m = body[7];
  const marker = m === '#' || m === '$' || m === '!' ? m : undefined;
  return ok({ station, frameNo, ...(marker ? { marker } : {}), text: body.slice(marker ? 8 : 7), more, checked });
}

export type Mew7Message = { kind: 'command' | 'response' | 'error'; station: Mew7Station; frameNo: number; text: string };

const MARKER = { command: '#', response: '$', error: '!' } as const;

/**
 * The frames of a message. A message longer than the limit is split like MEWTOCOL-COM (inferred
 * [?]); later frames take consecutive frame numbers.
 */
export function encodeMew7Message(m: Mew7Message, opts: { skipCrc?: boolean; limit?: number } = {}): string[] {
  const limit = opts.limit ?? MEW7_FRAME_LIMIT;
  check(limit >= 15, 'frame limit below 15 chars');
  // overhead: `>@` + station + frame no. (7) + CRC (4) + CR (1), plus `&` on all but the last
  let body: string = MARKER[m.kind] + m.text;
  let frameNo = m.frameNo;
  const frames: string[] = [];
  while (body.length > limit - 12) {
    frames.push(encodeMew7Frame({ station: m.station, frameNo, text: body.slice(0, limit - 13), more: true }, opts));
    body = body.slice(limit - 13);
    frameNo = nextMew7FrameNo(frameNo);
  }
  frames.push(encodeMew7Frame({ station: m.station, frameNo, text: body, more: false }, opts));
  return frames;
}

/** The next-frame request, e.g. `>@EEE01****&\r` (§1.3, FP7M p182). */
export function encodeMew7NextRequest(station: Mew7Station, frameNo: number, opts: { skipCrc?: boolean } = {}): string {
  return encodeMew7Frame({ station, frameNo, text: '', more: true }, opts);
}
