// Retention of a log file's CSV files (spec §4: with max files non-zero, the files beyond that limit
// are deleted automatically at 4:00 A.M.; 0 means never; spec §9: files before auto delete 100).
// A log file's CSV files are named `<log file name>_<stamp>.csv`, the stamp by its split (local
// time): minute YYYYMMDD_HHMM, hour YYYYMMDD_HH, day YYYYMMDD, week YYYY-Www, month YYYYMM,
// year YYYY. Only names whose rest after `<name>_` is exactly one of these stamps belong to the log
// file, so `tank_2_20240101.csv` (log file tank_2) is never taken for one of log file tank; the
// names are parsed by csv-names.ts, which also builds them.
import { join } from 'node:path';
import { parseCsvFileName } from './csv-names.ts';

/** The folder operations retention and the low-memory policy need (node:fs/promises has them). */
export interface DirFs {
  readdir(path: string): Promise<string[]>;
  unlink(path: string): Promise<void>;
}

export const RETENTION_HOUR = 4; // spec §4: deleted automatically at 4:00 A.M.

/**
 * The files of log file `logFileName` among `names` beyond the newest `fileMax` (ordered by the
 * start of the period their stamp stands for, then by name, so a change of split keeps the order),
 * oldest first. `fileMax` 0 keeps everything.
 */
export function expiredFiles(names: readonly string[], logFileName: string, fileMax: number): string[] {
  if (fileMax <= 0) return [];
  const own = names.flatMap((name) => {
    const info = parseCsvFileName(name, logFileName);
    return info ? [{ name, start: info.periodStart }] : [];
  });
  own.sort((a, b) => a.start - b.start || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return own.slice(0, Math.max(0, own.length - fileMax)).map((f) => f.name);
}

/**
 * The next 4:00 local time strictly after `nowMs`. Built from the local calendar date, not by adding
 * 24 h, so the run stays at 4:00 across daylight saving changes (a day may have 23 or 25 hours).
 */
export function nextRetentionRun(nowMs: number): number {
  const now = new Date(nowMs);
  for (let day = 0; ; day++) {
    const at = new Date(now.getFullYear(), now.getMonth(), now.getDate() + day, RETENTION_HOUR, 0, 0, 0).getTime();
    if (at > nowMs) return at;
  }
}

/** The names in the log folder `dir`; none while the folder does not exist yet. */
export async function namesIn(dir: string, fs: DirFs): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

/**
 * Deletes the expired CSV files of `logFile` in the log folder `dir` and returns their names. A
 * missing folder has nothing to delete; a file already gone is not an error. Names in `keep` (the
 * files being written) are never deleted.
 */
export async function deleteExpired(
  dir: string,
  logFile: { name: string; file_max: number },
  fs: DirFs,
  keep: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  if (logFile.file_max <= 0) return [];
  const deleted: string[] = [];
  for (const name of expiredFiles(await namesIn(dir, fs), logFile.name, logFile.file_max)) {
    if (keep.has(name)) continue;
    try {
      await fs.unlink(join(dir, name));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      continue;
    }
    deleted.push(name);
  }
  return deleted;
}
