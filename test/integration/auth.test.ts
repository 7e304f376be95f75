// Users and sessions over a real socket (security.md AUTH-1…4, SESS-1, AUD-1).

import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ABSOLUTE_MS, IDLE_MS } from '../../device/system/sessions.ts';
import { ADMIN, FakeClock, startTestDaemon, type TestDaemon, USER } from '../support/daemon.ts';

const AUTH = '/rest/api/v1/authentication';
let daemons: TestDaemon[] = [];
const start = async (opts: Parameters<typeof startTestDaemon>[0] = {}) => {
  const d = await startTestDaemon(opts);
  daemons.push(d);
  return d;
};
afterEach(async () => {
  for (const d of daemons) await d.stop();
  daemons = [];
});

describe('first run (AUTH-2)', () => {
  it('a fresh data folder allows nothing but creating the admin', async () => {
    const d = await start();
    const c = d.client();
    expect((await c.get(AUTH)).body.error.code).toBe('setup_required');
    expect((await c.get('/config/pew_mqtt')).status).toBe(401);
    expect((await c.post(AUTH, ADMIN)).status).toBe(401); // no such user yet
    const weak = await c.post(`${AUTH}/setup`, { username: 'admin', password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.error.issues).toContainEqual({ path: 'password', code: 'password_policy', params: { min: 8, max: 40 } });
    expect(weak.text).not.toContain('short');
    const ok = await c.post(`${AUTH}/setup`, ADMIN);
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ currentUser: 'admin', role: 'admin' });
    expect((await c.get(AUTH)).body.currentUser).toBe('admin');
    expect((await d.client().post(`${AUTH}/setup`, { username: 'other', password: 'An0ther-Passw0rd!' })).status).toBe(409);
    const stored = await readFile(join(d.dataDir, 'users.json'), 'utf8');
    expect(stored).not.toContain(ADMIN.password);
    expect(stored).toMatch(/"hash": "scrypt\$/);
  });

  it('password policy of spec §5: 8-40 characters with upper, lower, digit and special', async () => {
    const d = await start();
    const c = d.client();
    for (const bad of ['Aa1!aaa', 'aa1!aaaa', 'AA1!AAAA', 'Aaa!aaaa', 'Aa1aaaaa', `Aa1!${'a'.repeat(37)}`]) {
      const r = await c.post(`${AUTH}/setup`, { username: 'admin', password: bad });
      expect(r.body.error.issues[0], bad).toMatchObject({ path: 'password', code: 'password_policy' });
    }
    expect((await c.post(`${AUTH}/setup`, { username: 'admin', password: `Aa1!${'a'.repeat(36)}` })).status).toBe(201);
  });

  it('two setups at once create exactly one admin', async () => {
    const d = await start();
    const replies = await Promise.all(['a1', 'a2', 'a3'].map((u) => d.client().post(`${AUTH}/setup`, { username: u, password: ADMIN.password })));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(d.ctx.users.list()).toHaveLength(1);
  });
});

describe('login and sessions (SESS-1)', () => {
  it('sets an HttpOnly SameSite=Strict cookie with a 128-bit id and a new id at each login', async () => {
    const d = await start();
    await d.admin();
    const c = d.client();
    const r = await c.post(AUTH, ADMIN);
    const cookie = r.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^sid=[0-9a-f]{32};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const first = c.cookie;
    await c.post(AUTH, ADMIN);
    expect(c.cookie).not.toBe(first);
    const stale = d.client();
    stale.cookie = first;
    expect((await stale.get(AUTH)).status).toBe(401);
  });

  it('wrong password and unknown user get the same answer; both fields are required', async () => {
    const d = await start();
    await d.admin();
    const wrong = await d.client().post(AUTH, { username: 'admin', password: 'Wrong-Passw0rd' });
    const unknown = await d.client().post(AUTH, { username: 'nobody', password: 'Wrong-Passw0rd' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    const empty = await d.client().post(AUTH, { username: '', password: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.issues.map((i: { path: string; code: string }) => `${i.path}:${i.code}`)).toEqual(['username:required', 'password:required']);
  });

  it('logout ends the session server-side', async () => {
    const d = await start();
    const c = await d.admin();
    const copy = d.client();
    copy.cookie = c.cookie;
    expect((await c.post(`${AUTH}/logout`)).status).toBe(200);
    expect((await copy.get('/config/pew')).status).toBe(401);
  });

  it('idle expiry after 15 min and absolute expiry after 8 h', async () => {
    const clock = new FakeClock();
    const d = await start({ clock });
    const c = await d.admin();
    clock.advance(IDLE_MS - 1000);
    expect((await c.get('/config/pew')).status).toBe(200);
    clock.advance(IDLE_MS + 1);
    expect((await c.get('/config/pew')).status).toBe(401);
    const c2 = await d.admin();
    for (let t = 0; t < ABSOLUTE_MS; t += IDLE_MS / 2) {
      clock.advance(IDLE_MS / 2);
      expect((await c2.get('/config/pew')).status).toBe(200); // active every 7.5 min, up to exactly 8 h
    }
    clock.advance(1);
    expect((await c2.get('/config/pew')).status).toBe(401);
  });

  it('state-changing requests need the CSRF token of the session', async () => {
    const d = await start();
    const c = await d.admin();
    const body = (await c.get('/config/pew_mqtt')).body;
    expect((await c.post('/config/pew_mqtt', body, { 'x-csrf-token': '' })).body.error.code).toBe('csrf');
    expect((await c.post('/config/pew_mqtt', body, { 'x-csrf-token': 'f'.repeat(32) })).status).toBe(403);
    expect((await c.post('/config/pew_mqtt', body)).status).toBe(200);
    expect((await c.post('/config/pew_mqtt', JSON.stringify(body), { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('the user role reads but cannot change anything', async () => {
    const d = await start();
    const u = await d.user();
    expect((await u.get(AUTH)).body).toMatchObject({ currentUser: USER.username, role: 'user' });
    const body = (await u.get('/config/pew_mqtt')).body;
    expect(body.keep_alive).toBe(65);
    const r = await u.post('/config/pew_mqtt', { ...body, keep_alive: 10 });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('forbidden');
    expect((await u.get('/config/pew_mqtt')).body.keep_alive).toBe(65);
  });
});

describe('lockout (AUTH-4)', () => {
  const bad = { username: 'admin', password: 'Wrong-Passw0rd1' };

  it('5 failures per account lock it for 10, then 30, then 60 minutes, and the lock survives a restart', async () => {
    const clock = new FakeClock();
    const dataDir = await mkdtemp(join(tmpdir(), 'lock-'));
    let d = await start({ clock, dataDir });
    await d.admin();
    const c = d.client();
    for (let i = 0; i < 4; i++) expect((await c.post(AUTH, bad)).status).toBe(401);
    expect((await c.post(AUTH, bad)).status).toBe(401); // the fifth failure locks
    const locked = await c.post(AUTH, ADMIN);
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('locked');
    expect(locked.headers.get('retry-after')).toBe('600');

    await d.stop();
    daemons = daemons.filter((x) => x !== d);
    d = await start({ clock, dataDir });
    expect((await d.client().post(AUTH, ADMIN)).status).toBe(429); // still locked after a restart
    clock.advance(10 * 60_000 + 1);
    for (let i = 0; i < 5; i++) await d.client().post(AUTH, bad);
    expect((await d.client().post(AUTH, ADMIN)).headers.get('retry-after')).toBe('1800');
    clock.advance(30 * 60_000 + 1);
    for (let i = 0; i < 5; i++) await d.client().post(AUTH, bad);
    expect((await d.client().post(AUTH, ADMIN)).headers.get('retry-after')).toBe('3600');
    clock.advance(60 * 60_000 + 1);
    expect((await d.client().post(AUTH, ADMIN)).status).toBe(200);

    const audit = await d.ctx.audit.readAll();
    const lines = audit
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.action === 'lockout')).toHaveLength(3);
    // failures are summed per address and minute (issue 16 item 9): three bursts of 5
    const failed = lines.filter((l) => l.action === 'login_failed');
    expect(failed.map((l) => l.detail.count)).toEqual([5, 5, 5]);
    expect(audit).not.toContain(bad.password);
  });

  it('failures older than 15 minutes do not count', async () => {
    const clock = new FakeClock();
    const d = await start({ clock });
    await d.admin();
    for (let i = 0; i < 4; i++) await d.client().post(AUTH, bad);
    clock.advance(15 * 60_000);
    await d.client().post(AUTH, bad);
    expect((await d.client().post(AUTH, ADMIN)).status).toBe(200);
  });

  it('10 failures from one source lock that source for every account', async () => {
    const clock = new FakeClock();
    const d = await start({ clock });
    await d.admin();
    for (let i = 0; i < 10; i++) await d.client().post(AUTH, { username: `guess${i % 3}`, password: 'Wrong-Passw0rd1' });
    expect((await d.client().post(AUTH, ADMIN)).status).toBe(429);
  });
});

describe('audit (AUD-1)', () => {
  it('records setup, logins, saves and logout with who and which section', async () => {
    const d = await start();
    const c = await d.admin();
    const mqtt = (await c.get('/config/pew_mqtt')).body;
    expect((await c.post('/config/pew_mqtt', { ...mqtt, keep_alive: 30 })).status).toBe(200);
    await c.post(`${AUTH}/logout`);
    const lines = (await readFile(join(d.dataDir, 'audit', 'audit.log'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.action)).toEqual(['setup', 'login_ok', 'config_save', 'logout']);
    expect(lines[2]).toMatchObject({ user: 'admin', detail: { sections: ['pew_mqtt'] } });
    expect(lines.every((l) => typeof l.time === 'string' && l.source)).toBe(true);
  });
});
