import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../device/logger/csv-numbers.ts';
import { decimalNumber, readColumn } from './csv-columns.ts';

const values = (a: Float64Array) => Array.from(a, (x) => (Number.isNaN(x) ? null : x));

describe('a value column', () => {
  it('fixed and exponent notation with either decimal separator', () => {
    expect(values(readColumn(['1.50', '-2', '1.23E+04', '', '5e-1'], '.').values)).toEqual([1.5, -2, 12300, null, 0.5]);
    expect(values(readColumn(['1,50', '-2', '1,23E+04'], ',').values)).toEqual([1.5, -2, 12300]);
    expect(decimalNumber('1,5', '.')).toBeUndefined();
    expect(decimalNumber('0x10', '.')).toBeUndefined();
    expect(decimalNumber(' 1', '.')).toBeUndefined();
    for (const bad of ['', '+', '-', '.', '1e', '1e+', 'e5', '1.2.3', '1,2', '--1', '1-', '12a', 'Infinity', '1 '])
      expect(decimalNumber(bad, '.'), bad).toBeUndefined();
    expect([decimalNumber('1.', '.'), decimalNumber('.5', '.'), decimalNumber('+7', '.'), decimalNumber('-1,5', ',')]).toEqual([1, 0.5, 7, -1.5]);
    expect(decimalNumber('123456789012345678', '.')).toBe(123456789012345678);
  });

  it('reads every decimal text exactly as Number() does (property)', () => {
    const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(
        fc.constantFrom('', '-', '+'),
        digits,
        fc.option(fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 12 })),
        fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 320 }))),
        fc.constantFrom('.', ',') as fc.Arbitrary<'.' | ','>,
        (sign, whole, fraction, exp, dec) => {
          const text = `${sign}${whole}${fraction === null ? '' : `.${fraction}`}${exp === null ? '' : exp[0] + exp[1] + exp[2]}`;
          expect(Object.is(decimalNumber(text.replace('.', dec), dec), Number(text))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('NaN and the infinities the logger writes are gaps, not texts', () => {
    expect(readColumn(['1', 'NaN', 'Infinity', '-Infinity', '2'], '.')).toMatchObject({ numeric: true });
    expect(values(readColumn(['1', 'NaN', 'Infinity', '-Infinity', '2'], '.').values)).toEqual([1, null, null, null, 2]);
  });

  it('hex and bin points in their digits', () => {
    expect(values(readColumn(['00FF', '0010', '', 'A000'], '.').values)).toEqual([255, 16, null, 40960]);
    expect(values(readColumn(['0001FFFF', '00000010'], '.').values)).toEqual([131071, 16]);
    expect(values(readColumn(['0000000000000101', '1000000000000000'], '.').values)).toEqual([5, 32768]);
  });

  it('four digits without a leading zero or a letter stay decimal', () => {
    expect(values(readColumn(['1000', '2345'], '.').values)).toEqual([1000, 2345]);
    expect(values(readColumn(['0', '1000'], '.').values)).toEqual([0, 1000]);
  });

  it('one repeated text without digits beside numbers is the failed-read mark of a format file', () => {
    const c = readColumn(['12', 'ERR', '13', 'ERR'], '.');
    expect([c.numeric, values(c.values)]).toEqual([true, [12, null, 13, null]]);
    expect(readColumn(['ERR', 'ERR'], '.').numeric).toBe(false);
    expect(readColumn(['12', 'E1', '13'], '.').numeric).toBe(false);
  });

  it('texts make a text column (ascii, string, dt)', () => {
    for (const fields of [['AB', 'CD'], ['12', 'AB', 'CD'], ['OK'], ['2026/01/02 10:00:00', '2026/01/02 10:00:01']]) {
      const c = readColumn(fields, '.');
      expect(c.numeric, fields.join()).toBe(false);
      expect(values(c.values).every((v) => v === null)).toBe(true);
    }
    expect(readColumn(['', ''], '.').numeric).toBe(true); // only failed reads: a series without points
  });

  it('reads back every value the logger writes (property, device/logger/csv-numbers.ts)', () => {
    const notation = fc.constantFrom('fixed', 'exp', 'hex4', 'hex8', 'bin16') as fc.Arbitrary<'fixed' | 'exp' | 'hex4' | 'hex8' | 'bin16'>;
    fc.assert(
      fc.property(
        notation,
        fc.integer({ min: 0, max: 6 }),
        fc.constantFrom('.', ',') as fc.Arbitrary<'.' | ','>,
        fc.array(fc.integer({ min: 0, max: 65535 }), { minLength: 1, maxLength: 30 }),
        (n, decimals, dec, ints) => {
          const col = { notation: n, decimals };
          const fields = ints.map((v) => formatNumber(v, col, dec));
          const back = readColumn(fields, dec);
          expect(back.numeric).toBe(true);
          const tolerance = n === 'exp' ? 10 ** (Math.floor(Math.log10(Math.max(...ints, 1))) - decimals) : 0;
          values(back.values).forEach((v, i) => {
            // a hex or bin column whose values show no leading zero or letter is read as decimal digits
            if (n !== 'fixed' && n !== 'exp' && !fields.some((f) => /^0.|[A-F]/.test(f))) return;
            expect(Math.abs(v! - ints[i]!)).toBeLessThanOrEqual(tolerance);
          });
        },
      ),
    );
  });
});
