// The contained ZIP reader (security.md ZIP-1): our writer's archives read back byte for byte, and
// every crafted archive is refused with its problem before anything is inflated or, for an entry
// that lies about its size, as soon as inflating passes the declared size.

import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { isContainedName, readZip, type UnzipLimits, ZipRefused } from './unzip.ts';
import { zip } from './zip.ts';

const LIMITS: UnzipLimits = { maxEntries: 10, maxTotalBytes: 1024 * 1024, maxRatio: 50 };

function refusal(data: Uint8Array, limits = LIMITS, readAll = false): string | undefined {
  try {
    const entries = readZip(data, limits);
    if (readAll) for (const e of entries) e.read();
    return undefined;
  } catch (e) {
    if (e instanceof ZipRefused) return e.problem;
    throw e;
  }
}

/** Same-length replacement of every occurrence (names sit in the local and the central header). */
function patch(data: Uint8Array, from: string, to: string): Buffer {
  const buf = Buffer.from(data);
  for (let i = buf.indexOf(from); i >= 0; i = buf.indexOf(from, i + 1)) buf.write(to, i);
  return buf;
}

describe('readZip', () => {
  it('reads back what the writer wrote, folders skipped', () => {
    const text = 'hello '.repeat(100);
    const entries = readZip(
      zip([
        { name: 'a/', data: '' },
        { name: 'a/b.txt', data: text },
        { name: 'c.bin', data: new Uint8Array([1, 2, 3]) },
      ]),
      LIMITS,
    );
    expect(entries.map((e) => [e.name, e.size])).toEqual([
      ['a/b.txt', text.length],
      ['c.bin', 3],
    ]);
    expect(entries[0]!.read().toString()).toBe(text);
    expect([...entries[1]!.read()]).toEqual([1, 2, 3]);
  });

  it('refuses names that leave the folder', () => {
    for (const bad of ['../evil.txt', '/etc/passw', 'a/../../bc', 'C:/x/y.txt']) {
      const good = 'x'.repeat(bad.length);
      expect(refusal(patch(zip([{ name: good, data: 'x' }]), good, bad)), bad).toBe('name');
    }
    expect(isContainedName('dist/web/index.html')).toBe(true);
    expect(isContainedName('a\\b')).toBe(false);
  });

  it('refuses a symlink entry and a duplicate', () => {
    const z = Buffer.from(zip([{ name: 'link', data: '/etc/passwd' }]));
    const cd = z.indexOf(Buffer.from([0x50, 0x4b, 1, 2]));
    z.writeUInt32LE((0o120777 << 16) >>> 0, cd + 38);
    expect(refusal(z)).toBe('link');
    expect(
      refusal(
        patch(
          zip([
            { name: 'a1', data: 'x' },
            { name: 'a2', data: 'y' },
          ]),
          'a2',
          'a1',
        ),
      ),
    ).toBe('name');
  });

  it('caps entries, total size and ratio before inflating', () => {
    expect(refusal(zip(Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, data: 'x' }))))).toBe('count');
    expect(refusal(zip([{ name: 'big', data: new Uint8Array(2 * 1024 * 1024).fill(7).map((_, i) => i % 251) }]))).toBe('size');
    expect(refusal(zip([{ name: 'bomb', data: new Uint8Array(1024 * 1024) }]))).toBe('ratio');
  });

  it('an entry that declares fewer bytes than it holds stops at its declared size', () => {
    // 100 KB of zeros declared as 1000 bytes: small enough to pass the ratio check
    const z = Buffer.from(zip([{ name: 'liar', data: new Uint8Array(1000).fill(1) }]));
    const body = deflateRawSync(new Uint8Array(100 * 1024));
    const name = Buffer.from('liar');
    const local = Buffer.alloc(30);
    z.copy(local, 0, 0, 30);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(body.length, 18);
    const cdStart = z.indexOf(Buffer.from([0x50, 0x4b, 1, 2]));
    const central = Buffer.from(z.subarray(cdStart, z.length - 22));
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(body.length, 20);
    const end = Buffer.from(z.subarray(z.length - 22));
    const lenLocal = 30 + name.length + body.length;
    end.writeUInt32LE(central.length, 12);
    end.writeUInt32LE(lenLocal, 16);
    const crafted = Buffer.concat([local, name, body, central, end]);
    expect(refusal(crafted, LIMITS, false)).toBeUndefined();
    expect(refusal(crafted, LIMITS, true)).toBe('size');
  });

  it('refuses what is not an archive and a changed byte of a stored entry', () => {
    expect(refusal(new Uint8Array(100))).toBe('format');
    const z = Buffer.from(zip([{ name: 'f', data: new Uint8Array([9, 8, 7, 6]) }]));
    z[30 + 1] = 0; // the first data byte (the name is one byte long)
    expect(refusal(z, LIMITS, true)).toBe('crc');
  });
});
