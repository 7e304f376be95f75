// MEWTOCOL-COM frames (mewtocol.md §1): header `%` (or `<`, the extended header with larger
// frames), station `01`–`99` or `EE`, a marker (`#` command, `$` normal reply, `!` error reply),
// the text, the BCC and CR. Long messages travel in several frames (§1.3): every frame but the
// last ends with BCC + `&` + CR, the later frames carry header + station + text without marker,
// and the receiver asks for each next frame with header + station + BCC + `&` + CR (`%01**&`).
//
//   bcc(text)                       XOR of every char, 2 upper-case hex chars (§1.1 field 6)
//   encodeMewFrame / decodeMewFrame one physical frame <-> its fields (BCC checked, `**` skips it)
//   encodeMewMessage(msg)           one logical message -> the frames to send (split at the limit)
//   encodeMewNextRequest(h, st)     the "send me your next frame" frame
//
// Multi-frame *commands* (host → PLC) are assumed to use the same `&` convention as replies, with
// the PLC asking for each next frame the way the host does; mewtocol.md only documents replies,
// so that direction is inferred [?].
import { byteHex, dec } from './ascii.ts';
import { MEW_ERR } from './mewtocol-errors.ts';
import { check, fail, ok, type ProtocolError, type Result } from './result.ts';

export type MewHeader = '%' | '<';
/** Station number 1–99, or `EE` ("any station", answered whatever the PLC's number, §1.1). */
export type MewStation = number | 'EE';
export type MewMarker = '#' | '$' | '!';

/** mewtocol.md §1.3: longest frame in chars, header and CR included (`<` 2048 is [impl], not official). */
export const MEW_FRAME_LIMIT: Readonly<Record<MewHeader, number>> = { '%': 118, '<': 2048 };
export const CR = '\r';
/** Sent instead of the BCC to skip the check (§1.1). */
export const NO_BCC = '**';

/** XOR of all chars as 2 upper-case hex digits; pass the frame from its header up to before the BCC. */
export function bcc(text: string): string {
  let x = 0;
  for (let i = 0; i < text.length; i++) x ^= text.charCodeAt(i) & 0xff;
  return byteHex(x);
}

export function formatStation(station: MewStation): string {
  if (station === 'EE') return 'EE';
  check(Number.isInteger(station) && station >= 1 && station <= 99, `station ${station} not in 1-99 or EE`);
  return dec(station, 2);
}

export function parseStation(text: string): MewStation | undefined {
  if (text === 'EE') return 'EE';
  if (text.length !== 2) return undefined;
  // two decimal digits, read from the char codes (every frame of every link passes here)
  const hi = text.charCodeAt(0) - 48;
  const lo = text.charCodeAt(1) - 48;
  if (hi < 0 || hi > 9 || lo < 0 || lo > 9) return undefined;
  const n = hi * 10 + lo;
  return n >= 1 ? n : undefined;
}

/** One physical frame. `marker` is absent on the 2nd..nth frame of a message and on next-frame requests. */
export interface MewFrame {
  header: MewHeader;
  station: MewStation;
  marker?: MewMarker;
  /** The text after the marker (or after the station when there is none), without BCC, `&` and CR. */
  text: string;
  /** The frame ended with `&`: more frames follow (or, with empty text and no marker, "send me the next"). */
  more: boolean;
  /** False when the frame carried `**` instead of a BCC. */
  checked: boolean;
}

/** A decode failure; `mewCode` is the error a PLC answers to such a frame (40 BCC, 41 format). */
export interface MewFrameError extends ProtocolError {
  mewCode?: number;
  header?: MewHeader;
  station?: MewStation;
}

export interface FrameOptions {
  /** Send `**` instead of the BCC. */
  skipBcc?: boolean;
}

/** The frame with its check code and CR. */
export function encodeMewFrame(f: Omit<MewFrame, 'checked'>, opts: FrameOptions = {}): string {
  const body = f.header + formatStation(f.station) + (f.marker ?? '') + f.text;
  return body + (opts.skipBcc ? NO_BCC : bcc(body)) + (f.more ? '&' : '') + CR;
}

/** Decodes one frame (with or without its CR). Checks the BCC unless it is `**`. */
export function decodeMewFrame(raw: string): Result<MewFrame, MewFrameError> {
  const s = raw.endsWith(CR) ? raw.slice(0, -1) : raw;
  const header = s[0];
  if (header !== '%' && header !== '<') return fail('format', 'frame does not start with % or <', { mewCode: MEW_ERR.FORMAT });
  const station = parseStation(s.slice(1, 3));
  if (station === undefined) return fail('bad_station', `bad station "${s.slice(1, 3)}"`, { mewCode: MEW_ERR.FORMAT, header });
  const more = s.endsWith('&');
  const end = s.length - (more ? 1 : 0); // index after the BCC
  if (end < 5) return fail('format', 'frame too short', { mewCode: MEW_ERR.FORMAT, header, station });
  const code = s.slice(end - 2, end);
  const body = s.slice(0, end - 2);
  const checked = code !== NO_BCC;
  if (checked && code !== bcc(body)) return fail('bcc', `BCC ${code} does not match ${bcc(body)}`, { mewCode: MEW_ERR.BCC, header, station });
  const m = body[3];
  const marker = m === '#' || m === '$' || m === '!' ? m : undefined;
  const frame: MewFrame = { header, station, text: body.slice(marker ? 4 : 3), more, checked };
  if (marker) frame.marker = marker;
  return ok(frame);
}

/** A whole logical message, as the stream decoder delivers it and encodeMewMessage sends it. */
export type MewMessage =
  | { kind: 'command'; header: MewHeader; station: MewStation; text: string } // text after `#`, e.g. "RDD0000000001"
  | { kind: 'response'; header: MewHeader; station: MewStation; text: string } // text after `$`, e.g. "RD6300"
  | { kind: 'error'; header: MewHeader; station: MewStation; code: number }; // `!` + 2 digits

export interface MessageOptions extends FrameOptions {
  /** Longest frame in chars (CR included); default MEW_FRAME_LIMIT of the header. */
  limit?: number;
}

/** The frames of a message: one if it fits the limit, else `&`-chained frames (§1.3). */
export function encodeMewMessage(m: MewMessage, opts: MessageOptions = {}): string[] {
  const limit = opts.limit ?? MEW_FRAME_LIMIT[m.header];
  check(limit >= 8, 'frame limit below 8 chars');
  let body: string;
  if (m.kind === 'error') {
    check(Number.isInteger(m.code) && m.code >= 0 && m.code <= 99, `error code ${m.code} not two digits`);
    body = `!${dec(m.code, 2)}`;
  } else body = (m.kind === 'command' ? '#' : '$') + m.text;
  const frames: string[] = [];
  // overhead: header + station (3) + BCC (2) + CR (1), plus `&` on all but the last frame
  while (body.length > limit - 6) {
    frames.push(frameOf(m, body.slice(0, limit - 7), true, opts));
    body = body.slice(limit - 7);
  }
  frames.push(frameOf(m, body, false, opts));
  return frames;
}

function frameOf(m: MewMessage, chunk: string, more: boolean, opts: FrameOptions): string {
  const s = m.header + formatStation(m.station) + chunk;
  return s + (opts.skipBcc ? NO_BCC : bcc(s)) + (more ? '&' : '') + CR;
}

/** "Send the next frame": header + station + BCC + `&` + CR, e.g. `%0124&\r` or `%01**&\r`. */
export function encodeMewNextRequest(header: MewHeader, station: MewStation, opts: FrameOptions = {}): string {
  return encodeMewFrame({ header, station, text: '', more: true }, opts);
}

/** Length in chars of a single frame with this text after the marker (CR included, no `&`). */
export const mewFrameLength = (text: string): number => 3 + 1 + text.length + 2 + 1;
