// Crash-safe file replacement (security.md CFG-1): write a temp file in the same folder, fsync it,
// rename it over the target, fsync the folder. After a power cut the target holds either the old
// or the new content, never a mix.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export const TEMP_MARK = '.tmp-';

/** A temp name beside `file`, recognisable by `isTempName`. */
export function tempNameFor(file: string): string {
  return join(dirname(file), `.${basename(file)}${TEMP_MARK}${randomBytes(6).toString('hex')}`);
}

export function isTempName(name: string): boolean {
  return name.startsWith('.') && name.includes(TEMP_MARK);
}

/** Writes `data` to `file` durably (fsync) without replacing anything. */
export async function writeDurable(file: string, data: string | Uint8Array): Promise<void> {
  const fh = await open(file, 'w', 0o600);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * fsync of a folder, so that renames and unlinks inside it survive a power cut. A file system
 * that cannot sync a folder (EINVAL) has already done the rename; that is not a failed save.
 */
export async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EINVAL') throw e;
  } finally {
    await fh.close();
  }
}

/** Atomically replaces `file` with `data`. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = tempNameFor(file);
  try {
    await writeDurable(tmp, data);
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  await syncDir(dirname(file));
}
