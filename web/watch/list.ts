// The register watch list as the page edits it (docs/monitor.md "Register watch"): checked with the
// daemon's own schema and rules (device/model/watch.ts), a new entry after the last one, and the
// data logger's variables taken into the list as entries (area, address, type, string length, word
// order and decimals as the logger reads them, the station as the logger resolves it).
import * as v from 'valibot';
import { pointStation } from '../../device/logger/points.ts';
import type { Issue } from '../../device/model/issues.ts';
import { arrayForObjectIssues, toIssues } from '../../device/model/section.ts';
import { type LogFile, type LogRecord, typeWords } from '../../device/model/sections/logfile.ts';
import { WATCH_MAX, type WatchEntry, watchEntrySchema, watchListRules, watchListSchema } from '../../device/model/watch.ts';

/** The problems of a list being edited, as the daemon reports them when it is saved (paths `entries.<n>.<field>`). */
export function listIssues(entries: readonly unknown[]): Issue[] {
  const body = { entries };
  const shape = arrayForObjectIssues(watchListSchema, body);
  if (shape.length) return shape;
  const parsed = v.safeParse(watchListSchema, body);
  return parsed.success ? watchListRules(parsed.output) : toIssues(parsed.issues);
}

/** A new entry: as the last one (its interface, station, area and decoding) at the word after it, or the schema's defaults. */
export function nextEntry(last: Readonly<Record<string, unknown>> | undefined): WatchEntry {
  const fresh = v.parse(watchEntrySchema, {});
  const base = v.safeParse(watchEntrySchema, { ...last, name: '' });
  if (!last || !base.success) return fresh;
  const e = base.output;
  const word = /^\d+$/.test(e.reg_addr) && e.area <= 3 ? String(Number(e.reg_addr) + typeWords(e.type, e.str_len)) : e.reg_addr;
  return { ...e, reg_addr: word };
}

/** A variable of the data logger: its log file's name and the entry that reads it. */
export interface LoggerVariable {
  /** `<log file index>.<record index>` */
  key: string;
  file: string;
  entry: WatchEntry;
}

/** The entry reading a data point of a log file, on the station the logger reads it from. */
export const entryOf = (f: LogFile, r: LogRecord): WatchEntry => ({
  name: r.name,
  if: r.if,
  plc_addr: pointStation(f, r),
  area: r.area,
  reg_addr: r.reg_addr,
  type: r.type,
  str_len: r.str_len,
  endian: r.endian,
  decimal: r.decimal,
  format: 'value',
});

/** Every data point of the logger's saved settings (pew_log), log file by log file. */
export function loggerVariables(log: { log_def?: unknown }): LoggerVariable[] {
  const files = Array.isArray(log.log_def) ? (log.log_def as LogFile[]) : [];
  return files.flatMap((f, i) => (Array.isArray(f.records) ? f.records : []).map((r, j) => ({ key: `${i}.${j}`, file: f.name, entry: entryOf(f, r) })));
}

/** The variables whose name holds `filter` (case ignored). */
export const filtered = (vars: readonly LoggerVariable[], filter: string): LoggerVariable[] => {
  const f = filter.trim().toLowerCase();
  return f ? vars.filter((x) => x.entry.name.toLowerCase().includes(f)) : [...vars];
};

/** The list with the picked entries after its own, as many as fit in WATCH_MAX. */
export function withPicked(list: readonly unknown[], picked: readonly WatchEntry[]): { list: unknown[]; added: number } {
  const add = picked.slice(0, Math.max(0, WATCH_MAX - list.length));
  return { list: [...list, ...add], added: add.length };
}
