// The unit's release layout (docs/firmware.md; security.md FW-1 "install is atomic with the old
// version kept until the new one starts"):
//   <root>/releases/<version>_<stamp>/   one folder per installed image, never changed once complete
//   <root>/current, <root>/previous      symbolic links into releases/, each replaced by a rename
//   <root>/install.json                  the journal of a switch in progress (from, to)
//   <root>/last-install.json             the outcome of the last switch, read by the daemon
//   <root>/data/                         the daemon's data folder, shared by every release
// The daemon unpacks a verified image into a new release folder; only the supervisor switches.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, readlink, rename, rm, symlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { syncDir, writeFileAtomic } from '../../hw/atomic-file.ts';
import { isContainedName } from '../system/unzip.ts';
import { MANIFEST_FILE, type Manifest } from './manifest.ts';

export interface Layout {
  root: string;
  releases: string;
  current: string;
  previous: string;
  journal: string;
  result: string;
  data: string;
}

export const layoutOf = (root: string): Layout => ({
  root,
  releases: join(root, 'releases'),
  current: join(root, 'current'),
  previous: join(root, 'previous'),
  journal: join(root, 'install.json'),
  result: join(root, 'last-install.json'),
  data: join(root, 'data'),
});

export interface Journal {
  from: string;
  to: string;
  user?: string;
  at: string;
}

export interface InstallResult {
  ok: boolean;
  version: string;
  from: string;
  at: string;
  user?: string;
  /** written into the audit log by the daemon that started after the switch */
  audited: boolean;
}

/** The release folder a pointer names (its base name), or undefined. */
export async function readPointer(link: string): Promise<string | undefined> {
  const target = await readlink(link).catch(() => undefined);
  return target === undefined ? undefined : basename(target);
}

/** Points `link` at releases/<release> by renaming a fresh link over it (atomic), then syncs the folder. */
export async function pointTo(l: Layout, link: string, release: string): Promise<void> {
  const tmp = join(dirname(link), `.${basename(link)}.tmp-${randomBytes(4).toString('hex')}`);
  await symlink(join('releases', release), tmp);
  try {
    await rename(tmp, link);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  await syncDir(l.root);
}

/** The version a release folder holds, from its manifest. */
export async function releaseManifest(l: Layout, release: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(l.releases, release, MANIFEST_FILE), 'utf8')) as Manifest;
}

export async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export const writeJson = (file: string, value: unknown): Promise<void> => writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);

/**
 * Writes verified files into a new release folder: first under a hidden name, every file synced,
 * then renamed into place, so a half-written release never carries a release name. Returns the
 * folder's name.
 */
export async function unpackRelease(
  l: Layout,
  version: string,
  files: readonly { path: string; data: Uint8Array }[],
  onProgress: (fraction: number) => void = () => {},
): Promise<string> {
  const name = `${version}_${Date.now().toString(36)}`;
  const tmp = join(l.releases, `.${name}.tmp`);
  await mkdir(tmp, { recursive: true });
  try {
    let done = 0;
    for (const f of files) {
      // the paths were checked by the reader already; a second look costs nothing
      if (!isContainedName(f.path)) throw new Error(`unsafe path ${f.path}`);
      const target = join(tmp, f.path);
      await mkdir(dirname(target), { recursive: true });
      const fh = await open(target, 'wx', 0o644);
      try {
        await fh.writeFile(f.data);
        await fh.sync();
      } finally {
        await fh.close();
      }
      onProgress(++done / files.length);
    }
    await rename(tmp, join(l.releases, name));
    await syncDir(l.releases);
  } catch (e) {
    await rm(tmp, { recursive: true, force: true });
    throw e;
  }
  return name;
}

/** Removes release folders that neither pointer names, and half-written ones. */
export async function pruneReleases(l: Layout): Promise<void> {
  const keep = new Set([await readPointer(l.current), await readPointer(l.previous)]);
  for (const n of await readdir(l.releases).catch(() => [] as string[])) {
    if (!keep.has(n)) await rm(join(l.releases, n), { recursive: true, force: true });
  }
}
