// Local time is the unit's: pinned to a zone with daylight saving so the 4:00 run is tested across it.

import * as nodeFs from 'node:fs/promises';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { pinTimeZone } from '../../test/support/time-zone.ts';
import { SPLITS } from '../model/sections/logfile.ts';
import { csvFileName } from './csv-names.ts';
import { type DirFs, deleteExpired, expiredFiles, nextRetentionRun } from './retention.ts';

pinTimeZone('Europe/Berlin');

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) => new Date(y, mo - 1, d, h, mi, s, ms).getTime();

describe('expiredFiles', () => {
  it('takes only names whose rest after "<name>_" is exactly a valid stamp: tank_2 files are not files of tank', () => {
    const others = [
      'tank_2_20240301.csv',
      'tank_20240301.csv.gz',
      'tank_20240301.txt',
      'tanks_20240301.csv',
      'tank_20240230.csv',
      'tank_1200.csv',
      'tank_2024-w10.csv',
      'tank_20240301_1.csv',
      'tank.csv',
      'tank_.csv',
    ];
    const own = ['tank_2023.csv', 'tank_2024-W09.csv', 'tank_202403.csv', 'tank_20240302.csv', 'tank_20240302_10.csv', 'tank_20240302_1130.csv'];
    expect(expiredFiles([...others, ...own].reverse(), 'tank', 1)).toEqual(own.slice(0, -1));
    expect(expiredFiles(others, 'tank', 1)).toEqual([]);
    expect(expiredFiles(['tank_2_20240301.csv', 'tank_2_20240302.csv'], 'tank_2', 1)).toEqual(['tank_2_20240301.csv']);
  });

  it('property: names built by csv-names for one split are kept newest first; stamps sort lexicographically in time order', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SPLITS),
        fc.uniqueArray(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 0, 1) }), { maxLength: 25 }),
        fc.integer({ min: 1, max: 30 }),
        (split, instants, fileMax) => {
          const byTime = [...instants].sort((a, b) => a - b).map((t) => csvFileName('tank', split, t, false));
          const distinct = [...new Set(byTime)];
          expect([...distinct].sort()).toEqual(distinct);
          expect(expiredFiles([...distinct].reverse(), 'tank', fileMax)).toEqual(distinct.slice(0, Math.max(0, distinct.length - fileMax)));
        },
      ),
    );
  });

  it('keeps the newest file_max by stamp and lists the older ones, oldest first', () => {
    const names = [
      'tank_20240303.csv',
      'tank_2_20240101.csv',
      'tank_20240301.csv',
      'notes.txt',
      'tank_20240302.csv',
      'tank_20240304.csv',
      'tank_2_20240102.csv',
    ];
    expect(expiredFiles(names, 'tank', 2)).toEqual(['tank_20240301.csv', 'tank_20240302.csv']);
    expect(expiredFiles(names, 'tank', 4)).toEqual([]);
    expect(expiredFiles(names, 'tank', 100)).toEqual([]);
    expect(expiredFiles(names, 'tank', 0)).toEqual([]); // 0 = never
    expect(expiredFiles(names, 'tank_2', 1)).toEqual(['tank_2_20240101.csv']);
  });

  it('orders by the period across a change of split (day files, then month files)', () => {
    const names = ['t_202404.csv', 't_20240331.csv', 't_20240330.csv', 't_2024-W14.csv', 't_202405.csv'];
    // 2024-W14 starts on Monday 1 April, after 31 March and on the same day as the April file
    expect(expiredFiles(names, 't', 2)).toEqual(['t_20240330.csv', 't_20240331.csv', 't_2024-W14.csv']);
  });

  it('property: own files split into the newest file_max kept and the rest; foreign names never touched', () => {
    const dayStamp = fc
      .date({ min: new Date(Date.UTC(2000, 0, 1)), max: new Date(Date.UTC(2099, 11, 31)), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10).replaceAll('-', ''));
    fc.assert(
      fc.property(
        fc.uniqueArray(dayStamp, { maxLength: 30 }),
        fc.array(fc.constantFrom('tank_2_20240101.csv', 'tank.csv', 'tank_.csv', 'tankx_20240101.csv', 'other_20240101.csv', 'tank_20240101.bak'), {
          maxLength: 5,
        }),
        fc.integer({ min: 0, max: 40 }),
        (stamps, foreign, fileMax) => {
          const own = stamps.map((s) => `tank_${s}.csv`);
          const expired = expiredFiles([...foreign, ...own].reverse(), 'tank', fileMax);
          const sorted = [...own].sort();
          const expect_ = fileMax === 0 ? [] : sorted.slice(0, Math.max(0, sorted.length - fileMax));
          expect(expired).toEqual(expect_);
          for (const f of foreign) expect(expired).not.toContain(f);
        },
      ),
    );
  });
});

describe('nextRetentionRun (Europe/Berlin)', () => {
  it('is today at 4:00 before it, tomorrow from 4:00 on', () => {
    expect(nextRetentionRun(local(2024, 6, 10, 3, 59, 59, 999))).toBe(local(2024, 6, 10, 4));
    expect(nextRetentionRun(local(2024, 6, 10, 4))).toBe(local(2024, 6, 11, 4));
    expect(nextRetentionRun(local(2024, 6, 10, 23, 30))).toBe(local(2024, 6, 11, 4));
    expect(nextRetentionRun(local(2024, 12, 31, 12))).toBe(local(2025, 1, 1, 4));
  });

  it('stays at 4:00 local across the daylight saving changes (23 h and 25 h days)', () => {
    const spring = local(2024, 3, 30, 4);
    expect(nextRetentionRun(spring) - spring).toBe(23 * 3_600_000);
    expect(new Date(nextRetentionRun(spring)).toISOString()).toBe('2024-03-31T02:00:00.000Z'); // 4:00 CEST
    const autumn = local(2024, 10, 26, 4);
    expect(nextRetentionRun(autumn) - autumn).toBe(25 * 3_600_000);
    expect(new Date(nextRetentionRun(autumn)).toISOString()).toBe('2024-10-27T03:00:00.000Z'); // 4:00 CET
  });

  it('property: always the first 4:00:00.000 local after now, at most 25 h away', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 0, 1) }), (now) => {
        const next = nextRetentionRun(now);
        const d = new Date(next);
        expect([d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds()]).toEqual([4, 0, 0, 0]);
        expect(next).toBeGreaterThan(now);
        expect(next - now).toBeLessThanOrEqual(25 * 3_600_000);
        // no 4:00 in between: the previous 4:00 is at or before now
        const prev = new Date(d.getFullYear(), d.getMonth(), d.getDate() - 1, 4).getTime();
        expect(prev).toBeLessThanOrEqual(now);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('deleteExpired', () => {
  it('deletes the expired files of one log file in the folder and nothing else', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'retention-'));
    dirs.push(dir);
    const names = ['tank_20240301.csv', 'tank_20240302.csv', 'tank_20240303.csv', 'tank_2_20240101.csv', 'tank_2_20240102.csv', 'readme.txt'];
    for (const n of names) await writeFile(join(dir, n), 'x\r\n');
    expect(await deleteExpired(dir, { name: 'tank', file_max: 1 }, nodeFs)).toEqual(['tank_20240301.csv', 'tank_20240302.csv']);
    expect((await readdir(dir)).sort()).toEqual(['readme.txt', 'tank_20240303.csv', 'tank_2_20240101.csv', 'tank_2_20240102.csv']);
    expect(await deleteExpired(dir, { name: 'tank', file_max: 0 }, nodeFs)).toEqual([]);
    expect(await deleteExpired(join(dir, 'missing'), { name: 'tank', file_max: 1 }, nodeFs)).toEqual([]);
  });

  it('never deletes a kept (open) file; a file already gone is no error; other errors are passed on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'retention-'));
    dirs.push(dir);
    await mkdir(dir, { recursive: true });
    const gone = Object.assign(new Error('gone'), { code: 'ENOENT' });
    const unlinked: string[] = [];
    const fs: DirFs = {
      readdir: async () => ['a_2021.csv', 'a_2022.csv', 'a_2023.csv', 'a_2024.csv'],
      unlink: async (p) => {
        if (p.endsWith('a_2022.csv')) throw gone;
        unlinked.push(p);
      },
    };
    expect(await deleteExpired(dir, { name: 'a', file_max: 1 }, fs, new Set(['a_2023.csv']))).toEqual(['a_2021.csv']);
    expect(unlinked).toEqual([join(dir, 'a_2021.csv')]);
    const eio = Object.assign(new Error('io'), { code: 'EIO' });
    await expect(deleteExpired(dir, { name: 'a', file_max: 1 }, { ...fs, unlink: () => Promise.reject(eio) })).rejects.toBe(eio);
  });
});
