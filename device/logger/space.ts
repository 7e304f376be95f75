// Low-memory policy of a log volume (spec §4: the write status signals low memory; pew_log
// delete_old_files: on low memory delete the oldest files instead of stopping).
//
// A volume is low when its free bytes fall below max(1 MiB, 1 % of its size): 1 MiB holds several
// hundred batches of the largest records, and the 1 % keeps a reserve on large media where file
// systems slow down and wear levelling suffers when nearly full. The check runs before every batch:
// - enough space: 'ok';
// - low, delete_old_files on: the CSV files of the log folder that may go (not being written) are
//   counted first, oldest first by modification time (so across all log files). Only when deleting
//   all of them would bring the volume above the threshold are files deleted, and then only the
//   oldest as many as are needed, one by one with the volume asked again after each; that is
//   'low_memory' with the names deleted, and the batch is written. When they cannot free enough
//   (the space is taken by something else), nothing is deleted and logging stops as below;
// - low, delete_old_files off: 'stopped': nothing is written to the volume until space is back
//   (the records wait in the appender's bounded queue).
import { join } from 'node:path';
import type { Volume } from '../../hw/types.ts';
import { type DirFs, namesIn } from './retention.ts';

export const MIN_FREE_BYTES = 1024 * 1024;
export const MIN_FREE_SHARE = 0.01;

export interface SpaceFs extends DirFs {
  /** `blocks` (512-byte units allocated) tells what deleting the file frees; without it, `size` */
  stat(path: string): Promise<{ mtimeMs: number; isFile(): boolean; size?: number; blocks?: number }>;
}

export interface SpaceCheck {
  state: 'ok' | 'low_memory' | 'stopped';
  /** free bytes after the check (and any deletions) */
  freeBytes: number;
  threshold: number;
  /** CSV files deleted to make room, oldest first */
  deleted: string[];
  /** bytes the deletable CSV files hold (counted only when the volume was low and deleting is on) */
  deletableBytes?: number;
}

/** Free bytes below which a volume of `totalBytes` counts as low. */
export function lowSpaceThreshold(totalBytes: number): number {
  return Math.max(MIN_FREE_BYTES, Math.ceil(totalBytes * MIN_FREE_SHARE));
}

export function isLow(volume: Pick<Volume, 'freeBytes' | 'totalBytes'>): boolean {
  return volume.freeBytes < lowSpaceThreshold(volume.totalBytes);
}

/** Deletion order: oldest modification first, then by name; files in `keep` never. */
export function deletionOrder(files: readonly { name: string; mtimeMs: number }[], keep: ReadonlySet<string>): string[] {
  return deletable(files, keep).map((f) => f.name);
}

function deletable<F extends { name: string; mtimeMs: number }>(files: readonly F[], keep: ReadonlySet<string>): F[] {
  return files
    .filter((f) => f.name.endsWith('.csv') && !keep.has(f.name))
    .sort((a, b) => a.mtimeMs - b.mtimeMs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The oldest of `files` (in deletion order) whose bytes bring `freeBytes` up to `threshold`; none
 * when even all of them cannot.
 */
export function filesToDelete(
  files: readonly { name: string; mtimeMs: number; bytes: number }[],
  keep: ReadonlySet<string>,
  freeBytes: number,
  threshold: number,
): string[] {
  const order = deletable(files, keep);
  const out: string[] = [];
  let free = freeBytes;
  for (const f of order) {
    if (free >= threshold) break;
    out.push(f.name);
    free += f.bytes;
  }
  return free >= threshold ? out : [];
}

export interface EnsureSpaceOptions {
  /** the volume's current figures (hw.volumes() of this volume) */
  volume: () => Promise<Pick<Volume, 'freeBytes' | 'totalBytes'>>;
  /** the volume's log folder */
  dir: string;
  deleteOldFiles: boolean;
  /** names in `dir` that must stay (files being written) */
  keep: ReadonlySet<string>;
  fs: SpaceFs;
}

interface CsvFile {
  name: string;
  mtimeMs: number;
  /** what deleting it frees */
  bytes: number;
}

async function csvFiles(dir: string, fs: SpaceFs): Promise<CsvFile[]> {
  const out: CsvFile[] = [];
  for (const name of await namesIn(dir, fs)) {
    if (!name.endsWith('.csv')) continue;
    try {
      const s = await fs.stat(join(dir, name));
      const bytes = s.blocks !== undefined ? s.blocks * 512 : (s.size ?? 0);
      if (s.isFile()) out.push({ name, mtimeMs: s.mtimeMs, bytes });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  return out;
}

/** Applies the low-memory policy to one volume; fs errors are passed on to the caller. */
export async function ensureSpace(o: EnsureSpaceOptions): Promise<SpaceCheck> {
  let v = await o.volume();
  const threshold = lowSpaceThreshold(v.totalBytes);
  if (v.freeBytes >= threshold) return { state: 'ok', freeBytes: v.freeBytes, threshold, deleted: [] };
  if (!o.deleteOldFiles) return { state: 'stopped', freeBytes: v.freeBytes, threshold, deleted: [] };
  const files = await csvFiles(o.dir, o.fs);
  const candidates = deletable(files, o.keep);
  const deletableBytes = candidates.reduce((n, f) => n + f.bytes, 0);
  // count first: deleting history that cannot bring the volume above the limit only loses it
  if (filesToDelete(files, o.keep, v.freeBytes, threshold).length === 0)
    return { state: 'stopped', freeBytes: v.freeBytes, threshold, deleted: [], deletableBytes };
  const deleted: string[] = [];
  // the planned files first; when the volume frees less than counted (blocks shared, another
  // writer), the next oldest, as the count said the deletable files together can reach the limit
  for (const f of candidates) {
    try {
      await o.fs.unlink(join(o.dir, f.name));
      deleted.push(f.name);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    v = await o.volume();
    if (v.freeBytes >= threshold) return { state: 'low_memory', freeBytes: v.freeBytes, threshold, deleted, deletableBytes };
  }
  return { state: 'stopped', freeBytes: v.freeBytes, threshold, deleted, deletableBytes };
}
