// ASCII helpers shared by the text protocols (MEWTOCOL-COM, MEWTOCOL7): fixed-width decimal and
// hex fields, and the 16-bit word encoding of mewtocol.md §2.2 (4 hex chars, low byte first:
// 0x1234 → "3412"). Bytes are Uint8Array (no Buffer) so the browser can import this; Node's Buffer
// is only used where the daemon has it (bytesToAscii).

const HEX_RE = /^[0-9A-F]+$/;
const DEC_RE = /^[0-9]+$/;

/** Upper-case hex of `n`, left-padded with zeros to `width` chars. */
export const hex = (n: number, width: number): string => n.toString(16).toUpperCase().padStart(width, '0');

/** Decimal of `n`, left-padded with zeros to `width` chars. */
export const dec = (n: number, width: number): string => String(n).padStart(width, '0');

/** Parses upper-case hex digits; undefined for anything else (including empty and lower case). */
export const parseHex = (s: string): number | undefined => (HEX_RE.test(s) ? parseInt(s, 16) : undefined);

/** Parses decimal digits; undefined for anything else (no sign, no spaces). */
export const parseDec = (s: string): number | undefined => (DEC_RE.test(s) ? parseInt(s, 10) : undefined);

/** "00" … "FF": every byte's two hex chars, looked up rather than formatted (a reply of 509 words is 1018 of them). */
const BYTE_HEX: readonly string[] = Array.from({ length: 256 }, (_, b) => hex(b, 2));

/** A byte's two upper-case hex chars (the BCC of every frame). */
export const byteHex = (b: number): string => BYTE_HEX[b & 0xff]!;

/** mewtocol.md §2.2: one word = 4 hex chars, low byte first (0x1234 → "3412"). */
export const wordToHex = (w: number): string => BYTE_HEX[w & 0xff]! + BYTE_HEX[(w >> 8) & 0xff]!;

export function wordsToHex(words: readonly number[]): string {
  let s = '';
  for (const w of words) s += BYTE_HEX[w & 0xff]! + BYTE_HEX[(w >> 8) & 0xff]!;
  return s;
}

/** Inverse of wordsToHex; undefined unless the text is whole words of upper-case hex. */
export function hexToWords(text: string): number[] | undefined {
  if (text.length % 4 !== 0) return undefined;
  // digit by digit from the char codes: every forwarded reply decodes its words here, and slicing
  // and parseInt per word made this the largest part of a redirect thread's own time
  const out = new Array<number>(text.length / 4);
  for (let i = 0, w = 0; i < text.length; i += 4, w++) {
    const lo = (nibble(text, i) << 4) | nibble(text, i + 1);
    const hi = (nibble(text, i + 2) << 4) | nibble(text, i + 3);
    if ((lo | hi) < 0) return undefined;
    out[w] = (hi << 8) | lo;
  }
  return out;
}

/** upper-case hex digit value of each char code below 128, -1 for any other char */
const NIBBLE = Int8Array.from({ length: 128 }, (_, c) => '0123456789ABCDEF'.indexOf(String.fromCharCode(c)));
const nibble = (text: string, i: number): number => {
  const c = text.charCodeAt(i);
  return c < 128 ? NIBBLE[c]! : -1;
};

/**
 * Node's Buffer where there is one (the daemon): its latin1 decoder makes the string in one native
 * step, a third of the time String.fromCharCode takes on a forwarded reply. The browser has none
 * and builds the string itself.
 */
type Latin1 = { toString(encoding: 'latin1'): string };
type NodeBuffer = { from(b: ArrayBufferLike, offset: number, length: number): Latin1; isBuffer(b: unknown): boolean };
const nodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;

/** Each byte as one char (latin1); the text protocols only use 7-bit ASCII. */
export function bytesToAscii(bytes: Uint8Array): string {
  // a Buffer (what node's sockets deliver) decodes itself; another view is wrapped first
  if (nodeBuffer)
    return (nodeBuffer.isBuffer(bytes) ? (bytes as unknown as Latin1) : nodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length)).toString('latin1');
  let s = '';
  for (let i = 0; i < bytes.length; i += CHARS_AT_ONCE) s += String.fromCharCode.apply(null, bytes.subarray(i, i + CHARS_AT_ONCE) as unknown as number[]);
  return s;
}

/** chars made by one String.fromCharCode call (its arguments live on the stack) */
const CHARS_AT_ONCE = 4096;

/** Each char's low 8 bits as one byte. */
export function asciiToBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

export const isWord = (n: number): boolean => Number.isInteger(n) && n >= 0 && n <= 0xffff;
