// PLC memory areas and the two address forms the configuration uses:
//   word areas DT, FL, LD, WR, WL, WY, WX with their limits (spec §9; the same numbers as
//   device/model/plc.ts AREA_MAX, which this folder may not import — a test compares them);
//   bit areas X, Y, R, L, addressed as word + bit in the form of spec §5 "up to 3 decimal digits
//   plus one optional hex digit": the LAST char is always the bit as a hex digit and the digits
//   before it are the word (mewtocol.md §2.1: X1A = word 1 bit A, Y1 = word 0 bit 1, R10F = word
//   10 bit 15; bit index = word × 16 + bit). A lone letter (`F`) is not a §5 address: word 0 bit
//   15 is written `0F`, and formatBitAddress writes it so.
import { fail, ok, type Result } from './result.ts';

export const WORD_AREAS = ['DT', 'FL', 'LD', 'WR', 'WL', 'WY', 'WX'] as const;
export type WordArea = (typeof WORD_AREAS)[number];
export const BIT_AREAS = ['X', 'Y', 'R', 'L'] as const;
export type BitArea = (typeof BIT_AREAS)[number];

/** spec §9: highest address of each word area (inclusive). */
export const AREA_MAX: Readonly<Record<WordArea, number>> = { DT: 999424, LD: 16384, FL: 32765, WR: 2048, WL: 1024, WY: 512, WX: 512 };
/** spec §9: Modbus address 65535. */
export const MODBUS_ADDRESS_MAX = 65535;
/** The word view of each bit area (X word n = WX n); its limit bounds the word part of a bit address. */
export const BIT_AREA_WORDS: Readonly<Record<BitArea, WordArea>> = { X: 'WX', Y: 'WY', R: 'WR', L: 'WL' };
/** spec §5: the word part has at most 3 decimal digits. */
export const BIT_ADDRESS_WORD_MAX = 999;

export const isWordArea = (s: string): s is WordArea => (WORD_AREAS as readonly string[]).includes(s);
export const isBitArea = (s: string): s is BitArea => (BIT_AREAS as readonly string[]).includes(s);

export interface BitAddress {
  area: BitArea;
  word: number;
  bit: number;
}

export interface WordAddress {
  area: WordArea;
  address: number;
}

/** Error codes match device/model's issue codes so the console can show the same message. */
const invalid = (text: string) => fail('invalid_bit_address', `"${text}" is not a bit address (up to 3 decimal digits plus one hex digit)`);
const outOfRange = (what: string, max: number) => fail('address_out_of_range', `${what} beyond ${max}`);

const OFFSET_RE = /^(\d{0,3})([0-9A-Fa-f])$/;

/** The spec §5 form without area: "10F" → word 10, bit 15; "5" → word 0, bit 5. */
export function parseBitOffset(text: string): Result<{ word: number; bit: number }> {
  const m = OFFSET_RE.exec(text);
  if (!m || (m[1] === '' && !/^\d$/.test(text))) return invalid(text);
  return ok({ word: m[1] ? Number(m[1]) : 0, bit: parseInt(m[2] as string, 16) });
}

export function formatBitOffset(word: number, bit: number): string {
  const b = bit.toString(16).toUpperCase();
  return word > 0 || bit > 9 ? `${word}${b}` : b;
}

/** "R10F" → { area: 'R', word: 10, bit: 15 }; checks the word against the area's limit (spec §9). */
export function parseBitAddress(text: string): Result<BitAddress> {
  const area = text.slice(0, 1).toUpperCase();
  if (!isBitArea(area)) return fail('invalid_area', `"${text}" does not start with X, Y, R or L`);
  const off = parseBitOffset(text.slice(1));
  if (!off.ok) return off;
  const max = AREA_MAX[BIT_AREA_WORDS[area]];
  if (off.value.word > max) return outOfRange(`${area} word ${off.value.word}`, max);
  return ok({ area, ...off.value });
}

/** { area: 'R', word: 10, bit: 15 } → "R10F"; word 0 → "X5", "X0F". */
export const formatBitAddress = (a: BitAddress): string => a.area + formatBitOffset(a.word, a.bit);

/** "DT100" → { area: 'DT', address: 100 }; checks the area's limit (spec §9). */
export function parseWordAddress(text: string): Result<WordAddress> {
  const area = text.slice(0, 2).toUpperCase();
  const digits = text.slice(2);
  if (!isWordArea(area)) return fail('invalid_area', `"${text}" does not start with ${WORD_AREAS.join(', ')}`);
  if (!/^\d{1,7}$/.test(digits)) return fail('invalid_characters', `"${text}": the address must be decimal digits`);
  const address = Number(digits);
  if (address > AREA_MAX[area]) return outOfRange(`${area}${address}`, AREA_MAX[area]);
  return ok({ area, address });
}

export const formatWordAddress = (a: WordAddress): string => a.area + a.address;

/** mewtocol.md §2.1: bit index = word × 16 + bit (Y10F = 175). */
export const bitIndex = (word: number, bit: number): number => word * 16 + bit;
export const fromBitIndex = (index: number): { word: number; bit: number } => ({ word: Math.floor(index / 16), bit: index % 16 });

/** True when `count` words from `start` lie inside the area (spec §9). */
export const inArea = (area: WordArea, start: number, count = 1): boolean =>
  Number.isInteger(start) && Number.isInteger(count) && count >= 1 && start >= 0 && start + count - 1 <= AREA_MAX[area];
