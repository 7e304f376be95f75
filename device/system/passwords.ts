// Password hashing (security.md AUTH-5, AUTH-6): scrypt with a random salt; only the hash is stored.
//
// scrypt runs on libuv's thread pool (4 threads by default), the same pool every file write of the
// logger and the console uses. A flood of logins must not take it over (issue: 150 concurrent
// logins made the logger miss 30 one-second records), so at most HASH_CONCURRENCY hashes run at
// once, the rest wait in order; a login check waits only while the queue is short, else it is
// refused at once (`HashQueueFull`) and the login answers 429.
import { randomBytes, type ScryptOptions, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';

/** hashes running at once: the other pool threads stay free for file I/O */
export const HASH_CONCURRENCY = 1;
/** login checks that may wait for a hash slot; one more is refused */
export const LOGIN_QUEUE = 8;

/** A login check found the hashing queue full. */
export class HashQueueFull extends Error {}

let active = 0;
const waiting: (() => void)[] = [];

/**
 * Runs `fn` (an scrypt call) in a hash slot; with `maxQueue`, refuses when that many calls wait
 * already. Every scrypt of the daemon runs through it (the backup key too: device/backup/format.ts).
 */
export async function inHashSlot<T>(fn: () => Promise<T>, maxQueue = Infinity): Promise<T> {
  if (active >= HASH_CONCURRENCY) {
    if (waiting.length >= maxQueue) throw new HashQueueFull();
    await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over, `active` unchanged
  } else active++;
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else active--;
  }
}

/** hashes running and waiting now (for tests and the bench) */
export function hashLoad(): { active: number; waiting: number } {
  return { active, waiting: waiting.length };
}

const scrypt = (pw: string, salt: Buffer, len: number, opts: ScryptOptions, maxQueue?: number) =>
  inHashSlot(() => new Promise<Buffer>((resolve, reject) => scryptCb(pw, salt, len, opts, (e, key) => (e ? reject(e) : resolve(key)))), maxQueue);

// N=2^15, r=8: about 32 MiB and tens of milliseconds per check on the unit's CPU
const PARAMS = { N: 1 << 15, r: 8, p: 1 };
const KEY_LEN = 32;
const maxmem = 64 * 1024 * 1024;

export async function hashPassword(pw: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(pw, salt, KEY_LEN, { ...PARAMS, maxmem });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** With `maxQueue`: HashQueueFull when that many checks wait for a slot already. */
export async function verifyPassword(pw: string, stored: string, maxQueue?: number): Promise<boolean> {
  const [kind, n, r, p, salt, key] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(pw, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem }, maxQueue);
  return timingSafeEqual(actual, expected);
}

// A fixed hash checked when the user does not exist, so that the answer takes as long either way.
let dummy: Promise<string> | undefined;
export async function burnPasswordCheck(pw: string, maxQueue?: number): Promise<void> {
  dummy ??= hashPassword('unused-Dummy-1!');
  await verifyPassword(pw, await dummy, maxQueue);
}
