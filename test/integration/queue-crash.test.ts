// The services' job queue (device/service-runtime/queue.ts) under kill -9: a child pushes and
// acknowledges jobs in a loop and is killed at random moments; after each kill the queue reopens
// with every acknowledged push there, no acknowledged ack back, the order kept, and the bound's
// drops counted.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { JobQueue } from '../../device/service-runtime/queue.ts';
import { bundleChild, seededRandom } from '../support/child-bundle.ts';

const cleanup: string[] = [];
afterAll(async () => {
  for (const d of cleanup) await rm(d, { recursive: true, force: true });
});

interface Run {
  pushed: Map<number, number>;
  acked: Set<number>;
  begun: Set<number>;
}

/**
 * Runs the child until it has acknowledged `pushes` pushes (a count, not a time: a busy machine
 * slows the child, not what a run covers), then kills it at a random moment `delayMs` later.
 */
async function runAndKill(file: string, dir: string, from: number, bound: number, pushes: number, delayMs: number): Promise<Run> {
  const child = spawn(process.execPath, [file, dir, String(from), String(bound)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const run: Run = { pushed: new Map(), acked: new Set(), begun: new Set() };
  let rest = '';
  child.stdout.on('data', (b: Buffer) => {
    const lines = (rest + b.toString()).split('\n');
    rest = lines.pop()!;
    for (const l of lines) {
      const [k, a, s] = l.split(' ');
      if (k === 'p') run.pushed.set(Number(s), Number(a));
      else if (k === 'a') run.acked.add(Number(a));
      else if (k === 'b') run.begun.add(Number(a));
    }
  });
  while (run.pushed.size < pushes && child.exitCode === null) await sleep(5);
  await sleep(delayMs);
  child.kill('SIGKILL');
  await once(child, 'exit');
  return run;
}

describe('job queue under kill -9', () => {
  it('keeps every acknowledged push, in order, and never brings an acknowledged ack back', async () => {
    const { file, dir: bundleDir } = await bundleChild(new URL('../fixtures/queue-loop.ts', import.meta.url), 'queue-loop.mjs');
    cleanup.push(bundleDir);
    const dir = await mkdtemp(join(tmpdir(), 'queue-crash-'));
    cleanup.push(dir);
    const random = seededRandom(18);
    const bound = 40; // small, so that drops happen too
    const pushed = new Map<number, number>(); // seq → n, over all runs
    const acked = new Set<number>();
    const begun = new Set<number>(); // acks started: gone or not, both are right after a kill
    let from = 1;
    for (let i = 0; i < 8; i++) {
      // 10-30 pushes a run, every second one acknowledged: together the runs pass the bound of 40, so drops happen
      const run = await runAndKill(file, dir, from, bound, 10 + Math.floor(random() * 21), Math.floor(random() * 50));
      for (const [seq, n] of run.pushed) pushed.set(seq, n);
      for (const seq of run.acked) acked.add(seq);
      for (const seq of run.begun) begun.add(seq);
      const q = await JobQueue.open<{ n: number }>(dir, { bound });
      const jobs = q.head(bound + 1);
      const seqs = jobs.map((j) => j.seq);
      // order: sequence numbers and job numbers both rise
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      for (let k = 1; k < jobs.length; k++) expect(jobs[k]!.job.n).toBeGreaterThan(jobs[k - 1]!.job.n);
      expect(jobs.length).toBeLessThanOrEqual(bound);
      // no acknowledged ack comes back
      for (const s of seqs) expect(acked.has(s), `seq ${s} was acknowledged`).toBe(false);
      // every acknowledged push newer than the oldest kept one is there, unless acked or dropped (older than the head)
      const oldest = seqs[0] ?? Infinity;
      for (const [seq, n] of pushed) {
        if (acked.has(seq) || seq < oldest) continue;
        expect(jobs.find((j) => j.seq === seq)?.job.n, `push ${seq} lost`).toBe(n);
      }
      // dropped jobs are counted: everything older than the head neither acked nor kept
      const gone = [...pushed.keys()].filter((s) => s < oldest && !begun.has(s)).length;
      expect(q.dropped).toBeGreaterThanOrEqual(gone);
      expect(q.dropped).toBeLessThanOrEqual(gone + i + 1); // at most one drop counted ahead per kill
      await q.close();
      // a push the kill cut before its line was printed may be on disk: numbers go on after it
      from = Math.max(from, ...run.pushed.values(), ...jobs.map((j) => j.job.n)) + 1;
    }
    expect(pushed.size).toBeGreaterThan(bound); // the runs did reach the bound
  }, 120_000);
});
