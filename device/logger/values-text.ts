// The text data types of the logger (spec §3: ascii, dt, string; mewtocol.md §2.2): the words
// here are in the byte order of the FP PLC (values-words.ts has already undone any other).
import type { LogValue } from './types.ts';

export const SECONDS_1970_TO_2001 = 978307200; // spec §9: seconds between 1970 and 2001
export const STRING_CHARS_MAX = 48; // spec §3/§9: STRING max 48 chars
const DT_MAX = 0xffffffff; // the PLC clock's seconds count is an unsigned 32-bit value

/** Characters of a word, low byte first (mewtocol.md §2.2); NUL bytes are padding and dropped. */
function wordChars(w: number): string {
  const lo = w & 0xff;
  const hi = (w >> 8) & 0xff;
  return (lo ? String.fromCharCode(lo) : '') + (hi ? String.fromCharCode(hi) : '');
}

function charWords(text: string, chars: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < chars; i += 2) out.push((text.charCodeAt(i) || 0) | ((text.charCodeAt(i + 1) || 0) << 8));
  return out;
}

function checkChars(text: string, max: number): void {
  if (text.length > max) throw new RangeError(`"${text}" is longer than ${max} characters`);
  // one byte a character; NUL is the padding the decoder drops
  if (!/^[\x01-\xff]*$/.test(text)) throw new RangeError(`"${text}" has a character outside 1-255`);
}

/** ascii: the 2 characters of one word (empty when the word is 0). */
export function asciiText(words: readonly number[]): LogValue {
  return words.length < 1 ? null : wordChars(words[0]!);
}

export function asciiWords(text: string): number[] {
  checkChars(text, 2);
  return charWords(text, 2);
}

/**
 * FP STRING (mewtocol.md §2.2): a 2-word header, maximum then current length in characters, then
 * 2 characters a word, low byte first. The current length counts (the PLC keeps it within the
 * maximum), capped at `chars` (the data point's STRING[n], 48 at most: spec §3) and at the words read.
 */
export function stringText(words: readonly number[], chars: number = STRING_CHARS_MAX): LogValue {
  if (words.length < 2) return null;
  const length = Math.min(words[1]! & 0xffff, chars, STRING_CHARS_MAX, (words.length - 2) * 2);
  let text = '';
  for (let i = 0; i < length; i += 2) text += wordChars(i + 1 < length ? words[2 + i / 2]! : words[2 + i / 2]! & 0xff);
  return text;
}

/** The 2 + ⌈chars/2⌉ words of a STRING[chars] holding `text` (maximum chars, current = its length). */
export function stringWords(text: string, chars: number = STRING_CHARS_MAX): number[] {
  checkChars(text, Math.min(chars, STRING_CHARS_MAX));
  return [chars, text.length, ...charWords(text, chars)];
}

/**
 * dt: the PLC clock's seconds since 2001-01-01 00:00:00 (spec §9), as `YYYY-MM-DD HH:MM:SS`. The
 * count is the PLC's calendar, not an instant, so it is shown as it is, without a time zone; the
 * dashes keep it free of every CSV separator (comma, semicolon, slash, tab).
 */
export function dtText(seconds: number): string {
  return new Date((SECONDS_1970_TO_2001 + seconds) * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

const DT_TEXT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Seconds since 2001 of a dt value: the count itself, or the text dtText gives. */
export function dtSeconds(value: number | bigint | string): number {
  let seconds: number;
  if (typeof value === 'string') {
    if (!DT_TEXT.test(value)) throw new RangeError(`"${value}" is not YYYY-MM-DD HH:MM:SS`);
    seconds = Date.parse(`${value.replace(' ', 'T')}Z`) / 1000 - SECONDS_1970_TO_2001;
    if (!Number.isInteger(seconds) || dtText(seconds) !== value) throw new RangeError(`"${value}" is not a valid date and time`);
  } else seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > DT_MAX) throw new RangeError(`${value} is outside the PLC clock (2001 to 2137)`);
  return seconds;
}
