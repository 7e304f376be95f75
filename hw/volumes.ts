// Size figures of a storage volume folder, shared by the Linux and the simulated hw.
import { mkdir, statfs } from 'node:fs/promises';
import type { Volume, VolumeId } from './types.ts';

/**
 * A volume whose folder is `dir`. `mounted` is decided by the caller (a folder, a mount point);
 * an unmounted volume reports 0 bytes so that nothing is planned onto it.
 */
export async function volumeAt(id: VolumeId, dir: string, mounted: boolean): Promise<Volume> {
  if (!mounted) return { id, path: dir, mounted, totalBytes: 0, freeBytes: 0 };
  try {
    const s = await statfs(dir);
    // bavail, not bfree: the blocks reserved for root are not available to the daemon's files.
    return { id, path: dir, mounted, totalBytes: s.blocks * s.bsize, freeBytes: s.bavail * s.bsize };
  } catch {
    return { id, path: dir, mounted: false, totalBytes: 0, freeBytes: 0 };
  }
}

/** Creates the folder when missing; false when that is impossible (read-only or full medium). */
export async function ensureDir(dir: string): Promise<boolean> {
  try {
    await mkdir(dir, { recursive: true });
    return true;
  } catch {
    return false;
  }
}
