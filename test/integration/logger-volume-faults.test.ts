// security.md LOG-1: a full volume (ENOSPC), I/O errors (EIO, EROFS) and a removed USB stick during
// appends are reported as a write status, never thrown; nothing already written is lost, and the
// records of the failed batches land in order, once, when the volume works again. The volumes are
// folders under `<data>/volumes/` as in the simulator; a volume counts as mounted while its folder
// exists (what the unit's mount point check gives once the automounter removed the stick's folder).

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CsvStore, MAX_QUEUED_BATCHES, nodeStoreFs, type StoreFs, type StoreHandle } from '../../device/logger/csv-store.ts';
import { LOG_FOLDER, type WriteStatus } from '../../device/logger/types.ts';
import type { StatusReason } from '../../device/model/reasons.ts';
import type { Volume, VolumeId } from '../../hw/types.ts';
import { volumeAt } from '../../hw/volumes.ts';

const dirs: string[] = [];
// every store a test makes is closed after it, so that no appender's file handle is left open
const stores: CsvStore[] = [];
const newStore = (opts: ConstructorParameters<typeof CsvStore>[0]) => {
  const s = new CsvStore(opts);
  stores.push(s);
  return s;
};
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const GiB = 1024 ** 3;
const errno = (code: string) => Object.assign(new Error(`${code} (injected)`), { code });

/**
 * node:fs/promises with a fault switch: `failFrom(k, code)` makes the k-th call from now and every
 * call after it fail with `code` until `heal()`. 'short' as the code makes a write write half its
 * bytes and every later call fail with ENOSPC (a volume filling up mid-write).
 */
function faultyFs() {
  let calls = 0;
  let armedAt = Infinity;
  let code = '';
  let fired = false;
  const hit = (): string | undefined => {
    calls++;
    if (calls < armedAt) return undefined;
    fired = true;
    return code;
  };
  const guard = <T>(f: () => Promise<T>): Promise<T> => {
    const c = hit();
    return c ? Promise.reject(errno(c === 'short' ? 'ENOSPC' : c)) : f();
  };
  const fs: StoreFs = {
    open: (p, flags) =>
      guard(async () => {
        const fh = await nodeStoreFs.open(p, flags);
        const h: StoreHandle = {
          read: (b, o, l, pos) => guard(() => fh.read(b, o, l, pos)),
          stat: () => guard(() => fh.stat()),
          truncate: (n) => guard(() => fh.truncate(n)),
          datasync: () => guard(() => fh.datasync()),
          sync: () => guard(() => fh.sync()),
          // a failed close still releases the descriptor, as close(2) does
          close: async () => {
            const c = hit();
            await fh.close();
            if (c) throw errno(c === 'short' ? 'ENOSPC' : c);
          },
          write: (b, o, l) => {
            const c = hit();
            if (c === 'short') {
              code = 'ENOSPC'; // the volume is full after this one
              return fh.write(b, o, Math.max(1, l >> 1));
            }
            return c ? Promise.reject(errno(c)) : fh.write(b, o, l);
          },
        };
        return h;
      }),
    mkdir: (p) => guard(() => nodeStoreFs.mkdir(p)),
    stat: (p) => guard(() => nodeStoreFs.stat(p)),
    readdir: (p) => guard(() => nodeStoreFs.readdir(p)),
    unlink: (p) => guard(() => nodeStoreFs.unlink(p)),
  };
  return {
    fs,
    calls: () => calls,
    fired: () => fired,
    failFrom(k: number, c: string) {
      armedAt = calls + k;
      code = c;
      fired = false;
    },
    heal() {
      armedAt = Infinity;
    },
  };
}

/** A data folder with the three volume folders; a volume is mounted while its folder exists. */
async function unitVolumes(figures?: () => Partial<Volume>) {
  const data = await mkdtemp(join(tmpdir(), 'logger-volumes-'));
  dirs.push(data);
  const path = (id: VolumeId) => join(data, 'volumes', id);
  for (const id of ['internal', 'usb', 'temp'] as const) await mkdir(path(id), { recursive: true });
  const volumes = () =>
    Promise.all(
      (['internal', 'usb', 'temp'] as const).map(async (id) => {
        const v = await volumeAt(id, path(id), existsSync(path(id)));
        // real figures unless a test sets them; generous ones by default so a busy test disk does not matter
        return { ...v, ...(v.mounted ? { totalBytes: 64 * GiB, freeBytes: 32 * GiB, ...figures?.() } : {}) };
      }),
    );
  return { data, path, volumes, read: (id: VolumeId, f: string) => readFile(join(path(id), LOG_FOLDER, f), 'utf8') };
}

const HEADER = ['Date;Time;flow;state', ';;l/s;'];
const rec = (n: number) => `2024/03/01;12:00:00;${n},5;"s;${n}"`;
const recs = (from: number, count: number) => Array.from({ length: count }, (_, i) => rec(from + i));
const csv = (lines: string[]) => lines.map((l) => `${l}\r\n`).join('');

// six batches over a change of file: a split from day 1 to day 2 after the third batch
const PLAN = [1, 2, 3, 4, 5, 6].map((b) => ({ file: b <= 3 ? 'flow_20240301.csv' : 'flow_20240302.csv', lines: recs(b * 100, b) }));
const EXPECTED = {
  flow_20240301: csv([...HEADER, ...PLAN.slice(0, 3).flatMap((b) => b.lines)]),
  flow_20240302: csv([...HEADER, ...PLAN.slice(3).flatMap((b) => b.lines)]),
};
const REASONS: Record<string, StatusReason[]> = {
  ENOSPC: [{ code: 'volume_full', words: 'ENOSPC' }],
  short: [{ code: 'volume_full', words: 'ENOSPC' }],
  EIO: [{ code: 'write_error', args: { code: 'EIO' } }],
  EROFS: [{ code: 'volume_read_only', words: 'EROFS' }],
  ENOENT: [{ code: 'usb_removed' }],
  ENODEV: [{ code: 'usb_removed' }],
};

describe('an injected fault at EVERY file system call of a run of appends', () => {
  for (const code of ['ENOSPC', 'short', 'EIO', 'EROFS', 'ENOENT'] as const) {
    it(`${code}: the append reports it, nothing is thrown, and after the fault every record is there once, in order`, async () => {
      // a clean run counts the calls
      const clean = faultyFs();
      const u0 = await unitVolumes();
      const s0 = newStore({ volumes: u0.volumes, fs: clean.fs });
      const a0 = s0.appender('usb');
      for (const b of PLAN) expect((await a0.append(b.file, HEADER, b.lines)).state).toBe('ok');
      const total = clean.calls();
      expect(total).toBeGreaterThan(20);

      let faultsSeen = 0;
      for (let k = 1; k <= total; k++) {
        const u = await unitVolumes();
        const f = faultyFs();
        const a = newStore({ volumes: u.volumes, fs: f.fs }).appender('usb');
        f.failFrom(k, code);
        const statuses: WriteStatus[] = [];
        for (const b of PLAN) {
          const st = await a.append(b.file, HEADER, b.lines);
          statuses.push(st);
          if (f.fired()) {
            if (st.state !== 'ok') {
              faultsSeen++;
              expect(st, `fault at call ${k}`).toMatchObject({ state: 'error', reasons: REASONS[code], volume: 'usb' });
            }
            f.heal();
          }
        }
        expect(
          statuses.filter((s) => s.state !== 'ok' && s.state !== 'error'),
          `fault at call ${k}`,
        ).toEqual([]);
        expect((await a.flush()).state).toBe('ok');
        expect(a.stats()).toMatchObject({ queuedBatches: 0, droppedRecords: 0 });
        expect(await u.read('usb', 'flow_20240301.csv'), `fault at call ${k}`).toBe(EXPECTED.flow_20240301);
        expect(await u.read('usb', 'flow_20240302.csv'), `fault at call ${k}`).toBe(EXPECTED.flow_20240302);
      }
      // nearly every call's failure shows in a status (a failed close of a finished file need not)
      expect(faultsSeen).toBeGreaterThan(total / 2);
    });
  }
});

describe('a USB stick removed during appends', () => {
  it('renamed away (unmounted): "USB volume removed", the records queue up; back again: they land in order, nothing lost', async () => {
    const u = await unitVolumes();
    const a = newStore({ volumes: u.volumes }).appender('usb');
    const file = 'usb_20240301.csv';
    expect((await a.append(file, HEADER, recs(1, 3))).state).toBe('ok');
    await rename(u.path('usb'), `${u.path('usb')}.away`);
    for (let n = 4; n <= 12; n += 3)
      expect(await a.append(file, HEADER, recs(n, 3))).toEqual({ state: 'error', reasons: [{ code: 'usb_removed' }], volume: 'usb', file });
    expect(existsSync(u.path('usb'))).toBe(false); // never created again on the unit's own storage
    expect(await readFile(join(`${u.path('usb')}.away`, LOG_FOLDER, file), 'utf8')).toBe(csv([...HEADER, ...recs(1, 3)]));
    await rename(`${u.path('usb')}.away`, u.path('usb'));
    expect(await a.append(file, HEADER, recs(13, 2))).toEqual({ state: 'ok', reasons: [], volume: 'usb', file });
    expect(await u.read('usb', file)).toBe(csv([...HEADER, ...recs(1, 14)]));
  });

  it('deleted while the file is open: a new stick gets a new file with its header and the queued records', async () => {
    const u = await unitVolumes();
    const a = newStore({ volumes: u.volumes }).appender('usb');
    const file = 'usb_20240301.csv';
    await a.append(file, HEADER, recs(1, 2));
    await rm(u.path('usb'), { recursive: true });
    expect((await a.append(file, HEADER, recs(3, 2))).reasons).toEqual([{ code: 'usb_removed' }]);
    expect((await a.flush()).reasons).toEqual([{ code: 'usb_removed' }]);
    await mkdir(u.path('usb'));
    expect((await a.flush()).state).toBe('ok');
    expect(await u.read('usb', file)).toBe(csv([...HEADER, ...recs(3, 2)]));
  });

  it(`away for longer than ${MAX_QUEUED_BATCHES} batches: the oldest are dropped and counted, the rest land in order`, async () => {
    const u = await unitVolumes();
    const a = newStore({ volumes: u.volumes }).appender('usb');
    const file = 'long_20240301.csv';
    await rename(u.path('usb'), `${u.path('usb')}.away`);
    let last: WriteStatus | undefined;
    for (let b = 0; b < MAX_QUEUED_BATCHES + 5; b++) last = await a.append(file, HEADER, recs(b * 2 + 1, 2));
    expect(last).toMatchObject({ state: 'error', reasons: [{ code: 'usb_removed' }, { code: 'records_dropped', args: { count: 10 } }] });
    await rename(`${u.path('usb')}.away`, u.path('usb'));
    expect(await a.flush()).toMatchObject({ state: 'ok', reasons: [{ code: 'records_dropped', args: { count: 10 } }] });
    expect(await u.read('usb', file)).toBe(csv([...HEADER, ...recs(11, MAX_QUEUED_BATCHES * 2)]));
  });
});

describe('low memory on a real volume folder', () => {
  it('without delete_old_files logging stops until space is back; with it the oldest files of the folder make room', async () => {
    let free = 32 * GiB;
    const u = await unitVolumes(() => ({ freeBytes: free }));
    const stopping = newStore({ volumes: u.volumes }).appender('internal');
    await stopping.append('a_20240301.csv', HEADER, recs(1, 1));
    free = 1000;
    expect((await stopping.append('a_20240301.csv', HEADER, recs(2, 1))).state).toBe('stopped');
    free = 32 * GiB;
    expect((await stopping.append('a_20240301.csv', HEADER, recs(3, 1))).state).toBe('ok');
    expect(await u.read('internal', 'a_20240301.csv')).toBe(csv([...HEADER, ...recs(1, 3)]));
    await stopping.close();

    // deleting a file gives its space back in this model
    const store = newStore({
      volumes: u.volumes,
      deleteOldFiles: true,
      fs: {
        ...nodeStoreFs,
        unlink: async (p) => {
          await nodeStoreFs.unlink(p);
          free = 32 * GiB;
        },
      },
    });
    const b = store.appender('internal');
    free = Math.ceil(0.01 * 64 * GiB) - 1000; // 1000 bytes short: the old file's blocks are enough
    expect(await b.append('b_20240302.csv', HEADER, recs(4, 1))).toMatchObject({
      state: 'low_memory',
      reasons: [{ code: 'low_memory_deleted', args: { count: 1, names: 'a_20240301.csv' } }],
    });
    expect(await readdir(join(u.path('internal'), LOG_FOLDER))).toEqual(['b_20240302.csv']);
  });
});
