import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTrend, parseTrendText, TREND_MAX_BYTES, wallClockMs } from './csv-trend.ts';

const lines = (...l: string[]) => l.map((x) => `${x}\r\n`).join('');
const utc = (y: number, mo: number, d: number, h: number, mi: number, s: number) => Date.UTC(y, mo - 1, d, h, mi, s);
const values = (a: Float64Array) => Array.from(a, (x) => (Number.isNaN(x) ? null : x));

describe('date and time of a data line', () => {
  it('reads both date forms as the wall clock in UTC ms', () => {
    expect(wallClockMs('2026/11/21', '08:05:09')).toBe(utc(2026, 11, 21, 8, 5, 9));
    expect(wallClockMs('2026-11-21', '23:59:59')).toBe(utc(2026, 11, 21, 23, 59, 59));
  });

  it('refuses what is not a real date or time', () => {
    for (const [d, t] of [
      ['2026/02/30', '00:00:00'],
      ['2026/13/01', '00:00:00'],
      ['2026/00/10', '00:00:00'],
      ['2026/01/00', '00:00:00'],
      ['2026/01/01', '24:00:00'],
      ['2026/01/01', '10:60:00'],
      ['2026/01/01', '10:00:60'],
      ['2026/01-01', '10:00:00'],
      ['26/01/01', '10:00:00'],
      ['2026/01/01', '10:00'],
      ['Date', 'Time'],
      ['', ''],
    ])
      expect(wallClockMs(d!, t!), `${d} ${t}`).toBeNaN();
    expect(wallClockMs('2028/02/29', '00:00:00')).toBe(utc(2028, 2, 29, 0, 0, 0));
  });
});

describe('trend CSV', () => {
  it('header mode 0: comma, point, names Value n', () => {
    const t = parseTrendText(lines('2026/11/21,08:00:00,1.50,20', '2026/11/21,08:00:10,-2.25,21'))!;
    expect(t.separator).toBe(',');
    expect(t.decimal).toBe('.');
    expect(t.header).toEqual([]);
    expect(Array.from(t.times)).toEqual([utc(2026, 11, 21, 8, 0, 0), utc(2026, 11, 21, 8, 0, 10)]);
    expect(t.columns.map((c) => [c.name, c.unit, c.numeric, values(c.values)])).toEqual([
      ['Value 1', '', true, [1.5, -2.25]],
      ['Value 2', '', true, [20, 21]],
    ]);
    expect(t.skipped).toBe(0);
    expect(t.torn).toBe(false);
  });

  it('header mode 3: semicolon, decimal comma, names, units and source lines', () => {
    const t = parseTrendText(
      lines(
        'Date;Time;Temp;Pressure;Count',
        ';;°C;bar;',
        ';;COM1 DT100;INTERNAL DT5;COM4 R10A',
        '2026/11/21;08:00:00;21,5;1,013;7',
        '2026/11/21;08:00:01;;0,998;8',
      ),
    )!;
    expect([t.separator, t.decimal]).toEqual([';', ',']);
    expect(t.header).toHaveLength(3);
    expect(t.columns.map((c) => [c.name, c.unit])).toEqual([
      ['Temp', '°C'],
      ['Pressure', 'bar'],
      ['Count', ''],
    ]);
    expect(values(t.columns[0]!.values)).toEqual([21.5, null]); // an empty field is a failed read
    expect(values(t.columns[1]!.values)).toEqual([1.013, 0.998]);
    expect(values(t.columns[2]!.values)).toEqual([7, 8]);
  });

  it('slash separator with YYYY-MM-DD dates, tab separator', () => {
    const slash = parseTrendText(lines('Date/Time/A', '2026-01-02/03:04:05/1.5'))!;
    expect([slash.separator, slash.columns[0]!.name, values(slash.columns[0]!.values)]).toEqual(['/', 'A', [1.5]]);
    expect(slash.times[0]).toBe(utc(2026, 1, 2, 3, 4, 5));
    const tab = parseTrendText(lines('Date\tTime\tA\tB', '2026/01/02\t03:04:05\t1,5\t2'))!;
    expect([tab.separator, tab.decimal, values(tab.columns[0]!.values)]).toEqual(['\t', ',', [1.5]]);
  });

  it('decimal point with a semicolon, integers only', () => {
    expect(parseTrendText(lines('2026/01/02;03:04:05;1.5;2'))!.decimal).toBe('.');
    const ints = parseTrendText(lines('2026/01/02;03:04:05;1;2'))!;
    expect(values(ints.columns[1]!.values)).toEqual([2]);
  });

  it('text columns (ascii, string, dt) are kept but not numeric', () => {
    const t = parseTrendText(lines('Date,Time,Name,V', '2026/01/02,03:04:05,"a,b",1', '2026/01/02,03:04:06,x,2', '2026/01/02,03:04:07,7,3'))!;
    expect(t.columns.map((c) => [c.name, c.numeric])).toEqual([
      ['Name', false],
      ['V', true],
    ]);
    expect(values(t.columns[0]!.values)).toEqual([null, null, null]);
  });

  it('user-defined header lines are skipped up to the first data line; later junk is counted', () => {
    const t = parseTrendText(lines('%TITLE my plant', 'Unit: 10', '', '2026/01/02,03:04:05,1', 'garbage', '2026/01/02,03:04:06,2'))!;
    expect(t.header).toEqual([['%TITLE my plant'], ['Unit: 10'], ['']]);
    expect(t.columns.map((c) => c.name)).toEqual(['Value 1']); // the first header line has no field 3
    expect(values(t.columns[0]!.values)).toEqual([1, 2]);
    expect(t.skipped).toBe(1);
  });

  it('a torn last line is left out', () => {
    const t = parseTrendText(`${lines('2026/01/02,03:04:05,1', '2026/01/02,03:04:06,2')}2026/01/02,03:04:07,3`)!;
    expect(values(t.columns[0]!.values)).toEqual([1, 2]);
    expect(t.torn).toBe(true);
  });

  it('rows out of order are sorted by time, equal times in file order', () => {
    const t = parseTrendText(lines('2026/01/02,03:00:02,1', '2026/01/02,03:00:00,2', '2026/01/02,03:00:02,3', '2026/01/02,03:00:01,4'))!;
    expect(Array.from(t.times, (x) => (x - utc(2026, 1, 2, 3, 0, 0)) / 1000)).toEqual([0, 1, 2, 2]);
    expect(values(t.columns[0]!.values)).toEqual([2, 4, 1, 3]);
  });

  it('ragged lines: the widest data line gives the columns, missing fields are empty', () => {
    const t = parseTrendText(lines('Date,Time,A', '2026/01/02,03:04:05,1', '2026/01/02,03:04:06,2,3'))!;
    expect(t.columns.map((c) => c.name)).toEqual(['A', 'Value 2']);
    expect(values(t.columns[1]!.values)).toEqual([null, 3]);
  });

  it('a BOM and LF line ends are tolerated', () => {
    const t = parseTrendText('\ufeffDate,Time,A\n2026/01/02,03:04:05,1\n')!;
    expect(t.columns[0]!.name).toBe('A');
    expect(values(t.columns[0]!.values)).toEqual([1]);
  });

  it('no data line is an invalid format (spec §8)', () => {
    for (const text of [
      '',
      'hello\r\n',
      lines('Date,Time,A'),
      lines('21.11.2026,08:00:00,1'),
      lines('2026/11/21 08:00:00,1'),
      lines('2026/11/21,8:00:00,1'),
      lines('2026/11/21/08:00:00/1'),
      lines('2026/02/30,08:00:00,1'),
      '2026/11/21,08:00:00,1',
      lines('2026/11/21;08:00:00,1'),
    ])
      expect(parseTrendText(text), JSON.stringify(text)).toBeUndefined();
  });

  it('bytes: UTF-8 names, 10 MB at most (spec §9)', () => {
    const ok = parseTrend(new TextEncoder().encode(lines('Date,Time,Température', '2026/01/02,03:04:05,1')));
    expect(ok.ok && ok.trend.columns[0]!.name).toBe('Température');
    expect(parseTrend(new TextEncoder().encode('nothing\r\n'))).toEqual({ ok: false, error: 'invalid_format' });
    const big = new Uint8Array(TREND_MAX_BYTES + 1);
    expect(parseTrend(big)).toEqual({ ok: false, error: 'too_large', bytes: TREND_MAX_BYTES + 1 });
    const edge = new Uint8Array(TREND_MAX_BYTES).fill(0x20);
    edge.set(new TextEncoder().encode(lines('2026/01/02,03:04:05,1')));
    expect(parseTrend(edge).ok).toBe(true);
  });

  it('reads back what the logger writes, for every separator pair and decimals (property)', () => {
    const formats = fc.constantFrom(
      { sep: ',', dec: '.' },
      { sep: ';', dec: '.' },
      { sep: ';', dec: ',' },
      { sep: '/', dec: '.' },
      { sep: '/', dec: ',' },
      { sep: '\t', dec: '.' },
      { sep: '\t', dec: ',' },
    );
    const cell = fc.option(fc.integer({ min: -1e9, max: 1e9 }), { nil: null, freq: 5 });
    fc.assert(
      fc.property(
        formats,
        fc.integer({ min: 0, max: 4 }),
        fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 20 }),
        ({ sep, dec }, decimals, rows) => {
          const date = sep === '/' ? '2026-03-04' : '2026/03/04';
          const num = (n: number | null) => (n === null ? '' : (n / 10 ** decimals).toFixed(decimals).replace('.', dec));
          const text = lines(
            ['Date', 'Time', 'a', 'b', 'c'].join(sep),
            ...rows.map((r, i) => [date, `10:00:${String(i).padStart(2, '0')}`, ...r.map(num)].join(sep)),
          );
          const t = parseTrendText(text)!;
          expect(t.separator).toBe(sep);
          expect(t.times.length).toBe(rows.length);
          for (let c = 0; c < 3; c++) {
            expect(t.columns[c]!.name).toBe('abc'[c]);
            expect(values(t.columns[c]!.values)).toEqual(rows.map((r) => (r[c] === null ? null : Number((r[c]! / 10 ** decimals).toFixed(decimals)))));
          }
        },
      ),
    );
  });
});
