// The transaction queue of one link (architecture: device/com): one request on the wire at a time,
// fair between the link's users (redirect clients, the logger, services), each request bounded by a
// timeout, reads retried where that is safe, and statistics of the wire.
//
// Fairness: every user has its own FIFO; the queue serves users round-robin, one transaction per
// turn, so a logger with 50 queued reads cannot starve a redirect client with one request.
import type { Clock } from '../../hw/types.ts';

export interface Transaction<T> {
  /** who asks (e.g. `redirect:9094:3`, `logger`, `mqtt`) */
  user: string;
  /** true for reads: they may be retried after a timeout without changing the PLC */
  idempotent: boolean;
  /** per-attempt timeout instead of the queue's (autobaud's whole scan is one transaction) */
  timeoutMs?: number;
  /** runs the exchange on the wire; must settle or honour `abort` */
  run(abort: Abort): Promise<T>;
}

export interface QueueOptions {
  clock: Clock;
  /** per attempt, ms (spec §9 interface timeout 50-60000) */
  timeoutMs: number;
  /** extra attempts for idempotent transactions after a timeout or error */
  retries: number;
  /** most transactions waiting per user; more are refused at once */
  maxPerUser?: number;
  /** whether a failed attempt may be repeated (default: always); an error answer of the PLC is final */
  retryable?: (error: unknown) => boolean;
}

export interface QueueStats {
  requests: number;
  errors: number;
  timeouts: number;
  retries: number;
  /** ms the wire was busy with a transaction since the queue started */
  busyMs: number;
  /** waiting transactions now */
  waiting: number;
}

export class LinkError extends Error {
  constructor(
    readonly code: 'timeout' | 'closed' | 'queue_full' | 'failed',
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/**
 * Tells a running transaction that it was given up (its time ran out). One flag and one callback:
 * an AbortController with an event listener costs more than the rest of a forwarded request does.
 */
export class Abort {
  aborted = false;
  private fn: (() => void) | undefined;

  /** `fn` runs once when the transaction is given up (at once if it already was); undefined clears it */
  onAbort(fn: (() => void) | undefined): void {
    if (fn && this.aborted) fn();
    else this.fn = fn;
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const fn = this.fn;
    this.fn = undefined;
    fn?.();
  }

  /** An Abort that gives up by itself after `ms` (the timer does not keep the process alive). */
  static after(ms: number): Abort {
    const a = new Abort();
    setTimeout(() => a.abort(), ms).unref();
    return a;
  }
}

interface Pending {
  tx: Transaction<unknown>;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

export class LinkQueue {
  private readonly users = new Map<string, Pending[]>();
  /** round-robin order of users with waiting transactions */
  private order: string[] = [];
  private running = false;
  private closed = false;
  readonly stats: QueueStats = { requests: 0, errors: 0, timeouts: 0, retries: 0, busyMs: 0, waiting: 0 };

  constructor(private readonly opts: QueueOptions) {}

  /** Queues a transaction; resolves with its result or rejects with a LinkError. */
  submit<T>(tx: Transaction<T>): Promise<T> {
    if (this.closed) return Promise.reject(new LinkError('closed', 'The link is closed'));
    const list = this.users.get(tx.user) ?? [];
    if (list.length >= (this.opts.maxPerUser ?? 64)) return Promise.reject(new LinkError('queue_full', `Too many requests waiting for ${tx.user}`));
    return new Promise<T>((resolve, reject) => {
      list.push({ tx, resolve: resolve as (v: unknown) => void, reject });
      if (!this.users.has(tx.user)) {
        this.users.set(tx.user, list);
        this.order.push(tx.user);
      }
      this.stats.waiting++;
      void this.pump();
    });
  }

  /** Refuses everything waiting and every later submit. */
  close(): void {
    this.closed = true;
    for (const list of this.users.values()) for (const p of list) p.reject(new LinkError('closed', 'The link is closed'));
    this.users.clear();
    this.order = [];
    this.stats.waiting = 0;
  }

  /** share of `elapsedMs` (time since the queue started) the wire was busy, 0-1 */
  busyShare(elapsedMs: number): number {
    return elapsedMs > 0 ? Math.min(1, this.stats.busyMs / elapsedMs) : 0;
  }

  private next(): Pending | undefined {
    const user = this.order.shift();
    if (user === undefined) return undefined;
    const list = this.users.get(user)!;
    const p = list.shift()!;
    if (list.length)
      this.order.push(user); // back of the line: the other users go first
    else this.users.delete(user);
    this.stats.waiting--;
    return p;
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let p = this.next(); p; p = this.next()) await this.execute(p);
    } finally {
      this.running = false;
    }
  }

  private async execute(p: Pending): Promise<void> {
    const attempts = 1 + (p.tx.idempotent ? this.opts.retries : 0);
    let last: LinkError | undefined;
    for (let i = 0; i < attempts && !this.closed; i++) {
      if (i > 0) this.stats.retries++;
      this.stats.requests++;
      const started = this.opts.clock.now();
      try {
        const value = await this.attempt(p.tx);
        this.stats.busyMs += this.opts.clock.now() - started;
        p.resolve(value);
        return;
      } catch (e) {
        this.stats.busyMs += this.opts.clock.now() - started;
        last = e instanceof LinkError ? e : new LinkError('failed', e instanceof Error ? e.message : String(e), e);
        if (last.code === 'timeout') this.stats.timeouts++;
        else this.stats.errors++;
        if (this.opts.retryable && !this.opts.retryable(e)) break;
      }
    }
    p.reject(last ?? new LinkError('closed', 'The link is closed'));
  }

  private attempt<T>(tx: Transaction<T>): Promise<T> {
    const abort = new Abort();
    const ms = tx.timeoutMs ?? this.opts.timeoutMs;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        abort.abort();
        reject(new LinkError('timeout', `No answer within ${ms} ms`));
      }, ms);
      tx.run(abort).then(
        (v) => {
          clearTimeout(timer);
          if (!abort.aborted) resolve(v);
        },
        (e: unknown) => {
          clearTimeout(timer);
          if (!abort.aborted) reject(e);
        },
      );
    });
  }
}
