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
  run?(abort: Abort): Promise<T>;
  /**
   * `run` with callbacks, taken when present: calls `answered` or `failed` once, or honours
   * `abort`. An answer then reaches a caller of `enqueue` in the turn it arrived. `restartClock`
   * gives the attempt its whole timeout again from now: the link calls it when the request goes on
   * the wire after a wait for a quiet line or a resync exchange (line-guard.ts).
   */
  start?(abort: Abort, answered: (value: T) => void, failed: (e: unknown) => void, restartClock: () => void): void;
  /** what the caller gets instead of the queue's LinkError when the transaction fails (its own error type) */
  asError?(e: LinkError): unknown;
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
  /** a caller's callback of `enqueue` threw (a bug there): reported here, the queue goes on */
  fault?(e: unknown): void;
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

/** The counters of a queue that has done nothing yet. */
export const zeroQueueStats = (): QueueStats => ({ requests: 0, errors: 0, timeouts: 0, retries: 0, busyMs: 0, waiting: 0 });

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
  /**
   * The timer of attempts with the queue's own timeout: one for the queue, moved to each new
   * attempt's deadline (a new timer per attempt costs a forwarded request more than its parsing),
   * left running when an attempt ends in time; `guarded` is what it ends when it fires.
   */
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  private guarded: { expired: () => void } | undefined;
  /** since when the attempt on the wire has been busy and not yet counted in `busyMs` */
  private busySince: number | undefined;
  readonly stats: QueueStats = zeroQueueStats();

  constructor(private readonly opts: QueueOptions) {}

  /** Queues a transaction; resolves with its result or rejects with a LinkError (or what `tx.asError` makes of it). */
  submit<T>(tx: Transaction<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => this.enqueue(tx, resolve, reject));
  }

  /**
   * `submit` with callbacks: exactly one of them is called, once. With a transaction that has
   * `start`, `answered` runs in the turn the answer arrived, before the next transaction starts.
   */
  enqueue<T>(tx: Transaction<T>, answered: (value: T) => void, failed: (e: unknown) => void): void {
    if (this.closed) return failed(errorFor(tx, new LinkError('closed', 'The link is closed')));
    const list = this.users.get(tx.user) ?? [];
    if (list.length >= (this.opts.maxPerUser ?? 64)) return failed(errorFor(tx, new LinkError('queue_full', `Too many requests waiting for ${tx.user}`)));
    list.push({ tx, resolve: answered as (v: unknown) => void, reject: failed });
    if (!this.users.has(tx.user)) {
      this.users.set(tx.user, list);
      this.order.push(tx.user);
    }
    this.stats.waiting++;
    this.pump();
  }

  /** Refuses everything waiting and every later submit. */
  close(): void {
    this.closed = true;
    clearTimeout(this.watchdog);
    this.guarded = undefined;
    const waiting = [...this.users.values()].flat();
    this.users.clear();
    this.order = [];
    this.stats.waiting = 0;
    for (const p of waiting) this.deliver(p.reject, errorFor(p.tx, new LinkError('closed', 'The link is closed')));
  }

  /** Starts the counters again from 0 (the diagnostics' reset); `waiting` is a state, not a count, and stays. */
  resetCounters(): void {
    Object.assign(this.stats, { ...zeroQueueStats(), waiting: this.stats.waiting });
    if (this.busySince !== undefined) this.busySince = this.opts.clock.now();
  }

  /**
   * The counters as of now: `busyMs` includes the attempt still on the wire, so a request counted
   * in `requests` has its busy time counted too (a sample taken while it runs is not "1 request,
   * 0 % busy").
   */
  statsNow(): QueueStats {
    const s = { ...this.stats };
    if (this.busySince !== undefined) s.busyMs += this.opts.clock.now() - this.busySince;
    return s;
  }

  /** share of `elapsedMs` (time since the counters started) the wire was busy, 0-1, given `busyMs` of statsNow */
  busyShare(elapsedMs: number, busyMs: number): number {
    return elapsedMs > 0 ? Math.min(1, busyMs / elapsedMs) : 0;
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

  /** Puts the next waiting transaction on the wire, unless one is there. */
  private pump(): void {
    if (this.running) return;
    const p = this.next();
    if (!p) return;
    this.running = true;
    this.attempt(p, 0, undefined);
  }

  /** The transaction is over (answered or given up): the wire is free for the next one. */
  private finished(): void {
    this.running = false;
    this.pump();
  }

  /**
   * One attempt of `p` (attempt `i`, `last` the failure of the one before). Callbacks rather than a
   * promise chain: the answer reaches its caller in one step, and the next transaction starts in
   * the same turn.
   */
  private attempt(p: Pending, i: number, last: LinkError | undefined): void {
    const attempts = 1 + (p.tx.idempotent ? this.opts.retries : 0);
    if (i >= attempts || this.closed) {
      this.deliver(p.reject, errorFor(p.tx, last ?? new LinkError('closed', 'The link is closed')));
      this.finished();
      return;
    }
    if (i > 0) this.stats.retries++;
    this.stats.requests++;
    this.busySince = this.opts.clock.now();
    const abort = new Abort();
    const ms = p.tx.timeoutMs ?? this.opts.timeoutMs;
    let over = false;
    const settle = (): boolean => {
      if (over) return false;
      over = true;
      disarm();
      this.stats.busyMs += this.opts.clock.now() - this.busySince!;
      this.busySince = undefined;
      return true;
    };
    const failed = (e: unknown) => {
      const err = e instanceof LinkError ? e : new LinkError('failed', e instanceof Error ? e.message : String(e), e);
      if (err.code === 'timeout') this.stats.timeouts++;
      else this.stats.errors++;
      if (this.opts.retryable && !this.opts.retryable(e)) {
        this.deliver(p.reject, errorFor(p.tx, err));
        this.finished();
      } else this.attempt(p, i + 1, err);
    };
    const expired = () => {
      if (!settle()) return;
      abort.abort();
      failed(new LinkError('timeout', `No answer within ${ms} ms`));
    };
    let disarm = this.arm(ms, expired);
    const restartClock = () => {
      if (over) return;
      disarm();
      disarm = this.arm(ms, expired);
    };
    const answered = (v: unknown) => {
      if (!settle()) return;
      this.deliver(p.resolve, v);
      this.finished();
    };
    const broke = (e: unknown) => {
      if (settle()) failed(e);
    };
    const { tx } = p;
    try {
      if (tx.start) tx.start(abort, answered, broke, restartClock);
      else tx.run!(abort).then(answered, broke);
    } catch (e) {
      broke(e);
    }
  }

  /** Hands a result to its caller; a caller's callback that throws cannot stop the queue. */
  private deliver(to: (v: unknown) => void, v: unknown): void {
    try {
      to(v);
    } catch (e) {
      this.opts.fault?.(e);
    }
  }

  /**
   * Calls `expired` after `ms` unless the returned function is called first. A deadline that comes
   * due is acted on one turn of the event loop later (setImmediate): node runs due timers before it
   * reads the sockets, so after a stall of the loop an answer that arrived in time would otherwise
   * lose to its own timeout; the turn lets it be read first.
   */
  private arm(ms: number, expired: () => void): () => void {
    if (ms !== this.opts.timeoutMs) {
      let off = false;
      const t = setTimeout(() => setImmediate(() => off || expired()), ms);
      return () => {
        off = true;
        clearTimeout(t);
      };
    }
    const armed = { expired };
    this.guarded = armed;
    if (this.watchdog) this.watchdog.refresh();
    // unref: left running after the last attempt, it must not hold the process (the channel does)
    else
      this.watchdog = setTimeout(() => {
        const due = this.guarded;
        // still due after the turn: neither answered nor armed again meanwhile
        if (!due) return;
        setImmediate(() => {
          if (this.guarded !== due) return;
          this.guarded = undefined;
          due.expired();
        });
      }, ms).unref();
    return () => {
      if (this.guarded === armed) this.guarded = undefined;
    };
  }
}

/** The failure as the transaction's caller gets it. */
const errorFor = (tx: Transaction<unknown>, e: LinkError): unknown => (tx.asError ? tx.asError(e) : e);
