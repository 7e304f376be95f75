// A small ZIP writer (PKWARE APPNOTE 6.3: local headers, central directory, end record) for the
// example downloads. Entries are deflated when that makes them smaller, else stored. No ZIP64:
// the archives the daemon builds are a few kilobytes, so the 32-bit and 16-bit limits are checked
// instead of worked around. Daemon-only (node:zlib).
// CRC-32 is node:zlib's (Node 20.15 and later), not a table of our own.
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** path inside the archive, `/` separated; a trailing `/` makes a folder entry */
  name: string;
  data: Uint8Array | string;
  /** modification time, stored as DOS local date and time (default: now) */
  mtime?: Date;
}

const STORED = 0;
const DEFLATED = 8;
const UTF8_NAMES = 0x0800; // general purpose flag bit 11: names are UTF-8
const VERSION_NEEDED = 20; // 2.0: deflate and folders
const MADE_BY_UNIX = (3 << 8) | 20; // host 3 (Unix), so unzip applies the permissions below
const FILE_MODE = 0o100644;
const DIR_MODE = 0o040755;
const U16 = 0xffff;
const U32 = 0xffffffff;

/** DOS date and time in local time, 2-second resolution; DOS dates start in 1980. */
function dosDateTime(d: Date): { date: number; time: number } {
  if (d.getFullYear() < 1980) return { date: (1 << 5) | 1, time: 0 };
  return {
    date: ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
  };
}

function checkName(name: string): void {
  // a name that climbs out of the extraction folder or is absolute is a bug in the caller
  const parts = name.replace(/\/$/, '').split('/');
  if (name === '' || name.startsWith('/') || name.includes('\\') || parts.some((p) => p === '' || p === '.' || p === '..'))
    throw new Error(`zip: invalid entry name ${JSON.stringify(name)}`);
}

/** Builds a complete archive in memory. */
export function zip(entries: readonly ZipEntry[]): Uint8Array<ArrayBuffer> {
  if (entries.length > U16) throw new Error('zip: too many entries');
  const enc = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  const now = new Date();
  for (const e of entries) {
    checkName(e.name);
    const name = enc.encode(e.name);
    const raw = typeof e.data === 'string' ? enc.encode(e.data) : e.data;
    const isDir = e.name.endsWith('/');
    if (isDir && raw.length) throw new Error(`zip: folder entry ${e.name} has data`);
    const deflated = raw.length ? new Uint8Array(deflateRawSync(raw, { level: 9 })) : raw;
    const method = deflated.length < raw.length ? DEFLATED : STORED;
    const body = method === DEFLATED ? deflated : raw;
    if (raw.length >= U32 || offset >= U32) throw new Error('zip: archive too large');
    const crc = crc32(raw);
    const { date, time } = dosDateTime(e.mtime ?? now);

    const local = new Uint8Array(30 + name.length);
    const l = new DataView(local.buffer);
    l.setUint32(0, 0x04034b50, true);
    l.setUint16(4, VERSION_NEEDED, true);
    l.setUint16(6, UTF8_NAMES, true);
    l.setUint16(8, method, true);
    l.setUint16(10, time, true);
    l.setUint16(12, date, true);
    l.setUint32(14, crc, true);
    l.setUint32(18, body.length, true);
    l.setUint32(22, raw.length, true);
    l.setUint16(26, name.length, true);
    l.setUint16(28, 0, true); // no extra field
    local.set(name, 30);

    const central = new Uint8Array(46 + name.length);
    const c = new DataView(central.buffer);
    c.setUint32(0, 0x02014b50, true);
    c.setUint16(4, MADE_BY_UNIX, true);
    c.setUint16(6, VERSION_NEEDED, true);
    c.setUint16(8, UTF8_NAMES, true);
    c.setUint16(10, method, true);
    c.setUint16(12, time, true);
    c.setUint16(14, date, true);
    c.setUint32(16, crc, true);
    c.setUint32(20, body.length, true);
    c.setUint32(24, raw.length, true);
    c.setUint16(28, name.length, true);
    // extra length, comment length, disk number, internal attributes stay 0
    c.setUint32(38, (((isDir ? DIR_MODE : FILE_MODE) << 16) | (isDir ? 0x10 : 0)) >>> 0, true); // Unix mode + MS-DOS folder bit
    c.setUint32(42, offset, true);
    central.set(name, 46);

    locals.push(local, body);
    centrals.push(central);
    offset += local.length + body.length;
  }
  const cdSize = centrals.reduce((n, x) => n + x.length, 0);
  if (offset + cdSize >= U32) throw new Error('zip: archive too large');
  const end = new Uint8Array(22);
  const d = new DataView(end.buffer);
  d.setUint32(0, 0x06054b50, true);
  d.setUint16(8, entries.length, true); // entries on this disk
  d.setUint16(10, entries.length, true); // entries in total
  d.setUint32(12, cdSize, true);
  d.setUint32(16, offset, true);

  const out = new Uint8Array(offset + cdSize + end.length);
  let at = 0;
  for (const part of [...locals, ...centrals, end]) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
