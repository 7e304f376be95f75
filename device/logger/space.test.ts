import * as nodeFs from 'node:fs/promises';
import { mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { deletionOrder, ensureSpace, filesToDelete, isLow, lowSpaceThreshold, MIN_FREE_BYTES, type SpaceFs } from './space.ts';

const MiB = 1024 * 1024;
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('threshold', () => {
  it('is 1 MiB on small volumes and 1 % of the size on large ones', () => {
    expect(lowSpaceThreshold(0)).toBe(MiB);
    expect(lowSpaceThreshold(50 * MiB)).toBe(MiB);
    expect(lowSpaceThreshold(100 * MiB)).toBe(MiB);
    expect(lowSpaceThreshold(1000 * MiB)).toBe(10 * MiB);
    expect(lowSpaceThreshold(101)).toBe(MIN_FREE_BYTES);
    expect(lowSpaceThreshold(16 * 1024 * MiB + 1)).toBe(Math.ceil((16 * 1024 * MiB + 1) / 100));
  });

  it('low is strictly below the threshold', () => {
    expect(isLow({ totalBytes: 1000 * MiB, freeBytes: 10 * MiB })).toBe(false);
    expect(isLow({ totalBytes: 1000 * MiB, freeBytes: 10 * MiB - 1 })).toBe(true);
    expect(isLow({ totalBytes: 8 * MiB, freeBytes: MiB })).toBe(false);
    expect(isLow({ totalBytes: 8 * MiB, freeBytes: MiB - 1 })).toBe(true);
  });
});

describe('deletionOrder', () => {
  it('oldest first, by name on equal times; only .csv, never a kept file', () => {
    const files = [
      { name: 'b_2024.csv', mtimeMs: 300 },
      { name: 'a_20240101.csv', mtimeMs: 100 },
      { name: 'c.txt', mtimeMs: 1 },
      { name: 'z_2023.csv', mtimeMs: 100 },
      { name: 'open_2024.csv', mtimeMs: 50 },
    ];
    expect(deletionOrder(files, new Set(['open_2024.csv']))).toEqual(['a_20240101.csv', 'z_2023.csv', 'b_2024.csv']);
  });

  it('property: a sorted subset of the csv files, without the kept ones', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ name: fc.stringMatching(/^[a-z]{1,4}\.(csv|txt)$/), mtimeMs: fc.integer({ min: 0, max: 50 }) }), {
          selector: (f) => f.name,
          maxLength: 20,
        }),
        fc.array(fc.stringMatching(/^[a-z]{1,4}\.csv$/), { maxLength: 5 }),
        (files, kept) => {
          const keep = new Set(kept);
          const order = deletionOrder(files, keep);
          const mtime = new Map(files.map((f) => [f.name, f.mtimeMs]));
          expect(new Set(order)).toEqual(new Set(files.filter((f) => f.name.endsWith('.csv') && !keep.has(f.name)).map((f) => f.name)));
          for (let i = 1; i < order.length; i++) expect(mtime.get(order[i - 1]!)!).toBeLessThanOrEqual(mtime.get(order[i]!)!);
        },
      ),
    );
  });
});

/** A log folder on a volume of `capacity` bytes whose free space is what its files leave. */
async function volumeOf(capacity: number, files: Record<string, { bytes: number; mtime: number }>) {
  const dir = await mkdtemp(join(tmpdir(), 'space-'));
  dirs.push(dir);
  for (const [name, f] of Object.entries(files)) {
    await writeFile(join(dir, name), Buffer.alloc(f.bytes, 0x41));
    await utimes(join(dir, name), f.mtime, f.mtime);
  }
  const volume = async () => {
    let used = 0;
    for (const n of await readdir(dir)) used += (await stat(join(dir, n))).size;
    return { totalBytes: capacity, freeBytes: capacity - used };
  };
  return { dir, volume };
}

describe('ensureSpace', () => {
  const big = { bytes: 2 * MiB, mtime: 0 };

  it('ok above the threshold: nothing deleted', async () => {
    const v = await volumeOf(10 * MiB, { 'a_2024.csv': { ...big, mtime: 1000 } });
    expect(await ensureSpace({ ...v, deleteOldFiles: true, keep: new Set(), fs: nodeFs })).toEqual({
      state: 'ok',
      freeBytes: 8 * MiB,
      threshold: MiB,
      deleted: [],
    });
  });

  it('low without delete_old_files: stopped, every file kept', async () => {
    const v = await volumeOf(5 * MiB - 1, { 'a_2022.csv': { ...big, mtime: 1000 }, 'a_2023.csv': { ...big, mtime: 2000 } });
    const r = await ensureSpace({ ...v, deleteOldFiles: false, keep: new Set(), fs: nodeFs });
    expect(r).toEqual({ state: 'stopped', freeBytes: MiB - 1, threshold: MiB, deleted: [] });
    expect((await readdir(v.dir)).sort()).toEqual(['a_2022.csv', 'a_2023.csv']);
  });

  it('low with delete_old_files: the oldest csv files go, one by one, until above the threshold', async () => {
    const v = await volumeOf(7 * MiB, {
      'b_2024.csv': { ...big, mtime: 4000 }, // newest
      'a_2021.csv': { ...big, mtime: 1000 }, // oldest
      'notes.txt': { bytes: 512 * 1024, mtime: 10 }, // older still, but no log file
      'a_2022.csv': { ...big, mtime: 2000 },
      'a_2023.csv': { bytes: MiB / 2, mtime: 3000 },
    });
    // 6.5 MiB of csv and 0.5 MiB of txt fill the 7 MiB; deleting a_2021 frees 2 MiB, enough
    const r = await ensureSpace({ ...v, deleteOldFiles: true, keep: new Set(), fs: nodeFs });
    expect(r).toEqual({ state: 'low_memory', freeBytes: 2 * MiB, threshold: MiB, deleted: ['a_2021.csv'], deletableBytes: 6.5 * MiB });
    expect((await readdir(v.dir)).sort()).toEqual(['a_2022.csv', 'a_2023.csv', 'b_2024.csv', 'notes.txt']);
  });

  it('kept files are not deleted; with nothing left to delete it stops', async () => {
    const v = await volumeOf(4 * MiB + 1024, { 'a_2021.csv': { ...big, mtime: 1000 }, 'open_2024.csv': { ...big, mtime: 10 } });
    const r = await ensureSpace({ ...v, deleteOldFiles: true, keep: new Set(['open_2024.csv', 'a_2021.csv']), fs: nodeFs });
    expect(r).toMatchObject({ state: 'stopped', deleted: [] });
    const r2 = await ensureSpace({
      ...v,
      volume: async () => ({ totalBytes: 100 * MiB, freeBytes: 0 }),
      deleteOldFiles: true,
      keep: new Set(['open_2024.csv']),
      fs: nodeFs,
    });
    // counted as enough (2 MiB of files), but the volume does not show it: deleted, still stopped
    expect(r2).toEqual({ state: 'stopped', freeBytes: 0, threshold: MiB, deleted: ['a_2021.csv'], deletableBytes: 2 * MiB });
    expect(await readdir(v.dir)).toEqual(['open_2024.csv']);
  });

  it('a missing log folder has nothing to delete; a file vanishing meanwhile is skipped; EIO is passed on', async () => {
    const low = async () => ({ totalBytes: 100 * MiB, freeBytes: 0 });
    expect(await ensureSpace({ dir: '/nonexistent/log', volume: low, deleteOldFiles: true, keep: new Set(), fs: nodeFs })).toMatchObject({
      state: 'stopped',
      deleted: [],
    });
    const errno = (code: string) => Object.assign(new Error(code), { code });
    const fake = (unlink: SpaceFs['unlink']): SpaceFs => ({
      readdir: async () => ['x_2020.csv', 'x_2021.csv'],
      stat: async (p) => ({ mtimeMs: p.includes('2020') ? 1 : 2, isFile: () => true, size: 3 * MiB }),
      unlink,
    });
    let free = 0;
    const r = await ensureSpace({
      dir: '/d',
      volume: async () => ({ totalBytes: 100 * MiB, freeBytes: free }),
      deleteOldFiles: true,
      keep: new Set(),
      fs: fake(async (p) => {
        if (p.endsWith('x_2020.csv')) throw errno('ENOENT');
        free = 5 * MiB;
      }),
    });
    expect(r).toEqual({ state: 'low_memory', freeBytes: 5 * MiB, threshold: MiB, deleted: ['x_2021.csv'], deletableBytes: 6 * MiB });
    const eio = errno('EIO');
    await expect(ensureSpace({ dir: '/d', volume: low, deleteOldFiles: true, keep: new Set(), fs: fake(() => Promise.reject(eio)) })).rejects.toBe(eio);
  });

  it('deletes nothing when all the deletable files together cannot bring the volume above the limit', async () => {
    // 1.5 MiB taken by a file that is no log: 0.5 MiB free, the two old log files hold 0.25 MiB
    const v = await volumeOf(2 * MiB + MiB / 4, {
      'other.bin': { bytes: 1.5 * MiB, mtime: 1 },
      'a_2021.csv': { bytes: MiB / 8, mtime: 1000 },
      'a_2022.csv': { bytes: MiB / 8, mtime: 2000 },
    });
    const r = await ensureSpace({ ...v, deleteOldFiles: true, keep: new Set(), fs: nodeFs });
    expect(r).toEqual({ state: 'stopped', freeBytes: MiB / 2, threshold: MiB, deleted: [], deletableBytes: MiB / 4 });
    expect((await readdir(v.dir)).sort()).toEqual(['a_2021.csv', 'a_2022.csv', 'other.bin']);
  });

  it('deletes only as many of the oldest as are needed, never a kept one', async () => {
    const q = MiB / 4;
    const v = await volumeOf(3 * MiB, {
      'other.bin': { bytes: MiB, mtime: 1 },
      'open_2020.csv': { bytes: q, mtime: 10 }, // oldest, but being written
      'a_2021.csv': { bytes: q, mtime: 1000 },
      'a_2022.csv': { bytes: q, mtime: 2000 },
      'b_2023.csv': { bytes: q, mtime: 3000 },
      'b_2024.csv': { bytes: q, mtime: 4000 },
      'b_2025.csv': { bytes: q, mtime: 5000 },
    });
    // 0.5 MiB free, 1 MiB needed: two of the quarter-MiB files are enough
    const r = await ensureSpace({ ...v, deleteOldFiles: true, keep: new Set(['open_2020.csv']), fs: nodeFs });
    expect(r).toEqual({ state: 'low_memory', freeBytes: MiB, threshold: MiB, deleted: ['a_2021.csv', 'a_2022.csv'], deletableBytes: 5 * q });
    expect((await readdir(v.dir)).sort()).toEqual(['b_2023.csv', 'b_2024.csv', 'b_2025.csv', 'open_2020.csv', 'other.bin']);
  });
});

describe('filesToDelete', () => {
  const f = (name: string, mtimeMs: number, bytes: number) => ({ name, mtimeMs, bytes });
  it('the shortest oldest-first run that reaches the threshold, or nothing', () => {
    const files = [f('c.csv', 3, 30), f('a.csv', 1, 10), f('b.csv', 2, 20), f('x.txt', 0, 1000)];
    expect(filesToDelete(files, new Set(), 100, 100)).toEqual([]);
    expect(filesToDelete(files, new Set(), 95, 100)).toEqual(['a.csv']);
    expect(filesToDelete(files, new Set(), 80, 100)).toEqual(['a.csv', 'b.csv']);
    expect(filesToDelete(files, new Set(), 40, 100)).toEqual(['a.csv', 'b.csv', 'c.csv']);
    expect(filesToDelete(files, new Set(), 39, 100)).toEqual([]);
    expect(filesToDelete(files, new Set(['a.csv']), 80, 100)).toEqual(['b.csv']);
  });
});
