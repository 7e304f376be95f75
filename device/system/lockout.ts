// Login throttling (security.md AUTH-4, AUTH-6). Within 15 minutes, 5 failures for one account from
// one source address lock that pair, and 10 failures from one address lock the address for every
// account; a lock lasts 10, then 30, then 60 minutes. Guesses from other addresses do not lock the
// owner out of an account (issue: 15 addresses could lock the only admin for an hour). A successful
// login ends the count of its own account only: the address's failures for other accounts still
// count (AUTH-7; issue: a user account's logins between guesses kept an address from ever locking).
//
// The table also remembers the last addresses that signed in successfully (AUTH-8): their password
// checks go first when a login flood fills the hashing queue (device/system/passwords.ts).
//
// An attempt is reserved before its password is hashed and counted against the limits while the
// hash runs, so a burst of concurrent requests gets no more checks than the limits allow.
//
// The state is kept in a file so a restart does not lift a lock. Account names are kept only as a
// salted hash (with the address): a password typed into the name field never lands on disk.
//
// The owner's way back needs shell access to the unit: `reset-admin` (device/cli.ts) puts a reset
// request file beside the table; the daemon lifts every lock when it sees it (at the next login
// attempt, or at start) and reports how many through `onReset`.
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../hw/atomic-file.ts';
import type { Clock } from '../../hw/types.ts';

const MIN = 60_000;
export const WINDOW_MS = 15 * MIN;
/** failures of one account from one address */
export const PAIR_LIMIT = 5;
/** failures from one address, any account */
export const SOURCE_LIMIT = 10;
export const LOCK_STEPS_MS = [10 * MIN, 30 * MIN, 60 * MIN];
// a lock level is forgotten a day after the last lock ended
const LEVEL_RESET_MS = 24 * 60 * MIN;
/** the table's file and the reset request beside it, in the data folder */
export const LOCKOUT_FILE = 'lockout.json';
export const RESET_REQUEST_FILE = 'lockout.reset';

/** the addresses that signed in last, remembered for the priority of their password checks */
export const SIGNED_IN_KEPT = 64;

interface Entry {
  failures: number[]; // times of failures inside the window
  /** of an address entry: the account (its pair key) of each failure, so that its success ends only its own */
  of?: string[];
  level: number; // how many locks so far (0-3)
  lockedUntil: number;
}

interface FileShape {
  version: 2;
  salt: string;
  entries: Record<string, Entry>;
  /** address → time of its last successful login, at most SIGNED_IN_KEPT */
  signedIn?: Record<string, number>;
}

/** A reserved attempt: exactly one of its three ends is called once the password was checked (or not). */
export interface Attempt {
  /** the password was wrong; returns the lock this failure started (ms, 0 for none) and what it locks */
  fail(): Promise<{ lockedMs: number; scope?: 'address' | 'account_address' }>;
  succeed(): Promise<void>;
  /** the password was not checked after all (the hashing queue was full) */
  cancel(): void;
}

export type Reservation =
  /** `signedInBefore`: the address has signed in successfully before (its check goes first) */
  | { ok: true; attempt: Attempt; signedInBefore: boolean }
  /** locked: a lock runs for waitMs; busy: attempts under way already reach a limit */
  | { ok: false; reason: 'locked' | 'busy'; waitMs: number };

export interface LockoutState {
  /** counts an attempt before its password is checked, or refuses it */
  reserve(account: string, source: string): Reservation;
}

export interface ResetRequest {
  time: string;
  by: string;
}

/** Asks the daemon over `dataDir` to lift every login lock (device/cli.ts `reset-admin`). */
export async function requestLockoutReset(dataDir: string, req: ResetRequest): Promise<void> {
  await writeFile(join(dataDir, RESET_REQUEST_FILE), `${JSON.stringify(req)}\n`, { mode: 0o600 });
}

export interface LockoutOptions {
  dataDir: string;
  clock: Clock;
  /** a reset request was applied: how many locks it lifted */
  onReset?: (lifted: number, req: Partial<ResetRequest>) => void;
}

function load(file: string): FileShape {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    if (data.version === 2 && typeof data.salt === 'string' && typeof data.entries === 'object' && data.entries) {
      const kept = typeof data.signedIn === 'object' && data.signedIn ? Object.entries(data.signedIn) : [];
      const signedIn = Object.fromEntries(kept.filter(([, t]) => typeof t === 'number'));
      return { ...(data as unknown as FileShape), signedIn };
    }
    // the first format keyed accounts by name: its address entries still hold, the rest is dropped
    const entries = Object.fromEntries(Object.entries(data).filter(([k]) => k.startsWith('source:'))) as Record<string, Entry>;
    return { version: 2, salt: randomBytes(16).toString('base64'), entries };
  } catch {
    return { version: 2, salt: randomBytes(16).toString('base64'), entries: {} };
  }
}

export function createLockout(opts: LockoutOptions): LockoutState {
  const file = join(opts.dataDir, LOCKOUT_FILE);
  const resetFile = join(opts.dataDir, RESET_REQUEST_FILE);
  const state = load(file);
  const table = state.entries;
  const signedIn = (state.signedIn ??= {});
  const pending = new Map<string, number>(); // attempts reserved and not yet ended, per key

  // one write at a time; requests arriving while one runs share the next (it writes the table as it is then)
  let running: Promise<void> = Promise.resolve();
  let next: Promise<void> | undefined;
  const save = (): Promise<void> => {
    if (next) return next;
    const run = running.then(() => {
      next = undefined;
      prune(opts.clock.now());
      return writeFileAtomic(file, JSON.stringify(state));
    });
    next = run;
    running = run.catch(() => undefined);
    return run;
  };

  const pairKey = (account: string, source: string) =>
    `pair:${createHmac('sha256', state.salt).update(`${account.toLowerCase()}\n${source}`).digest('base64url').slice(0, 32)}`;
  const sourceKey = (source: string) => `source:${source}`;

  const entry = (key: string, now: number): Entry => {
    const e = (table[key] ??= { failures: [], level: 0, lockedUntil: 0 });
    const keep = e.failures.map((t) => now - t < WINDOW_MS);
    e.failures = e.failures.filter((_, i) => keep[i]);
    if (e.of) e.of = e.of.filter((_, i) => keep[i]);
    if (e.level && e.lockedUntil && now - e.lockedUntil > LEVEL_RESET_MS) e.level = 0;
    return e;
  };
  const remaining = (key: string, now: number) => Math.max(0, (table[key]?.lockedUntil ?? 0) - now);

  /** entries that hold nothing any more are dropped, so guesses cannot grow the file without end */
  function prune(now: number): void {
    for (const [key, e] of Object.entries(table)) {
      const fresh = e.failures.some((t) => now - t < WINDOW_MS);
      const levelKept = e.level > 0 && now - e.lockedUntil <= LEVEL_RESET_MS;
      if (!fresh && e.lockedUntil <= now && !levelKept && !pending.has(key)) delete table[key];
    }
  }

  function applyResetRequest(): void {
    if (!existsSync(resetFile)) return;
    let req: Partial<ResetRequest> = {};
    try {
      req = JSON.parse(readFileSync(resetFile, 'utf8')) as Partial<ResetRequest>;
    } catch {
      req = {};
    }
    try {
      rmSync(resetFile, { force: true });
    } catch {
      return; // a request that cannot be removed is not applied: it would lift every lock at every attempt
    }
    const now = opts.clock.now();
    const lifted = Object.values(table).filter((e) => e.lockedUntil > now).length;
    for (const key of Object.keys(table)) delete table[key];
    void save().catch(() => undefined);
    opts.onReset?.(lifted, req);
  }
  applyResetRequest();

  const limits = (account: string, source: string) =>
    [
      [pairKey(account, source), PAIR_LIMIT, 'account_address'],
      [sourceKey(source), SOURCE_LIMIT, 'address'],
    ] as const;
  const hold = (key: string, by: number) => {
    const n = (pending.get(key) ?? 0) + by;
    if (n > 0) pending.set(key, n);
    else pending.delete(key);
  };

  return {
    reserve(account, source) {
      applyResetRequest();
      const now = opts.clock.now();
      const keys = limits(account, source);
      const pair = keys[0][0];
      const wait = Math.max(...keys.map(([key]) => remaining(key, now)));
      if (wait > 0) return { ok: false, reason: 'locked', waitMs: wait };
      if (keys.some(([key, limit]) => entry(key, now).failures.length + (pending.get(key) ?? 0) >= limit)) return { ok: false, reason: 'busy', waitMs: 1000 };
      for (const [key] of keys) hold(key, 1);
      let ended = false;
      const end = () => {
        if (ended) throw new Error('attempt ended twice');
        ended = true;
        for (const [key] of keys) hold(key, -1);
      };
      return {
        ok: true,
        signedInBefore: Object.hasOwn(signedIn, source),
        attempt: {
          async fail() {
            end();
            const at = opts.clock.now();
            let lockedMs = 0;
            let scope: 'address' | 'account_address' | undefined;
            for (const [key, limit, what] of keys) {
              const e = entry(key, at);
              e.failures.push(at);
              if (what === 'address') (e.of ??= []).push(pair);
              if (e.failures.length >= limit) {
                e.level = Math.min(e.level + 1, LOCK_STEPS_MS.length);
                const ms = LOCK_STEPS_MS[e.level - 1]!;
                e.lockedUntil = at + ms;
                e.failures = [];
                delete e.of;
                if (ms >= lockedMs) [lockedMs, scope] = [ms, what];
              }
            }
            await save();
            return scope ? { lockedMs, scope } : { lockedMs };
          },
          async succeed() {
            end();
            delete table[pair];
            // AUTH-7: only this account's failures end; those of other accounts from the address still count
            const s = table[keys[1][0]];
            if (s?.of) {
              const others = s.of.map((k) => k !== pair);
              s.failures = s.failures.filter((_, i) => others[i]);
              s.of = s.of.filter((_, i) => others[i]);
            }
            signedIn[source] = opts.clock.now();
            const kept = Object.entries(signedIn).sort((a, b) => b[1] - a[1]);
            for (const [old] of kept.slice(SIGNED_IN_KEPT)) delete signedIn[old];
            await save();
          },
          cancel: end,
        },
      };
    },
  };
}
