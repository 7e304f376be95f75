import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StatusReason } from '../model/reasons.ts';
import { NOTICE_NAMES_MAX, NOTICES_FILE, NoticeBoard } from './notices.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('NoticeBoard', () => {
  it('keeps deletions and drops until acknowledged; the change callback hears each', () => {
    let changes = 0;
    const b = new NoticeBoard({ changed: () => changes++ });
    b.filesDeleted('temp', [], 1);
    b.recordsDropped('tank', 0);
    expect(changes).toBe(0);
    b.filesDeleted('temp', ['a.csv', 'b.csv'], 1000);
    b.recordsDropped('tank', 10);
    b.recordsDropped('tank', 5);
    b.recordsDropped('flow', 1);
    expect(changes).toBe(4);
    expect(b.current()).toEqual({
      deleted: [
        { name: 'a.csv', volume: 'temp', at: 1000 },
        { name: 'b.csv', volume: 'temp', at: 1000 },
      ],
      deletedCount: 2,
      dropped: { tank: 15, flow: 1 },
      droppedCount: 16,
    });
    expect(b.acknowledge()).toMatchObject({ deletedCount: 2, droppedCount: 16 });
    expect(changes).toBe(5);
    expect(b.current()).toEqual({ deleted: [], deletedCount: 0, dropped: {}, droppedCount: 0 });
  });

  it('keeps the last names and counts them all', () => {
    const b = new NoticeBoard();
    b.filesDeleted(
      'internal',
      Array.from({ length: NOTICE_NAMES_MAX + 5 }, (_, i) => `f${i}.csv`),
      1,
    );
    const n = b.current();
    expect(n.deletedCount).toBe(NOTICE_NAMES_MAX + 5);
    expect(n.deleted).toHaveLength(NOTICE_NAMES_MAX);
    expect(n.deleted[0]!.name).toBe('f5.csv');
    const [deleted] = b.over({ state: 'ok', reasons: [] as StatusReason[] }).reasons;
    expect(deleted).toMatchObject({ code: 'low_memory_deleted', args: { count: 55 } });
    expect(deleted!.args!.names).toMatch(/^f5\.csv, .*, f54\.csv, …$/);
  });

  it('over: drops are an error, deletions low memory; a worse state stays, with the notices added to its detail', () => {
    const b = new NoticeBoard();
    const ok = { state: 'ok' as const, reasons: [] as StatusReason[], volume: 'usb' as const };
    const deletedA = { code: 'low_memory_deleted', args: { count: 1, names: 'a.csv' } } as const;
    const dropped4 = { code: 'records_dropped', args: { count: 4 } } as const;
    expect(b.over(ok)).toBe(ok);
    b.filesDeleted('usb', ['a.csv'], 1);
    expect(b.over(ok)).toEqual({ state: 'low_memory', reasons: [deletedA], volume: 'usb' });
    // a log file's own low-memory words name the same deletion: replaced, not repeated
    expect(b.over({ state: 'low_memory', reasons: [deletedA] }).reasons).toEqual([deletedA]);
    b.recordsDropped('tank', 4);
    expect(b.over(ok)).toEqual({ state: 'error', reasons: [dropped4, deletedA], volume: 'usb' });
    expect(b.over({ state: 'error', reasons: [{ code: 'usb_removed' }, dropped4] })).toEqual({
      state: 'error',
      reasons: [{ code: 'usb_removed' }, dropped4, deletedA],
    });
    expect(b.over({ state: 'stopped', reasons: [{ code: 'stopped_by_plc' }] }).state).toBe('error');
  });
});

describe('NoticeBoard across restarts', () => {
  it('kept in <data>/logger/notices.json: saved after a change and at close, loaded at start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'notices-'));
    dirs.push(dir);
    const file = join(dir, NOTICES_FILE);
    const first = new NoticeBoard({ file, saveMs: 20 });
    first.filesDeleted('temp', ['a.csv'], 1000);
    first.recordsDropped('tank', 3);
    // written by the save timer, without a close (the file appears whole: the board writes it atomically)
    await expect
      .poll(() => readFile(file, 'utf8').then(JSON.parse, () => undefined), { timeout: 30_000 })
      .toMatchObject({ deletedCount: 1, dropped: { tank: 3 } });
    first.recordsDropped('tank', 2); // within the interval: written at close
    await first.close();

    const second = new NoticeBoard({ file });
    await second.load();
    expect(second.current()).toEqual({ deleted: [{ name: 'a.csv', volume: 'temp', at: 1000 }], deletedCount: 1, dropped: { tank: 5 }, droppedCount: 5 });
    second.acknowledge();
    await second.close();
    const third = new NoticeBoard({ file });
    await third.load();
    expect(third.current().deletedCount).toBe(0);
  });

  it('a missing, unreadable or ill-formed file is no notice', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'notices-'));
    dirs.push(dir);
    const file = join(dir, 'notices.json');
    for (const body of [undefined, '{', '{"deleted":"x"}', '{"deleted":[],"deletedCount":-1,"dropped":{},"droppedCount":0}']) {
      if (body !== undefined) await writeFile(file, body);
      const b = new NoticeBoard({ file });
      await b.load();
      expect(b.current()).toEqual({ deleted: [], deletedCount: 0, dropped: {}, droppedCount: 0 });
    }
  });
});
