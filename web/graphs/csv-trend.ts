// A log file read for the trend graphs (spec §2 graph page, §9 "CSV trend file max 10485760
// bytes"), per the logger's CSV format: a data line is Date, Time, then one field per data point;
// the date is YYYY/MM/DD, or YYYY-MM-DD when the field separator is the slash; the separator is
// comma, semicolon, slash or tab and the decimal separator point or comma. Every line before the
// first data line is header; column names come from its first line (fields 3…), else "Value n".

import { type Decimal, readColumn } from './csv-columns.ts';
import { splitRecords } from './csv-records.ts';

export const TREND_MAX_BYTES = 10_485_760; // spec §9: CSV trend file max 10485760 bytes

export type Separator = ',' | ';' | '/' | '\t';
export type { Decimal };

export interface TrendColumn {
  /** from the first header line, else `Value <n>` */
  name: string;
  /** from the units line of header modes 2 and 3 (`<sep><sep><dim…>`), else '' */
  unit: string;
  /** false when fields hold texts (ascii, string, dt points): such a column is not drawn */
  numeric: boolean;
  /** one value per row; NaN where a read failed, and everywhere in a text column (csv-columns.ts) */
  values: Float64Array;
}

export interface Trend {
  separator: Separator;
  decimal: Decimal;
  /** the header lines, split into fields */
  header: string[][];
  /**
   * The time of every row in ms, the file's local date and time read as if it were UTC, so the axis
   * shows the clock of the unit whatever the browser's time zone (and a DST change never shifts it).
   * Ascending: rows out of order (a clock set back) are sorted by time, equal times in file order.
   */
  times: Float64Array;
  columns: TrendColumn[];
  /** lines after the first data line that are not data lines (left out) */
  skipped: number;
  /** the file ended inside a line (left out) */
  torn: boolean;
}

export type TrendResult = { ok: true; trend: Trend } | { ok: false; error: 'too_large'; bytes: number } | { ok: false; error: 'invalid_format' };

// Date, its delimiter, time and the separator right after the date: `2026/11/21,08:00:00` or `2026-11-21/08:00:00`
const FIRST_DATA = /^(\d{4})([/-])(\d{2})\2(\d{2})([,;/\t])(\d{2}):(\d{2}):(\d{2})([,;/\t\r]|$)/;
const DATE = /^(\d{4})([/-])(\d{2})\2(\d{2})$/;
// fixed or exponent notation with a fraction (realex: `1,23E+04`)
const COMMA_FRACTION = /^[+-]?\d*,\d+(?:E[+-]\d+)?$/;
const POINT_FRACTION = /^[+-]?\d*\.\d+(?:E[+-]\d+)?$/;
const DECIMAL_EVIDENCE = 500;

/** ms of midnight (UTC) of a `YYYY/MM/DD` or `YYYY-MM-DD` date; NaN when it is not a real date. */
function dayMs(date: string): number {
  const d = DATE.exec(date);
  if (!d) return NaN;
  const [y, mo, day] = [Number(d[1]), Number(d[3]), Number(d[4])];
  if (mo < 1 || mo > 12 || day < 1) return NaN;
  const ms = Date.UTC(y, mo - 1, day);
  return new Date(ms).getUTCDate() === day ? ms : NaN; // 2026/02/30 rolls over: not a date
}

/** Two decimal digits at `i`; NaN when they are not. */
function twoDigits(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : NaN;
}

/** ms after midnight of `HH:MM:SS`; NaN when it is not a time of day. */
function timeMs(time: string): number {
  if (time.length !== 8 || time[2] !== ':' || time[5] !== ':') return NaN;
  const [h, m, s] = [twoDigits(time, 0), twoDigits(time, 3), twoDigits(time, 6)];
  return h <= 23 && m <= 59 && s <= 59 ? ((h * 60 + m) * 60 + s) * 1000 : NaN;
}

/** ms of a wall-clock date and time read as UTC; NaN when the fields do not name a real moment. */
export const wallClockMs = (date: string, time: string): number => dayMs(date) + timeMs(time);

/** wallClockMs for the lines of one file: the lines of a day share their date, read once. */
function wallClockReader(): (date: string, time: string) => number {
  let lastDate: string | undefined;
  let lastDay = NaN;
  return (date, time) => {
    if (date !== lastDate) [lastDate, lastDay] = [date, dayMs(date)];
    return lastDay + timeMs(time);
  };
}

/** The field separator of the first line that starts like a data line; undefined when none does. */
function detectSeparator(text: string): Separator | undefined {
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const line = text.slice(pos, nl < 0 ? text.length : nl);
    const m = FIRST_DATA.exec(line);
    if (m) {
      const [, y, delim, mo, d, sep, h, mi, s, after] = m as unknown as string[];
      // the date's own delimiter cannot be the separator (the writer uses YYYY-MM-DD with the slash)
      const fits = sep !== delim && (after === sep || after === '\r' || after === '');
      if (fits && !Number.isNaN(wallClockMs(`${y}${delim}${mo}${delim}${d}`, `${h}:${mi}:${s}`))) return sep as Separator;
    }
    if (nl < 0) return undefined;
    pos = nl + 1;
  }
  return undefined;
}

/** Point or comma: the one more value fields of the data lines are written with. */
function detectDecimal(rows: readonly string[][], sep: Separator): Decimal {
  if (sep === ',') return '.'; // the model rejects comma + comma
  let comma = 0;
  let point = 0;
  // a column writes every value with the same decimals: a few hundred fractions settle it
  for (let k = 0; k < rows.length && comma + point < DECIMAL_EVIDENCE; k++) {
    const r = rows[k]!;
    for (let i = 2; i < r.length; i++) {
      const f = r[i]!;
      if (COMMA_FRACTION.test(f)) comma++;
      else if (POINT_FRACTION.test(f)) point++;
    }
  }
  return comma > point ? ',' : '.';
}

/** Reads the text of a log file; undefined when it has no data line (spec §8 "Invalid data format in graph"). */
export function parseTrendText(source: string): Trend | undefined {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const separator = detectSeparator(text);
  if (!separator) return undefined;
  const { records, torn } = splitRecords(text, separator);
  const header: string[][] = [];
  const data: string[][] = [];
  const stamps: number[] = [];
  let skipped = 0;
  const clock = wallClockReader();
  for (const r of records) {
    const ms = r.length >= 2 ? clock(r[0]!, r[1]!) : NaN;
    if (Number.isNaN(ms)) {
      if (data.length === 0) header.push(r);
      else skipped++;
      continue;
    }
    data.push(r);
    stamps.push(ms);
  }
  if (data.length === 0) return undefined;

  const decimal = detectDecimal(data, separator);
  const width = data.reduce((w, r) => Math.max(w, r.length - 2), 0);
  const names = header[0] ?? [];
  const units = header[1] && header[1][0] === '' && header[1][1] === '' ? header[1] : [];
  const order = timeOrder(stamps);
  const times = Float64Array.from(order, (i) => stamps[i]!);
  const columns: TrendColumn[] = [];
  for (let c = 0; c < width; c++) {
    const { numeric, values } = readColumn(
      order.map((k) => data[k]![c + 2] ?? ''),
      decimal,
    );
    const name = (names[c + 2] ?? '').trim();
    columns.push({ name: name || `Value ${c + 1}`, unit: (units[c + 2] ?? '').trim(), numeric, values });
  }
  return { separator, decimal, header, times, columns, skipped, torn };
}

/** Row indices in time order (stable); the identity for a file written in order. */
function timeOrder(stamps: readonly number[]): number[] {
  const order = stamps.map((_, i) => i);
  for (let i = 1; i < stamps.length; i++) if (stamps[i]! < stamps[i - 1]!) return order.sort((a, b) => stamps[a]! - stamps[b]! || a - b);
  return order;
}

/** Reads the bytes of a log file (UTF-8); refuses more than 10 MB and a file without data lines. */
export function parseTrend(bytes: Uint8Array): TrendResult {
  if (bytes.length > TREND_MAX_BYTES) return { ok: false, error: 'too_large', bytes: bytes.length };
  const trend = parseTrendText(new TextDecoder('utf-8').decode(bytes));
  return trend ? { ok: true, trend } : { ok: false, error: 'invalid_format' };
}
