// The run shape of a service whose PLC requests are jobs sent in order (HTTP client, e-mail one
// at a time; SQL and NoSQL rows in batches, and a row every poll without a request): every
// plc_poll seconds the control block is read; a request becomes a job in the crash-safe queue before its request word is cleared, or a
// refusal (RequestFault: state 3 and its code, nothing sent); the queue is sent while the peer
// takes jobs, and a peer that cannot be reached keeps the job queued and is tried again after
// 1 s, 2 s … 30 s. Every job carries the target it was made for (job-targets.ts): one made for
// another target is never sent, it becomes a dead letter (target_gone); one that fails with a
// permanent error (job-fate.ts) is a dead letter after MAX_TRIES and the queue goes on. A subclass
// says how a request becomes a job, how a job is sent, and which words of its block it writes
// besides the convention's.

import { ControlInterfaceOff, plcFailureReason } from '../com/dialog.ts';
import type { Links } from '../com/links.ts';
import type { BlockState, ControlBlock, ServiceErrorName } from '../model/blocks/convention.ts';
import { sameReason } from '../model/reasons.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { RuntimeService } from '../model/service-status.ts';
import type { Logger } from '../system/log.ts';
import { BlockIo, statusHead } from './block-io.ts';
import type { DeadLetters } from './dead-letters.ts';
import { moveGone, moveToDead } from './dead-move.ts';
import { isPermanent, MAX_TRIES } from './job-fate.ts';
import { RequestFault } from './plc-text.ts';
import type { JobQueue, QueuedJob } from './queue.ts';
import type { StatusBook } from './status.ts';

export const BACKOFF_FIRST_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;

/** A queued job knows the target it was made for (job-targets.ts); a job from before targets were kept has none. */
export interface Targeted {
  target?: string;
}

/** What outlives a save: the status, the queue, the dead letters, the block's result words. */
export interface QueueShared<J extends Targeted, C extends string> {
  book: StatusBook<C | 'failed'>;
  queue: JobQueue<J>;
  dead: DeadLetters<J>;
  /** the target of the saved settings: what new jobs are stamped with, what a queued job must match */
  target: string;
  state: BlockState;
  error: ServiceErrorName;
  counter: number;
}

export interface QueueRunDeps {
  links: Links;
  log: Logger;
}

/** A job's end: done, or refused by the peer (it does not wait again); `undefined` from send = not delivered, keep it. */
export interface JobEnd {
  error?: { code: Exclude<ServiceErrorName, 'none'>; message: string };
  /** the peer answered the job (the answer is its result, e.g. an HTTP status): an error with it is no dead letter */
  answered?: boolean;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export abstract class QueueRun<J extends Targeted, C extends string> {
  private active = true;
  protected readonly io: BlockIo;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private polling: Promise<void> = Promise.resolve();
  private sending: Promise<void> | undefined;
  private retryAt = 0;
  private backoff = BACKOFF_FIRST_MS;
  /** why the last send did not deliver (notDelivered) */
  private failure: { code: Exclude<ServiceErrorName, 'none'>; message: string } | undefined;
  /** failed tries with a permanent error, per failKey() */
  private readonly tries = new Map<string, number>();

  constructor(
    protected readonly base: QueueRunDeps,
    protected readonly shared: QueueShared<J, C>,
    block: ControlBlock,
    start: number,
    private readonly pollSeconds: number,
    private readonly pew: Pew,
    protected readonly user: string,
  ) {
    this.io = new BlockIo(() => this.link(), block, start, user);
  }

  /** The job of a request (words of the block by name); throws RequestFault to refuse it. */
  protected abstract jobOf(b: Record<string, number>): Promise<J>;
  /** Sends one job: its end, or undefined when the peer could not be reached (the job stays queued). */
  protected abstract send(job: J): Promise<JobEnd | undefined>;
  /** The block's words besides request, state, error and counter that the unit writes. */
  protected abstract extraWords(): Record<string, number>;
  /** what the service counts for each job that ended */
  protected abstract readonly doneCounter: C;

  private link() {
    const link = this.base.links.get(this.pew.interface_plc);
    if (!link) throw new ControlInterfaceOff();
    return link;
  }

  get isActive(): boolean {
    return this.active;
  }

  start(): void {
    this.shared.book.set(this.shared.queue.waiting > 0 ? 'waiting' : 'idle');
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
    await this.sending;
    this.shared.book.set('off');
  }

  /** Polls every plc_poll seconds from start to start (a slow poll does not stretch the period). */
  private schedule(ms = this.pollSeconds * 1000): void {
    if (!this.active) return;
    this.timer = setTimeout(() => {
      const t = performance.now();
      this.polling = this.poll().finally(() => this.schedule(Math.max(0, this.pollSeconds * 1000 - (performance.now() - t))));
    }, ms);
  }

  private async poll(): Promise<void> {
    // a job of the poll itself (SQL, NoSQL: a row without the PLC's request) does not need the block
    if (this.pollsJobs()) {
      await this.enqueue(() => this.pollJob()).catch((e: unknown) => this.base.log.warn(`${this.user}: no job this poll`, { error: errorText(e) }));
    }
    try {
      const b = await this.io.read();
      if (!this.active) return;
      if (b.request !== 0) await this.take(b);
      this.kick();
      await this.writeStatus();
      this.shared.book.plc = undefined;
    } catch (e) {
      this.kick();
      this.io.forget();
      const why = plcFailureReason(e);
      if (!sameReason(this.shared.book.plc, why)) this.base.log.warn(`${this.user} control block cannot be used`, { error: errorText(e) });
      this.shared.book.plc = why;
    }
  }

  private async take(b: Record<string, number>): Promise<void> {
    await this.enqueue(() => this.jobOf(b));
    await this.io.take(statusHead(this.shared));
  }

  /** Queues the job `make` builds, or shows its refusal (RequestFault) in the block and the status. */
  private async enqueue(make: () => Promise<J>): Promise<void> {
    try {
      const job = await make();
      const { dropped } = await this.shared.queue.push({ ...job, target: this.shared.target });
      if (dropped) this.shared.book.error('queue_full', `the queue held ${this.shared.queue.bound} jobs: the oldest was dropped`);
      // behind jobs the peer could not take yet, the new one waits too
      this.shared.state = performance.now() < this.retryAt ? 'waiting' : 'running';
    } catch (e) {
      if (!(e instanceof RequestFault)) throw e;
      this.finished('error', e.code);
      this.shared.book.count('failed');
      this.shared.book.error(e.code, e.message);
      this.refused(e);
      this.base.log.warn(`${this.user} request refused`, { code: e.code, error: e.message });
    }
  }

  /** Whether every poll makes a job of its own (pollJob). */
  protected pollsJobs(): boolean {
    return false;
  }

  /** The job a poll makes without a request (when pollsJobs()); throws RequestFault to refuse it. */
  protected pollJob(): Promise<J> {
    return Promise.reject(new Error(`${this.user} makes no jobs of its own`));
  }

  /** Told about a refused request or job, after the block's words were set. */
  protected refused(_fault: RequestFault): void {}

  private finished(state: BlockState, error: ServiceErrorName): void {
    this.shared.state = state;
    this.shared.error = error;
    this.shared.counter = (this.shared.counter + 1) & 0xffff;
  }

  /** Starts sending the queue when nothing is being sent and no retry wait runs. */
  private kick(): void {
    if (this.sending || !this.active || this.shared.queue.waiting === 0 || performance.now() < this.retryAt) return;
    this.sending = this.sendAll()
      .catch((e: unknown) => this.base.log.error(`${this.user} send failed`, { error: errorText(e) }))
      .finally(() => {
        this.sending = undefined;
      });
  }

  private async sendAll(): Promise<void> {
    while (this.active) {
      await this.dropGone();
      const batch = this.shared.queue.head(this.batchSize);
      if (batch.length === 0) {
        this.shared.book.set('idle');
        return;
      }
      this.shared.book.set('running');
      this.failure = undefined;
      const ends = await this.sendBatch(batch.map((b) => b.job));
      const key = this.failKey(batch[0]!);
      if (!ends || ends.length === 0) {
        const f = this.lastFailure();
        if (f && isPermanent(this.user as RuntimeService, f.code)) {
          const tries = (this.tries.get(key) ?? 0) + 1;
          this.tries.set(key, tries);
          if (tries >= MAX_TRIES) {
            // the same error on every try: the jobs it concerns become dead letters, the rest go on
            const span = batch.slice(0, Math.max(1, this.failedSpan(batch.map((b) => b.job))));
            await this.toDead(span, f.code, f.message, tries);
            for (const _ of span) {
              this.shared.book.count(this.doneCounter);
              this.shared.book.count('failed');
              this.finished('error', f.code);
            }
            this.base.log.error(`${this.user}: ${span.length} job(s) failed ${tries} times, moved to the dead letters`, { code: f.code, error: f.message });
            await this.writeStatus().catch(() => this.io.forget());
            continue;
          }
        }
        this.shared.book.set('waiting');
        this.shared.state = 'waiting';
        this.retryAt = performance.now() + this.backoff;
        this.backoff = Math.min(this.backoff * 2, BACKOFF_MAX_MS);
        await this.writeStatus().catch(() => this.io.forget());
        return;
      }
      this.backoff = BACKOFF_FIRST_MS;
      this.tries.delete(key);
      const done = batch.slice(0, ends.length);
      // a job the peer refused without an answer is kept as a dead letter, before it leaves the queue (a cut in between keeps it twice, never loses it)
      const refused = done.flatMap((b, i) => {
        const e = ends[i]!;
        return e.error && !e.answered ? [{ job: b, error: e.error }] : [];
      });
      for (const r of refused) await this.toDead([r.job], r.error.code, r.error.message, 1);
      // off the queue before the counter moves: a poll in between never shows the new counter with the jobs still waiting
      await this.shared.queue.ackMany(done.map((b) => b.seq));
      for (const end of ends) {
        this.shared.book.count(this.doneCounter);
        if (end.error) {
          this.shared.book.count('failed');
          this.shared.book.error(end.error.code, end.error.message);
        } else this.shared.book.success();
        this.finished(end.error ? 'error' : 'done', end.error?.code ?? 'none');
      }
      // what the jobs wrote into the PLC is there already: the counter comes last
      await this.writeStatus().catch(() => this.io.forget());
    }
  }

  /** Jobs at the head made for another target than the saved one: dead letters, never sent (job-targets.ts). */
  private async dropGone(): Promise<void> {
    const { moved, from } = await moveGone(this.shared);
    if (moved > 0)
      this.base.log.warn(`${this.user}: ${moved} job(s) made for a target no longer saved, moved to the dead letters`, {
        target: from,
        now: this.shared.target,
      });
  }

  /** Moves queued jobs to the dead letters with their error. */
  private async toDead(jobs: readonly QueuedJob<J>[], code: Exclude<ServiceErrorName, 'none'>, message: string, tries: number): Promise<void> {
    await moveToDead(this.shared, jobs, code, message, tries);
    this.shared.book.error(code, message);
  }

  private lastFailure(): { code: Exclude<ServiceErrorName, 'none'>; message: string } | undefined {
    return this.failure;
  }

  /** What failed tries with a permanent error are counted by: the job by default. */
  protected failKey(job: QueuedJob<J>): string {
    return `#${job.seq}`;
  }

  /** How many of the oldest jobs a permanent failure concerns (they share its cause): the first by default. */
  protected failedSpan(_jobs: readonly J[]): number {
    return 1;
  }

  /** Jobs sent together at most (the oldest waiting ones, in order). */
  protected get batchSize(): number {
    return 1;
  }

  /**
   * Sends the oldest waiting jobs: the ends of the first jobs, in order (at least one), or
   * undefined when the peer could not be reached (all stay queued). One job at a time by default.
   */
  protected async sendBatch(jobs: readonly J[]): Promise<JobEnd[] | undefined> {
    const end = await this.send(jobs[0]!);
    return end ? [end] : undefined;
  }

  /** A job that could not be delivered: why, for the block and the status. */
  protected notDelivered(code: Exclude<ServiceErrorName, 'none'>, message: string): undefined {
    this.failure = { code, message };
    this.shared.error = code;
    this.shared.book.error(code, message);
    this.base.log.warn(`${this.user}: not delivered, kept in the queue`, { code, error: message });
    return undefined;
  }

  private async writeStatus(): Promise<void> {
    await this.io.write({
      ...statusHead(this.shared),
      counter: this.shared.counter,
      ...this.extraWords(),
    });
  }
}
