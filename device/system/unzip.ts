// A contained ZIP reader for archives that arrive from outside (security.md ZIP-1: firmware images):
// the central directory is read and every entry is judged before a single byte is inflated —
// names (no `..`, no absolute or drive paths, no backslashes, no NUL, no duplicates), types (files
// and folders only: a Unix symlink or device entry is refused), entry count, total size and the
// compression ratio. Inflating is capped at the declared size, so an entry that lies about its
// size cannot grow past it, and every CRC is checked. Nothing is written to disk here: the caller
// gets the entries and decides where they go. Stored and deflated entries only; no ZIP64, no
// encryption (the daemon's own writer, device/system/zip.ts, makes nothing else).
import { crc32, inflateRawSync } from 'node:zlib';

export interface UnzipLimits {
  /** entries, folders included */
  maxEntries: number;
  /** sum of the uncompressed sizes */
  maxTotalBytes: number;
  /** uncompressed / compressed of one entry larger than RATIO_FLOOR bytes */
  maxRatio: number;
}

/** Entries this small may compress as well as they like (a few hundred zero bytes are no bomb). */
export const RATIO_FLOOR = 4096;

export type ZipProblem = 'format' | 'name' | 'link' | 'count' | 'size' | 'ratio' | 'crc';

export class ZipRefused extends Error {
  constructor(
    readonly problem: ZipProblem,
    message: string,
  ) {
    super(message);
  }
}

export interface ZipFileEntry {
  name: string;
  size: number;
  /** the entry's bytes, inflated under the cap of its declared size, CRC checked */
  read(): Buffer;
}

const LOCAL_SIG = 0x04034b50;
const CENTRAL_SIG = 0x02014b50;
const END_SIG = 0x06054b50;
const STORED = 0;
const DEFLATED = 8;
const UNIX_HOST = 3;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/** A relative `/` path that stays inside the folder it is extracted to. */
export function isContainedName(name: string): boolean {
  const path = name.endsWith('/') ? name.slice(0, -1) : name;
  if (path === '' || path.startsWith('/') || /[\\\0]/.test(path) || /^[A-Za-z]:/.test(path)) return false;
  return path.split('/').every((p) => p !== '' && p !== '.' && p !== '..');
}

/** Reads the archive's directory and checks it against `limits`; throws ZipRefused. */
export function readZip(data: Uint8Array, limits: UnzipLimits): ZipFileEntry[] {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const fail = (problem: ZipProblem, message: string): never => {
    throw new ZipRefused(problem, message);
  };
  // the end record is in the last 22 + 65535 (comment) bytes
  let end = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === END_SIG) {
      end = i;
      break;
    }
  }
  if (end < 0) fail('format', 'not a ZIP archive');
  const count = buf.readUInt16LE(end + 10);
  const cdSize = buf.readUInt32LE(end + 12);
  const cdOffset = buf.readUInt32LE(end + 16);
  if (buf.readUInt16LE(end + 4) !== 0 || buf.readUInt16LE(end + 8) !== count) fail('format', 'multi-disk archives are not supported');
  if (count > limits.maxEntries) fail('count', `${count} entries, at most ${limits.maxEntries}`);
  if (cdOffset + cdSize > end) fail('format', 'the central directory lies outside the archive');

  const entries: ZipFileEntry[] = [];
  const seen = new Set<string>();
  let total = 0;
  let at = cdOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || buf.readUInt32LE(at) !== CENTRAL_SIG) fail('format', 'damaged central directory');
    const madeBy = buf.readUInt16LE(at + 4);
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    const crc = buf.readUInt32LE(at + 16);
    const packed = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    const external = buf.readUInt32LE(at + 38);
    const localAt = buf.readUInt32LE(at + 42);
    if (at + 46 + nameLen > end) fail('format', 'damaged central directory');
    const name = buf.toString('utf8', at + 46, at + 46 + nameLen);
    at += 46 + nameLen + extraLen + commentLen;

    if (!isContainedName(name)) fail('name', `unsafe entry name ${JSON.stringify(name)}`);
    const key = name.replace(/\/$/, '');
    if (seen.has(key)) fail('name', `duplicate entry ${JSON.stringify(name)}`);
    seen.add(key);
    const mode = madeBy >> 8 === UNIX_HOST ? (external >>> 16) & S_IFMT : 0;
    const isDir = name.endsWith('/');
    if (mode !== 0 && mode !== (isDir ? S_IFDIR : S_IFREG)) fail('link', `entry ${JSON.stringify(name)} is a link or special file`);
    if (flags & 1) fail('format', `entry ${JSON.stringify(name)} is encrypted`);
    if (method !== STORED && method !== DEFLATED) fail('format', `entry ${JSON.stringify(name)} uses compression method ${method}`);
    if (isDir) {
      if (size !== 0) fail('format', `folder entry ${JSON.stringify(name)} has data`);
      continue;
    }
    total += size;
    if (total > limits.maxTotalBytes) fail('size', `more than ${limits.maxTotalBytes} bytes unpacked`);
    if (method === STORED && packed !== size) fail('format', `entry ${JSON.stringify(name)} has inconsistent sizes`);
    if (size > RATIO_FLOOR && size > packed * limits.maxRatio) fail('ratio', `entry ${JSON.stringify(name)} expands more than ${limits.maxRatio} times`);

    if (localAt + 30 > cdOffset || buf.readUInt32LE(localAt) !== LOCAL_SIG) fail('format', `entry ${JSON.stringify(name)} has no local header`);
    const dataAt = localAt + 30 + buf.readUInt16LE(localAt + 26) + buf.readUInt16LE(localAt + 28);
    if (buf.toString('utf8', localAt + 30, localAt + 30 + buf.readUInt16LE(localAt + 26)) !== name)
      fail('format', `entry ${JSON.stringify(name)} has two names`);
    if (dataAt + packed > cdOffset) fail('format', `entry ${JSON.stringify(name)} lies outside the archive`);
    const body = buf.subarray(dataAt, dataAt + packed);
    entries.push({
      name,
      size,
      read: () => {
        let out: Buffer;
        if (method === STORED) out = Buffer.from(body);
        else {
          try {
            // one byte over the declared size is enough to tell a lie
            out = inflateRawSync(body, { maxOutputLength: Math.max(1, size + 1) });
          } catch (e) {
            const tooBig = (e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError;
            return fail(tooBig ? 'size' : 'format', `entry ${JSON.stringify(name)} ${tooBig ? 'is larger than it declares' : 'cannot be inflated'}`);
          }
        }
        if (out.length !== size) fail('size', `entry ${JSON.stringify(name)} is not the size it declares`);
        if (crc32(out) !== crc) fail('crc', `entry ${JSON.stringify(name)} fails its CRC check`);
        return out;
      },
    });
  }
  return entries;
}
