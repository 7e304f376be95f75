// docs/api.md and the route table agree; every route enforces its access level
// (security.md AUTH-1, AUTHZ-1): a sweep with no session, with the user role and as admin.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../device/api/app.ts';
import type { RouteDef } from '../../device/api/route.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';

const ROLE_TEXT: Record<RouteDef['access'], string> = { public: 'none', user: 'user, admin', admin: 'admin', token: 'scrape token' };

function docRows(): { method: string; path: string; role: string }[] {
  const text = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  return text
    .split('\n')
    .map((line) => /^\| [^|]+ \| (GET|POST) \| `([^`]+)` \|.*\| ([^|]+) \|$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ method: m[1]!, path: m[2]!, role: m[3]!.trim() }));
}

describe('docs/api.md', () => {
  const rows = docRows();
  const id = (x: { method: string; path: string }) => `${x.method} ${x.path}`;

  it('has one row for every route and no row without a route', () => {
    expect(rows.length).toBeGreaterThan(50);
    expect(rows.map(id).sort()).toEqual(ROUTES.map(id).sort());
    expect(new Set(rows.map(id)).size).toBe(rows.length);
  });

  it('states the role each route enforces', () => {
    for (const r of ROUTES) expect(rows.find((x) => id(x) === id(r))?.role, id(r)).toBe(ROLE_TEXT[r.access]);
  });
});

describe('role × route sweep', () => {
  let d: TestDaemon;
  let admin: Client;
  let user: Client;
  beforeAll(async () => {
    d = await startTestDaemon();
    admin = await d.admin();
    user = await d.user();
  });
  afterAll(() => d.stop());

  const concrete = (path: string) =>
    path
      .replace('*', 'somefile.csv')
      .replace('/examples/:name', '/examples/mqtt.zip')
      .replace('/log/:volume/:name', '/log/intern/somefile.csv')
      .replace('/logcfg/:name', '/logcfg/somefile.cfg')
      .replace(/\/get_reset$/, '/get_reset?section=pew');
  const send = (c: Client, r: RouteDef) => (r.method === 'GET' ? c.get(concrete(r.path)) : c.post(concrete(r.path), {}));
  // the session's routes; GET /metrics has a credential of its own (test/integration/metrics.test.ts)
  const guarded = ROUTES.filter((r) => r.access === 'user' || r.access === 'admin');
  const keepsSession = guarded.filter((r) => !r.path.endsWith('/logout')); // logout would end the sweep's session

  it('without a session every guarded route answers 401', async () => {
    for (const r of guarded) {
      const res = await send(d.client(), r);
      expect(res.status, `${r.method} ${r.path}`).toBe(401);
      expect(res.body.error.code).toBe('unauthenticated');
    }
  });

  it('the user role reaches every read and no admin route', async () => {
    for (const r of keepsSession) {
      const res = await send(user, r);
      if (r.access === 'admin') {
        expect(res.status, `${r.method} ${r.path}`).toBe(403);
        expect(res.body.error.code).toBe('forbidden');
      } else if (res.status === 404)
        expect(res.body.error.code, `${r.method} ${r.path}`).toBe(r.path === '/download/*' ? 'not_found' : 'file_not_found'); // past the guard: the file is absent
      // past the guard: a POST of the user role (own password change) checks the empty body
      else if (res.status === 400 && r.method === 'POST') expect(res.body.error.code, `${r.method} ${r.path}`).toBe('invalid_input');
      else expect(res.status, `${r.method} ${r.path}`).toBe(200);
    }
  });

  it('the admin passes every guard, and no route answers 501 or fails', async () => {
    for (const r of keepsSession) {
      const res = await send(admin, r);
      expect([401, 403], `${r.method} ${r.path}: ${res.text}`).not.toContain(res.status);
      expect(res.status, `${r.method} ${r.path}: ${res.text}`).toBeLessThan(500);
    }
  });

  it('logout ends the user session and is refused without one', async () => {
    const u = await d.user();
    expect((await u.post('/rest/api/v1/authentication/logout')).status).toBe(200);
    expect((await u.post('/rest/api/v1/authentication/logout')).status).toBe(401);
  });

  it('encoded and doubled slashes do not reach a guarded route without a session', async () => {
    for (const path of ['/config%2Fpew_mqtt', '//config/pew_mqtt', '/config//pew_mqtt', '/CONFIG/pew_mqtt', '/config/pew_mqtt/', '/rest/api/v1/%2e%2e/v1']) {
      const res = await d.client().get(path);
      expect([401, 404], path).toContain(res.status);
      expect(res.text).not.toContain('plc_control_dt');
    }
  });
});
