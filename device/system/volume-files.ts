// Files of a folder addressed by a name from a request: log files of a volume, CSV format files,
// uploaded files (security.md DL-1). A name is one plain path component; it is resolved with
// realpath and must stay inside the folder's own real path, so that `..`, absolute paths, encoded
// slashes, NUL and links out of the folder never reach a file outside.
import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, open, readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';

/** NAME_MAX of the unit's file systems (ext4, vfat long names): one component, in bytes. */
export const NAME_MAX_BYTES = 255;

/** A regular file of a folder as the file routes list it. */
export interface FolderFile {
  name: string;
  size: number;
  /** last modification, ms since the epoch */
  mtime: number;
}

/**
 * Why a name was refused: `invalid_name` not one plain component (or unusable), `outside` it
 * resolves out of the folder (a link), `missing` nothing (or no regular file) is there.
 */
export type Refusal = 'invalid_name' | 'outside' | 'missing';

export class RefusedName extends Error {
  constructor(readonly reason: Refusal) {
    super(`file name refused: ${reason}`);
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// C0, DEL and C1 controls: NUL ends a C path; CR/LF would split a Content-Disposition header.
const CONTROL = /\p{Cc}/u;
// A name that still holds a percent escape after the URL was decoded once was encoded twice
// (`..%252f`): no log or format file name has one, so it is an attack, not a file.
const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;

/** Why `name` is not a plain file name of a folder, or undefined when it is one. */
export function nameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name === '') return 'empty';
  if (name.includes('/') || name.includes('\\')) return 'path separator';
  if (CONTROL.test(name)) return 'control character';
  if (LONE_SURROGATE.test(name)) return 'not unicode text';
  // covers `.` and `..`, and keeps hidden and temporary files (`.x.tmp`) out of every listing
  if (name.startsWith('.')) return 'starts with a dot';
  if (PERCENT_ESCAPE.test(name)) return 'percent escape';
  if (Buffer.byteLength(name, 'utf8') > NAME_MAX_BYTES) return 'too long';
  return undefined;
}

export const isPlainName = (name: unknown): name is string => nameProblem(name) === undefined;

const errno = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | undefined)?.code;

/** `path` is `root` itself or below it (both real paths). */
const within = (root: string, path: string): boolean => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

async function realRoot(root: string): Promise<string> {
  try {
    return await realpath(root);
  } catch (e) {
    if (errno(e) === 'ENOENT' || errno(e) === 'ENOTDIR') throw new RefusedName('missing');
    throw e;
  }
}

/**
 * The real path of `name` in the folder `root`; throws RefusedName when the name is not plain,
 * when it (a link) resolves out of the folder's real path, or when nothing is there. A link whose
 * target is inside the folder resolves to that target.
 */
export async function resolveInside(root: string, name: string): Promise<string> {
  if (!isPlainName(name)) throw new RefusedName('invalid_name');
  const base = await realRoot(root);
  let real: string;
  try {
    real = await realpath(join(base, name));
  } catch (e) {
    const code = errno(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new RefusedName('missing'); // also a dangling link
    if (code === 'ELOOP') throw new RefusedName('outside');
    if (code === 'ENAMETOOLONG') throw new RefusedName('invalid_name');
    throw e;
  }
  if (real === base || !within(base, real)) throw new RefusedName('outside');
  return real;
}

/** A regular file named `name` in `root`: its real path, its own entry (the link when it is one) and its size. */
export interface InsideFile extends FolderFile {
  /** the file's real path (a link's target) */
  path: string;
  /** the folder entry itself: what a delete removes (a link, never its target) */
  entry: string;
}

function fileOf(name: string, path: string, entry: string, s: Stats): InsideFile {
  return { name, path, entry, size: s.size, mtime: Math.floor(s.mtimeMs) };
}

/** Like resolveInside, and the result must be a regular file (else `missing`). */
export async function fileInside(root: string, name: string): Promise<InsideFile> {
  const path = await resolveInside(root, name);
  const s = await stat(path).catch((e: unknown) => {
    if (errno(e) === 'ENOENT') return undefined;
    throw e;
  });
  if (!s?.isFile()) throw new RefusedName('missing');
  return fileOf(name, path, join(root, name), s);
}

/**
 * Opens the regular file `name` of `root` for reading. The real path is opened with O_NOFOLLOW and
 * checked again on the open descriptor, so a link swapped in after the check is not followed. The
 * handle is the caller's to close (a response body: device/api/file-response.ts).
 */
export async function openInside(root: string, name: string): Promise<{ handle: FileHandle; size: number; mtime: number }> {
  const { path } = await fileInside(root, name);
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    if (errno(e) === 'ENOENT') throw new RefusedName('missing');
    if (errno(e) === 'ELOOP') throw new RefusedName('outside');
    throw e;
  }
  try {
    const s = await handle.stat();
    if (!s.isFile()) throw new RefusedName('missing');
    return { handle, size: s.size, mtime: Math.floor(s.mtimeMs) };
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/**
 * The files of `dir` that the file routes can act on, sorted by name: regular files and links to a
 * regular file inside `dir` (with the target's size), under a plain name. Folders, links out,
 * hidden files and names no route would accept are left out. A missing folder is an empty list.
 */
export async function listFolder(dir: string): Promise<FolderFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if (errno(e) === 'ENOENT' || errno(e) === 'ENOTDIR') return [];
    throw e;
  }
  const out: FolderFile[] = [];
  for (const name of names.sort()) {
    if (!isPlainName(name)) continue;
    // lstat first: a link is only listed when it resolves to a file inside (never the size of a file outside)
    const s = await lstat(join(dir, name)).catch(() => undefined); // gone since readdir: not listed
    if (s?.isFile()) out.push({ name, size: s.size, mtime: Math.floor(s.mtimeMs) });
    else if (s?.isSymbolicLink()) {
      const f = await fileInside(dir, name).catch(() => undefined);
      if (f) out.push({ name, size: f.size, mtime: f.mtime });
    }
  }
  return out;
}
