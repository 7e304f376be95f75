// The unit's storage volumes (spec §3: internal 0, USB 1, temp 2).
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Volume } from '../types.ts';
import { ensureDir, volumeAt } from '../volumes.ts';

export interface VolumePaths {
  internal: string;
  usb: string;
  temp: string;
}

export async function readVolumes(p: VolumePaths): Promise<Volume[]> {
  return Promise.all([
    // Internal and temp are the daemon's own folders: created when missing.
    ensureDir(p.internal).then((ok) => volumeAt('internal', p.internal, ok)),
    // The USB folder is the automounter's: an empty mount point without a stick must not count,
    // or logs meant for the stick would fill the internal flash.
    isMountPoint(p.usb).then((ok) => volumeAt('usb', p.usb, ok)),
    ensureDir(p.temp).then((ok) => volumeAt('temp', p.temp, ok)),
  ]);
}

/** A folder on another device than its parent (what mountpoint(1) checks), or the root itself. */
export async function isMountPoint(dir: string): Promise<boolean> {
  try {
    const [self, parent] = await Promise.all([stat(dir), stat(path.join(dir, '..'))]);
    if (!self.isDirectory()) return false;
    return self.dev !== parent.dev || self.ino === parent.ino;
  } catch {
    return false;
  }
}
