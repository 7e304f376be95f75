// The one queue every scrypt of the daemon waits in (security.md AUTH-6, AUTH-8; issue 34 item 2).
//
// scrypt is CPU-heavy (32 MiB, 0.1-0.6 s of one core per check) and runs on libuv's thread pool,
// which the logger's file writes share. So:
// - a login check comes with its source address. An address that signed in successfully before
//   (lockout.ts remembers the last ones) waits in the first line, every other address in the
//   second. Each line runs one hash at a time in a slot of its own (HASH_CONCURRENCY: two of the
//   pool's four threads stay free), so during a flood from ever new addresses the owner's check
//   never waits for a flood's hash, only for another first-line check;
// - each address has one waiting place: its second check while one waits is refused at once;
// - each line holds LOGIN_QUEUE checks; when full, its oldest check is refused (429 `login_busy`)
//   and the new one joins, so a flood cannot hold the places while its clients give up;
// - hashing has a CPU budget: a bucket of HASH_BURST_MS of hash time that fills at HASH_SHARE ms
//   per ms and that every hash empties by its length. A second-line hash starts only while the
//   bucket is not empty; the first line goes even when it is (and overdraws it, by at most
//   HASH_DEBT_MS, so no amount of owners' hashing makes a newcomer wait for minutes). So a few
//   logins in a row run at once, but a sustained flood gets at most half of one core for hashing,
//   owner's checks included: the rest stays with the daemon's own thread, where the logger's
//   timers, PLC reads and writes run (docs/login-security.md: what the measurements showed).
// Calls without a ticket (setting a password, the backup key) come from a signed-in session or
// the daemon itself: they wait in the first line, without a limit.

/** hashes running at once, one per line: the other pool threads stay free for file I/O */
export const HASH_CONCURRENCY = 2;
/** login checks that may wait in each line; the oldest is refused to make room */
export const LOGIN_QUEUE = 8;
/** the share of the time hashing may take while it goes on (the second line waits for it) */
export const HASH_SHARE = 0.5;
/** hash time that may run at once before the share applies */
export const HASH_BURST_MS = 500;
/**
 * the most the first line may overdraw the bucket: however long the owners and the daemon hashed
 * (a burst of sign-ins, users added one after the other), a newcomer then waits at most
 * HASH_DEBT_MS / HASH_SHARE ms for the bucket to hold anything again, not minutes of repayment
 */
export const HASH_DEBT_MS = HASH_BURST_MS;

/** A login check was refused a place in the hashing queue (answered 429 `login_busy`). */
export class HashQueueFull extends Error {}

/** Who asks for a login check. */
export interface HashTicket {
  source: string;
  /** the address signed in successfully before (lockout.ts): its checks go first */
  signedInBefore: boolean;
}

interface Waiter {
  source?: string;
  second: boolean;
  start(): void;
  refuse(): void;
}

/** hashes running, per line */
const running = { first: 0, second: 0 };
const first: Waiter[] = [];
const second: Waiter[] = [];
const waitingFrom = new Set<string>();
let bucket = HASH_BURST_MS;
let bucketAt = 0;
let timer: NodeJS.Timeout | undefined;
/** while set, a hash that ended keeps its slot until this settles (holdHashes: tests only) */
let held: Promise<void> | undefined;

/**
 * Hashes keep their slots after they end until the returned function is called: a test holds the
 * places taken so that what arrives meanwhile meets them taken, whatever the machine's speed.
 */
export function holdHashes(): () => void {
  let release!: () => void;
  held = new Promise<void>((resolve) => (release = resolve));
  return () => {
    held = undefined;
    release();
  };
}

/** the bucket's content now (ms of hash time): refilled at HASH_SHARE since the last look */
function budget(now: number): number {
  bucket = Math.min(HASH_BURST_MS, bucket + (now - bucketAt) * HASH_SHARE);
  bucketAt = now;
  return bucket;
}

function dropWaiter(line: Waiter[], w: Waiter): void {
  line.splice(line.indexOf(w), 1);
  if (w.source !== undefined) waitingFrom.delete(w.source);
}

/** Starts the next waiting hash of each line whose slot is free (the second line: and its share allows). */
function pump(): void {
  if (first[0] && !running.first) start(first, first[0]);
  if (second[0] && !running.second) {
    const now = performance.now();
    if (budget(now) > 0) start(second, second[0]);
    else if (!timer) {
      // until the bucket holds a millisecond again
      timer = setTimeout(
        () => {
          timer = undefined;
          pump();
        },
        Math.ceil((1 - budget(now)) / HASH_SHARE),
      );
    }
  }
}

function start(line: Waiter[], w: Waiter): void {
  dropWaiter(line, w);
  running[w.second ? 'second' : 'first']++;
  w.start();
}

/**
 * Runs `fn` (an scrypt call) in the hash slot. With a ticket (a login check): refused at once
 * (HashQueueFull) when its address waits already, or later when newer checks pushed it out of a
 * full line.
 */
export async function inHashSlot<T>(fn: () => Promise<T>, ticket?: HashTicket): Promise<T> {
  const isSecond = ticket !== undefined && !ticket.signedInBefore;
  const kind = isSecond ? 'second' : 'first';
  if (running[kind] || (isSecond ? second.length || budget(performance.now()) <= 0 : first.length)) {
    if (ticket && waitingFrom.has(ticket.source)) throw new HashQueueFull();
    const line = isSecond ? second : first;
    await new Promise<void>((resolve, reject) => {
      if (ticket && line.length >= LOGIN_QUEUE) {
        const oldest = line.find((w) => w.source !== undefined);
        if (oldest) {
          dropWaiter(line, oldest);
          oldest.refuse();
        }
      }
      const w: Waiter = { second: isSecond, start: resolve, refuse: () => reject(new HashQueueFull()) };
      if (ticket) {
        w.source = ticket.source;
        waitingFrom.add(ticket.source);
      }
      line.push(w);
      pump();
    });
  } else running[kind]++;
  const began = performance.now();
  budget(began); // what the bucket gained while it waited; it gains on while the hash runs
  let ended: number | undefined;
  try {
    const out = await fn();
    ended = performance.now();
    if (held) await held;
    return out;
  } finally {
    running[kind]--;
    const now = performance.now();
    // the hash's own length, not the time a test held its slot after it
    bucket = Math.max(-HASH_DEBT_MS, budget(now) - ((ended ?? now) - began));
    pump();
  }
}

/** hashes running and waiting now (for tests and the bench) */
export function hashLoad(): { active: number; waiting: number } {
  return { active: running.first + running.second, waiting: first.length + second.length };
}

/** the bucket's content now, ms of hash time (negative: overdrawn by the first line; for tests) */
export const hashBudgetMs = (): number => budget(performance.now());
