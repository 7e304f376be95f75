import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOG_TYPE_CODES, LOG_TYPES, type LogType, typeWords } from '../model/sections/logfile.ts';
import {
  Average,
  bitValue,
  Difference,
  decodeValue,
  type Endian,
  encodeValue,
  float32Value,
  kindState,
  pointValue,
  type Scaling,
  scaleValue,
} from './values.ts';

const T = Object.fromEntries(LOG_TYPES.map((name, code) => [name, code])) as Record<(typeof LOG_TYPES)[number], LogType>;
const dec = (type: LogType, words: number[], endian: Endian = 'little') => decodeValue(type, words, endian);
const scaling = (plcMin: number, plcMax: number, logMin: number, logMax: number): Scaling => ({
  enable_scal: true,
  scal_plc_min: plcMin,
  scal_plc_max: plcMax,
  scal_log_min: logMin,
  scal_log_max: logMax,
});

describe('each log data type (spec §3 codes 0-15)', () => {
  it('16-bit', () => {
    expect(dec(T.int, [0xffff])).toBe(-1);
    expect(dec(T.int, [0x8000])).toBe(-32768);
    expect(dec(T.uint, [0xffff])).toBe(65535);
    expect(dec(T.hex, [0xbeef])).toBe(0xbeef);
    expect(dec(T.bin, [0x8001])).toBe(0x8001);
  });

  it('32-bit', () => {
    expect(dec(T.dint, [0xffff, 0xffff])).toBe(-1);
    expect(dec(T.dint, [0x0000, 0x8000])).toBe(-2147483648);
    expect(dec(T.udint, [0xffff, 0xffff])).toBe(4294967295);
    expect(dec(T.hex32, [0x5678, 0x1234])).toBe(0x12345678);
  });

  it('REAL as the shortest decimal of the float (0x3F8CCCCD = 1.1)', () => {
    expect(dec(T.real, [0xcccd, 0x3f8c])).toBe(1.1);
    expect(dec(T.realex, [0xcccd, 0x3f8c])).toBe(1.1);
    expect(dec(T.real, [0x0000, 0xc2c8])).toBe(-100);
    expect(dec(T.real, [0x0000, 0x8000])).toBe(-0);
    expect(dec(T.real, [0x0000, 0x7f80])).toBe(Infinity);
    expect(dec(T.real, [0x0001, 0x7fc0])).toBeNaN();
    expect(float32Value(Math.fround(0.1))).toBe(0.1);
    expect(float32Value(Math.fround(16777217))).toBe(16777216);
  });

  it('64-bit integers are bigint, exact', () => {
    expect(dec(T.int64, [0xffff, 0xffff, 0xffff, 0xffff])).toBe(-1n);
    expect(dec(T.int64, [0, 0, 0, 0x8000])).toBe(-(2n ** 63n));
    expect(dec(T.uint64, [0xffff, 0xffff, 0xffff, 0xffff])).toBe(2n ** 64n - 1n);
    expect(dec(T.uint64, [0x0001, 0, 0, 0x0020])).toBe(2n ** 53n + 1n); // beyond a double
  });

  it('LREAL and LREALEX', () => {
    const pi = encodeValue(T.lreal, Math.PI, 'little');
    expect(pi).toEqual([0x2d18, 0x5444, 0x21fb, 0x4009]);
    expect(dec(T.lreal, pi)).toBe(Math.PI);
    expect(dec(T.lrealex, pi)).toBe(Math.PI);
  });

  it('ascii: 2 characters of a word, low byte first', () => {
    expect(dec(T.ascii, [0x4241])).toBe('AB');
    expect(dec(T.ascii, [0x0041])).toBe('A');
    expect(dec(T.ascii, [0x4241], 'big')).toBe('BA');
    expect(dec(T.ascii, [0x4241], 'middle')).toBe('AB');
    expect(dec(T.ascii, [0])).toBe('');
  });

  it('string: header max and current length, then 2 characters a word (max 48)', () => {
    expect(dec(T.string, [32, 5, 0x6548, 0x6c6c, 0x006f, 0, 0])).toBe('Hello');
    expect(dec(T.string, [32, 4, 0x6548, 0x6c6c, 0x216f])).toBe('Hell');
    expect(dec(T.string, [32, 0, 0x6548])).toBe('');
    expect(dec(T.string, [32, 9, 0x6548])).toBe('He'); // current beyond the words read
    const long = 'x'.repeat(60);
    expect(dec(T.string, [60, 60, ...Array(30).fill(0x7878)])).toBe(long.slice(0, 48));
    expect(dec(T.string, [0x2000, 0x0300, 0x4142, 0x4300], 'mixed')).toBe('ABC');
    expect(encodeValue(T.string, 'Hi', 'little').slice(0, 4)).toEqual([48, 2, 0x6948, 0]);
    expect(() => encodeValue(T.string, 'y'.repeat(49), 'little')).toThrow(RangeError);
  });

  it('string: a STRING[n] point reads at most n characters (its str_len)', () => {
    const words = encodeValue(T.string, 'Level 3 ok', 'little', 10);
    expect(words).toEqual([10, 10, 0x654c, 0x6576, 0x206c, 0x2033, 0x6b6f]);
    expect(decodeValue(T.string, words, 'little', 10)).toBe('Level 3 ok');
    expect(() => encodeValue(T.string, 'Level 3 ok!', 'little', 10)).toThrow(RangeError);
    // a header longer than the point's STRING[9] is cut at its 9 characters, as at the words read
    expect(decodeValue(T.string, [9, 12, 0x6548, 0x6c6c, 0x206f, 0x6f77, 0x6c72], 'little', 9)).toBe('Hello wor');
    expect(
      pointValue(
        { type: T.string, endian: 'little', str_len: 9, enable_scal: false, scal_plc_min: 0, scal_plc_max: 1, scal_log_min: 0, scal_log_max: 1 },
        [9, 12, 0x6548, 0x6c6c, 0x206f, 0x6f77, 0x6c72],
      ),
    ).toBe('Hello wor');
  });

  it('dt: PLC clock seconds since 2001-01-01 (spec §9: 978307200 s after 1970)', () => {
    expect(dec(T.dt, [0, 0])).toBe('2001-01-01 00:00:00');
    const s = Date.UTC(2024, 0, 2, 13, 45, 7) / 1000 - 978307200;
    expect(dec(T.dt, [s & 0xffff, s >>> 16])).toBe('2024-01-02 13:45:07');
    expect(dec(T.dt, [0xffff, 0xffff])).toBe('2137-02-07 06:28:15');
    expect(encodeValue(T.dt, '2024-01-02 13:45:07', 'little')).toEqual([s & 0xffff, s >>> 16]);
    expect(() => encodeValue(T.dt, '2024-02-30 00:00:00', 'little')).toThrow(RangeError);
  });

  it('too few words is a failed read; the model’s typeWords are enough for every type', () => {
    for (const type of LOG_TYPE_CODES) {
      expect(dec(type, Array(typeWords(type)).fill(0x3031))).not.toBeNull();
      if (type !== T.ascii && type !== T.string) expect(dec(type, Array(typeWords(type) - 1).fill(0))).toBeNull();
    }
    expect(dec(T.ascii, [])).toBeNull();
    expect(dec(T.string, [1])).toBeNull();
  });

  it('encoders refuse values a type cannot hold', () => {
    expect(() => encodeValue(T.int, 32768, 'little')).toThrow(RangeError);
    expect(() => encodeValue(T.uint, -1, 'little')).toThrow(RangeError);
    expect(() => encodeValue(T.dint, 1.5, 'little')).toThrow(RangeError);
    expect(() => encodeValue(T.uint64, 2n ** 64n, 'little')).toThrow(RangeError);
    expect(() => encodeValue(T.ascii, 'ABC', 'little')).toThrow(RangeError);
    expect(() => encodeValue(T.real, 'x', 'little')).toThrow(RangeError);
  });
});

describe('bits, scaling, point values', () => {
  it('X, Y, R points are one bit of their word', () => {
    expect(bitValue([0b1010], 1)).toBe(1);
    expect(bitValue([0b1010], 2)).toBe(0);
    expect(bitValue([0x8000], 15)).toBe(1);
    expect(bitValue([], 0)).toBeNull();
    const rec = { type: T.dint, endian: 'little', enable_scal: false, scal_plc_min: 0, scal_plc_max: 100, scal_log_min: 0, scal_log_max: 100 } as const;
    expect(pointValue(rec, [0x0400], 10)).toBe(1);
    expect(pointValue(rec, null, 10)).toBeNull();
    expect(pointValue(rec, [0x5678, 0x1234])).toBe(0x12345678);
    expect(pointValue({ ...rec, enable_scal: true, scal_plc_max: 10 }, [0x0400], 10)).toBe(10);
  });

  it('maps the PLC range onto the log range (4..20 mA as 0..100 %)', () => {
    const s = scaling(4, 20, 0, 100);
    expect(scaleValue(4, s)).toBe(0);
    expect(scaleValue(12, s)).toBe(50);
    expect(scaleValue(20, s)).toBe(100);
    expect(scaleValue(24, s)).toBe(125); // no clamping
    expect(scaleValue(2n ** 60n, scaling(0, 2 ** 60, 0, 1))).toBe(1);
    expect(scaleValue(null, s)).toBeNull();
    expect(scaleValue('AB', s)).toBe('AB');
    expect(scaleValue(7, { ...s, enable_scal: false })).toBe(7);
    expect(scaleValue(123n, { ...s, enable_scal: false })).toBe(123n);
    expect(scaleValue(5, scaling(10, 10, 0, 1))).toBeNull();
  });

  it('scaling is monotonic (property)', () => {
    const n = fc.double({ min: -1e9, max: 1e9, noNaN: true });
    fc.assert(
      fc.property(n, n, n, n, n, n, (p1, p2, l1, l2, x1, x2) => {
        fc.pre(p1 !== p2);
        const s = scaling(Math.min(p1, p2), Math.max(p1, p2), l1, l2);
        const [a, b] = x1 <= x2 ? [x1, x2] : [x2, x1];
        const [ya, yb] = [scaleValue(a, s) as number, scaleValue(b, s) as number];
        if (l2 >= l1) expect(ya).toBeLessThanOrEqual(yb);
        else expect(ya).toBeGreaterThanOrEqual(yb);
        expect(scaleValue(s.scal_plc_min, s) === l1).toBe(true); // -0 and 0 alike
      }),
    );
  });
});

describe('value kinds', () => {
  it('difference: null first, then this read minus the previous; a gap keeps the last good value', () => {
    const d = new Difference();
    expect(d.next(10)).toBeNull();
    expect(d.next(15)).toBe(5);
    expect(d.next(null)).toBeNull();
    expect(d.next(22)).toBe(7);
    expect(d.next(2)).toBe(-20);
  });

  it('difference of 64-bit values is exact (property)', () => {
    const big = fc.bigInt(-(2n ** 63n), 2n ** 64n - 1n);
    fc.assert(
      fc.property(big, big, (a, b) => {
        const d = new Difference();
        d.next(a);
        expect(d.next(b)).toBe(b - a);
      }),
    );
    const d = new Difference();
    d.next(2n ** 53n);
    expect(d.next(2n ** 53n + 1n)).toBe(1n);
  });

  it('average: mean of the samples, null without samples', () => {
    const a = new Average();
    expect(a.take()).toBeNull();
    [1, 2, null, 6].forEach((v) => a.add(v));
    expect(a.samples).toBe(3);
    expect(a.take()).toBe(3);
    expect(a.take()).toBeNull();
    a.add(2n ** 62n);
    a.add(2n ** 62n + 2n);
    expect(a.take()).toBe(2n ** 62n + 1n);
    a.add(1n);
    a.add(2n);
    expect(a.take()).toBe(1.5);
  });

  it('kind state per point', () => {
    const m = kindState('momentary');
    m.sample(99);
    expect(m.record(5)).toBe(5);
    const d = kindState('difference');
    d.sample(1000);
    expect(d.record(5)).toBeNull();
    expect(d.record(8)).toBe(3);
    const a = kindState('average');
    expect(a.record(4)).toBe(4);
    a.sample(1);
    a.sample(2);
    expect(a.record(6)).toBe(3);
    expect(a.record(null)).toBeNull();
  });
});
