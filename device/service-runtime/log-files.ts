// The newest log files of the data logger (its folder on the storage pew_log.storage names), for
// the services that send them: an HTTP body, e-mail attachments. The same folder resolution as
// the FTP send's local directory (device/ftp/local-files.ts) with local_dir empty. The folder also
// holds the script's CSV files (device/script/csv.ts): a file is the logger's when its name is one
// of a log file's, `<log file name>_<stamp>.csv` (device/logger/csv-names.ts).
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Volume } from '../../hw/types.ts';
import { resolveLocalFolder } from '../ftp/local-files.ts';
import { parseCsvFileName } from '../logger/csv-names.ts';
import type { Log } from '../model/sections/log.ts';

export interface LogFileRef {
  name: string;
  path: string;
  bytes: number;
}

export interface LoggerFileRef extends LogFileRef {
  /** the name of the log file (pew_log.log_def) the file belongs to */
  logFile: string;
}

/** The CSV files of the logger's folder, the newest (last modified) first. */
async function csvFiles(log: Pick<Log, 'storage'>, volumes: readonly Volume[]): Promise<(LogFileRef & { mtime: number })[]> {
  const folder = await resolveLocalFolder({ local_dir: '' }, log, volumes);
  const names = (await readdir(folder.path)).filter((f) => f.toLowerCase().endsWith('.csv'));
  const files = await Promise.all(
    names.map(async (name) => {
      const path = join(folder.path, name);
      const s = await stat(path);
      return { name, path, bytes: s.size, mtime: s.mtimeMs, isFile: s.isFile() };
    }),
  );
  return files
    .filter((f) => f.isFile)
    .sort((a, b) => b.mtime - a.mtime || b.name.localeCompare(a.name))
    .map(({ name, path, bytes, mtime }) => ({ name, path, bytes, mtime }));
}

const ref = ({ name, path, bytes }: LogFileRef): LogFileRef => ({ name, path, bytes });

/** Up to `n` CSV files of the folder, any kind (the script's too), the newest first; none when the folder has none. */
export async function newestLogFiles(log: Pick<Log, 'storage'>, volumes: readonly Volume[], n: number): Promise<LogFileRef[]> {
  return (await csvFiles(log, volumes)).slice(0, n).map(ref);
}

/**
 * The data logger's files, the newest first: those of the log files of log_def (by the exact
 * stamp rules of csv-names.ts, so `tank_2_20240101.csv` is log file tank_2's, not tank's); with no
 * log file defined (any more), every file named like a log file's. The script's `NAME.csv` files
 * are none of them.
 */
export async function loggerFiles(log: Pick<Log, 'storage' | 'log_def'>, volumes: readonly Volume[]): Promise<LoggerFileRef[]> {
  const names = log.log_def.map((f) => f.name);
  return (await csvFiles(log, volumes)).flatMap((f) => {
    const logFile = names.length ? names.find((n) => parseCsvFileName(f.name, n)) : parseCsvFileName(f.name)?.logFileName;
    return logFile === undefined ? [] : [{ ...ref(f), logFile }];
  });
}

/** The newest file of each log file of log_def that has one, in log_def order. */
export async function newestOfEachLogFile(log: Pick<Log, 'storage' | 'log_def'>, volumes: readonly Volume[]): Promise<LoggerFileRef[]> {
  const files = await loggerFiles(log, volumes);
  return log.log_def.flatMap((d) => files.find((f) => f.logFile === d.name) ?? []);
}
