// Users administration, sessions and the audit log over a real socket (spec §5 password rules,
// §6 roles; security.md AUTH-1, AUTH-3, AUTHZ-1, SESS-1, AUD-1): every refusal of add, remove and
// password change, the role sweep of the whole route table, ended sessions, and the audit entries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../device/api/app.ts';
import type { RouteDef } from '../../device/api/route.ts';
import { ADMIN, type Client, startTestDaemon, type TestDaemon, USER } from '../support/daemon.ts';

const AUTH = '/rest/api/v1/authentication';
const GOOD = 'G00d-Passw0rd!';

let d: TestDaemon;
let admin: Client;
beforeAll(async () => {
  d = await startTestDaemon();
  admin = await d.admin();
});
afterAll(() => d.stop());

const audit = async () => (await admin.get('/config/audit?size=200')).body.entries as { action: string; user?: string; detail?: Record<string, unknown> }[];
const add = (c: Client, username: string, password = GOOD, role = 'user') => c.post('/config/users/add', { username, role, password });

describe('adding users', () => {
  it('adds a user of either role that can then log in; the list never shows a hash', async () => {
    const r = await add(admin, 'operator1');
    expect(r.status).toBe(201);
    expect(r.body.users).toContainEqual(expect.objectContaining({ name: 'operator1', role: 'user' }));
    expect(JSON.stringify(r.body)).not.toMatch(/scrypt|hash/);
    expect((await add(admin, 'admin2', GOOD, 'admin')).status).toBe(201);
    const list = await admin.get('/config/users');
    expect(list.body.users.map((u: { name: string; role: string }) => `${u.name}:${u.role}`)).toEqual(
      expect.arrayContaining(['admin:admin', 'operator1:user', 'admin2:admin']),
    );
    const op = await d.client().login({ username: 'operator1', password: GOOD });
    expect((await op.get(AUTH)).body).toMatchObject({ currentUser: 'operator1', role: 'user' });
    const entries = await audit();
    expect(entries).toContainEqual(expect.objectContaining({ action: 'user_add', user: 'admin', detail: { name: 'operator1', role: 'user' } }));
  });

  it('refuses a weak password with the policy of spec §5, without echoing it', async () => {
    for (const weak of ['Aa1!aaa', 'aa1!aaaa', 'AA1!AAAA', 'Aaa!aaaa', 'Aa1aaaaa', `Aa1!${'a'.repeat(37)}`]) {
      const r = await add(admin, 'weakling', weak);
      expect(r.status, weak).toBe(400);
      expect(r.body.error.issues, weak).toContainEqual({ path: 'password', code: 'password_policy', params: { min: 8, max: 40 } });
      expect(r.text).not.toContain(weak);
    }
    expect(d.ctx.users.find('weakling')).toBeUndefined();
  });

  it('refuses a duplicate (in any letter case), a bad name, an unknown role and unknown keys', async () => {
    await add(admin, 'dupe');
    const dup = await add(admin, 'DUPE');
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('user_exists');
    expect((await add(admin, '1abc')).body.error.issues).toContainEqual(expect.objectContaining({ path: 'username', code: 'must_start_with_letter' }));
    expect((await add(admin, 'a b')).body.error.issues).toContainEqual(expect.objectContaining({ path: 'username', code: 'invalid_characters' }));
    expect((await add(admin, 'x'.repeat(33))).body.error.issues).toContainEqual(expect.objectContaining({ path: 'username', code: 'too_long' }));
    expect((await add(admin, 'rolex', GOOD, 'root')).body.error.issues).toContainEqual(expect.objectContaining({ path: 'role', code: 'invalid_value' }));
    const extra = await admin.post('/config/users/add', { username: 'extra', role: 'user', password: GOOD, hash: 'x' });
    expect(extra.status).toBe(400);
    expect(d.ctx.users.list().filter((u) => u.name.toLowerCase() === 'dupe')).toHaveLength(1);
  });
});

describe('removing users', () => {
  it('removes a user, ends their sessions at once and audits it', async () => {
    await add(admin, 'leaver');
    const leaver = await d.client().login({ username: 'leaver', password: GOOD });
    expect((await leaver.get('/config/pew_mqtt')).status).toBe(200);
    const r = await admin.post('/config/users/remove', { username: 'leaver' });
    expect(r.status).toBe(200);
    expect(r.body.users.map((u: { name: string }) => u.name)).not.toContain('leaver');
    expect((await leaver.get('/config/pew_mqtt')).status).toBe(401);
    expect((await d.client().post(AUTH, { username: 'leaver', password: GOOD })).status).toBe(401);
    expect(await audit()).toContainEqual(expect.objectContaining({ action: 'user_remove', user: 'admin', detail: { name: 'leaver', role: 'user' } }));
  });

  it('refuses removing oneself and an unknown user', async () => {
    const self = await admin.post('/config/users/remove', { username: 'ADMIN' });
    expect(self.status).toBe(409);
    expect(self.body.error.code).toBe('own_account');
    const unknown = await admin.post('/config/users/remove', { username: 'nobody' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    expect(d.ctx.users.find('admin')).toBeDefined();
  });

  it('never removes the last administrator, even when two administrators remove each other at once', async () => {
    await add(admin, 'north', GOOD, 'admin');
    await add(admin, 'south', GOOD, 'admin');
    // leave exactly two administrators: north and south
    const north = await d.client().login({ username: 'north', password: GOOD });
    expect((await north.post('/config/users/remove', { username: 'admin' })).status).toBe(200);
    for (const u of d.ctx.users.list().filter((x) => x.role === 'admin' && !['north', 'south'].includes(x.name)))
      expect((await north.post('/config/users/remove', { username: u.name })).status).toBe(200);
    const south = await d.client().login({ username: 'south', password: GOOD });
    const [a, b] = await Promise.all([north.post('/config/users/remove', { username: 'south' }), south.post('/config/users/remove', { username: 'north' })]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect([a, b].find((r) => r.status === 409)!.body.error.code).toBe('last_admin');
    const left = d.ctx.users.list().filter((u) => u.role === 'admin');
    expect(left).toHaveLength(1);
    // the rest of this file works as 'admin' again
    const boss = await d.client().login({ username: left[0]!.name, password: GOOD });
    expect((await boss.post('/config/users/add', { username: 'admin', role: 'admin', password: ADMIN.password })).status).toBe(201);
    admin = await d.client().login(ADMIN);
    expect((await admin.post('/config/users/remove', { username: left[0]!.name })).status).toBe(200);
    expect(await d.ctx.users.remove('admin')).toBe('last_admin');
  });
});

describe('password changes', () => {
  it('own change needs the right current password; wrong ones are refused and audited', async () => {
    await add(admin, 'pwuser', 'Old-Passw0rd!');
    const u = await d.client().login({ username: 'pwuser', password: 'Old-Passw0rd!' });
    const missing = await u.post('/config/users/password', { password: GOOD });
    expect(missing.status).toBe(400);
    expect(missing.body.error.issues).toContainEqual(expect.objectContaining({ path: 'current', code: 'required' }));
    const wrong = await u.post('/config/users/password', { current: 'Wr0ng-Passw0rd!', password: GOOD });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe('wrong_current_password');
    const weak = await u.post('/config/users/password', { current: 'Old-Passw0rd!', password: 'weak' });
    expect(weak.body.error.issues).toContainEqual({ path: 'password', code: 'password_policy', params: { min: 8, max: 40 } });
    // the user role may not set another user's password
    const other = await u.post('/config/users/password', { username: 'admin', password: GOOD });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('forbidden');
    expect(await audit()).toContainEqual(expect.objectContaining({ action: 'password_change_failed', user: 'pwuser' }));
    expect((await d.client().post(AUTH, { username: 'pwuser', password: 'Old-Passw0rd!' })).status).toBe(200);
  });

  it('own change ends the other sessions at once and keeps this browser in a fresh session', async () => {
    await add(admin, 'mover', 'Old-Passw0rd!');
    const here = await d.client().login({ username: 'mover', password: 'Old-Passw0rd!' });
    const there = await d.client().login({ username: 'mover', password: 'Old-Passw0rd!' });
    const oldCookie = here.cookie;
    const r = await here.post('/config/users/password', { current: 'Old-Passw0rd!', password: GOOD });
    expect(r.status).toBe(200);
    expect(r.body.session).toMatchObject({ currentUser: 'mover', role: 'user' });
    expect(here.cookie).not.toBe(oldCookie);
    here.csrf = r.body.session.csrfToken;
    expect((await there.get(AUTH)).status).toBe(401);
    const stale = d.client();
    stale.cookie = oldCookie;
    expect((await stale.get(AUTH)).status).toBe(401);
    expect((await here.get(AUTH)).body.currentUser).toBe('mover');
    expect((await d.client().post(AUTH, { username: 'mover', password: 'Old-Passw0rd!' })).status).toBe(401);
    expect((await d.client().post(AUTH, { username: 'mover', password: GOOD })).status).toBe(200);
    expect(await audit()).toContainEqual(expect.objectContaining({ action: 'password_change', user: 'mover', detail: { name: 'mover', own: true } }));
  });

  it("an administrator sets another user's password without the current one; that user's sessions end", async () => {
    await add(admin, 'forgetful', 'Old-Passw0rd!');
    const f = await d.client().login({ username: 'forgetful', password: 'Old-Passw0rd!' });
    const r = await admin.post('/config/users/password', { username: 'forgetful', password: GOOD });
    expect(r.status).toBe(200);
    expect(r.body.session).toBeUndefined();
    expect((await f.get('/config/pew_mqtt')).status).toBe(401);
    expect((await admin.get('/config/users')).status).toBe(200); // the administrator's own session stays
    expect((await d.client().post(AUTH, { username: 'forgetful', password: GOOD })).status).toBe(200);
    expect((await admin.post('/config/users/password', { username: 'ghost', password: GOOD })).status).toBe(404);
    expect(await audit()).toContainEqual(expect.objectContaining({ action: 'password_change', user: 'admin', detail: { name: 'forgetful', own: false } }));
  });
});

describe('sessions', () => {
  it('lists live sessions with handles but never ids; an ended session is 401 at its next request', async () => {
    await add(admin, 'watched');
    const w = await d.client().login({ username: 'watched', password: GOOD });
    const sid = w.cookie.split('=')[1]!;
    const list = await admin.get('/config/sessions');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(sid);
    for (const s of d.ctx.sessions.list()) {
      expect(list.text).not.toContain(s.id);
      expect(list.text).not.toContain(s.csrfToken);
    }
    const mine = list.body.sessions.find((s: { user: string }) => s.user === 'watched');
    expect(mine).toMatchObject({ user: 'watched', role: 'user', source: expect.stringMatching(/127\.0\.0\.1/), current: false });
    expect(mine.handle).toMatch(/^[0-9a-f]{24}$/);
    expect(list.body.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect((await w.get('/config/pew_mqtt')).status).toBe(200);
    expect((await admin.post('/config/sessions/end', { handle: mine.handle })).status).toBe(200);
    const after = await w.get('/config/pew_mqtt');
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('unauthenticated');
    expect((await admin.post('/config/sessions/end', { handle: mine.handle })).status).toBe(404);
    expect((await admin.post('/config/sessions/end', { handle: 'not-a-handle' })).status).toBe(400);
    expect(await audit()).toContainEqual(
      expect.objectContaining({ action: 'session_end', user: 'admin', detail: expect.objectContaining({ name: 'watched' }) }),
    );
  });
});

describe('audit log (AUD-1)', () => {
  it('is paged newest first, downloadable whole, admin only, and no route edits it', async () => {
    const p1 = await admin.get('/config/audit?page=1&size=3');
    expect(p1.status).toBe(200);
    expect(p1.body.entries).toHaveLength(3);
    expect(p1.body.total).toBeGreaterThan(10);
    const times = p1.body.entries.map((e: { time: string }) => e.time);
    expect([...times].sort().reverse()).toEqual(times);
    const p2 = await admin.get('/config/audit?page=2&size=3');
    expect(p2.body.entries[0]).not.toEqual(p1.body.entries[0]);
    expect((await admin.get('/config/audit?size=201')).status).toBe(400);
    expect((await admin.get('/config/audit?page=abc')).status).toBe(400);
    const dl = await admin.post('/config/audit/download');
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-disposition')).toMatch(/attachment; filename="audit.log"/);
    const lines = dl.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThanOrEqual(p1.body.total);
    expect(lines[0].action).toBe('setup');
    const user = await d.user();
    expect((await user.get('/config/audit')).status).toBe(403);
    expect((await user.post('/config/audit/download')).status).toBe(403);
    expect((await d.client().get('/config/audit')).status).toBe(401);
    // the log is read by a GET; the download is a POST because it is itself audited (docs/api.md
    // HDR-4: no GET has a side effect); no route edits an entry
    expect(ROUTES.filter((r) => r.path.startsWith('/config/audit')).map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /config/audit',
      'POST /config/audit/download',
    ]);
  });

  it('the system log gives the administrator the audit entries and the user role only the daemon log', async () => {
    const a = await admin.get('/config/get_syslogs');
    expect(Array.isArray(a.body.entries)).toBe(true);
    expect(a.body.audit.length).toBeGreaterThan(0);
    expect(a.body.audit.at(-1).time >= a.body.audit[0].time).toBe(true);
    const u = await (await d.user()).get('/config/get_syslogs');
    expect(u.status).toBe(200);
    expect(Array.isArray(u.body.entries)).toBe(true);
    expect(u.body.audit).toBeUndefined();
  });
});

describe('role sweep of the route table (AUTH-1, AUTHZ-1)', () => {
  const concrete = (path: string) => path.replace(/\*$/, 'somefile.csv').replace(/:([a-z]+)/gi, 'x1');
  const send = (c: Client, r: RouteDef) => (r.method === 'GET' ? c.get(concrete(r.path)) : c.post(concrete(r.path), {}));

  it('the user role is refused with 403 on every admin route', async () => {
    const user = await d.user();
    const admins = ROUTES.filter((r) => r.access === 'admin');
    expect(admins.map((r) => r.path)).toEqual(expect.arrayContaining(['/config/users', '/config/users/add', '/config/sessions/end', '/config/audit']));
    for (const r of admins) {
      const res = await send(user, r);
      expect(res.status, `${r.method} ${r.path}`).toBe(403);
      expect(res.body.error.code, `${r.method} ${r.path}`).toBe('forbidden');
    }
    expect((await user.get(AUTH)).status).toBe(200); // the sweep changed nothing for the user itself
    expect(d.ctx.users.find(USER.username)).toBeDefined();
  });

  it('without a session every route of a session answers 401', async () => {
    // the public routes need none; GET /metrics has a credential of its own (metrics.test.ts)
    for (const r of ROUTES.filter((x) => x.access === 'user' || x.access === 'admin')) {
      const res = await send(d.client(), r);
      expect(res.status, `${r.method} ${r.path}`).toBe(401);
      expect(res.body.error.code).toBe('unauthenticated');
    }
  });
});
