// Low-memory policy of a log volume (spec §4: the write status signals low memory; pew_log
// delete_old_files: on low memory delete the oldest files instead of stopping).
//
// A volume is low when its free bytes fall below max(1 MiB, 1 % of its size): 1 MiB holds several
// hundred batches of the largest records, and the 1 % keeps a reserve on large media where file
// systems slow down and wear levelling suffers when nearly full. The check runs before every batch:
// - enough space: 'ok';
// - low, delete_old_files on: the oldest CSV files of the log folder (by modification time, so
//   across all log files) are deleted one by one until the volume is above the threshold; that is
//   reported once as 'low_memory' and the batch is written. Files being written are never deleted;
//   when nothing deletable is left and the volume is still low, logging stops as below;
// - low, delete_old_files off: 'stopped': nothing is written to the volume until space is back
//   (the records wait in the appender's bounded queue).
import { join } from 'node:path';
import type { Volume } from '../../hw/types.ts';
import { namesIn, type DirFs } from './retention.ts';

export const MIN_FREE_BYTES = 1024 * 1024;
export const MIN_FREE_SHARE = 0.01;

export interface SpaceFs extends DirFs {
  stat(path: string): Promise<{ mtimeMs: number; isFile(): boolean }>;
}

export interface SpaceCheck {
  state: 'ok' | 'low_memory' | 'stopped';
  /** free bytes after the check (and any deletions) */
  freeBytes: number;
  threshold: number;
  /** CSV files deleted to make room, oldest first */
  deleted: string[];
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
  return files
    .filter((f) => f.name.endsWith('.csv') && !keep.has(f.name))
    .sort((a, b) => a.mtimeMs - b.mtimeMs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((f) => f.name);
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

async function csvFiles(dir: string, fs: SpaceFs): Promise<{ name: string; mtimeMs: number }[]> {
  const out: { name: string; mtimeMs: number }[] = [];
  for (const name of await namesIn(dir, fs)) {
    if (!name.endsWith('.csv')) continue;
    try {
      const s = await fs.stat(join(dir, name));
      if (s.isFile()) out.push({ name, mtimeMs: s.mtimeMs });
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
  const deleted: string[] = [];
  for (const name of deletionOrder(await csvFiles(o.dir, o.fs), o.keep)) {
    try {
      await o.fs.unlink(join(o.dir, name));
      deleted.push(name);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    v = await o.volume();
    if (v.freeBytes >= threshold) return { state: 'low_memory', freeBytes: v.freeBytes, threshold, deleted };
  }
  return { state: 'stopped', freeBytes: v.freeBytes, threshold, deleted };
}
