// The console's built files (build/web.ts writes them) read from one folder and kept in memory:
// hashed assets never change while the daemon runs; index.html is checked against its mtime so that
// `npm run build` beside a running daemon is picked up.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { getMimeType } from 'hono/utils/mime';

/** One representation of a file: its bytes and a strong ETag for them. */
export interface Variant {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}

export interface WebFile {
  type: string;
  plain: Variant;
  /** the build's `.gz` twin, when it exists and is smaller */
  gzip?: Variant;
}

/** The Content-Type of a file by its extension (Hono's MIME table), else application/octet-stream. */
export const contentType = (name: string): string => getMimeType(name) ?? 'application/octet-stream';

/**
 * A single file name the folder may serve: letters, digits, `.`, `_`, `-`; no dot first (no `..`,
 * no hidden files) and not a `.gz` twin (those are only sent through content negotiation).
 */
export const isServableName = (name: string): boolean => /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(name) && !name.includes('..') && !name.endsWith('.gz');

async function readVariant(path: string): Promise<Variant | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return undefined;
    const body = new Uint8Array(await readFile(path));
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

async function load(path: string): Promise<WebFile | undefined> {
  const plain = await readVariant(path);
  if (!plain) return undefined;
  const gz = await readVariant(`${path}.gz`);
  const gzip = gz && gz.body.length < plain.body.length ? { body: gz.body, etag: `${plain.etag.slice(0, -1)}-gz"` } : undefined;
  return { type: contentType(path), plain, ...(gzip ? { gzip } : {}) };
}

export class WebFiles {
  readonly dir: string;
  private readonly cache = new Map<string, { file: Promise<WebFile | undefined>; stamp: string }>();

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  /**
   * The file at `sub` (`index.html` or `assets/<name>`), or undefined when it is not there or the name
   * is not servable. `revalidate` re-reads it when its size or mtime changed.
   */
  async get(sub: string, revalidate = false): Promise<WebFile | undefined> {
    const parts = sub.split('/');
    if (!parts.every(isServableName)) return undefined;
    const path = join(this.dir, ...parts);
    if (!path.startsWith(this.dir + sep)) return undefined; // cannot happen with the names above; kept as the last word
    let stamp = '';
    if (revalidate) {
      const info = await stat(path).catch(() => undefined);
      if (!info) return undefined;
      stamp = `${info.size}:${info.mtimeMs}`;
    }
    const hit = this.cache.get(path);
    if (hit && hit.stamp === stamp) return hit.file;
    // the promise is cached, so concurrent first requests read the file once; misses are not kept
    const file = load(path);
    this.cache.set(path, { file, stamp });
    const found = await file.catch(() => undefined);
    if (!found && this.cache.get(path)?.file === file) this.cache.delete(path);
    return found;
  }
}
