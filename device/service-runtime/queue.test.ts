// The services' job queue (queue.ts): order, bound with drop of the oldest, reopen after a stop,
// temp files of a cut push removed, a corrupt job set aside.

import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobQueue } from './queue.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'job-queue-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const isJob = (v: unknown): v is { n: number } => typeof v === 'object' && v !== null && typeof (v as { n?: unknown }).n === 'number';

describe('JobQueue', () => {
  it('keeps jobs in push order across a reopen and forgets acknowledged ones', async () => {
    const q = await JobQueue.open<{ n: number }>(dir);
    for (let n = 1; n <= 5; n++) await q.push({ n });
    await q.ack(q.head()[0]!.seq);
    await q.ack(q.head(2)[1]!.seq); // n = 3
    expect(q.head(10).map((j) => j.job.n)).toEqual([2, 4, 5]);
    await q.close();
    const again = await JobQueue.open<{ n: number }>(dir, { accept: isJob });
    expect(again.head(10).map((j) => j.job.n)).toEqual([2, 4, 5]);
    expect(again.waiting).toBe(3);
    // sequence numbers go on after the highest ever used
    const { seq } = await again.push({ n: 6 });
    expect(seq).toBe(6);
  });

  it('acknowledges a batch at once, from the head and elsewhere; reopened, 150 jobs come back in order', async () => {
    const q = await JobQueue.open<{ n: number }>(dir, { bound: 1000 });
    for (let n = 1; n <= 160; n++) await q.push({ n });
    const seqs = q.head(160).map((j) => j.seq);
    await q.ackMany([...seqs.slice(0, 8), seqs[100]!, seqs[101]!, 999_999]);
    expect(q.head(3).map((j) => j.job.n)).toEqual([9, 10, 11]);
    expect(q.waiting).toBe(150);
    await q.close();
    const again = await JobQueue.open<{ n: number }>(dir, { accept: isJob });
    expect(again.head(200).map((j) => j.job.n)).toEqual([...Array.from({ length: 92 }, (_, i) => i + 9), ...Array.from({ length: 58 }, (_, i) => i + 103)]);
    expect((await readdir(dir)).filter((f) => f.endsWith('.job'))).toHaveLength(150);
  });

  it('at its bound drops the oldest for the new job and counts it, also after a reopen', async () => {
    const q = await JobQueue.open<{ n: number }>(dir, { bound: 3 });
    for (let n = 1; n <= 3; n++) expect((await q.push({ n })).dropped).toBe(false);
    expect(await q.push({ n: 4 })).toMatchObject({ dropped: true });
    expect(await q.push({ n: 5 })).toMatchObject({ dropped: true });
    expect(q.head(10).map((j) => j.job.n)).toEqual([3, 4, 5]);
    expect(q.dropped).toBe(2);
    await q.close();
    const again = await JobQueue.open<{ n: number }>(dir, { bound: 3 });
    expect([again.waiting, again.dropped]).toEqual([3, 2]);
  });

  it("removes a cut push's temp file and sets a corrupt or foreign job aside", async () => {
    const q = await JobQueue.open<{ n: number }>(dir);
    await q.push({ n: 1 });
    await q.close();
    await writeFile(join(dir, '.000000000002.job.tmp-abcdef'), '{"n":');
    await writeFile(join(dir, '000000000003.job'), '{"n":');
    await writeFile(join(dir, '000000000004.job'), '{"x":1}');
    const bad: string[] = [];
    const again = await JobQueue.open<{ n: number }>(dir, { accept: isJob, onBad: (name) => bad.push(name) });
    expect(again.head(10).map((j) => j.job)).toEqual([{ n: 1 }]);
    expect(bad).toEqual(['000000000003.job', '000000000004.job']);
    expect((await readdir(dir)).sort()).toEqual(['000000000001.job', '000000000003.bad', '000000000004.bad']);
    expect((await again.push({ n: 5 })).seq).toBe(5);
  });

  it('refuses a bound that is not a positive integer', async () => {
    await expect(JobQueue.open(dir, { bound: 0 })).rejects.toThrow(RangeError);
  });
});
