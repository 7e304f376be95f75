// A data point's PLC words and the value they hold (spec §3 log data types 0–15 and endianness;
// mewtocol.md §2.2 data encoding). Pure: decode for the logger, encode for tests and the simulator.
//
// `words` are the 16-bit words as read, words[0] at the point's address; the protocol has already
// undone the wire's low-byte-first order (mewtocol.md §2.2), so each word is its plain value.
//
// Endianness says where a value's bytes B0 (least significant) … Bn sit in those words:
//
//   endian   word order        bytes in a word   0x12345678 in [DTn, DTn+1]   0x1234 in DTn
//   little   low word first    as read           [0x5678, 0x1234]             0x1234
//   big      high word first   swapped           [0x3412, 0x7856]             0x3412
//   middle   high word first   as read           [0x1234, 0x5678]             0x1234
//   mixed    low word first    swapped           [0x7856, 0x3412]             0x3412
//
// little is the FP PLCs' own order (mewtocol.md §2.2: 32-bit = low word first). Seen as the bytes
// the PLC stores (each word low byte first) little is B0 B1 B2 B3 and big B3 B2 B1 B0, true little
// and big endian; middle (B2 B3 B0 B1) and mixed (B1 B0 B3 B2) are the two half-swapped orders.
// 64-bit values follow the same rule over four words (big: B7 … B0). Text (ascii, string) is a
// sequence of characters in address order: big and mixed swap the two characters of each word,
// the STRING header words included.
import { type ENDIANS, type LogType, STRING_TYPE } from '../model/sections/logfile.ts';
import type { LogValue } from './types.ts';
import { asciiText, asciiWords, dtSeconds, dtText, stringText, stringWords } from './values-text.ts';

export type Endian = (typeof ENDIANS)[number];

type Numeric = 'i16' | 'u16' | 'i32' | 'u32' | 'f32' | 'i64' | 'u64' | 'f64';
// spec §3 log data types by code; hex and bin are unsigned words the CSV writes in hex or binary
// (csv-numbers.ts), realex and lrealex the same IEEE values the CSV writes with an exponent
const NUMERIC: Partial<Record<LogType, Numeric>> = {
  0: 'i16',
  1: 'u16',
  2: 'u16',
  3: 'u16',
  4: 'i32',
  5: 'u32',
  6: 'u32',
  7: 'f32',
  8: 'f32',
  9: 'i64',
  10: 'u64',
  14: 'f64',
  15: 'f64',
};
const SIZE: Record<Numeric, number> = { i16: 1, u16: 1, i32: 2, u32: 2, f32: 2, i64: 4, u64: 4, f64: 4 };
const ASCII = 11;
const DT = 12;

const swapBytes = (w: number): number => ((w & 0xff) << 8) | ((w >> 8) & 0xff);
const reversesWords = (e: Endian): boolean => e === 'big' || e === 'middle';
const swapsBytes = (e: Endian): boolean => e === 'big' || e === 'mixed';

/** The value's bytes least significant first: the words put in little order (see the head). */
function littleView(words: readonly number[], endian: Endian): DataView {
  const n = words.length;
  const view = new DataView(new ArrayBuffer(n * 2));
  for (let i = 0; i < n; i++) {
    const w = words[reversesWords(endian) ? n - 1 - i : i]! & 0xffff;
    view.setUint16(i * 2, swapsBytes(endian) ? swapBytes(w) : w, true);
  }
  return view;
}

/** The words of a value whose bytes, least significant first, are in `view`. */
function wordsOf(view: DataView, endian: Endian): number[] {
  const little = Array.from({ length: view.byteLength / 2 }, (_, i) => view.getUint16(i * 2, true));
  const ordered = reversesWords(endian) ? little.reverse() : little;
  return swapsBytes(endian) ? ordered.map(swapBytes) : ordered;
}

/**
 * The REAL as the shortest decimal that reads back as the same float (what the PLC's tools show),
 * so a REAL 1.1 logs as 1.1 and not as 1.100000023841858; its float bits are unchanged.
 */
export function float32Value(f: number): number {
  if (!Number.isFinite(f) || f === 0) return f;
  for (let p = 1; p <= 9; p++) {
    const n = Number(f.toPrecision(p));
    if (Math.fround(n) === f) return n;
  }
  return f;
}

function readNumeric(kind: Numeric, v: DataView): number | bigint {
  switch (kind) {
    case 'i16':
      return v.getInt16(0, true);
    case 'u16':
      return v.getUint16(0, true);
    case 'i32':
      return v.getInt32(0, true);
    case 'u32':
      return v.getUint32(0, true);
    case 'f32':
      return float32Value(v.getFloat32(0, true));
    case 'i64':
      return v.getBigInt64(0, true);
    case 'u64':
      return v.getBigUint64(0, true);
    case 'f64':
      return v.getFloat64(0, true);
  }
}

const INT_RANGE: Partial<Record<Numeric, [bigint, bigint]>> = {
  i16: [-(2n ** 15n), 2n ** 15n - 1n],
  u16: [0n, 2n ** 16n - 1n],
  i32: [-(2n ** 31n), 2n ** 31n - 1n],
  u32: [0n, 2n ** 32n - 1n],
  i64: [-(2n ** 63n), 2n ** 63n - 1n],
  u64: [0n, 2n ** 64n - 1n],
};

/** The whole numbers a log data type holds (undefined: a float or text type). */
export function intRange(type: LogType): readonly [bigint, bigint] | undefined {
  const kind = NUMERIC[type];
  return kind ? INT_RANGE[kind] : undefined;
}

function writeNumeric(kind: Numeric, value: number | bigint, v: DataView): void {
  if (kind === 'f32') return v.setFloat32(0, Number(value), true);
  if (kind === 'f64') return v.setFloat64(0, Number(value), true);
  if (typeof value === 'number' && !Number.isInteger(value)) throw new RangeError(`${value} is not a whole number`);
  const n = BigInt(value);
  const [min, max] = INT_RANGE[kind]!;
  if (n < min || n > max) throw new RangeError(`${value} does not fit ${kind}`);
  if (kind === 'i64') v.setBigInt64(0, n, true);
  else if (kind === 'u64') v.setBigUint64(0, n, true);
  else if (kind === 'i16' || kind === 'u16') v.setUint16(0, Number(BigInt.asUintN(16, n)), true);
  else v.setUint32(0, Number(BigInt.asUintN(32, n)), true);
}

/**
 * The value of a data point of log data type `type` (spec §3 codes 0–15) from its words: a number
 * (int, uint, hex, bin, dint, udint, hex32, real, realex, lreal, lrealex), a bigint (int64, uint64:
 * exact) or a text (ascii, string, dt: values-text.ts). Too few words count as a failed read: null.
 * `chars` is n of a STRING[n] (48 when not given).
 */
export function decodeValue(type: LogType, words: readonly number[], endian: Endian, chars?: number): LogValue {
  const kind = NUMERIC[type];
  if (kind) return words.length < SIZE[kind] ? null : readNumeric(kind, littleView(words.slice(0, SIZE[kind]), endian));
  if (type === DT) return words.length < 2 ? null : dtText(littleView(words.slice(0, 2), endian).getUint32(0, true));
  const text = swapsBytes(endian) ? words.map((w) => swapBytes(w & 0xffff)) : words;
  if (type === ASCII) return asciiText(text);
  return type === STRING_TYPE ? stringText(text, chars) : null;
}

/**
 * The words that hold `value` as type `type` (the inverse of decodeValue; throws a RangeError for
 * a value the type cannot hold). dt takes the seconds since 2001 or the text decodeValue gives.
 * `chars` is n of a STRING[n] (48 when not given).
 */
export function encodeValue(type: LogType, value: number | bigint | string, endian: Endian, chars?: number): number[] {
  const kind = NUMERIC[type];
  if (kind) {
    if (typeof value === 'string') throw new RangeError(`type ${type} holds a number`);
    const view = new DataView(new ArrayBuffer(SIZE[kind] * 2));
    writeNumeric(kind, value, view);
    return wordsOf(view, endian);
  }
  if (type === DT) {
    const view = new DataView(new ArrayBuffer(4));
    view.setUint32(0, dtSeconds(value), true);
    return wordsOf(view, endian);
  }
  if (type !== ASCII && type !== STRING_TYPE) throw new RangeError(`unknown log data type ${type}`);
  if (typeof value !== 'string') throw new RangeError(`type ${type} holds a text`);
  const words = type === ASCII ? asciiWords(value) : stringWords(value, chars);
  return swapsBytes(endian) ? words.map(swapBytes) : words;
}
