// The words of each log data type and endianness (values-words.ts, values-text.ts): the table at
// the head of values-words.ts and round trips of every type in every order.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENDIANS, LOG_TYPES, type LogType, typeWords } from '../model/sections/logfile.ts';
import { wordToHex } from '../protocol/ascii.ts';
import { dtText } from './values-text.ts';
import { decodeValue, type Endian, encodeValue } from './values-words.ts';

const T = Object.fromEntries(LOG_TYPES.map((name, code) => [name, code])) as Record<(typeof LOG_TYPES)[number], LogType>;
const dec = (type: LogType, words: number[], endian: Endian = 'little') => decodeValue(type, words, endian);

describe('endianness (the table at the head of values-words.ts)', () => {
  it.each([
    ['little', [0x5678, 0x1234], 0x1234],
    ['big', [0x3412, 0x7856], 0x3412],
    ['middle', [0x1234, 0x5678], 0x1234],
    ['mixed', [0x7856, 0x3412], 0x3412],
  ] as const)('%s: 0x12345678 and 0x1234', (endian, words32, word16) => {
    expect(dec(T.udint, [...words32], endian)).toBe(0x12345678);
    expect(encodeValue(T.udint, 0x12345678, endian)).toEqual(words32);
    expect(dec(T.uint, [0x1234], endian)).toBe(word16);
  });

  it('little is the FP order: DT n holds the low word (mewtocol.md §2.2 RD example DT1105=0x0063, DT1106=0x3344)', () => {
    expect(dec(T.udint, [0x0063, 0x3344])).toBe(0x33440063);
    // as the PLC stores the bytes (each word low byte first) little is plain little endian
    expect(encodeValue(T.udint, 0x33440063, 'little').map(wordToHex).join('')).toBe('63004433');
    expect(encodeValue(T.udint, 0x33440063, 'big').map(wordToHex).join('')).toBe('33440063');
  });

  it('64-bit over four words', () => {
    const v = 0x0102030405060708n;
    expect(encodeValue(T.uint64, v, 'little')).toEqual([0x0708, 0x0506, 0x0304, 0x0102]);
    expect(encodeValue(T.uint64, v, 'big')).toEqual([0x0201, 0x0403, 0x0605, 0x0807]);
    expect(encodeValue(T.uint64, v, 'middle')).toEqual([0x0102, 0x0304, 0x0506, 0x0708]);
    expect(encodeValue(T.uint64, v, 'mixed')).toEqual([0x0807, 0x0605, 0x0403, 0x0201]);
    for (const e of ENDIANS) expect(dec(T.uint64, encodeValue(T.uint64, v, e), e)).toBe(v);
  });
});

const endian = fc.constantFrom(...ENDIANS);
const word = fc.integer({ min: 0, max: 0xffff });
const INTS: [LogType, fc.Arbitrary<number | bigint>][] = [
  [T.int, fc.integer({ min: -32768, max: 32767 })],
  [T.uint, word],
  [T.hex, word],
  [T.bin, word],
  [T.dint, fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })],
  [T.udint, fc.integer({ min: 0, max: 2 ** 32 - 1 })],
  [T.hex32, fc.integer({ min: 0, max: 2 ** 32 - 1 })],
  [T.int64, fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n)],
  [T.uint64, fc.bigInt(0n, 2n ** 64n - 1n)],
];

describe('round trips (property)', () => {
  it.each(INTS)('type %i: value → words → value, and words → value → words', (type, values) => {
    fc.assert(
      fc.property(values, endian, (v, e) => {
        const words = encodeValue(type, v, e);
        expect(words).toHaveLength(typeWords(type));
        expect(decodeValue(type, words, e)).toBe(v);
      }),
    );
    fc.assert(
      fc.property(fc.array(word, { minLength: typeWords(type), maxLength: typeWords(type) }), endian, (words, e) => {
        expect(encodeValue(type, decodeValue(type, words, e) as number | bigint, e)).toEqual(words);
      }),
    );
  });

  it.each([T.real, T.realex])('type %i: every float but NaN keeps its bits', (type) => {
    fc.assert(
      fc.property(fc.float({ noNaN: true }), endian, (f, e) => {
        const v = decodeValue(type, encodeValue(type, f, e), e) as number;
        expect(Object.is(Math.fround(v), f)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(word, word, endian, (a, b, e) => {
        const v = decodeValue(type, [a, b], e) as number;
        if (!Number.isNaN(v)) expect(encodeValue(type, v, e)).toEqual([a, b]);
      }),
    );
  });

  it.each([T.lreal, T.lrealex])('type %i: every double but NaN', (type) => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), endian, (d, e) => {
        expect(Object.is(decodeValue(type, encodeValue(type, d, e), e), d)).toBe(true);
      }),
    );
  });

  it('texts and dt', () => {
    const char = fc.integer({ min: 1, max: 255 }).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.string({ unit: char, maxLength: 48 }), endian, (s, e) => {
        expect(decodeValue(T.string, encodeValue(T.string, s, e), e)).toBe(s);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: char, maxLength: 2 }), endian, (s, e) => {
        expect(decodeValue(T.ascii, encodeValue(T.ascii, s, e), e)).toBe(s);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), endian, (s, e) => {
        const text = dtText(s);
        expect(decodeValue(T.dt, encodeValue(T.dt, s, e), e)).toBe(text);
        expect(encodeValue(T.dt, text, e)).toEqual(encodeValue(T.dt, s, e));
      }),
    );
  });
});
