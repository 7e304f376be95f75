// Password hashing (security.md AUTH-5, AUTH-6): scrypt with a random salt; only the hash is stored.
// Every scrypt waits for its turn in the hashing queue (hash-queue.ts): one at a time, addresses
// that signed in before first, a short line per kind that drops its oldest check when full.
import { randomBytes, type ScryptOptions, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { type HashTicket, inHashSlot } from './hash-queue.ts';

const scrypt = (pw: string, salt: Buffer, len: number, opts: ScryptOptions, ticket?: HashTicket) =>
  inHashSlot(() => new Promise<Buffer>((resolve, reject) => scryptCb(pw, salt, len, opts, (e, key) => (e ? reject(e) : resolve(key)))), ticket);

/** scrypt's cost parameters; a stored hash names the ones it was made with, and is checked with them */
export interface HashCost {
  N: number;
  r: number;
  p: number;
}

/** the unit's: N=2^15, r=8, about 32 MiB and tens of milliseconds per check on the unit's CPU */
export const HASH_COST: HashCost = { N: 1 << 15, r: 8, p: 1 };
const KEY_LEN = 32;
const maxmem = 64 * 1024 * 1024;

/** A new hash of `pw` at `cost` (the unit's, unless a test of the console asks for a cheaper one: DaemonOptions.hashCost). */
export async function hashPassword(pw: string, cost: HashCost = HASH_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(pw, salt, KEY_LEN, { ...cost, maxmem });
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** With a ticket (a login check): HashQueueFull when the queue refuses it (hash-queue.ts). */
export async function verifyPassword(pw: string, stored: string, ticket?: HashTicket): Promise<boolean> {
  const [kind, n, r, p, salt, key] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(pw, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem }, ticket);
  return timingSafeEqual(actual, expected);
}

// A fixed hash checked when the user does not exist, so that the answer takes as long either way
// (one per cost: the check costs what the users' checks cost).
const dummies = new Map<string, Promise<string>>();
export async function burnPasswordCheck(pw: string, ticket?: HashTicket, cost: HashCost = HASH_COST): Promise<void> {
  const key = `${cost.N}$${cost.r}$${cost.p}`;
  let dummy = dummies.get(key);
  if (!dummy) dummies.set(key, (dummy = hashPassword('unused-Dummy-1!', cost)));
  await verifyPassword(pw, await dummy, ticket);
}
