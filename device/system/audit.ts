// The audit log (security.md AUD-1): append-only JSON lines of who did what and when; bounded in
// size by rotation (audit.log → audit.log.1 … audit.log.3). No API edits it.
//
// Failed logins are summed per source address and minute into one entry (a flood of guesses must
// not push the rest of the history out through rotation), holding the names tried only when they
// are accounts: a password typed into the name field is never written. A sum is written when its
// minute is over, before any other entry, when the log is read and when the daemon stops.
import { mkdir, open, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../hw/types.ts';

export interface AuditEvent {
  action: string; // login_ok, login_failed, lockout, logout, setup, config_save, …
  user?: string;
  source?: string; // client address
  detail?: Record<string, unknown>;
}

export interface AuditLog {
  write(event: AuditEvent): Promise<void>;
  read(): Promise<string>;
  /** the whole log: the rotated files, oldest first, then the current one */
  readAll(): Promise<string>;
  /** a failed login from `source`, counted into that address's entry of the minute; `account` only when it names an existing account */
  loginFailed(source: string, account?: string): Promise<void>;
  /** writes the failed-login sums still open */
  flush(): Promise<void>;
}

/** addresses with a failed-login sum of their own per minute; the failures of any further ones are summed together */
export const FAILED_SOURCES_PER_MINUTE = 20;
/** the source of the sum of the further addresses */
export const OTHER_SOURCES = '*';

/** the sum of one address's failed logins in one minute */
interface FailedSum {
  minute: number;
  /** the sum of OTHER_SOURCES: the addresses it holds */
  sources?: Set<string>;
  first: number;
  last: number;
  count: number;
  accounts: Set<string>;
  unknown: number;
}

export function createAuditLog(opts: { dir: string; clock: Clock; maxBytes?: number; keep?: number }): AuditLog {
  const file = join(opts.dir, 'audit.log');
  const maxBytes = opts.maxBytes ?? 512 * 1024;
  const keep = opts.keep ?? 3;
  let queue: Promise<void> = Promise.resolve();

  async function rotateIfNeeded(): Promise<void> {
    const size = await stat(file).then(
      (s) => s.size,
      () => 0,
    );
    if (size < maxBytes) return;
    for (let i = keep - 1; i >= 1; i--) await rename(`${file}.${i}`, `${file}.${i + 1}`).catch(() => undefined);
    await rename(file, `${file}.1`);
  }

  async function append(event: AuditEvent & { time?: string }): Promise<void> {
    await mkdir(opts.dir, { recursive: true });
    await rotateIfNeeded();
    const fh = await open(file, 'a', 0o600);
    try {
      await fh.write(`${JSON.stringify({ time: new Date(opts.clock.now()).toISOString(), ...event })}\n`); // a sum brings its own time
      await fh.datasync();
    } finally {
      await fh.close();
    }
  }

  const enqueue = (event: AuditEvent & { time?: string }): Promise<void> => {
    const run = queue.then(() => append(event));
    queue = run.catch(() => undefined);
    return run;
  };

  const failed = new Map<string, FailedSum>();
  // the addresses with a sum of their own in the current minute: even guesses from ever new
  // addresses add at most FAILED_SOURCES_PER_MINUTE + 1 entries a minute
  let own = { minute: -1, sources: new Set<string>() };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const entryOf = (source: string, f: FailedSum): AuditEvent & { time: string } => ({
    time: new Date(f.first).toISOString(),
    action: 'login_failed',
    source,
    detail: {
      count: f.count,
      ...(f.count > 1 ? { last: new Date(f.last).toISOString() } : {}),
      accounts: [...f.accounts],
      unknown: f.unknown,
      ...(f.sources ? { addresses: f.sources.size } : {}),
    },
  });
  /** writes the sums of minutes before `minute` (all of them without one) */
  const flushFailed = (minute = Infinity): Promise<void> => {
    const due = [...failed].filter(([, f]) => f.minute < minute);
    for (const [source] of due) failed.delete(source);
    if (!failed.size && timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    return Promise.all(due.map(([source, f]) => enqueue(entryOf(source, f)))).then(() => undefined);
  };

  return {
    write(event) {
      void flushFailed();
      return enqueue(event);
    },
    loginFailed(source, account) {
      const now = opts.clock.now();
      const minute = Math.floor(now / 60_000);
      const done = flushFailed(minute);
      if (own.minute !== minute) own = { minute, sources: new Set() };
      if (!own.sources.has(source) && own.sources.size < FAILED_SOURCES_PER_MINUTE) own.sources.add(source);
      const key = own.sources.has(source) ? source : OTHER_SOURCES;
      let f = failed.get(key);
      if (!f)
        failed.set(
          key,
          (f = { minute, first: now, last: now, count: 0, accounts: new Set(), unknown: 0, ...(key === OTHER_SOURCES ? { sources: new Set<string>() } : {}) }),
        );
      f.sources?.add(source);
      f.count++;
      f.last = now;
      if (account) f.accounts.add(account);
      else f.unknown++;
      // written within a minute even when nothing else happens (real time: the clock may be a test's)
      timer ??= setTimeout(() => {
        timer = undefined;
        void flushFailed();
      }, 60_000).unref();
      return done;
    },
    flush: () => flushFailed().then(() => queue),
    read: async () => {
      await flushFailed();
      await queue;
      return readFile(file, 'utf8').catch(() => '');
    },
    async readAll() {
      await flushFailed();
      await queue; // a write under way lands first
      const names = [...Array.from({ length: keep }, (_, i) => `${file}.${keep - i}`), file];
      return (await Promise.all(names.map((n) => readFile(n, 'utf8').catch(() => '')))).join('');
    },
  };
}
