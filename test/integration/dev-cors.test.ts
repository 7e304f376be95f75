// Local test mode (spec §7): a console on another loopback origin may call the simulator with its
// session; other origins get no CORS grant, and a POST still needs the CSRF token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type Client, type TestDaemon } from '../support/daemon.ts';

let d: TestDaemon;
let admin: Client;
beforeAll(async () => {
  d = await startTestDaemon();
  admin = await d.admin();
});
afterAll(() => d.stop());

describe('cross-origin calls to the simulator', () => {
  it('grants a loopback origin credentialed access, preflight included', async () => {
    const pre = await fetch(d.url + '/config/pew_mqtt', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-csrf-token' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-csrf-token');
    const r = await admin.request('GET', '/config/pew_mqtt', undefined, { origin: 'http://127.0.0.1:5173' });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
  });

  it('grants nothing to other origins', async () => {
    const r = await admin.request('GET', '/config/pew_mqtt', undefined, { origin: 'http://evil.example' });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('still refuses a POST without the CSRF token', async () => {
    const r = await admin.request('POST', '/config/pew_mqtt', {}, { origin: 'http://localhost:5173', 'x-csrf-token': '' });
    expect(r.status).toBe(403);
  });
});
