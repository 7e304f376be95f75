import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unzip } from '../../test/support/unzip.ts';
import { zip } from './zip.ts';

const enc = new TextEncoder();

describe('zip CRC', () => {
  it('writes the CRC-32/ISO-HDLC check value in the local header and the central directory', () => {
    const archive = zip([
      { name: 'check.txt', data: '123456789' },
      { name: 'empty.txt', data: '' },
    ]);
    const v = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
    expect(v.getUint32(14, true)).toBe(0xcbf43926); // first local header
    const central = archive.findIndex((_, i) => v.getUint32(i, true) === 0x02014b50);
    expect(v.getUint32(central + 16, true)).toBe(0xcbf43926);
    expect(unzip(archive).map((e) => e.data.toString())).toEqual(['123456789', '']); // Python checks every CRC
  });
});

describe('zip', () => {
  const mtime = new Date(2024, 4, 17, 13, 45, 31); // local time; DOS keeps even seconds
  const entries = [
    { name: 'README.txt', data: 'hello\n'.repeat(200), mtime }, // compressible: deflated
    { name: 'empty.txt', data: '', mtime },
    { name: 'noise.bin', data: new Uint8Array(randomBytes(3000)), mtime }, // incompressible: stored
    { name: 'docs/', data: '', mtime },
    { name: 'docs/Grüße_ü€😀.txt', data: 'Änderung °C\n', mtime },
  ];

  it('round-trips names and bytes through an independent reader', () => {
    const got = unzip(zip(entries));
    expect(got.map((e) => e.name)).toEqual(entries.map((e) => e.name));
    got.forEach((e, i) => {
      const want = entries[i]!.data;
      expect(new Uint8Array(e.data)).toEqual(typeof want === 'string' ? enc.encode(want) : want);
      expect(e.dateTime).toEqual([2024, 5, 17, 13, 45, 30]);
      expect(e.flags & 0x0800).toBe(0x0800); // UTF-8 names
    });
    expect(got.map((e) => e.method)).toEqual([8, 0, 0, 0, 0]); // a short text is smaller stored
  });

  it('passes unzip -t and extracts with the right content', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zip-'));
    try {
      writeFileSync(join(dir, 'a.zip'), zip(entries));
      expect(execFileSync('unzip', ['-t', join(dir, 'a.zip')], { encoding: 'utf8' })).toContain('No errors detected');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes a valid empty archive', () => {
    expect(zip([]).length).toBe(22);
    expect(unzip(zip([]))).toEqual([]);
  });

  it('refuses names that would escape the extraction folder', () => {
    for (const name of ['', '/etc/passwd', '../x', 'a/../../x', 'a\\b', 'a//b']) expect(() => zip([{ name, data: 'x' }]), name).toThrow(/invalid entry name/);
  });
});
