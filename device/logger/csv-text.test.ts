// Dates and times are local: the zone is pinned before any Date is made (and put back afterwards).
const savedTz = process.env.TZ;
process.env.TZ = 'Europe/Berlin';

import fc from 'fast-check';
import * as v from 'valibot';
import { afterAll, describe, expect, it } from 'vitest';
import { type LogRecord, recordSchema } from '../model/sections/logfile.ts';
import {
  type ColumnFormat,
  columnFormat,
  csvFormat,
  formatLine,
  formatNumber,
  headerLines,
  neutraliseText,
  offsetCalendar,
  quoteField,
  registerText,
} from './csv-text.ts';
import type { Log, LogValue } from './types.ts';

afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const rec = (r: Partial<LogRecord> & { name: string }): LogRecord => v.parse(recordSchema, r);
const settings = (s: Partial<Pick<Log, 'header' | 'csv_separator' | 'dec_separator'>> = {}) =>
  ({ header: 1, csv_separator: 'comma', dec_separator: 'point', ...s }) as const;
const AT = new Date(2024, 0, 31, 13, 45, 7).getTime();
const fixed = (decimals: number): ColumnFormat => ({ decimals, notation: 'fixed' });

// level: REAL 1 decimal; count: UINT; state: ASCII text; pressure: failed read
const POINTS = [
  rec({ name: 'level', dim: 'm', type: 7, decimal: 1, if: 0, reg_addr: '100' }),
  rec({ name: 'count', type: 1, if: 4, reg_addr: '5' }),
  rec({ name: 'state', type: 11, if: 5, area: 6, reg_addr: '10A' }),
  rec({ name: 'pressure', dim: 'bar', type: 7, decimal: 2, if: 3, plc_addr: 10, area: 2, reg_addr: '0007' }),
];
const VALUES: LogValue[] = [1.25, 42, 'a;b', null];

describe('data lines: separators, decimals, quoting', () => {
  it.each([
    ['comma', 'point', '2024/01/31,13:45:07,1.3,42,a;b,\r\n'],
    ['semicolon', 'point', '2024/01/31;13:45:07;1.3;42;"a;b";\r\n'],
    ['semicolon', 'comma', '2024/01/31;13:45:07;1,3;42;"a;b";\r\n'],
    ['slash', 'comma', '2024-01-31/13:45:07/1,3/42/a;b/\r\n'],
    ['tab', 'point', '2024/01/31\t13:45:07\t1.3\t42\ta;b\t\r\n'],
  ] as const)('%s with decimal %s', (csv_separator, dec_separator, expected) => {
    const fmt = csvFormat(settings({ csv_separator, dec_separator }), POINTS);
    expect(formatLine({ at: AT, values: VALUES }, fmt)).toBe(expected);
  });

  it('quotes texts only when they hold the separator, a quote, CR or LF (RFC 4180)', () => {
    expect(quoteField('plain text', ',')).toBe('plain text');
    expect(quoteField('a,b', ',')).toBe('"a,b"');
    expect(quoteField('say "hi"', ',')).toBe('"say ""hi"""');
    expect(quoteField('two\r\nlines', ';')).toBe('"two\r\nlines"');
    expect(quoteField('a\nb', ';')).toBe('"a\nb"');
    expect(quoteField('a,b', ';')).toBe('a,b');
    expect(quoteField('2024-01-02 03:04:05', '/')).toBe('2024-01-02 03:04:05');
  });

  it('local time, also across the clock changes', () => {
    const fmt = csvFormat(settings(), [rec({ name: 'x' })]);
    const line = (at: number) => formatLine({ at, values: [1] }, fmt);
    expect(line(Date.UTC(2024, 9, 27, 0, 30))).toBe('2024/10/27,02:30:00,1\r\n'); // CEST
    expect(line(Date.UTC(2024, 9, 27, 1, 30))).toBe('2024/10/27,02:30:00,1\r\n'); // CET
    expect(line(Date.UTC(2024, 2, 31, 1, 0))).toBe('2024/03/31,03:00:00,1\r\n');
    expect(line(Date.UTC(2024, 2, 30, 23, 0, 0))).toBe('2024/03/31,00:00:00,1\r\n');
    const india = csvFormat(settings(), [rec({ name: 'x' })], { calendar: offsetCalendar(() => 330) });
    expect(formatLine({ at: Date.UTC(2024, 0, 31, 20, 0, 9), values: [1] }, india)).toBe('2024/02/01,01:30:09,1\r\n');
  });

  it('one value per column', () => {
    const fmt = csvFormat(settings(), POINTS);
    expect(() => formatLine({ at: AT, values: [1] }, fmt)).toThrow(RangeError);
    expect(() => csvFormat(settings({ header: 4 }), POINTS)).toThrow(/format file/);
  });
});

describe('numbers', () => {
  it('exactly `decimal` digits, rounded half away from zero', () => {
    const f = (x: number | bigint, d: number, sep: '.' | ',' = '.') => formatNumber(x, fixed(d), sep);
    expect(f(2.5, 0)).toBe('3');
    expect(f(-2.5, 0)).toBe('-3');
    expect(f(0.125, 2)).toBe('0.13');
    expect(f(1.005, 2)).toBe('1.01');
    expect(f(-1.005, 2)).toBe('-1.01');
    expect(f(1.1, 9)).toBe('1.100000000');
    expect(f(-0.004, 2)).toBe('0.00');
    expect(f(-0, 1)).toBe('0.0');
    expect(f(999.96, 1)).toBe('1000.0');
    expect(f(1.5e-7, 9)).toBe('0.000000150');
    expect(f(1e21, 0)).toBe('1000000000000000000000');
    expect(f(123456.789, 2, ',')).toBe('123456,79');
    expect(f(7, 3)).toBe('7.000');
    expect(f(2n ** 64n - 1n, 0)).toBe('18446744073709551615');
    expect(f(-(2n ** 63n), 2)).toBe('-9223372036854775808.00');
    expect(f(NaN, 2)).toBe('NaN');
    expect(f(-Infinity, 2)).toBe('-Infinity');
  });

  it('exponent (realex, lrealex), hex and binary', () => {
    const e = (x: number | bigint, d: number, sep: '.' | ',' = '.') => formatNumber(x, { decimals: d, notation: 'exp' }, sep);
    expect(e(12345.678, 3)).toBe('1.235E+04');
    expect(e(0.000123, 2)).toBe('1.23E-04');
    expect(e(-9.996, 2)).toBe('-1.00E+01');
    expect(e(0, 2)).toBe('0.00E+00');
    expect(e(1.5, 0)).toBe('2E+00');
    expect(e(6.02214076e23, 4, ',')).toBe('6,0221E+23');
    expect(e(1e-300, 1)).toBe('1.0E-300');
    expect(e(2n ** 64n, 3)).toBe('1.845E+19');
    expect(formatNumber(255, { decimals: 2, notation: 'hex4' }, '.')).toBe('00FF');
    expect(formatNumber(0xdeadbeef, { decimals: 0, notation: 'hex8' }, '.')).toBe('DEADBEEF');
    expect(formatNumber(5, { decimals: 0, notation: 'bin16' }, '.')).toBe('0000000000000101');
    expect(formatNumber(-3, { decimals: 1, notation: 'hex4' }, '.')).toBe('-3.0'); // not a word: fixed
    expect(formatNumber(2.5, { decimals: 1, notation: 'bin16' }, '.')).toBe('2.5');
    expect(formatNumber(70000, { decimals: 0, notation: 'hex4' }, '.')).toBe('70000');
  });

  it('fixed text reads back within half a unit of the last digit (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), fc.integer({ min: 0, max: 9 }), (x, d) => {
        const s = formatNumber(x, fixed(d), '.');
        expect(s).toMatch(d === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${d}}$`));
        expect(Math.abs(Number(s) - x)).toBeLessThanOrEqual(0.5 * 10 ** -d + Math.abs(x) * 1e-15);
      }),
    );
  });

  it('ties go away from zero; bigint is exact (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e6 }), (k) => {
        expect(formatNumber(k + 0.5, fixed(0), '.')).toBe(String(k + 1));
        expect(formatNumber(-(k + 0.5), fixed(0), '.')).toBe(String(-(k + 1)));
      }),
    );
    fc.assert(
      fc.property(fc.bigInt(-(2n ** 63n), 2n ** 64n), fc.integer({ min: 0, max: 18 }), (b, d) => {
        expect(formatNumber(b, fixed(d), ',')).toBe(d === 0 ? b.toString() : `${b},${'0'.repeat(d)}`);
      }),
    );
  });

  it('column notation by type, value kind and scaling', () => {
    expect(columnFormat(rec({ name: 'a', type: 2 }))).toEqual({ decimals: 0, notation: 'hex4' });
    expect(columnFormat(rec({ name: 'a', type: 6 }))).toEqual({ decimals: 0, notation: 'hex8' });
    expect(columnFormat(rec({ name: 'a', type: 3 }))).toEqual({ decimals: 0, notation: 'bin16' });
    expect(columnFormat(rec({ name: 'a', type: 2, format: 'difference' })).notation).toBe('fixed');
    expect(columnFormat(rec({ name: 'a', type: 2, enable_scal: true, decimal: 2 }))).toEqual({ decimals: 2, notation: 'fixed' });
    expect(columnFormat(rec({ name: 'a', type: 2, area: 4, reg_addr: '1A' })).notation).toBe('fixed');
    expect(columnFormat(rec({ name: 'a', type: 8, decimal: 3 }))).toEqual({ decimals: 3, notation: 'exp' });
    expect(columnFormat(rec({ name: 'a', type: 15, format: 'average' })).notation).toBe('exp');
    expect(columnFormat(rec({ name: 'a', type: 9, decimal: 18 }))).toEqual({ decimals: 18, notation: 'fixed' });
  });
});

describe('header modes 0-3', () => {
  const header = (mode: 0 | 1 | 2 | 3, csv_separator: Log['csv_separator'] = 'comma') =>
    headerLines(POINTS, csvFormat(settings({ header: mode, csv_separator }), POINTS));

  it('0: none; 1: names; 2: units; 3: sources', () => {
    expect(header(0)).toEqual([]);
    expect(header(1)).toEqual(['Date,Time,level,count,state,pressure\r\n']);
    expect(header(2)).toEqual(['Date,Time,level,count,state,pressure\r\n', ',,m,,,bar\r\n']);
    expect(header(3)).toEqual(['Date,Time,level,count,state,pressure\r\n', ',,m,,,bar\r\n', ',,COM1 DT100,INTERNAL DT5,COM4 R10A,COM2 FL7\r\n']);
  });

  it('with the tab and slash separators', () => {
    expect(header(2, 'tab')).toEqual(['Date\tTime\tlevel\tcount\tstate\tpressure\r\n', '\t\tm\t\t\tbar\r\n']);
    expect(header(3, 'slash')[2]).toBe('//COM1 DT100/INTERNAL DT5/COM4 R10A/COM2 FL7\r\n');
  });

  it('quotes a name or unit that holds the separator', () => {
    const points = [rec({ name: 'a b', dim: 'm,s' })];
    expect(headerLines(points, csvFormat(settings({ header: 2 }), points))).toEqual(['Date,Time,a b\r\n', ',,"m,s"\r\n']);
  });

  it('register texts', () => {
    expect(registerText({ area: 1, reg_addr: '0100' })).toBe('DT100');
    expect(registerText({ area: 3, reg_addr: '16384' })).toBe('LD16384');
    expect(registerText({ area: 4, reg_addr: '1A' })).toBe('X1A');
    expect(registerText({ area: 5, reg_addr: '0' })).toBe('Y0');
    expect(registerText({ area: 6, reg_addr: '999F' })).toBe('R999F');
  });
});

describe('one record, one line', () => {
  it('line breaks inside a text value become spaces, so a line end always ends a record', () => {
    const recs = [{ ...(v.getDefaults(recordSchema) as LogRecord), name: 'msg', type: 13 as const }];
    const fmt = csvFormat({ header: 0, csv_separator: 'comma', dec_separator: 'point' }, recs, { calendar: offsetCalendar(() => 0) });
    const line = formatLine({ at: 0, values: ['a\r\nb,c\nd'] }, fmt);
    expect(line).toBe('1970/01/01,00:00:00,"a  b,c d"\r\n');
    expect(line.indexOf('\n')).toBe(line.length - 1);
  });
});

describe('formula injection (security.md CSV-1)', () => {
  it('a text beginning with =, +, -, @, tab or CR gets a leading quote mark', () => {
    for (const t of ["=cmd|' /C calc'!A0", '+A1', '-A1+1', '@SUM(A1:A2)', '\tcalc', '\r=1', '-', '+', '=']) expect(neutraliseText(t)).toBe(`'${t}`);
  });

  it('numbers written as text stay numbers, other texts stay as they are', () => {
    for (const t of ['-12.5', '+3', '-1,5', '-1.5E3', '+.5', '-7', 'ok', 'a=b', ' =1', '12-3', '']) expect(neutraliseText(t)).toBe(t);
    for (const t of ['-1-1', '-1.5E', '--1', '-1..2', '-e5']) expect(neutraliseText(t)).toBe(`'${t}`);
  });

  it('in a line: neutralised, then quoted; a leading CR keeps its mark; numbers of numeric types unchanged', () => {
    const fmt = csvFormat(settings({ csv_separator: 'semicolon' }), [rec({ name: 's', type: 13 }), rec({ name: 'c', type: 13 }), rec({ name: 'n', type: 0 })]);
    expect(formatLine({ at: AT, values: ['=HYPERLINK("x";"y")', '\r@x', -5] }, fmt)).toBe(`2024/01/31;13:45:07;"'=HYPERLINK(""x"";""y"")";' @x;-5\r\n`);
  });
});
