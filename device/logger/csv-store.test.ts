import { existsSync } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Volume, VolumeId } from '../../hw/types.ts';
import { CsvStore, classifyError, type StoreFs, type StoreHandle } from './csv-store.ts';
import { LOG_FOLDER } from './types.ts';

const MiB = 1024 * 1024;
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

type Op = 'open' | 'mkdir' | 'stat' | 'readdir' | 'unlink' | 'read' | 'fstat' | 'write' | 'truncate' | 'datasync' | 'sync' | 'close';
/** What a fault hook answers: an errno code to throw, 'short' (write half, then return), or nothing. */
type Fault = (op: Op, path: string) => string | undefined;

const errno = (code: string) => Object.assign(new Error(`${code} (injected)`), { code });

/** node:fs/promises with every call logged and a hook that can fail it. */
function tracedFs(fault: Fault = () => undefined) {
  const calls: string[] = [];
  const check = (op: Op, path: string) => {
    calls.push(`${op} ${path}`);
    const code = fault(op, path);
    if (code && code !== 'short') throw errno(code);
    return code;
  };
  const fs: StoreFs = {
    async open(path, flags) {
      check('open', path);
      const fh = await nodeFs.open(path, flags);
      const h: StoreHandle = {
        read: (b, o, l, p) => (check('read', path), fh.read(b, o, l, p)),
        stat: async () => (check('fstat', path), fh.stat()),
        truncate: async (n) => (check('truncate', path), fh.truncate(n)),
        datasync: async () => (check('datasync', path), fh.datasync()),
        sync: async () => (check('sync', path), fh.sync()),
        // a failed close still releases the descriptor, as close(2) does
        close: async () => {
          try {
            check('close', path);
          } finally {
            await fh.close();
          }
        },
        write: async (b, o, l) => (check('write', path) === 'short' ? fh.write(b, o, Math.max(1, l >> 1)) : fh.write(b, o, l)),
      };
      return h;
    },
    mkdir: async (p) => (check('mkdir', p), nodeFs.mkdir(p)),
    stat: async (p) => (check('stat', p), nodeFs.stat(p)),
    readdir: async (p) => (check('readdir', p), nodeFs.readdir(p)),
    unlink: async (p) => (check('unlink', p), nodeFs.unlink(p)),
  };
  return { fs, calls };
}

async function unit(
  opts: { id?: VolumeId; fault?: Fault; free?: () => number; deleteOldFiles?: boolean; maxQueuedBatches?: number; mounted?: () => boolean } = {},
) {
  const root = await mkdtemp(join(tmpdir(), 'csv-store-'));
  dirs.push(root);
  const id = opts.id ?? 'internal';
  const path = join(root, id);
  await mkdir(path);
  const traced = tracedFs(opts.fault);
  const volume = (): Volume => ({ id, path, mounted: opts.mounted?.() ?? true, totalBytes: 100 * MiB, freeBytes: opts.free?.() ?? 50 * MiB });
  const store = newStore({ volumes: async () => [volume()], fs: traced.fs, deleteOldFiles: opts.deleteOldFiles, maxQueuedBatches: opts.maxQueuedBatches });
  const logDir = join(path, LOG_FOLDER);
  const read = (name: string) => readFile(join(logDir, name), 'utf8');
  return { store, calls: traced.calls, path, logDir, read, appender: store.appender(id) };
}

const HEADER = ['Date,Time,level', ',,m'];
const rec = (n: number) => `2024/03/01,12:00:${String(n).padStart(2, '0')},${n}`;
const recs = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => rec(from + i));
const csv = (lines: string[]) => lines.map((l) => `${l}\r\n`).join('');
const count = (calls: string[], call: string) => calls.filter((c) => c === call).length;

describe('appending', () => {
  it('a new file gets the header, then each batch with ONE write and ONE fdatasync, on the same open handle', async () => {
    const u = await unit();
    const file = join(u.logDir, 'tank_20240301.csv');
    expect(await u.appender.append('tank_20240301.csv', HEADER, recs(1, 3))).toEqual({
      state: 'ok',
      reasons: [],
      volume: 'internal',
      file: 'tank_20240301.csv',
    });
    await u.appender.append('tank_20240301.csv', HEADER, recs(4, 5));
    await u.appender.append('tank_20240301.csv', HEADER, recs(6, 6));
    expect(await u.read('tank_20240301.csv')).toBe(csv([...HEADER, ...recs(1, 6)]));
    expect(count(u.calls, `open ${file}`)).toBe(1);
    expect(count(u.calls, `write ${file}`)).toBe(3);
    expect(count(u.calls, `datasync ${file}`)).toBe(3);
    expect(count(u.calls, `close ${file}`)).toBe(0);
    // the new log folder is synced into the volume folder, the new file into the log folder, once each
    expect(count(u.calls, `sync ${u.path}`)).toBe(1);
    expect(count(u.calls, `sync ${u.logDir}`)).toBe(1);
    expect(u.appender.stats()).toEqual({
      file: 'tank_20240301.csv',
      size: Buffer.byteLength(csv([...HEADER, ...recs(1, 6)])),
      queuedBatches: 0,
      queuedRecords: 0,
      droppedRecords: 0,
    });
    await u.store.close();
    expect(count(u.calls, `close ${file}`)).toBe(1);
  });

  it('an existing file gets no header; an empty one does; its torn tail is repaired before the first append', async () => {
    const u = await unit();
    await mkdir(u.logDir);
    await writeFile(join(u.logDir, 'a_2024.csv'), csv(['old header', rec(1)]) + rec(2).slice(0, 9));
    await writeFile(join(u.logDir, 'b_2024.csv'), '');
    await u.appender.append('a_2024.csv', HEADER, recs(2, 3));
    await u.appender.append('b_2024.csv', HEADER, recs(1, 1));
    expect(await u.read('a_2024.csv')).toBe(csv(['old header', ...recs(1, 3)]));
    expect(await u.read('b_2024.csv')).toBe(csv([...HEADER, rec(1)]));
  });

  it('a header torn by a power cut is written again whole', async () => {
    const u = await unit();
    await mkdir(u.logDir);
    await writeFile(join(u.logDir, 'h_2024.csv'), `${HEADER[0]}\r\n,`);
    await u.appender.append('h_2024.csv', HEADER, recs(1, 1));
    expect(await u.read('h_2024.csv')).toBe(csv([...HEADER, rec(1)]));
  });

  it('a change of file (split) closes the previous handle first; the old file is reopened later without a second header', async () => {
    const u = await unit();
    const a = join(u.logDir, 't_20240301.csv');
    const b = join(u.logDir, 't_20240302.csv');
    await u.appender.append('t_20240301.csv', HEADER, recs(1, 2));
    await u.appender.append('t_20240302.csv', HEADER, recs(3, 4));
    const closeA = u.calls.indexOf(`close ${a}`);
    expect(closeA).toBeGreaterThan(-1);
    expect(closeA).toBeLessThan(u.calls.indexOf(`open ${b}`));
    await u.appender.append('t_20240301.csv', HEADER, recs(5, 5));
    expect(await u.read('t_20240301.csv')).toBe(csv([...HEADER, ...recs(1, 2), rec(5)]));
    expect(await u.read('t_20240302.csv')).toBe(csv([...HEADER, ...recs(3, 4)]));
  });

  it('appends called without waiting land in call order', async () => {
    const u = await unit();
    const statuses = await Promise.all([1, 2, 3, 4, 5].map((n) => u.appender.append('o_2024.csv', [], recs(n * 10, n * 10 + 1))));
    expect(statuses.map((s) => s.state)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(await u.read('o_2024.csv')).toBe(csv([10, 20, 30, 40, 50].flatMap((n) => recs(n, n + 1))));
  });

  it('a file deleted under the open handle is created again, with its header', async () => {
    const u = await unit();
    await u.appender.append('d_2024.csv', HEADER, recs(1, 1));
    await rm(join(u.logDir, 'd_2024.csv'));
    await u.appender.append('d_2024.csv', HEADER, recs(2, 2));
    expect(await u.read('d_2024.csv')).toBe(csv([...HEADER, rec(2)]));
  });

  it('refuses names that leave the log folder, and appends after close', async () => {
    const u = await unit();
    for (const bad of ['', '.', '..', '../x.csv', 'a/b.csv', 'a\\b.csv', 'a\0.csv']) await expect(u.appender.append(bad, [], ['x'])).rejects.toThrow(TypeError);
    await u.appender.close();
    await expect(u.appender.append('x.csv', [], ['x'])).rejects.toThrow(/append after close/);
    await expect(u.appender.flush()).rejects.toThrow(/flush after close/);
  });
});

describe('failures become a write status; the batch stays queued and is written once', () => {
  it('classifies the errno codes', () => {
    expect(classifyError(errno('ENOSPC'), 'internal')).toEqual({ state: 'error', reasons: [{ code: 'volume_full', words: 'ENOSPC' }] });
    expect(classifyError(errno('EIO'), 'usb')).toEqual({ state: 'error', reasons: [{ code: 'write_error', args: { code: 'EIO' } }] });
    expect(classifyError(errno('EROFS'), 'usb')).toEqual({ state: 'error', reasons: [{ code: 'volume_read_only', words: 'EROFS' }] });
    expect(classifyError(errno('ENOENT'), 'usb')).toEqual({ state: 'error', reasons: [{ code: 'usb_removed' }] });
    expect(classifyError(errno('ENODEV'), 'usb')).toEqual({ state: 'error', reasons: [{ code: 'usb_removed' }] });
    expect(classifyError(errno('ENOENT'), 'temp')).toEqual({ state: 'error', reasons: [{ code: 'volume_unavailable', args: { volume: 'temp' } }] });
    expect(classifyError(new TypeError('bug'), 'usb')).toBeUndefined();
  });

  it('a short write followed by ENOSPC: nothing half written stays, the batch lands once when space is back', async () => {
    let faults: string[] = [];
    const u = await unit({ fault: (op) => (op === 'write' ? faults.shift() : undefined) });
    await u.appender.append('s_2024.csv', HEADER, recs(1, 2));
    faults = ['short', 'ENOSPC'];
    const st = await u.appender.append('s_2024.csv', HEADER, recs(3, 6));
    expect(st).toEqual({ state: 'error', reasons: [{ code: 'volume_full', words: 'ENOSPC' }], volume: 'internal', file: 's_2024.csv' });
    expect(await u.read('s_2024.csv')).toBe(csv([...HEADER, ...recs(1, 2)]));
    expect(u.appender.stats()).toMatchObject({ queuedBatches: 1, queuedRecords: 4 });
    expect((await u.appender.append('s_2024.csv', HEADER, recs(7, 7))).state).toBe('ok');
    expect(await u.read('s_2024.csv')).toBe(csv([...HEADER, ...recs(1, 7)]));
  });

  it('EIO at the sync with the truncate failing too: the bytes left behind are cut when the file is reopened', async () => {
    let failing = false;
    const u = await unit({ fault: (op) => (failing && (op === 'datasync' || op === 'truncate') ? 'EIO' : undefined) });
    await u.appender.append('e_2024.csv', [], recs(1, 1));
    failing = true;
    expect((await u.appender.append('e_2024.csv', [], recs(2, 3))).reasons).toEqual([{ code: 'write_error', args: { code: 'EIO' } }]);
    expect(await u.read('e_2024.csv')).toBe(csv(recs(1, 3))); // written, never synced, not cut
    failing = false;
    expect((await u.appender.flush()).state).toBe('ok');
    expect(await u.read('e_2024.csv')).toBe(csv(recs(1, 3)));
    await u.appender.append('e_2024.csv', [], recs(4, 4));
    expect(await u.read('e_2024.csv')).toBe(csv(recs(1, 4)));
  });

  it('the queue holds at most maxQueuedBatches: the oldest are dropped and counted, reported once after the resume', async () => {
    let full = true;
    const u = await unit({ fault: (op) => (full && op === 'write' ? 'ENOSPC' : undefined), maxQueuedBatches: 3 });
    for (let n = 1; n <= 5; n++) await u.appender.append('q_2024.csv', [], recs(n * 10, n * 10 + 1));
    expect(u.appender.stats()).toMatchObject({ queuedBatches: 3, queuedRecords: 6, droppedRecords: 4 });
    expect((await u.appender.flush()).reasons).toEqual([
      { code: 'volume_full', words: 'ENOSPC' },
      { code: 'records_dropped', args: { count: 4 } },
    ]);
    full = false;
    expect(await u.appender.flush()).toMatchObject({ state: 'ok', reasons: [{ code: 'records_dropped', args: { count: 4 } }] });
    expect(await u.appender.append('q_2024.csv', [], recs(60, 60))).toMatchObject({ state: 'ok', reasons: [] });
    expect(await u.read('q_2024.csv')).toBe(csv([...recs(30, 31), ...recs(40, 41), ...recs(50, 51), rec(60)]));
    expect(u.appender.stats().droppedRecords).toBe(4);
  });

  it('an unmounted volume is an error without touching the file system; a missing volume folder is never created', async () => {
    let mounted = false;
    const u = await unit({ id: 'usb', mounted: () => mounted });
    expect(await u.appender.append('u_2024.csv', [], recs(1, 1))).toEqual({ state: 'error', reasons: [{ code: 'usb_removed' }], volume: 'usb' });
    expect(u.calls).toEqual([]);
    mounted = true;
    await rm(u.path, { recursive: true });
    expect((await u.appender.append('u_2024.csv', [], recs(2, 2))).reasons).toEqual([{ code: 'usb_removed' }]);
    expect(existsSync(u.path)).toBe(false);
    await mkdir(u.path);
    expect((await u.appender.flush()).state).toBe('ok');
    expect(await u.read('u_2024.csv')).toBe(csv(recs(1, 2)));
  });

  it('volumes() failing or not listing the volume is an error status too', async () => {
    const store = newStore({ volumes: () => Promise.reject(errno('EIO')) });
    expect(await store.appender('usb').append('x.csv', [], ['1'])).toMatchObject({ state: 'error', reasons: [{ code: 'write_error', args: { code: 'EIO' } }] });
    const none = newStore({ volumes: async () => [] });
    expect(await none.appender('internal').append('x.csv', [], ['1'])).toMatchObject({
      state: 'error',
      reasons: [{ code: 'volume_unavailable', args: { volume: 'internal' } }],
    });
  });

  it('an error that is no fs error (a bug) rejects, and the appender goes on afterwards', async () => {
    let bug = true;
    const u = await unit();
    const fs = {
      ...u.store.fs,
      mkdir: async (p: string) => {
        if (bug) throw new TypeError('bug');
        return nodeFs.mkdir(p);
      },
    };
    const store = newStore({ ...u.store.opts, fs });
    const a = store.appender('internal');
    await expect(a.append('b.csv', [], ['1'])).rejects.toThrow('bug');
    bug = false;
    expect((await a.append('b.csv', [], ['2'])).state).toBe('ok');
    expect(await u.read('b.csv')).toBe(csv(['1', '2']));
  });
});

describe('low memory (space.ts) in the store', () => {
  it('without delete_old_files: stopped, records queued, written in order once space is back', async () => {
    let free = 10;
    const u = await unit({ free: () => free });
    const st = await u.appender.append('m_2024.csv', [], recs(1, 2));
    expect(st.state).toBe('stopped');
    expect(st.reasons[0]).toMatchObject({ code: 'low_memory_stopped', args: { free: 10 } });
    expect(existsSync(join(u.logDir, 'm_2024.csv'))).toBe(false);
    free = 50 * MiB;
    expect((await u.appender.append('m_2024.csv', [], recs(3, 3))).state).toBe('ok');
    expect(await u.read('m_2024.csv')).toBe(csv(recs(1, 3)));
  });

  it('with delete_old_files: the oldest file goes, never one another appender writes; low_memory, the batch is written', async () => {
    let free = 50 * MiB;
    const u = await unit({
      deleteOldFiles: true,
      free: () => free,
      fault: (op) => {
        if (op === 'unlink') free = 50 * MiB; // the deleted file gave the space back
        return undefined;
      },
    });
    const other = u.store.appender('internal');
    await other.append('slow_2020.csv', [], recs(1, 1)); // open in another appender
    await writeFile(join(u.logDir, 'old_2021.csv'), csv(recs(1, 1)));
    await utimes(join(u.logDir, 'slow_2020.csv'), 1000, 1000);
    await utimes(join(u.logDir, 'old_2021.csv'), 2000, 2000);
    free = MiB - 100; // 100 bytes short: the old file's blocks are enough
    const st = await u.appender.append('new_2024.csv', [], recs(5, 5));
    expect(st).toEqual({
      state: 'low_memory',
      reasons: [{ code: 'low_memory_deleted', args: { count: 1, names: 'old_2021.csv' } }],
      volume: 'internal',
      file: 'new_2024.csv',
    });
    expect((await readdir(u.logDir)).sort()).toEqual(['new_2024.csv', 'slow_2020.csv']);
    expect((await u.appender.append('new_2024.csv', [], recs(6, 6))).state).toBe('ok');
  });
});
