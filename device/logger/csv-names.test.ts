// The CSV files are named in local time: the zone is pinned before any Date is made (and put back
// afterwards, should the worker run another file).
const savedTz = process.env.TZ;
process.env.TZ = 'Europe/Berlin';

import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SPLITS } from '../model/sections/logfile.ts';
import { isoWeek, isoWeekMonday, localCalendar, offsetCalendar } from './csv-calendar.ts';
import { csvFileName, parseCsvFileName, type Split } from './csv-names.ts';

afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) => new Date(y, mo - 1, d, h, mi, s, ms).getTime();
const name = (split: Split, at: number, midnight = false) => csvFileName('tank', split, at, midnight);

describe('the pinned zone', () => {
  it('runs in Europe/Berlin', () => {
    expect(new Date(Date.UTC(2024, 0, 15)).getTimezoneOffset()).toBe(-60);
    expect(new Date(Date.UTC(2024, 6, 15)).getTimezoneOffset()).toBe(-120);
    expect(localCalendar.wall(Date.UTC(2024, 0, 31, 12, 45, 30))).toEqual({ year: 2024, month: 1, day: 31, hour: 13, minute: 45, second: 30 });
  });
});

describe('csvFileName: one stamp per split (FILES contract)', () => {
  it.each([
    ['minute', 'tank_20240131_1345.csv'],
    ['hour', 'tank_20240131_13.csv'],
    ['day', 'tank_20240131.csv'],
    ['week', 'tank_2024-W05.csv'],
    ['month', 'tank_202401.csv'],
    ['year', 'tank_2024.csv'],
  ] as const)('%s', (split, expected) => {
    expect(name(split, local(2024, 1, 31, 13, 45, 30))).toBe(expected);
  });

  it.each([
    [2020, 12, 31, '2020-W53'], // Thursday
    [2021, 1, 1, '2020-W53'],
    [2021, 1, 3, '2020-W53'], // Sunday
    [2021, 1, 4, '2021-W01'], // Monday
    [2019, 12, 30, '2020-W01'],
    [2024, 12, 30, '2025-W01'],
    [2026, 1, 1, '2026-W01'],
    [2027, 1, 1, '2026-W53'],
    [2024, 12, 29, '2024-W52'],
  ])('ISO week of %i-%i-%i is %s', (y, m, d, stamp) => {
    expect(name('week', local(y, m, d, 12))).toBe(`tank_${stamp}.csv`);
  });

  it('midnight_to_daybefore: a record at exactly 00:00:00 closes the period before', () => {
    const midnight = local(2024, 3, 1);
    expect(name('day', midnight)).toBe('tank_20240301.csv');
    expect(name('day', midnight, true)).toBe('tank_20240229.csv'); // leap year
    expect(name('day', midnight + 500, true)).toBe('tank_20240229.csv'); // written as 00:00:00
    expect(name('day', midnight + 1000, true)).toBe('tank_20240301.csv');
    expect(name('minute', midnight, true)).toBe('tank_20240229_2359.csv');
    expect(name('hour', midnight, true)).toBe('tank_20240229_23.csv');
    expect(name('month', midnight, true)).toBe('tank_202402.csv');
    expect(name('week', local(2024, 1, 1), true)).toBe('tank_2023-W52.csv'); // a Monday
    expect(name('year', local(2025, 1, 1), true)).toBe('tank_2024.csv');
    expect(name('hour', local(2024, 3, 1, 13), true)).toBe('tank_20240301_13.csv'); // only midnight
  });

  it('spring forward (2024-03-31 02:00 → 03:00): no hour 02, a day of 23 hours', () => {
    expect(name('hour', Date.UTC(2024, 2, 31, 0, 59, 59))).toBe('tank_20240331_01.csv');
    expect(name('hour', Date.UTC(2024, 2, 31, 1, 0, 0))).toBe('tank_20240331_03.csv');
    const day = parseCsvFileName('tank_20240331.csv')!;
    const next = parseCsvFileName('tank_20240401.csv')!;
    expect(day.periodStart).toBe(Date.UTC(2024, 2, 30, 23));
    expect(next.periodStart - day.periodStart).toBe(23 * 3_600_000);
    expect(name('day', Date.UTC(2024, 2, 30, 23), true)).toBe('tank_20240330.csv'); // 00:00 CET
  });

  it('fall back (2024-10-27 03:00 → 02:00): both hours 02 share one file that starts at the first', () => {
    expect(name('hour', Date.UTC(2024, 9, 27, 0, 30))).toBe('tank_20241027_02.csv'); // 02:30 CEST
    expect(name('hour', Date.UTC(2024, 9, 27, 1, 30))).toBe('tank_20241027_02.csv'); // 02:30 CET
    expect(parseCsvFileName('tank_20241027_02.csv')!.periodStart).toBe(Date.UTC(2024, 9, 27, 0));
    expect(parseCsvFileName('tank_20241028.csv')!.periodStart - parseCsvFileName('tank_20241027.csv')!.periodStart).toBe(25 * 3_600_000);
  });

  it('an injected calendar: a fixed offset of +05:30', () => {
    const ist = offsetCalendar(() => 330);
    expect(csvFileName('tank', 'minute', Date.UTC(2024, 0, 31, 20, 0), false, ist)).toBe('tank_20240201_0130.csv');
    expect(parseCsvFileName('tank_20240201.csv', 'tank', ist)!.periodStart).toBe(Date.UTC(2024, 0, 31, 18, 30));
  });
});

describe('parseCsvFileName', () => {
  it('every split', () => {
    expect(parseCsvFileName('tank_20240131_1345.csv')).toEqual({ logFileName: 'tank', split: 'minute', periodStart: local(2024, 1, 31, 13, 45) });
    expect(parseCsvFileName('tank_20240131_13.csv')).toEqual({ logFileName: 'tank', split: 'hour', periodStart: local(2024, 1, 31, 13) });
    expect(parseCsvFileName('tank_20240131.csv')).toEqual({ logFileName: 'tank', split: 'day', periodStart: local(2024, 1, 31) });
    expect(parseCsvFileName('tank_2021-W01.csv')).toEqual({ logFileName: 'tank', split: 'week', periodStart: local(2021, 1, 4) });
    expect(parseCsvFileName('tank_2020-W53.csv')).toEqual({ logFileName: 'tank', split: 'week', periodStart: local(2020, 12, 28) });
    expect(parseCsvFileName('tank_202401.csv')).toEqual({ logFileName: 'tank', split: 'month', periodStart: local(2024, 1, 1) });
    expect(parseCsvFileName('tank_2024.csv')).toEqual({ logFileName: 'tank', split: 'year', periodStart: local(2024, 1, 1) });
  });

  it('names with underscores and digits', () => {
    expect(parseCsvFileName('tank_2_20240101.csv')).toMatchObject({ logFileName: 'tank_2', split: 'day' });
    expect(parseCsvFileName('tank_2_20240101.csv', 'tank')).toBeUndefined();
    expect(parseCsvFileName('tank_2_20240101.csv', 'tank_2')).toMatchObject({ logFileName: 'tank_2', split: 'day' });
    expect(parseCsvFileName('a_20240105_1330.csv')).toMatchObject({ logFileName: 'a', split: 'minute' });
    expect(parseCsvFileName('a_20240105_2024.csv', 'a_20240105')).toMatchObject({ logFileName: 'a_20240105', split: 'year' });
    expect(parseCsvFileName('x_2024_2024.csv')).toMatchObject({ logFileName: 'x_2024', split: 'year' });
  });

  it.each([
    'tank_20241301.csv',
    'tank_20240230.csv',
    'tank_20240101_24.csv',
    'tank_20240101_1360.csv',
    'tank_2024-W53.csv',
    'tank_2024-W00.csv',
    'tank_1969.csv',
    'tank_2024.txt',
    'tank.csv',
    '_2024.csv',
    '1tank_2024.csv',
    '../tank_2024.csv',
    'tank_2024.csv.part',
    'tank_20240101_1.csv',
    'tank_2024-1.csv',
  ])('%s is no log file', (bad) => {
    expect(parseCsvFileName(bad)).toBeUndefined();
  });

  it('round trip for any instant and split (property)', () => {
    const logName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.]{0,12}$/);
    const at = fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2099, 0, 1) });
    fc.assert(
      fc.property(logName, fc.constantFrom(...SPLITS), at, fc.boolean(), (log, split, t, midnight) => {
        const file = csvFileName(log, split, t, midnight);
        const info = parseCsvFileName(file, log);
        expect(info).toMatchObject({ logFileName: log, split });
        expect(info!.periodStart).toBeLessThanOrEqual(t);
        expect(csvFileName(log, split, info!.periodStart, false)).toBe(file);
      }),
    );
  });

  it('ISO weeks: Monday and week agree (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1971, max: 2099 }), fc.integer({ min: 1, max: 53 }), (y, w) => {
        const monday = isoWeekMonday(y, w);
        if (monday) expect(isoWeek(monday.year, monday.month, monday.day)).toEqual({ year: y, week: w });
        else expect(w).toBe(53);
      }),
    );
  });
});
