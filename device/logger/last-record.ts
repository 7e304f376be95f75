// The time of a log file's last record as its CSV files show it: the truth after a crash. The kept
// state (state.ts) is saved at most once a minute, so after a kill or a power cut it can be up to a
// minute old, and the records a crash took with it (the cache, the unsynced batch) were triggered but
// are not in the files. At start the logger takes the last record of the files instead, so the
// missed slots it counts and the last trigger it shows are what the files show (docs/logger.md).
//
// The last whole line (ending with "\r\n"; a torn tail is what the repair cuts) of the newest files
// of the log file (by the period of their stamp) is read, and its date and time fields are parsed
// back with the log file's CSV format: the data line's layout, the date and time patterns and the
// calendar. Undefined when there is no file, no data line, or a line that does not fit the format
// (a header only, another format since the settings changed).
import { join } from 'node:path';
import type { WallTime } from './csv-calendar.ts';
import { parseCsvFileName } from './csv-names.ts';
import type { RowPart } from './csv-row.ts';
import type { StoreHandle } from './csv-store.ts';
import type { CsvFormat } from './csv-text.ts';
import { type DirFs, namesIn } from './retention.ts';

export interface LastRecordFs extends DirFs {
  open(path: string, flags: string): Promise<Pick<StoreHandle, 'read' | 'stat' | 'close'>>;
}

/** Bytes read from a file's end: several of the longest lines. */
export const TAIL_BYTES = 64 * 1024;
/** Files looked at, newest first (a record filed into the day before, midnight_to_daybefore). */
const FILES_LOOKED_AT = 2;

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Part = keyof WallTime;
const DESIGNATOR: Record<string, { part?: Part; re: string; short?: boolean }> = {
  Y: { part: 'year', re: '(\\d{4})' },
  y: { part: 'year', re: '(\\d{2})', short: true },
  m: { part: 'month', re: '(\\d{2})' },
  d: { part: 'day', re: '(\\d{2})' },
  H: { part: 'hour', re: '(\\d{2})' },
  M: { part: 'minute', re: '(\\d{2})' },
  S: { part: 'second', re: '(\\d{2})' },
  W: { re: '\\d{2}' },
};

interface Pattern {
  re: string;
  parts: { part: Part; short: boolean }[];
}

/** A formatWall pattern as a regular expression with a group per date or time part. */
function wallPattern(pattern: string): Pattern {
  const parts: Pattern['parts'] = [];
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const d = c === '%' ? DESIGNATOR[pattern[i + 1] ?? ''] : undefined;
    if (c === '%' && pattern[i + 1] === '%') {
      re += '%';
      i++;
    } else if (d) {
      re += d.re;
      if (d.part) parts.push({ part: d.part, short: d.short ?? false });
      i++;
    } else re += escapeRegExp(c);
  }
  return { re, parts };
}

/**
 * A parser of the instant of a data line of `fmt`: the line's layout with the date and time fields
 * as patterns and every other field as any text; undefined when the line does not fit.
 */
export function lineTimeParser(fmt: Pick<CsvFormat, 'line' | 'date' | 'time' | 'separator' | 'calendar'>): (line: string) => number | undefined {
  const date = wallPattern(fmt.date);
  const time = wallPattern(fmt.time);
  const parts: Pattern['parts'] = [];
  const re = fmt.line
    .map((p: RowPart) => {
      if (p.kind === 'sep') return escapeRegExp(fmt.separator);
      if (p.kind === 'text') return escapeRegExp(p.text);
      if (p.name === 'DATE') return (parts.push(...date.parts), date.re);
      if (p.name === 'TIME') return (parts.push(...time.parts), time.re);
      return '.*';
    })
    .join('');
  const whole = new RegExp(`^${re}$`, 's');
  if (!parts.some((p) => p.part === 'year') || !parts.some((p) => p.part === 'second' || p.part === 'minute')) return () => undefined;
  return (line) => {
    const m = whole.exec(line);
    if (!m) return undefined;
    const wall: WallTime = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
    parts.forEach((p, i) => {
      const n = Number(m[i + 1]);
      wall[p.part] = p.short ? 2000 + n : n;
    });
    if (wall.month < 1 || wall.month > 12 || wall.day < 1 || wall.day > 31 || wall.hour > 23 || wall.minute > 59 || wall.second > 59) return undefined;
    return fmt.calendar.instant(wall);
  };
}

/** The whole lines at the end of a file, last first (at most TAIL_BYTES of it). */
async function tailLines(fs: LastRecordFs, path: string): Promise<string[]> {
  const fh = await fs.open(path, 'r');
  try {
    const { size } = await fh.stat();
    const from = Math.max(0, size - TAIL_BYTES);
    const buf = new Uint8Array(size - from);
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, from + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    const text = new TextDecoder().decode(buf.subarray(0, got));
    const lines = text.split('\r\n');
    lines.pop(); // after the last "\r\n": a torn tail or nothing
    if (from > 0) lines.shift(); // the first may be cut by the tail's start
    return lines.reverse();
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/**
 * Ms of the last record of log file `logFileName` in the log folder `dir`, read with `fmt`;
 * undefined when the files show none. fs errors other than a missing file are passed on.
 */
export async function lastRecordAt(
  dir: string,
  logFileName: string,
  fmt: Pick<CsvFormat, 'line' | 'date' | 'time' | 'separator' | 'calendar'>,
  fs: LastRecordFs,
): Promise<number | undefined> {
  const own = (await namesIn(dir, fs))
    .flatMap((name) => {
      const info = parseCsvFileName(name, logFileName, fmt.calendar);
      return info ? [{ name, start: info.periodStart }] : [];
    })
    .sort((a, b) => b.start - a.start)
    .slice(0, FILES_LOOKED_AT);
  const timeOf = lineTimeParser(fmt);
  let last: number | undefined;
  for (const f of own) {
    let lines: string[];
    try {
      lines = await tailLines(fs, join(dir, f.name));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    for (const line of lines) {
      const at = timeOf(line);
      if (at === undefined) continue;
      last = Math.max(last ?? at, at);
      break;
    }
  }
  return last;
}
