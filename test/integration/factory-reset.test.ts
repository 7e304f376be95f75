// Factory reset over the API (spec §2 /info, §4; security.md AUTH-2, AUD-1): refused for the user
// role and without the confirmation word; once confirmed, settings, services, users, sessions,
// certificates, HTTP files, scripts, log configurations, the unit's log files and the scrape token
// of /metrics are gone, the audit
// log is kept with the reset in it, and the first-run setup works again.

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_SECTIONS } from '../../device/model/index.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { SERVICE_DEFAULTS } from '../../hw/services.ts';
import { ADMIN, type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { makeCa } from '../support/openssl.ts';

let d: TestDaemon;
let admin: Client;
let user: Client;
let certDir: string;
const logDirs: Record<string, string> = {};

beforeAll(async () => {
  d = await startTestDaemon();
  admin = await d.admin();
  user = await d.user();
  certDir = await mkdtemp(join(tmpdir(), 'reset-certs-'));
  // a unit in use: a changed section, a service on, a certificate, an HTTP file, a script, a
  // format file, log files on each storage volume and a scrape token for /metrics
  const mqtt = (await admin.get('/config/pew_mqtt')).body;
  expect((await admin.post('/config/pew_mqtt', { ...mqtt, keep_alive: 99, broker_password: 'S3cret!pw' })).status).toBe(200);
  expect((await admin.post('/config/pew_system', { sshd: true })).status).toBe(200);
  const ca = await makeCa(certDir, 'ca');
  expect(
    (await admin.post('/config/upload?kind=cert&section=pew_mqtt&name=ca.pem', await readFile(ca.cert, 'utf8'), { 'content-type': 'application/octet-stream' }))
      .status,
  ).toBe(200);
  expect((await admin.post('/config/upload?kind=webfile&name=index.html', '<p>plant</p>', { 'content-type': 'application/octet-stream' })).status).toBe(200);
  expect((await admin.post('/config/upload?kind=script&name=plant.cfg', 'SEND 1\n', { 'content-type': 'application/octet-stream' })).status).toBe(200);
  expect((await admin.post('/config/metrics_token', {})).status).toBe(200);
  await mkdir(join(d.dataDir, 'logcfg'), { recursive: true });
  await writeFile(join(d.dataDir, 'logcfg', 'format.csv'), 'name;value\n');
  for (const vol of await d.ctx.hw.volumes()) {
    logDirs[vol.id] = join(vol.path, 'log');
    await mkdir(logDirs[vol.id]!, { recursive: true });
    await writeFile(join(logDirs[vol.id]!, `${vol.id}.csv`), 'time;value\n1;2\n');
  }
}, 60_000);
afterAll(async () => {
  await d.stop();
  await rm(certDir, { recursive: true, force: true });
});

const files = (dir: string) => readdir(join(d.dataDir, dir), { recursive: true }).catch(() => [] as string[]);
const audit = async () =>
  (await readFile(join(d.dataDir, 'audit', 'audit.log'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { action: string; user?: string; detail?: Record<string, number> });

describe('POST /config/factory_reset', () => {
  it('is refused for the user role and without a session', async () => {
    const r = await user.post('/config/factory_reset', { confirm: 'RESET' });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('forbidden');
    expect((await d.client().post('/config/factory_reset', { confirm: 'RESET' })).status).toBe(401);
    expect(d.ctx.users.list()).toHaveLength(2);
  });

  it('is refused without the confirmation word, and nothing changes', async () => {
    for (const body of [{}, { confirm: 'reset' }, { confirm: true }, { confirm: 'RESET', all: true }, '"RESET"', ['RESET']]) {
      const r = await admin.post('/config/factory_reset', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('invalid_input');
    }
    const missing = await admin.post('/config/factory_reset', {});
    expect(missing.body.error.issues).toEqual([{ path: 'confirm', code: 'required' }]);
    const wrong = await admin.post('/config/factory_reset', { confirm: 'yes' });
    expect(wrong.body.error.issues).toEqual([{ path: 'confirm', code: 'invalid_value', params: { allowed: ['RESET'] } }]);
    expect((await admin.get('/config/pew_mqtt')).body.keep_alive).toBe(99);
    expect(await files('certs')).not.toEqual([]);
    expect(d.ctx.users.list()).toHaveLength(2);
  });

  it('wipes settings, services, users, sessions and files once confirmed, and keeps the audit log', async () => {
    const before = await audit();
    const r = await admin.post('/config/factory_reset', { confirm: 'RESET' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ ok: true, setupRequired: true });
    expect(r.body.removed).toMatchObject({
      settings: CONFIG_SECTIONS.length,
      services: 1,
      users: 2,
      certificates: 1,
      httpFiles: 1,
      logConfigs: 1,
      logFiles: 2,
      metricsToken: 1,
    });
    expect(r.body.removed.sessions).toBeGreaterThanOrEqual(2); // the admin's, the user's (and the setup's)
    expect(r.body.removed.scripts).toBeGreaterThanOrEqual(1);
    expect(r.headers.get('set-cookie')).toMatch(/^sid=;/);

    // every session ended, no user left: the unit asks for its first administrator
    for (const c of [admin, user]) {
      const g = await c.get('/config/pew_mqtt');
      expect(g.status).toBe(401);
      expect(g.body.error.code).toBe('setup_required');
    }
    expect(d.ctx.users.isEmpty()).toBe(true);
    expect(JSON.parse(await readFile(join(d.dataDir, 'users.json'), 'utf8')).users).toEqual([]);

    // settings: every section file holds its defaults (the secret is gone with them)
    for (const def of CONFIG_SECTIONS) {
      expect(JSON.parse(await readFile(join(d.dataDir, 'config', `${def.key}.json`), 'utf8')), def.key).toEqual(defaultsOf(def));
    }
    expect(JSON.parse(await readFile(join(d.dataDir, 'services.json'), 'utf8'))).toEqual(SERVICE_DEFAULTS);

    for (const dir of ['certs', 'http', 'scripts', 'logcfg']) expect(await files(dir), dir).toEqual([]);
    expect(existsSync(join(logDirs.internal!, 'internal.csv'))).toBe(false);
    expect(existsSync(join(logDirs.temp!, 'temp.csv'))).toBe(false);
    expect(existsSync(join(logDirs.usb!, 'usb.csv'))).toBe(true); // the operator's removable stick stays
    // the scrape token is gone: /metrics is off, as a path the unit does not know
    expect(existsSync(join(d.dataDir, 'metrics-token.json'))).toBe(false);
    expect((await d.client().get('/metrics')).status).toBe(404);

    // the audit log is kept, with the reset recorded by the administrator who asked
    const after = await audit();
    expect(after.slice(0, before.length)).toEqual(before);
    const added = after.slice(before.length);
    expect(added.map((e) => [e.action, e.user])).toEqual([
      ['factory_reset', 'admin'],
      ['factory_reset_done', 'admin'],
    ]);
    expect(added[1]!.detail).toEqual(r.body.removed);
  });

  it('lets the first-run setup create an administrator again; the old password is gone', async () => {
    const setup = await d.client().post('/rest/api/v1/authentication/setup', { username: 'chief', password: 'N3w-Chief-Passw0rd!' });
    expect(setup.status, setup.text).toBe(201);
    const old = await d.client().post('/rest/api/v1/authentication', ADMIN);
    expect(old.status).toBe(401);
    const chief = await d.client().login({ username: 'chief', password: 'N3w-Chief-Passw0rd!' });
    expect((await chief.get('/config/pew_mqtt')).body.keep_alive).toBe(65);
    expect((await chief.get('/config/pew_mqtt')).body.broker_password).toBe('');
    expect((await chief.get('/config/pew_system')).body.warnings).toEqual([]);
  });
});
