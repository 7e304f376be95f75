// The bounded, crash-safe job queue of the services (design/services.md "Nothing is lost on the
// way out"): a job that cannot be delivered now (broker, server or database down) waits here and
// goes out in order when the peer is back. One folder per queue on the unit's storage, one file
// per job named by its sequence number; a job is written durably (temp file, fsync, rename, fsync
// of the folder) before push() resolves, and removed by ack() once the peer has taken it.
//
// kill -9 at any moment: a job is either fully there or not there (rename is atomic); an
// acknowledged job's file is gone (unlink happens before ack() resolves), so it is not sent again.
// The folder's fsync after acks is batched (ACK_SYNC_MS): after a power cut the last acks of that
// window may come back, which a peer that tells duplicates (MQTT QoS 1, rows with a unique key)
// tolerates. When the bound is hit the oldest waiting job is dropped for the new one, and the
// dropped count (kept in the folder's meta.json) grows.
import { mkdir, readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isTempName, syncDir, writeFileAtomic } from '../../hw/atomic-file.ts';
import { readStoreMeta } from './store-meta.ts';

export const QUEUE_BOUND = 10_000; // jobs a queue holds by default
export const ACK_SYNC_MS = 100;
const JOB_RE = /^(\d{12})\.job$/;
const META = 'meta.json';
const READ_CHUNK = 64;

export interface QueuedJob<T> {
  /** the job's sequence number: order of push, never reused within a queue folder */
  seq: number;
  job: T;
}

export interface QueueOptions<T> {
  bound?: number;
  /** checks a job read back from storage; a job that fails is set aside as <seq>.bad */
  accept?: (value: unknown) => value is T;
  /** told about jobs set aside at open */
  onBad?: (name: string, reason: string) => void;
}

/** The file of the job with sequence number `seq` in its queue folder. */
export const jobFileName = (seq: number): string => `${String(seq).padStart(12, '0')}.job`;
const nameOf = jobFileName;

export class JobQueue<T> {
  private readonly jobs: QueuedJob<T>[] = [];
  private nextSeq = 1;
  private droppedCount = 0;
  private chain: Promise<unknown> = Promise.resolve();
  private syncTimer: ReturnType<typeof setTimeout> | undefined;

  private constructor(
    readonly dir: string,
    readonly bound: number,
  ) {}

  /** Opens (or creates) the queue in `dir`: the jobs left there, in their order. */
  static async open<T>(dir: string, opts: QueueOptions<T> = {}): Promise<JobQueue<T>> {
    const bound = opts.bound ?? QUEUE_BOUND;
    if (!Number.isInteger(bound) || bound < 1) throw new RangeError(`queue bound ${bound} is not a positive integer`);
    await mkdir(dir, { recursive: true });
    const q = new JobQueue<T>(dir, bound);
    const names = (await readdir(dir)).sort();
    for (const name of names.filter(isTempName)) await rm(join(dir, name), { force: true }); // a push that a crash cut short: never acknowledged to anyone
    const jobs = names.filter((n) => JOB_RE.test(n));
    // read in parallel chunks (a long outage leaves many jobs), kept in their order
    for (let i = 0; i < jobs.length; i += READ_CHUNK) {
      const chunk = jobs.slice(i, i + READ_CHUNK);
      const read = await Promise.all(
        chunk.map((name) =>
          readFile(join(dir, name), 'utf8').then(
            (text) => ({ name, text }),
            (e: unknown) => ({ name, error: e }),
          ),
        ),
      );
      for (const r of read) {
        const seq = Number(JOB_RE.exec(r.name)![1]);
        q.nextSeq = Math.max(q.nextSeq, seq + 1);
        let job: unknown;
        try {
          if ('error' in r) throw r.error;
          job = JSON.parse(r.text);
          if (opts.accept && !opts.accept(job)) throw new Error('not a job of this queue');
        } catch (e) {
          opts.onBad?.(r.name, e instanceof Error ? e.message : String(e));
          await rename(join(dir, r.name), join(dir, r.name.replace(/\.job$/, '.bad'))).catch(() => undefined);
          continue;
        }
        q.jobs.push({ seq, job: job as T });
      }
    }
    // no meta yet (nothing dropped) or unreadable: the count starts again at 0
    const meta = await readStoreMeta(join(dir, META), 'nextSeq');
    if (meta.dropped !== undefined) q.droppedCount = meta.dropped;
    if (meta.next !== undefined) q.nextSeq = Math.max(q.nextSeq, meta.next);
    return q;
  }

  get waiting(): number {
    return this.jobs.length;
  }

  get dropped(): number {
    return this.droppedCount;
  }

  /** The oldest waiting jobs, at most `n`, in order. */
  head(n = 1): readonly QueuedJob<T>[] {
    return this.jobs.slice(0, n);
  }

  /** Stores a job at the end; when the queue is full the oldest is dropped first (`dropped` true). */
  push(job: T): Promise<{ seq: number; dropped: boolean }> {
    return this.serial(async () => {
      let dropped = false;
      const seq = this.nextSeq++;
      if (this.jobs.length >= this.bound) {
        // the count first, then the drop: a kill between them counts one drop too many, never one too few
        this.droppedCount++;
        await writeFileAtomic(join(this.dir, META), JSON.stringify({ dropped: this.droppedCount, nextSeq: this.nextSeq }));
        const old = this.jobs.shift()!;
        await unlink(join(this.dir, nameOf(old.seq))).catch(() => undefined);
        dropped = true;
      }
      await writeFileAtomic(join(this.dir, nameOf(seq)), JSON.stringify(job));
      this.jobs.push({ seq, job });
      return { seq, dropped };
    });
  }

  /** Removes a delivered job; unknown (already removed) sequence numbers are ignored. */
  ack(seq: number): Promise<void> {
    return this.ackMany([seq]);
  }

  /** Removes delivered jobs (a batch from the head: one removal from the list, the files together). */
  ackMany(seqs: readonly number[]): Promise<void> {
    return this.serial(async () => {
      const gone = new Set(seqs);
      let head = 0;
      while (head < this.jobs.length && gone.has(this.jobs[head]!.seq)) head++;
      const removed = this.jobs.splice(0, head).map((j) => j.seq);
      for (const seq of seqs) {
        if (removed.includes(seq)) continue;
        const i = this.jobs.findIndex((j) => j.seq === seq);
        if (i >= 0) removed.push(...this.jobs.splice(i, 1).map((j) => j.seq));
      }
      await Promise.all(
        removed.map((seq) =>
          unlink(join(this.dir, nameOf(seq))).catch((e: NodeJS.ErrnoException) => {
            if (e.code !== 'ENOENT') throw e;
          }),
        ),
      );
      this.syncSoon();
    });
  }

  /** Waits for the writes so far and makes the last acks durable. */
  async close(): Promise<void> {
    await this.chain.catch(() => undefined);
    if (this.syncTimer) {
      clearTimeout(this.syncTimer);
      this.syncTimer = undefined;
      await syncDir(this.dir).catch(() => undefined);
    }
  }

  private syncSoon(): void {
    if (this.syncTimer) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = undefined;
      void syncDir(this.dir).catch(() => undefined);
    }, ACK_SYNC_MS);
    this.syncTimer.unref?.();
  }

  private serial<R>(step: () => Promise<R>): Promise<R> {
    const next = this.chain.then(step, step);
    this.chain = next.catch(() => undefined);
    return next;
  }
}
