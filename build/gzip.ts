// Precompression: each served file gets a gzip -9 twin beside it, so the daemon on the unit never
// compresses at request time. gzip, not brotli: browsers refuse brotli over plain HTTP.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface FileSize {
  /** path relative to the folder, with `/` */
  file: string;
  bytes: number;
  gzipBytes: number;
}

/** Every regular file under `dir`, relative to it, skipping `.gz` twins and the names in `skip`. */
export async function listFiles(dir: string, skip: readonly string[] = []): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'))
    .filter((f) => !f.endsWith('.gz') && !skip.includes(f))
    .sort();
}

/** Writes `<file>.gz` beside the file and returns both sizes. */
export async function gzipFile(dir: string, file: string): Promise<FileSize> {
  const data = await readFile(join(dir, file));
  const gz = gzipSync(data, { level: 9 });
  await writeFile(join(dir, `${file}.gz`), gz);
  return { file, bytes: data.length, gzipBytes: gz.length };
}
