// The names of a log file's CSV files (the FILES contract; spec §3 file split, midnight_to_daybefore):
// `<log file name>_<stamp>.csv`, the stamp the local period of the record by the log file's split:
//
//   minute YYYYMMDD_HHMM   hour YYYYMMDD_HH   day YYYYMMDD   week YYYY-Www (ISO)   month YYYYMM   year YYYY
//
// Local time means a clock change is in the names: on the day the clocks go back the hour 02 comes
// twice and both go into one `_02` file; the day the clocks go forward has no `_02` file at all.
import { FILE_NAME_RE } from '../model/fields.ts';
import type { SPLITS } from '../model/sections/logfile.ts';
import { type Calendar, daysInMonth, isoWeek, isoWeekMonday, localCalendar, type WallTime } from './csv-calendar.ts';

export type Split = (typeof SPLITS)[number];

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const MIN_YEAR = 1970; // stamps come from a clock; an earlier "year" is part of a name

/** The stamp of the period that holds local time `w`. */
export function periodStamp(split: Split, w: WallTime): string {
  const day = `${pad(w.year, 4)}${pad(w.month)}${pad(w.day)}`;
  switch (split) {
    case 'minute':
      return `${day}_${pad(w.hour)}${pad(w.minute)}`;
    case 'hour':
      return `${day}_${pad(w.hour)}`;
    case 'day':
      return day;
    case 'week': {
      const iso = isoWeek(w.year, w.month, w.day);
      return `${pad(iso.year, 4)}-W${pad(iso.week)}`;
    }
    case 'month':
      return `${pad(w.year, 4)}${pad(w.month)}`;
    case 'year':
      return pad(w.year, 4);
  }
}

/**
 * The local time a record at `atMs` is filed by: with midnight_to_daybefore a record stamped
 * exactly 00:00:00 (its written time; milliseconds do not count) closes the period before.
 */
export function filingTime(atMs: number, midnightToDayBefore: boolean, calendar: Calendar = localCalendar): WallTime {
  const w = calendar.wall(atMs);
  return midnightToDayBefore && w.hour === 0 && w.minute === 0 && w.second === 0 ? calendar.wall(atMs - 1000) : w;
}

/** The CSV file a record at `atMs` goes into, e.g. `tank_20240131.csv` (day split). */
export function csvFileName(logFileName: string, split: Split, atMs: number, midnightToDayBefore: boolean, calendar: Calendar = localCalendar): string {
  return `${logFileName}_${periodStamp(split, filingTime(atMs, midnightToDayBefore, calendar))}.csv`;
}

export interface CsvFileInfo {
  logFileName: string;
  /** the split whose stamp the name carries */
  split: Split;
  /** the start of the stamp's period, ms since the epoch (local time) */
  periodStart: number;
}

// stamps by shape; each split's shape is distinct from the others'
const STAMP_RE = /^(?:(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})|(\d{4})(\d{2})(\d{2})_(\d{2})|(\d{4})(\d{2})(\d{2})|(\d{4})-W(\d{2})|(\d{4})(\d{2})|(\d{4}))$/;

/** The split and the local start of the period of a stamp, or undefined for no valid stamp. */
function parseStamp(stamp: string): { split: Split; start: WallTime } | undefined {
  const m = STAMP_RE.exec(stamp);
  if (!m) return undefined;
  const g = m.slice(1).map((s) => (s === undefined ? undefined : Number(s)));
  const at = (split: Split, year: number, month = 1, day = 1, hour = 0, minute = 0) => ({ split, start: { year, month, day, hour, minute, second: 0 } });
  let r: { split: Split; start: WallTime };
  if (g[0] !== undefined) r = at('minute', g[0], g[1], g[2], g[3], g[4]);
  else if (g[5] !== undefined) r = at('hour', g[5], g[6], g[7], g[8]);
  else if (g[9] !== undefined) r = at('day', g[9], g[10], g[11]);
  else if (g[12] !== undefined) {
    const monday = isoWeekMonday(g[12], g[13]!);
    if (!monday || g[12] < MIN_YEAR) return undefined;
    return at('week', monday.year, monday.month, monday.day);
  } else if (g[14] !== undefined) r = at('month', g[14], g[15]);
  else r = at('year', g[16]!);
  const w = r.start;
  const valid = w.year >= MIN_YEAR && w.month >= 1 && w.month <= 12 && w.day >= 1 && w.day <= daysInMonth(w.year, w.month) && w.hour < 24 && w.minute < 60;
  return valid ? r : undefined;
}

/**
 * The log file, split and period of a CSV file name (for retention and listings), or undefined
 * when the name is no such file. With `logFileName` only that log file's names match; without it
 * the shortest name that leaves a valid stamp wins (`a_20240105_1330.csv`: log file a, minute),
 * which is ambiguous only for log file names that themselves end in digits like a stamp.
 */
export function parseCsvFileName(name: string, logFileName?: string, calendar: Calendar = localCalendar): CsvFileInfo | undefined {
  if (!name.endsWith('.csv')) return undefined;
  const base = name.slice(0, -'.csv'.length);
  const cuts = logFileName === undefined ? [...base.matchAll(/_/g)].map((m) => m.index) : [logFileName.length];
  for (const cut of cuts) {
    const log = base.slice(0, cut);
    if (base[cut] !== '_' || (logFileName !== undefined && log !== logFileName) || !FILE_NAME_RE.test(log)) continue;
    const stamp = parseStamp(base.slice(cut + 1));
    if (stamp) return { logFileName: log, split: stamp.split, periodStart: calendar.instant(stamp.start) };
  }
  return undefined;
}
