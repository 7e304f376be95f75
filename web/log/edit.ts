// The list edits of the /log page on pew_log's log files (spec §3 log_def, §4, §8, §9): add and
// delete log files and data points, append imported points. Pure: a log_def in, a new log_def out
// (the page stores it in the section's temporary copy); every removal renumbers the ids from 1
// (spec §4), every addition stays within the limits of spec §9 and says when it could not.
import { withDefaults } from '../../device/model/section.ts';
import { type LogFile, type LogRecord, logFileSchema, MAX_LOG_FILES } from '../../device/model/sections/logfile.ts';
import { ADD_AT_ONCE_MAX, fitting, pointCounts } from './limits.ts';
import { newPoints } from './new-points.ts';
import { removeAt, renumber } from './renumber.ts';

export type Refusal = 'no_log_file' | 'max_points' | 'max_files';

export interface Added {
  files: LogFile[];
  /** points added (fewer than asked when a limit was reached) */
  added: number;
  /** a limit stopped the addition */
  full: boolean;
}

/** A new log file at the end: defaults, the next id, the first free name log1, log2, … */
export function addLogFile(files: readonly LogFile[]): LogFile[] | Refusal {
  if (files.length >= MAX_LOG_FILES) return 'max_files'; // spec §9: log files 16
  const taken = new Set(files.map((f) => f.name));
  let n = 1;
  while (taken.has(`log${n}`)) n++;
  return [...files, withDefaults(logFileSchema, { id: files.length + 1, name: `log${n}` }) as LogFile];
}

/** Without the log file at `index`; the others numbered from 1 again (spec §4). */
export const removeLogFile = (files: readonly LogFile[], index: number): LogFile[] => removeAt(files, [index]);

function withRecords(files: readonly LogFile[], index: number, records: LogRecord[]): LogFile[] {
  return files.map((f, i) => (i === index ? { ...f, records } : f));
}

/** Appends `records` to the log file at `index` as far as the limits allow, with the ids following on. */
export function appendRecords(files: readonly LogFile[], index: number, records: readonly LogRecord[]): Added | Refusal {
  const file = files[index];
  if (!file) return 'no_log_file'; // spec §8 "No log file available for data points"
  const n = fitting(pointCounts(files), records);
  if (n === 0 && records.length > 0) return 'max_points'; // spec §8 "Max. number of data points reached"
  const all = renumber([...file.records, ...records.slice(0, n)]);
  return { files: withRecords(files, index, all), added: n, full: n < records.length };
}

/** `count` (1–50, spec §9 add at once) new points after the last one of the log file at `index`. */
export function addPoints(files: readonly LogFile[], index: number, count: number): Added | Refusal {
  const file = files[index];
  if (!file) return 'no_log_file';
  const n = Math.max(1, Math.min(ADD_AT_ONCE_MAX, Math.trunc(count) || 1));
  return appendRecords(files, index, newPoints(file, n));
}

/** Without the points at `indexes` of the log file at `index`; its points numbered from 1 again (spec §4). */
export function removePoints(files: readonly LogFile[], index: number, indexes: Iterable<number>): LogFile[] {
  const file = files[index];
  return file ? withRecords(files, index, removeAt(file.records, indexes)) : [...files];
}
