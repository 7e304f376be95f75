// Password hashing (security.md AUTH-5): scrypt with a random salt; only the hash is stored.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (pw: string, salt: Buffer, len: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(pw, salt, len, opts, (e, key) => (e ? reject(e) : resolve(key))));

// N=2^15, r=8: about 32 MiB and tens of milliseconds per check on the unit's CPU
const PARAMS = { N: 1 << 15, r: 8, p: 1 };
const KEY_LEN = 32;
const maxmem = 64 * 1024 * 1024;

export async function hashPassword(pw: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(pw, salt, KEY_LEN, { ...PARAMS, maxmem });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(pw: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, key] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(pw, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem });
  return timingSafeEqual(actual, expected);
}

// A fixed hash checked when the user does not exist, so that the answer takes as long either way.
let dummy: Promise<string> | undefined;
export async function burnPasswordCheck(pw: string): Promise<void> {
  dummy ??= hashPassword('unused-Dummy-1!');
  await verifyPassword(pw, await dummy);
}
