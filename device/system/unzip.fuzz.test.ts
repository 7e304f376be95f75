// Fuzz test of the contained ZIP reader (security.md ZIP-1): whatever bytes arrive — random, our
// own archives with bytes flipped, cut short or spliced, or with hostile names — readZip and every
// entry's read() either give entries that keep every promise of the reader (contained unique
// names, declared sizes, limits, CRC) or refuse with a ZipRefused. Nothing else may escape: a
// RangeError from a header read past the end would be a crash path for a firmware upload.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isContainedName, readZip, type UnzipLimits, ZipRefused } from './unzip.ts';
import { type ZipEntry, zip } from './zip.ts';

const LIMITS: UnzipLimits = { maxEntries: 12, maxTotalBytes: 64 * 1024, maxRatio: 50 };
const RUNS = 400;
const END_RECORD = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

type Outcome = { refused: string } | { entries: { name: string; data: Buffer }[] };

/** Reads everything the archive holds; anything thrown other than ZipRefused fails the test. */
function readAll(data: Uint8Array, limits = LIMITS): Outcome {
  try {
    const entries = readZip(data, limits).map((e) => {
      const out = e.read();
      expect(out.length).toBe(e.size);
      return { name: e.name, data: out };
    });
    return { entries };
  } catch (e) {
    if (e instanceof ZipRefused) return { refused: e.problem };
    throw e;
  }
}

/** What every accepted archive must satisfy, whatever its bytes. */
function checkAccepted(o: Outcome, limits = LIMITS): void {
  if ('refused' in o) {
    expect(['format', 'name', 'link', 'count', 'size', 'ratio', 'crc']).toContain(o.refused);
    return;
  }
  expect(o.entries.length).toBeLessThanOrEqual(limits.maxEntries);
  const names = o.entries.map((e) => e.name.replace(/\/$/, ''));
  expect(new Set(names).size).toBe(names.length);
  for (const e of o.entries) expect(isContainedName(e.name)).toBe(true);
  expect(o.entries.reduce((n, e) => n + e.data.length, 0)).toBeLessThanOrEqual(limits.maxTotalBytes);
}

const segment = fc.stringMatching(/^[A-Za-z0-9_.-]{1,12}$/).filter((s) => s !== '.' && s !== '..');
const fileName = fc.array(segment, { minLength: 1, maxLength: 3 }).map((p) => p.join('/'));
const content = fc.oneof(
  fc.uint8Array({ maxLength: 600 }),
  fc.string({ maxLength: 600 }), // compressible text: deflated
  fc.nat({ max: 3000 }).map((n) => 'a'.repeat(n)), // highly compressible
);
/** 1–6 files with distinct names and no name that is another one's folder. */
const entriesArb = fc
  .uniqueArray(fileName, { minLength: 1, maxLength: 6, comparator: (a, b) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`) })
  .chain((names) => fc.tuple(...names.map((name) => content.map((data): ZipEntry => ({ name, data })))));

const bytesOf = (d: ZipEntry['data']) => Buffer.from(typeof d === 'string' ? new TextEncoder().encode(d) : d);

describe('readZip under fuzzing', () => {
  it('reads back every archive the writer makes, byte for byte', () => {
    fc.assert(
      fc.property(entriesArb, (entries) => {
        const o = readAll(zip(entries));
        if ('refused' in o) throw new Error(`refused ${o.refused}`);
        expect(o.entries.map((e) => e.name)).toEqual(entries.map((e) => e.name));
        o.entries.forEach((e, i) => expect(e.data.equals(bytesOf(entries[i]!.data))).toBe(true));
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses random bytes or keeps its promises, never throwing anything else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (data) => checkAccepted(readAll(data))),
      { numRuns: RUNS },
    );
  });

  it('refuses random bytes that carry an end record', () => {
    // an end-of-central-directory signature at the end makes the reader walk the forged directory
    const forged = fc
      .tuple(fc.uint8Array({ maxLength: 400 }), fc.uint8Array({ minLength: 18, maxLength: 18 }))
      .map(([body, tail]) => Buffer.concat([body, END_RECORD, tail]));
    fc.assert(
      fc.property(forged, (data) => checkAccepted(readAll(data))),
      { numRuns: RUNS },
    );
  });

  it('refuses archives with flipped bytes, or reads only bytes that were written', () => {
    const mutated = entriesArb.chain((entries) => {
      const archive = zip(entries);
      return fc.array(fc.tuple(fc.nat({ max: archive.length - 1 }), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 8 }).map((flips) => {
        const out = Buffer.from(archive);
        for (const [at, x] of flips) out[at] = out[at]! ^ x;
        return { entries, out };
      });
    });
    fc.assert(
      fc.property(mutated, ({ entries, out }) => {
        const o = readAll(out);
        checkAccepted(o);
        // the CRC check lets no damaged content through: what is read is some entry's original bytes
        const originals = entries.map((e) => bytesOf(e.data));
        if ('entries' in o) for (const e of o.entries) expect(originals.some((d) => d.equals(e.data))).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses archives cut short or spliced together', () => {
    const damaged = fc.tuple(entriesArb, entriesArb, fc.nat(), fc.nat()).map(([a, b, i, j]) => {
      const x = Buffer.from(zip(a));
      const y = zip(b);
      const cut = x.subarray(0, i % x.length);
      return { x, cut, spliced: Buffer.concat([cut, y.subarray(j % y.length)]) };
    });
    fc.assert(
      fc.property(damaged, ({ x, cut, spliced }) => {
        const o = readAll(cut);
        checkAccepted(o);
        // without its end record the archive is refused (unless the content holds a second one)
        if (x.indexOf(END_RECORD) === x.length - 22) expect('refused' in o).toBe(true);
        checkAccepted(readAll(spliced));
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses every archive holding a name that leaves the folder', () => {
    // the writer refuses such names, so a same-length placeholder is written and patched over
    const hostile = fc.constantFrom('../x', 'a/../../x', '/etc/passwd', 'C:/x', 'a\\b', 'a//b', './a', 'a/./b', 'a\0b', '..', 'x/../..');
    fc.assert(
      fc.property(entriesArb, hostile, fc.nat(), (entries, bad, k) => {
        const at = k % (entries.length + 1);
        const placeholder = '~'.repeat(bad.length);
        const archive = Buffer.from(zip([...entries.slice(0, at), { name: placeholder, data: 'x' }, ...entries.slice(at)]));
        for (let i = archive.indexOf(placeholder); i >= 0; i = archive.indexOf(placeholder, i + 1)) archive.write(bad, i, 'latin1');
        expect(readAll(archive)).toEqual({ refused: 'name' });
      }),
      { numRuns: RUNS },
    );
  });

  it('holds the limits on entry count and unpacked size', () => {
    fc.assert(
      fc.property(entriesArb, fc.integer({ min: 1, max: 6 }), fc.nat({ max: 4000 }), (entries, maxEntries, maxTotalBytes) => {
        const limits = { maxEntries, maxTotalBytes, maxRatio: 1000 };
        const o = readAll(zip(entries), limits);
        checkAccepted(o, limits);
        const total = entries.reduce((n, e) => n + bytesOf(e.data).length, 0);
        const want = entries.length > maxEntries ? 'count' : total > maxTotalBytes ? 'size' : undefined;
        if (want) expect(o).toEqual({ refused: want });
        else expect('entries' in o).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});
