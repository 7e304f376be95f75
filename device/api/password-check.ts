// A password check of a login or an own password change under the lockout (security.md AUTH-4,
// AUTH-6): the attempt is reserved before the hash is computed (a burst gets no more checks than
// the limits), the hash waits for its turn in the hashing queue (device/system/hash-queue.ts: an
// address that signed in before goes first), and the result is counted afterwards.
import type { Context } from 'hono';
import { HashQueueFull } from '../system/hash-queue.ts';
import type { User } from '../system/users.ts';
import type { DaemonContext, Env } from './context.ts';
import { ApiError } from './errors.ts';

/** 429 with Retry-After; `locked` carries the seconds for the console's text */
export function tooMany(c: Context<Env>, reason: 'locked' | 'busy', waitMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  c.header('Retry-After', String(seconds));
  if (reason === 'locked') return new ApiError(429, 'locked', 'Too many failed attempts; try again later', undefined, { retryAfterSeconds: seconds });
  return new ApiError(429, 'login_busy', 'Too many password checks at once; try again in a moment', undefined, { retryAfterSeconds: seconds });
}

/**
 * The user when `account` and `password` match; undefined when they do not (after `onFailure` ran
 * and the failure was counted and any lock it started audited). 429 when locked or busy.
 */
export async function checkPassword(
  c: Context<Env>,
  ctx: DaemonContext,
  account: string,
  password: string,
  onFailure: () => Promise<void>,
): Promise<User | undefined> {
  const source = c.get('source');
  const reserved = ctx.lockout.reserve(account, source);
  if (!reserved.ok) throw tooMany(c, reserved.reason, reserved.waitMs);
  let user: User | undefined;
  try {
    user = await ctx.users.authenticate(account, password, { source, signedInBefore: reserved.signedInBefore });
  } catch (e) {
    reserved.attempt.cancel();
    if (e instanceof HashQueueFull) throw tooMany(c, 'busy', 1000);
    throw e;
  }
  if (user) {
    await reserved.attempt.succeed();
    return user;
  }
  // counted even when recording the failure fails, so the reservation is never left held
  let unrecorded: unknown;
  const recorded = onFailure().catch((e: unknown) => void (unrecorded = e ?? new Error('audit write failed')));
  const lock = await reserved.attempt.fail();
  await recorded;
  if (unrecorded) throw unrecorded;
  if (lock.lockedMs) {
    // the name only when it is an account: a password typed into the name field is never stored
    const known = ctx.users.find(account)?.name;
    await ctx.audit.write({ action: 'lockout', ...(known ? { user: known } : {}), source, detail: { minutes: lock.lockedMs / 60_000, scope: lock.scope } });
  }
  return undefined;
}
