// The newest log files of the data logger (its folder on the storage pew_log.storage names), for
// the services that send them: an HTTP body, e-mail attachments. The same folder resolution as
// the FTP send's local directory (device/ftp/local-files.ts) with local_dir empty.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Volume } from '../../hw/types.ts';
import { resolveLocalFolder } from '../ftp/local-files.ts';
import type { Log } from '../model/sections/log.ts';

export interface LogFileRef {
  name: string;
  path: string;
  bytes: number;
}

/** Up to `n` log files (.csv), the newest (last modified) first; none when the folder has none. */
export async function newestLogFiles(log: Pick<Log, 'storage'>, volumes: readonly Volume[], n: number): Promise<LogFileRef[]> {
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
    .slice(0, n)
    .map(({ name, path, bytes }) => ({ name, path, bytes }));
}
