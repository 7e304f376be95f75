// Local test mode (spec §7): the console served by a dev server on the one origin given with the
// simulator's --dev-origin may call it with its session; every other origin, loopback pages
// included (the unit's own REST HTTP server is one), gets no CORS grant, and without --dev-origin
// nobody does. A POST still needs the CSRF token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDaemonOptions } from '../../device/options.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';

const DEV = 'http://127.0.0.1:5173';
let d: TestDaemon;
let admin: Client;
let plain: TestDaemon;
let plainAdmin: Client;
beforeAll(async () => {
  [d, plain] = await Promise.all([startTestDaemon({ devOrigin: DEV }), startTestDaemon()]);
  [admin, plainAdmin] = await Promise.all([d.admin(), plain.admin()]);
});
afterAll(() => Promise.all([d?.stop(), plain?.stop()]));

const preflight = (base: string, origin: string) =>
  fetch(`${base}/config/users`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-csrf-token' },
  });

describe('cross-origin calls to the simulator', () => {
  it('grants the --dev-origin origin credentialed access, preflight included', async () => {
    const pre = await preflight(d.url, DEV);
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(DEV);
    expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-csrf-token');
    const r = await admin.request('GET', '/config/pew_mqtt', undefined, { origin: DEV });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe(DEV);
  });

  it('grants nothing to any other origin, loopback ones included', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8443', 'https://127.0.0.1:5173', 'http://127.0.0.1:5174', 'http://evil.example']) {
      const pre = await preflight(d.url, origin);
      expect(pre.headers.get('access-control-allow-origin'), origin).toBeNull();
      const r = await admin.request('GET', '/config/pew_mqtt', undefined, { origin });
      expect(r.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });

  it('grants nothing at all without --dev-origin', async () => {
    for (const origin of [DEV, 'http://localhost:5173', 'http://127.0.0.1:8443']) {
      const pre = await preflight(plain.url, origin);
      expect(pre.headers.get('access-control-allow-origin'), origin).toBeNull();
      const r = await plainAdmin.request('GET', '/config/pew_mqtt', undefined, { origin });
      expect(r.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });

  it('still refuses a POST without the CSRF token', async () => {
    const r = await admin.request('POST', '/config/pew_mqtt', {}, { origin: DEV, 'x-csrf-token': '' });
    expect(r.status).toBe(403);
  });

  it('takes the origin from --dev-origin and refuses anything that is not an origin', () => {
    expect(parseDaemonOptions(['--dev-origin', DEV], {}, '/').devOrigin).toBe(DEV);
    expect(parseDaemonOptions([], {}, '/').devOrigin).toBeUndefined();
    for (const bad of ['*', 'http://127.0.0.1:5173/', 'null', '127.0.0.1:5173', 'http://a b'])
      expect(() => parseDaemonOptions(['--dev-origin', bad], {}, '/'), bad).toThrow(/--dev-origin/);
  });
});
