// security.md REST-1, REST-2, REST-3 (issue 34 item 5): writes through the unit's REST API. With the
// API on and no API key (the default) a PUT writes nothing (403 `writes_off`) unless the
// administrator allows keyless writes, which the §5 warning then names; every write, with a key or
// without, touches only the words of `write_areas` (none by default: 403 `area_not_writable`), bit
// writes by the words of their bits; with `use_cors` a preflight grants PUT to a page of another
// site only when writes need the key. A stored pew_api from before these fields loads with the safe
// defaults, and a backup carries them through a restore.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Rest, restSchema } from '../../device/model/sections/rest.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

function ask(port: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: LOOPBACK, port, method, path, agent: false, headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (b: Buffer) => chunks.push(b));
        res.on('end', () => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString());
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const KEY = 'k3y-0f-the-unit-API-2026';
let d: TestDaemon;
let admin: Client;
let port: number;

const save = async (over: Partial<Rest>) => {
  const r = await admin.post('/config/pew_api', { ...(v.getDefaults(restSchema) as Rest), api_enable: true, use_encryption: false, http_port: port, ...over });
  expect(r.status, r.text).toBe(200);
  await d.ctx.rest.settled();
};
const put = (path: string, values: unknown[], headers: Record<string, string> = {}) => ask(port, 'PUT', `/api/v1/plc/INTERNAL/${path}`, { values }, headers);
const read = async (path: string, count = 1) => (await ask(port, 'GET', `/api/v1/plc/INTERNAL/${path}?count=${count}`)).body.values;
const warnings = async () => ((await admin.get('/rest/api/v1?cache=true&js=true')).body.warnings as { code: string }[]).map((w) => w.code);

beforeAll(async () => {
  d = await startTestDaemon();
  admin = await d.admin();
  port = await freePort();
});
afterAll(() => d?.stop());

describe('REST-1: no key, no writes unless the administrator opts in', () => {
  it('refuses a write with the API on and no key, and shows no warning', async () => {
    await save({ write_areas: 'DT100-199' });
    const r = await put('DT/100', [7]);
    expect([r.status, r.body.error.code]).toEqual([403, 'writes_off']);
    expect(await read('DT/100')).toEqual([0]);
    expect(await warnings()).not.toContain('api_without_key');
  });

  it('writes without a key only after keyless_writes is on, and the warning says so', async () => {
    await save({ write_areas: 'DT100-199', keyless_writes: true });
    expect((await put('DT/100', [7])).status).toBe(200);
    expect(await read('DT/100')).toEqual([7]);
    expect(await warnings()).toContain('api_without_key');
  });

  it('with a key set, keyless_writes does not let a write without it through', async () => {
    await save({ write_areas: 'DT100-199', keyless_writes: true, api_key: KEY });
    expect((await put('DT/100', [8])).body.error.code).toBe('api_key_required');
    expect((await put('DT/100', [8], { 'x-api-key': KEY })).status).toBe(200);
    expect(await read('DT/100')).toEqual([8]);
    expect(await warnings()).not.toContain('api_without_key');
  });
});

describe('REST-2: writes touch only the words of write_areas', () => {
  it('refuses every write while the list is empty, with or without a key', async () => {
    await save({ keyless_writes: true });
    const r = await put('DT/300', [1]);
    expect([r.status, r.body.error.code, r.body.error.params]).toEqual([403, 'area_not_writable', { area: 'DT', address: '300' }]);
    await save({ api_key: KEY });
    expect((await put('DT/300', [1], { 'x-api-key': KEY })).body.error.code).toBe('area_not_writable');
    expect(await read('DT/300')).toEqual([0]);
  });

  it('admits a write inside the list and refuses one that reaches a word beyond it', async () => {
    await save({ keyless_writes: true, write_areas: 'DT200-201, DT202 WR1' });
    expect((await put('DT/200', [1, 2, 3])).status).toBe(200);
    expect((await put('DT/201', [4, 5, 6])).body.error.code).toBe('area_not_writable');
    expect((await put('DT/199', [9])).body.error.code).toBe('area_not_writable');
    expect((await put('LD/200', [9])).body.error.code).toBe('area_not_writable');
    expect(await read('DT/199', 5)).toEqual([0, 1, 2, 3, 0]);
    // bits by the words they lie in: R 10-1F are word WR 1 (the INTERNAL memory has no relays, so a
    // write the list admits goes on to the link and fails there; rest-server.test.ts writes real bits)
    expect((await put('R/1F', [true])).body.error.code).toBe('link_failed');
    expect((await put('R/1F', [true, true])).body.error.code).toBe('area_not_writable');
    expect((await put('R/0F', [true])).body.error.code).toBe('area_not_writable');
  });

  it('refuses a list entry that is not an area and words, or names the inputs', async () => {
    for (const [write_areas, code] of [
      ['DT100-199, D5', 'invalid_write_area'],
      ['WX0', 'invalid_value'],
      ['WR0-5000', 'address_out_of_range'],
      ['DT9-1', 'start_after_end'],
    ] as const) {
      const r = await admin.post('/config/pew_api', { ...(v.getDefaults(restSchema) as Rest), write_areas });
      expect(r.status, write_areas).toBe(400);
      expect(r.body.error.issues, write_areas).toEqual([expect.objectContaining({ section: 'pew_api', path: 'write_areas', code })]);
    }
  });
});

describe('REST-3: CORS grants writes from any site only with a key', () => {
  const preflight = () =>
    ask(port, 'OPTIONS', '/api/v1/plc/INTERNAL/DT/100', undefined, {
      origin: 'http://attacker.example',
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'content-type',
    });

  it('without a key the preflight lists no PUT; reads stay open to every origin', async () => {
    await save({ use_cors: true, keyless_writes: true, write_areas: 'DT100' });
    const pre = await preflight();
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(String(pre.headers['access-control-allow-methods'])).not.toContain('PUT');
    const get = await ask(port, 'GET', '/api/v1/plc/INTERNAL/DT/100', undefined, { origin: 'http://attacker.example' });
    expect([get.status, get.headers['access-control-allow-origin']]).toEqual([200, '*']);
  });

  it('with a key the preflight grants PUT (the write still needs the key)', async () => {
    await save({ use_cors: true, api_key: KEY, write_areas: 'DT100' });
    expect(String((await preflight()).headers['access-control-allow-methods'])).toContain('PUT');
    expect((await put('DT/100', [3], { origin: 'http://attacker.example' })).status).toBe(401);
  });
});

describe('stored settings from before write_areas and keyless_writes', () => {
  it('load with the safe defaults: the API reads, writes are off', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'rest-writes-old-'));
    const oldPort = await freePort();
    await mkdir(join(dataDir, 'config'), { recursive: true });
    const old = {
      api_enable: true,
      ip1: '0.0.0.0',
      ip2: '0.0.0.0',
      http_port: oldPort,
      http_server: false,
      use_encryption: false,
      use_cors: true,
      api_key: '',
      host_names: '',
    };
    await writeFile(join(dataDir, 'config', 'pew_api.json'), JSON.stringify(old));
    const o = await startTestDaemon({ dataDir });
    try {
      const a = await o.admin();
      expect((await a.get('/config/pew_api')).body).toMatchObject({ ...old, keyless_writes: false, write_areas: '' });
      await o.ctx.rest.settled();
      const r = await ask(oldPort, 'PUT', '/api/v1/plc/INTERNAL/DT/100', { values: [5] });
      expect([r.status, r.body.error.code]).toEqual([403, 'writes_off']);
      expect((await ask(oldPort, 'GET', '/api/v1/plc/INTERNAL/DT/100')).status).toBe(200);
    } finally {
      await o.stop();
    }
  });

  it('a backup carries them through a restore', async () => {
    await save({ keyless_writes: true, write_areas: 'DT10-19 WY2' });
    const b = await fetch(`${d.url}/config/get_backup`, {
      method: 'POST',
      headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(b.status).toBe(200);
    const file = new Uint8Array(await b.arrayBuffer());
    await save({});
    expect((await admin.get('/config/pew_api')).body).toMatchObject({ keyless_writes: false, write_areas: '' });
    const r = await fetch(`${d.url}/config/restore`, {
      method: 'POST',
      headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/octet-stream' },
      body: file,
    });
    expect(r.status, await r.text()).toBe(200);
    expect((await admin.get('/config/pew_api')).body).toMatchObject({ keyless_writes: true, write_areas: 'DT10-19 WY2' });
  });
});
