// security.md HOST-1 (issue 16 item 4): DNS rebinding. A page of the attacker's site whose name was
// re-pointed at the unit reaches it with `Host: rebind.attacker.example`. The console's
// unauthenticated routes (first-run setup, login) and every request of the REST port refuse such a
// Host with 403 `host_not_allowed`; the unit's address, localhost and the names listed in pew_api
// `host_names` pass. With an API key set, writes through the REST API need it; a key that is
// missing is named by the §5 security warning.
import { request } from 'node:http';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_MASK } from '../../device/model/fields.ts';
import { type Rest, restSchema } from '../../device/model/sections/rest.ts';
import { ADMIN, type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';

const EVIL = 'rebind.attacker.example';

interface Answer {
  status: number;
  body: any;
}

/** One request with the Host header as given (fetch would not send a foreign one). */
function ask(port: number, method: string, path: string, host: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: LOOPBACK, port, method, path, agent: false, headers: { host, ...(payload ? { 'content-type': 'application/json' } : {}), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (b: Buffer) => chunks.push(b));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

let d: TestDaemon;
beforeAll(async () => {
  d = await startTestDaemon();
});
afterAll(() => d?.stop());

describe('the console under a foreign Host', () => {
  it('refuses the first-run setup and creates no administrator', async () => {
    const r = await ask(d.port, 'POST', '/rest/api/v1/authentication/setup', EVIL, { username: 'backdoor', password: 'Backd00r-Passw0rd!' });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('host_not_allowed');
    expect(d.ctx.users.isEmpty()).toBe(true);
    for (const host of [`${EVIL}:${d.port}`, `localhost.attacker.example`, `127.0.0.1.attacker.example`]) {
      const again = await ask(d.port, 'POST', '/rest/api/v1/authentication/setup', host, { username: 'backdoor', password: 'Backd00r-Passw0rd!' });
      expect(again.status, host).toBe(403);
    }
    expect(d.ctx.users.isEmpty()).toBe(true);
  });

  it('refuses the login and the authentication state, and answers the unit address, localhost and configured names', async () => {
    const setup = await ask(d.port, 'POST', '/rest/api/v1/authentication/setup', `${LOOPBACK}:${d.port}`, ADMIN);
    expect(setup.status).toBe(201);
    const evil = await ask(d.port, 'POST', '/rest/api/v1/authentication', EVIL, ADMIN);
    expect([evil.status, evil.body.error.code]).toEqual([403, 'host_not_allowed']);
    expect((await ask(d.port, 'GET', '/rest/api/v1/authentication', EVIL)).status).toBe(403);
    for (const host of [`${LOOPBACK}:${d.port}`, `localhost:${d.port}`, 'communicator-sim', 'communicator-sim.local'])
      expect((await ask(d.port, 'POST', '/rest/api/v1/authentication', host, ADMIN)).status, host).toBe(200);
    expect((await ask(d.port, 'POST', '/rest/api/v1/authentication', 'plc-gw.plant.example', ADMIN)).status).toBe(403);
    const admin = await d.admin();
    const rest = { ...(v.getDefaults(restSchema) as Rest), host_names: 'plc-gw.plant.example, other.example' };
    expect((await admin.post('/config/pew_api', rest)).status).toBe(200);
    expect((await ask(d.port, 'POST', '/rest/api/v1/authentication', 'PLC-GW.plant.example:443', ADMIN)).status).toBe(200);
    expect((await ask(d.port, 'POST', '/rest/api/v1/authentication', EVIL, ADMIN)).status).toBe(403);
  });

  it('refuses host names that are not names', async () => {
    const admin = await d.admin();
    const r = await admin.post('/config/pew_api', { ...(v.getDefaults(restSchema) as Rest), host_names: 'good.example, bad_name!' });
    expect(r.status).toBe(400);
    expect(r.body.error.issues).toEqual([{ section: 'pew_api', path: 'host_names', code: 'invalid_host' }]);
  });
});

describe('the REST API', () => {
  let admin: Client;
  let port: number;
  const save = async (over: Partial<Rest>) => {
    const shown = (await admin.get('/config/pew_api')).body as Rest;
    // writes without a key by the administrator's choice, to DT100 only (security.md REST-1, REST-2)
    const r = await admin.post('/config/pew_api', {
      ...shown,
      api_enable: true,
      use_encryption: false,
      http_port: port,
      keyless_writes: true,
      write_areas: 'DT100',
      ...over,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await d.ctx.rest.settled();
  };
  const put = (host: string, value: number, headers: Record<string, string> = {}) =>
    ask(port, 'PUT', '/api/v1/plc/INTERNAL/DT/100', host, { values: [value] }, headers);
  const read = async () => (await ask(port, 'GET', '/api/v1/plc/INTERNAL/DT/100', `${LOOPBACK}:${port}`)).body.values[0];

  beforeAll(async () => {
    admin = await d.admin();
    port = await freePort();
    await save({ host_names: '' });
  });

  it('refuses a rebinding page: no write reaches the register', async () => {
    expect((await put(`${LOOPBACK}:${port}`, 11)).status).toBe(200);
    const r = await put(`${EVIL}:${port}`, 666);
    expect([r.status, r.body.error.code]).toEqual([403, 'host_not_allowed']);
    expect((await ask(port, 'GET', '/api/v1/plc/INTERNAL/DT/100', EVIL)).status).toBe(403);
    expect(await read()).toBe(11);
  });

  it('answers the names configured in host_names', async () => {
    await save({ host_names: 'plc-gw.plant.example' });
    expect((await put('plc-gw.plant.example', 12)).status).toBe(200);
    expect(await read()).toBe(12);
  });

  it('with an API key: writes need it (X-API-Key or Bearer), reads do not; the key is masked', async () => {
    const key = 'k3y-0f-the-unit-API-2026';
    let info = await admin.get('/rest/api/v1?cache=true&js=true');
    expect(info.body.warnings).toContainEqual({ code: 'api_without_key', subjects: ['pew_api'] });
    await save({ api_key: key });
    expect((await admin.get('/config/pew_api')).body.api_key).toBe(PASSWORD_MASK);
    info = await admin.get('/rest/api/v1?cache=true&js=true');
    expect(info.body.warnings.map((w: { code: string }) => w.code)).not.toContain('api_without_key');

    const local = `${LOOPBACK}:${port}`;
    const none = await put(local, 13);
    expect([none.status, none.body.error.code]).toEqual([401, 'api_key_required']);
    const wrong = await put(local, 13, { 'x-api-key': `${key}x` });
    expect([wrong.status, wrong.body.error.code]).toEqual([401, 'wrong_api_key']);
    expect((await put(local, 13, { authorization: 'Bearer nope' })).body.error.code).toBe('wrong_api_key');
    expect(await read()).toBe(12);
    expect((await put(local, 14, { 'x-api-key': key })).status).toBe(200);
    expect(await read()).toBe(14);
    expect((await put(local, 15, { authorization: `Bearer ${key}` })).status).toBe(200);
    expect(await read()).toBe(15);
    // the right key does not open the door to a foreign Host
    expect((await put(EVIL, 16, { 'x-api-key': key })).status).toBe(403);
    expect(await read()).toBe(15);
    // a save with the mask keeps the key
    await save({});
    expect((await put(local, 17)).status).toBe(401);
    expect((await put(local, 17, { 'x-api-key': key })).status).toBe(200);
  });

  it('refuses a short key or one with spaces', async () => {
    const shown = (await admin.get('/config/pew_api')).body as Rest;
    for (const [api_key, code] of [
      ['short-key', 'too_short'],
      ['sixteen chars with space', 'invalid_characters'],
    ] as const) {
      const r = await admin.post('/config/pew_api', { ...shown, api_key });
      expect(r.status, api_key).toBe(400);
      expect(r.body.error.issues, api_key).toEqual([expect.objectContaining({ section: 'pew_api', path: 'api_key', code })]);
    }
  });
});
