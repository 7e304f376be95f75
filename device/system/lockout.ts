// Login throttling (security.md AUTH-4): 5 failures per account or 10 per source address within
// 15 minutes lock that account or address for 10, then 30, then 60 minutes. The state is kept in a
// file so a restart does not lift a lock.
import { readFileSync } from 'node:fs';
import type { Clock } from '../../hw/types.ts';
import { writeFileAtomic } from '../../hw/atomic-file.ts';

const MIN = 60_000;
export const WINDOW_MS = 15 * MIN;
export const ACCOUNT_LIMIT = 5;
export const SOURCE_LIMIT = 10;
export const LOCK_STEPS_MS = [10 * MIN, 30 * MIN, 60 * MIN];
// a lock level is forgotten a day after the last lock ended
const LEVEL_RESET_MS = 24 * 60 * MIN;

interface Entry {
  failures: number[]; // times of failures inside the window
  level: number; // how many locks so far (0-3)
  lockedUntil: number;
}

export interface LockoutState {
  /** ms until the account or the source may try again; 0 when neither is locked */
  lockedFor(account: string, source: string): number;
  /** records a failure; returns the new lock duration if this failure locked something, else 0 */
  fail(account: string, source: string): Promise<number>;
  succeed(account: string, source: string): Promise<void>;
}

export function createLockout(opts: { file: string; clock: Clock }): LockoutState {
  let table: Record<string, Entry> = {};
  try {
    table = JSON.parse(readFileSync(opts.file, 'utf8')) as Record<string, Entry>;
  } catch {
    table = {};
  }
  const save = () => writeFileAtomic(opts.file, JSON.stringify(table));
  const keyA = (a: string) => `account:${a.toLowerCase()}`;
  const keyS = (s: string) => `source:${s}`;

  const entry = (key: string, now: number): Entry => {
    const e = (table[key] ??= { failures: [], level: 0, lockedUntil: 0 });
    e.failures = e.failures.filter((t) => now - t < WINDOW_MS);
    if (e.level && e.lockedUntil && now - e.lockedUntil > LEVEL_RESET_MS) e.level = 0;
    return e;
  };
  const remaining = (key: string, now: number) => Math.max(0, (table[key]?.lockedUntil ?? 0) - now);

  return {
    lockedFor(account, source) {
      const now = opts.clock.now();
      return Math.max(remaining(keyA(account), now), remaining(keyS(source), now));
    },
    async fail(account, source) {
      const now = opts.clock.now();
      let locked = 0;
      for (const [key, limit] of [[keyA(account), ACCOUNT_LIMIT], [keyS(source), SOURCE_LIMIT]] as const) {
        const e = entry(key, now);
        e.failures.push(now);
        if (e.failures.length >= limit) {
          e.level = Math.min(e.level + 1, LOCK_STEPS_MS.length);
          const ms = LOCK_STEPS_MS[e.level - 1]!;
          e.lockedUntil = now + ms;
          e.failures = [];
          locked = Math.max(locked, ms);
        }
      }
      await save();
      return locked;
    },
    async succeed(account, source) {
      delete table[keyA(account)];
      const s = table[keyS(source)];
      if (s) s.failures = [];
      await save();
    },
  };
}
