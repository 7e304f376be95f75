// The configuration API over a real socket: every section round-trips, bad input is refused with
// a code and leaves the stored file byte-for-byte unchanged, passwords are masked both ways,
// save-all is all-or-nothing, damaged files give defaults while the daemon keeps serving.

import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_JSON_LIMIT } from '../../device/api/body.ts';
import { PASSWORD_MASK } from '../../device/model/fields.ts';
import { CONFIG_SECTIONS } from '../../device/model/index.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { SAMPLE_EDITS, SAMPLE_SECRETS } from '../fixtures/samples.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';

const sample = (key: string) => {
  const value: any = structuredClone(defaultsOf(CONFIG_SECTIONS.find((d) => d.key === key)!));
  SAMPLE_EDITS[key]!(value);
  return value;
};
const masked = (key: string, value: any) => {
  const def = CONFIG_SECTIONS.find((d) => d.key === key)!;
  const out = { ...value };
  for (const p of def.passwords) if (out[p]) out[p] = PASSWORD_MASK;
  return out;
};

let d: TestDaemon;
let admin: Client;
const file = (key: string) => join(d.dataDir, 'config', `${key}.json`);
const snapshot = async () =>
  Object.fromEntries(await Promise.all(CONFIG_SECTIONS.map(async (s) => [s.key, existsSync(file(s.key)) ? await readFile(file(s.key), 'utf8') : null])));

beforeAll(async () => {
  d = await startTestDaemon();
  admin = await d.admin();
});
afterAll(() => d.stop());

describe.each(CONFIG_SECTIONS.map((s) => [s.key]))('section %s', (key) => {
  it('GET answers the defaults on a fresh unit', async () => {
    const r = await admin.get(`/config/${key}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(defaultsOf(CONFIG_SECTIONS.find((s) => s.key === key)!));
  });

  it('POST saves, GET and the file give it back, secrets masked and kept', async () => {
    const value = sample(key);
    const r = await admin.post(`/config/${key}`, value);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual(masked(key, value));
    expect((await admin.get(`/config/${key}`)).body).toEqual(masked(key, value));
    expect(JSON.parse(await readFile(file(key), 'utf8'))).toEqual(value); // the file holds the real secret
    // sending back what GET showed (the mask) keeps the stored secrets
    const again = await admin.post(`/config/${key}`, (await admin.get(`/config/${key}`)).body);
    expect(again.status).toBe(200);
    expect(JSON.parse(await readFile(file(key), 'utf8'))).toEqual(value);
    for (const s of SAMPLE_SECRETS) expect(r.text + again.text).not.toContain(s);
  });

  it('invalid input: 400 with codes, the stored file byte-for-byte unchanged', async () => {
    const before = await readFile(file(key), 'utf8');
    for (const bad of [{ ...sample(key), no_such_field: 1 }, [], JSON.stringify('text'), null, 42]) {
      const r = await admin.post(`/config/${key}`, bad);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_input');
      expect(r.body.error.issues.length).toBeGreaterThan(0);
      expect(r.body.error.issues[0].section).toBe(key);
    }
    expect(await readFile(file(key), 'utf8')).toBe(before);
  });

  it('get_reset answers the defaults without saving them', async () => {
    const before = await readFile(file(key), 'utf8');
    const r = await admin.get(`/config/get_reset?section=${key}`);
    expect(r.body).toEqual(defaultsOf(CONFIG_SECTIONS.find((s) => s.key === key)!));
    expect(await readFile(file(key), 'utf8')).toBe(before);
  });
});

describe('field rules through the API', () => {
  it('reports the spec rule with its params, and the same code the model gives', async () => {
    const before = await snapshot();
    const iec = sample('pew_60870');
    iec.connections[0] = { ...iec.connections[0], t1: 10, t2: 10 };
    const r = await admin.post('/config/pew_60870', iec);
    expect(r.status).toBe(400);
    expect(r.body.error.issues).toContainEqual(expect.objectContaining({ section: 'pew_60870', code: 'iec_t2_t1' }));
    const port = await admin.post('/config/pew_api', { ...sample('pew_api'), http_port: 8080 });
    expect(port.body.error.issues).toEqual([
      { section: 'pew_api', path: 'http_port', code: 'port_unallowed', params: { ports: [3000, 8000, 8080, 8081, 5900] } },
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a control register that overlaps another service, naming it', async () => {
    const before = await snapshot();
    const ftp = { ...sample('pew_ftpc'), plc_control_dt: 270 }; // MQTT (saved above) holds 260-293
    const r = await admin.post('/config/pew_ftpc', ftp);
    expect(r.status).toBe(400);
    expect(r.body.error.issues).toEqual([
      { section: 'pew_ftpc', path: 'plc_control_dt', code: 'addresses_overlap', params: { other: 'pew_mqtt.plc_control_dt', start: 260, end: 293 } },
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a port used by the system', async () => {
    const r = await admin.post('/config/pew_redirect', { threads: [{ ...sample('pew_redirect').threads[0], port: 22 }] });
    expect(r.body.error.issues[0]).toMatchObject({ path: 'threads.0.port', code: 'out_of_range' });
  });
});

describe('save-all (POST /config)', () => {
  it('saves several sections at once', async () => {
    const mqtt = { ...sample('pew_mqtt'), keep_alive: 11 };
    const rtc = { ...sample('pew_rtc'), rtc_update_by_time: 11 };
    const r = await admin.post('/config', { pew_mqtt: masked('pew_mqtt', mqtt), pew_rtc: rtc });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['pew_mqtt', 'pew_rtc']);
    expect(JSON.parse(await readFile(file('pew_mqtt'), 'utf8'))).toEqual(mqtt);
    expect(JSON.parse(await readFile(file('pew_rtc'), 'utf8'))).toEqual(rtc);
  });

  it('one invalid section: nothing is saved, every problem is reported', async () => {
    const before = await snapshot();
    const r = await admin.post('/config', {
      pew_mqtt: { ...sample('pew_mqtt'), keep_alive: 12 },
      pew_rtc: { ...sample('pew_rtc'), rtc_polling: 0 },
      pew_sql: { ...sample('pew_sql'), timeout: 121 },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.issues.map((i: any) => `${i.section}.${i.path}:${i.code}`).sort()).toEqual([
      'pew_rtc.rtc_polling:out_of_range',
      'pew_sql.timeout:out_of_range',
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('an unknown section name refuses the whole request', async () => {
    const before = await snapshot();
    const r = await admin.post('/config', { pew_mqtt: sample('pew_mqtt'), pew_nothing: {} });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_input');
    expect(r.body.error.issues).toContainEqual({ section: 'pew_nothing', path: '', code: 'unknown_key' });
    expect(await snapshot()).toEqual(before);
    expect((await admin.post('/config', {})).status).toBe(400);
  });

  it('a register clash between two sections of one save-all is refused', async () => {
    const before = await snapshot();
    const r = await admin.post('/config', {
      pew_httpc: { ...sample('pew_httpc'), plc_control_dt: 500 },
      pew_email: { ...sample('pew_email'), plc_control_dt: 510 },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.issues.map((i: any) => i.section).sort()).toEqual(['pew_email', 'pew_httpc']);
    expect(await snapshot()).toEqual(before);
  });
});

/** GET with exactly these headers (fetch always asks for gzip and decodes it): status, headers and the raw body. */
const rawGet = (path: string, headers: Record<string, string>) =>
  new Promise<{ status: number; encoding?: string; vary?: string; body: Buffer }>((resolve, reject) => {
    httpRequest(d.url + path, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.on('end', () => resolve({ status: res.statusCode!, encoding: res.headers['content-encoding'], vary: res.headers.vary, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });

describe('load-all (GET /config)', () => {
  it('answers every section as its own GET does, secrets masked', async () => {
    const all = await admin.get('/config');
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(CONFIG_SECTIONS.map((s) => s.key).sort());
    for (const s of CONFIG_SECTIONS) expect(all.body[s.key], s.key).toEqual((await admin.get(`/config/${s.key}`)).body);
    for (const secret of SAMPLE_SECRETS) expect(all.text).not.toContain(secret);
  });

  it('is gzip-encoded only for a client that accepts gzip, and follows a save', async () => {
    const plain = await rawGet('/config', { cookie: admin.cookie });
    expect(plain.encoding).toBeUndefined();
    const packed = await rawGet('/config', { cookie: admin.cookie, 'accept-encoding': 'br, gzip;q=0.8' });
    expect(packed.encoding).toBe('gzip');
    expect(packed.vary).toBe('Accept-Encoding');
    expect(gunzipSync(packed.body).toString()).toBe(plain.body.toString());
    expect((await rawGet('/config', { cookie: admin.cookie, 'accept-encoding': 'gzip;q=0' })).encoding).toBeUndefined();

    // the sections hold their samples (above): back to the defaults, and the next answer shows it
    const defaults = defaultsOf(CONFIG_SECTIONS.find((s) => s.key === 'pew_mqtt')!);
    expect(JSON.parse(plain.body.toString()).pew_mqtt).not.toEqual(defaults);
    expect((await admin.post('/config/pew_mqtt', defaults)).status).toBe(200);
    const after = JSON.parse(gunzipSync((await rawGet('/config', { cookie: admin.cookie, 'accept-encoding': 'gzip' })).body).toString());
    expect(after.pew_mqtt).toEqual(defaults);
  });

  it('needs a session', async () => {
    expect((await d.client().get('/config')).status).toBe(401);
  });
});

describe('requests outside the table', () => {
  it('unknown routes and sections answer a JSON 404; oversized bodies 413', async () => {
    for (const path of ['/config/pew_nothing', '/nothing', '/config/../users.json', '/config/%2e%2e/users.json']) {
      const r = await admin.get(path);
      expect(r.status, path).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
    const big = await admin.post('/config/script_file', { content: 'x'.repeat(CONFIG_JSON_LIMIT) });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('body_too_large');
  });

  it('an unknown action is 404 not_found with a code', async () => {
    const r = await admin.post('/config/get_nothing', {});
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
  });
});

describe('damaged storage (spec §4, security.md CFG-2)', () => {
  it('a corrupt or missing file gives the defaults and a logged error; the daemon keeps serving', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'corrupt-'));
    const first = await startTestDaemon({ dataDir });
    const a = await first.admin();
    expect((await a.post('/config/pew_mqtt', sample('pew_mqtt'))).status).toBe(200);
    expect((await a.post('/config/pew_rtc', sample('pew_rtc'))).status).toBe(200);
    expect((await a.post('/config/pew_api', sample('pew_api'))).status).toBe(200);
    await first.stop();
    await writeFile(join(dataDir, 'config', 'pew_mqtt.json'), '{"enable_mqtt": tru');
    await writeFile(join(dataDir, 'config', 'pew_rtc.json'), JSON.stringify({ ...sample('pew_rtc'), rtc_polling: 999, legacy: 1 }));
    const second = await startTestDaemon({ dataDir });
    const b = await second.admin();
    expect((await b.get('/config/pew_mqtt')).body).toEqual(defaultsOf(CONFIG_SECTIONS.find((s) => s.key === 'pew_mqtt')!));
    expect((await b.get('/config/pew_rtc')).body).toEqual({
      ...sample('pew_rtc'),
      rtc_polling: (defaultsOf(CONFIG_SECTIONS.find((s) => s.key === 'pew_rtc')!) as { rtc_polling: number }).rtc_polling,
    });
    expect((await b.get('/config/pew_api')).body).toEqual(sample('pew_api'));
    const log = second.ctx.log.recent();
    expect(log).toContainEqual(expect.objectContaining({ level: 'error', fields: expect.objectContaining({ section: 'pew_mqtt' }) }));
    expect(log).toContainEqual(expect.objectContaining({ level: 'warn', fields: { section: 'pew_rtc' } }));
    const logs = await b.get('/config/get_syslogs');
    expect(logs.body.entries.some((e: any) => e.fields?.section === 'pew_mqtt')).toBe(true);
    await second.stop();
  });
});
