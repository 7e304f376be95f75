// The lockout table on its own (security.md AUTH-4, AUTH-6): reservations, the file it keeps, the
// first file format, the reset request of reset-admin.

import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Attempt, createLockout, LOCKOUT_FILE, PAIR_LIMIT, RESET_REQUEST_FILE, requestLockoutReset, SIGNED_IN_KEPT, SOURCE_LIMIT } from './lockout.ts';

const clockAt = (t = Date.UTC(2026, 10, 21, 8)) => ({
  t,
  now() {
    return this.t;
  },
});
const take = (r: ReturnType<ReturnType<typeof createLockout>['reserve']>): Attempt => {
  if (!r.ok) throw new Error(`refused: ${r.reason}`);
  return r.attempt;
};

describe('lockout table', () => {
  it('counts reserved attempts: the sixth of a pair is refused while five are under way, and a cancelled one frees its place', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lockout-'));
    const l = createLockout({ dataDir: dir, clock: clockAt() });
    const held = Array.from({ length: PAIR_LIMIT }, () => take(l.reserve('admin', '10.0.0.1')));
    expect(l.reserve('ADMIN', '10.0.0.1')).toEqual({ ok: false, reason: 'busy', waitMs: 1000 });
    expect(l.reserve('admin', '10.0.0.2').ok).toBe(true); // another address is not held up
    held.pop()!.cancel();
    const again = take(l.reserve('admin', '10.0.0.1'));
    for (const a of [...held, again]) await a.fail();
    const locked = l.reserve('admin', '10.0.0.1');
    expect(locked).toMatchObject({ ok: false, reason: 'locked', waitMs: 10 * 60_000 });
    expect(() => again.cancel()).toThrow(/twice/);
  });

  it('keeps no account name in its file, and survives a restart with the same salt', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lockout-'));
    const clock = clockAt();
    const l = createLockout({ dataDir: dir, clock });
    for (let i = 0; i < PAIR_LIMIT; i++) await take(l.reserve('Typed-Secret-Passw0rd!', '10.0.0.1')).fail();
    const text = await readFile(join(dir, LOCKOUT_FILE), 'utf8');
    expect(text).not.toContain('Typed');
    expect(createLockout({ dataDir: dir, clock }).reserve('typed-secret-passw0rd!', '10.0.0.1')).toMatchObject({ ok: false, reason: 'locked' });
  });

  it('reads the first file format: address locks hold, account entries are dropped', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lockout-'));
    const clock = clockAt();
    const until = clock.t + 30 * 60_000;
    await writeFile(
      join(dir, LOCKOUT_FILE),
      JSON.stringify({ 'source:10.0.0.9': { failures: [], level: 2, lockedUntil: until }, 'account:admin': { failures: [], level: 1, lockedUntil: until } }),
    );
    const l = createLockout({ dataDir: dir, clock });
    expect(l.reserve('admin', '10.0.0.9')).toMatchObject({ ok: false, reason: 'locked', waitMs: 30 * 60_000 });
    expect(l.reserve('admin', '10.0.0.8').ok).toBe(true);
  });

  it('a reset request lifts every lock once, reports the count and is removed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lockout-'));
    const clock = clockAt();
    const resets: [number, unknown][] = [];
    const l = createLockout({ dataDir: dir, clock, onReset: (n, req) => resets.push([n, req]) });
    for (const source of ['10.0.0.1', '10.0.0.2']) for (let i = 0; i < PAIR_LIMIT; i++) await take(l.reserve('admin', source)).fail();
    await requestLockoutReset(dir, { time: '2026-11-21T08:00:00.000Z', by: 'root' });
    expect(l.reserve('admin', '10.0.0.1').ok).toBe(true);
    expect(resets).toEqual([[2, { time: '2026-11-21T08:00:00.000Z', by: 'root' }]]);
    expect(existsSync(join(dir, RESET_REQUEST_FILE))).toBe(false);
    l.reserve('admin', '10.0.0.2');
    expect(resets).toHaveLength(1);
  });

  it("a login's success ends its own account's failures only: guesses for other accounts still lock the address (AUTH-7, issue 34 item 6)", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lockout-'));
    const l = createLockout({ dataDir: dir, clock: clockAt() });
    const from = '10.0.4.1';
    // the owner mistypes its own password twice, then gets in: those two no longer count
    for (let i = 0; i < 2; i++) await take(l.reserve('viewer', from)).fail();
    await take(l.reserve('viewer', from)).succeed();
    for (let i = 0; i < SOURCE_LIMIT - 1; i++) {
      await take(l.reserve(`guess${i % 3}`, from)).fail();
      await take(l.reserve('viewer', from)).succeed();
    }
    const last = await take(l.reserve('guess9', from)).fail();
    expect(last).toEqual({ lockedMs: 10 * 60_000, scope: 'address' });
    expect(l.reserve('viewer', from)).toMatchObject({ ok: false, reason: 'locked' });
  });

  it('remembers the addresses that signed in, across a restart and a reset, the last SIGNED_IN_KEPT of them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lockout-'));
    const clock = clockAt();
    const l = createLockout({ dataDir: dir, clock });
    const first = l.reserve('admin', '10.0.5.1');
    expect(first).toMatchObject({ ok: true, signedInBefore: false });
    await take(first).succeed();
    expect(l.reserve('someone', '10.0.5.1')).toMatchObject({ ok: true, signedInBefore: true });
    await requestLockoutReset(dir, { time: '2026-11-21T08:00:00.000Z', by: 'root' });
    expect(createLockout({ dataDir: dir, clock }).reserve('admin', '10.0.5.1')).toMatchObject({ ok: true, signedInBefore: true });
    for (let i = 0; i < SIGNED_IN_KEPT; i++) {
      clock.t += 1000;
      await take(l.reserve('admin', `10.0.6.${i}`)).succeed();
    }
    const again = createLockout({ dataDir: dir, clock });
    expect(again.reserve('admin', '10.0.5.1')).toMatchObject({ ok: true, signedInBefore: false });
    expect(again.reserve('admin', '10.0.6.0')).toMatchObject({ ok: true, signedInBefore: true });
  });
});
