// The dead-letter store (dead-letters.ts): letters kept in order across a reopen, the count and
// byte bounds drop the oldest and count them, a letter larger than the byte bound is not kept,
// taking letters removes them for good, temp files of a cut write and unreadable letters go.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeadLetters, type DeadWhy } from './dead-letters.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dead-letters-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Job = { n: number; pad?: string };
const isJob = (v: unknown): v is Job => typeof v === 'object' && v !== null && typeof (v as { n?: unknown }).n === 'number';
const why = (over: Partial<DeadWhy> = {}): DeadWhy => ({
  target: 'pg://db table t',
  code: 'table_mismatch',
  message: 'no column x',
  tries: 3,
  at: 1000,
  ...over,
});

describe('DeadLetters', () => {
  it('keeps letters with their reason in order across a restart', async () => {
    const d = await DeadLetters.open<Job>(dir);
    await d.add({ n: 1 }, why());
    await d.addMany([
      { job: { n: 2 }, why: why({ code: 'target_gone', tries: 0 }) },
      { job: { n: 3 }, why: why() },
    ]);
    await d.close();
    const again = await DeadLetters.open<Job>(dir, { accept: isJob });
    expect(again.list().map((l) => [l.id, l.job.n, l.code, l.tries, l.target])).toEqual([
      [1, 1, 'table_mismatch', 3, 'pg://db table t'],
      [2, 2, 'target_gone', 0, 'pg://db table t'],
      [3, 3, 'table_mismatch', 3, 'pg://db table t'],
    ]);
    expect(again.count).toBe(3);
    expect(again.bytes).toBeGreaterThan(0);
    expect(again.bytes).toBe(d.bytes);
  });

  it('drops the oldest at the count bound and counts them, also after a restart', async () => {
    const d = await DeadLetters.open<Job>(dir, { maxCount: 3 });
    for (let n = 1; n <= 5; n++) await d.add({ n }, why());
    expect(d.list().map((l) => l.job.n)).toEqual([3, 4, 5]);
    expect(d.dropped).toBe(2);
    await d.addMany([6, 7, 8, 9].map((n) => ({ job: { n }, why: why() })));
    expect(d.list().map((l) => l.job.n)).toEqual([7, 8, 9]);
    expect(d.dropped).toBe(6);
    expect((await readdir(dir)).filter((n) => n.endsWith('.dead'))).toHaveLength(3);
    const again = await DeadLetters.open<Job>(dir, { maxCount: 3 });
    expect(again.list().map((l) => l.job.n)).toEqual([7, 8, 9]);
    expect(again.dropped).toBe(6);
    await again.add({ n: 10 }, why());
    expect(again.list().map((l) => l.id)).toEqual([8, 9, 10]); // numbers are never reused
  });

  it('drops the oldest at the byte bound; a letter larger than the bound is not kept but counted', async () => {
    const pad = 'x'.repeat(300);
    const d = await DeadLetters.open<Job>(dir, { maxBytes: 1200 });
    for (let n = 1; n <= 6; n++) await d.add({ n, pad }, why());
    expect(d.bytes).toBeLessThanOrEqual(1200);
    const kept = d.list().map((l) => l.job.n);
    expect(kept.at(-1)).toBe(6);
    expect(kept.length).toBeLessThan(6);
    expect(d.dropped).toBe(6 - kept.length);
    expect(await d.add({ n: 7, pad: 'y'.repeat(2000) }, why())).toBeUndefined();
    expect(d.dropped).toBe(7 - kept.length);
    expect(d.list().map((l) => l.job.n)).toEqual(kept);
  });

  it('take removes the letters asked for (or all) for good', async () => {
    const d = await DeadLetters.open<Job>(dir);
    for (let n = 1; n <= 4; n++) await d.add({ n }, why());
    expect((await d.take([2, 4])).map((l) => l.job.n)).toEqual([2, 4]);
    expect(d.list().map((l) => l.job.n)).toEqual([1, 3]);
    expect(await d.take([99])).toEqual([]);
    const again = await DeadLetters.open<Job>(dir);
    expect(again.list().map((l) => l.job.n)).toEqual([1, 3]);
    expect((await again.take()).map((l) => l.job.n)).toEqual([1, 3]);
    expect(again.count).toBe(0);
    expect(again.bytes).toBe(0);
    expect((await DeadLetters.open<Job>(dir)).count).toBe(0);
    await again.add({ n: 5 }, why());
    expect(again.list()[0]!.id).toBe(5); // after everything was taken, a new letter still takes a new number
  });

  it('removes the temp file of a cut write and a letter that cannot be read', async () => {
    const d = await DeadLetters.open<Job>(dir);
    await d.add({ n: 1 }, why());
    await writeFile(join(dir, '.000000000002.dead.tmp-123abc'), '{"id":2');
    await writeFile(join(dir, '000000000003.dead'), 'not json');
    await writeFile(join(dir, '000000000004.dead'), JSON.stringify({ id: 4, at: 1, target: 't', code: 'bad_value', message: '', tries: 1, job: { x: 1 } }));
    const bad: string[] = [];
    const again = await DeadLetters.open<Job>(dir, { accept: isJob, onBad: (name) => bad.push(name) });
    expect(again.list().map((l) => l.job.n)).toEqual([1]);
    expect(bad.sort()).toEqual(['000000000003.dead', '000000000004.dead']);
    expect((await readdir(dir)).sort()).toEqual(['000000000001.dead']);
  });

  it('refuses bounds that are not positive integers', async () => {
    await expect(DeadLetters.open(dir, { maxCount: 0 })).rejects.toThrow(/count bound 0/);
    await expect(DeadLetters.open(dir, { maxBytes: 1.5 })).rejects.toThrow(/bytes bound 1.5/);
  });
});
