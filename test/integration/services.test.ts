// The unit's services over the API (spec §3 service names, §4, §5 security warnings, §7 pew_system;
// security.md AUD-1): read and change them, refusals with codes, the state on the virtual unit's
// services file, the audit entries, and the warnings in the answer and in the system information.

import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_DEFAULTS } from '../../hw/services.ts';
import { SERVICE_NAMES } from '../../hw/types.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';

let d: TestDaemon;
let admin: Client;
let user: Client;
beforeAll(async () => {
  d = await startTestDaemon();
  admin = await d.admin();
  user = await d.user();
});
afterAll(() => d.stop());

const stored = async () => JSON.parse(await readFile(join(d.dataDir, 'services.json'), 'utf8')) as Record<string, boolean>;
const audit = async () =>
  (await readFile(join(d.dataDir, 'audit', 'audit.log'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { action: string; user?: string; detail?: Record<string, unknown> });
const codes = (r: { body: { warnings: { code: string }[] } }) => r.body.warnings.map((w) => w.code);

describe('GET /config/pew_system', () => {
  it('answers every service of spec §3 in order with its state, and no warning on a fresh unit', async () => {
    const r = await user.get('/config/pew_system');
    expect(r.status).toBe(200);
    expect(r.body.services).toEqual(SERVICE_NAMES.map((name) => ({ name, enabled: SERVICE_DEFAULTS[name] })));
    expect(r.body.warnings).toEqual([]);
  });
});

describe('POST /config/pew_system', () => {
  it('switches services on the unit, audits each real change and answers the warnings that now apply', async () => {
    const before = (await audit()).length;
    const r = await admin.post('/config/pew_system', { x11vnc: true, autorun: true, ntpd: true });
    expect(r.status).toBe(200);
    expect(r.body.services.find((s: { name: string }) => s.name === 'x11vnc').enabled).toBe(true);
    expect(r.body.warnings).toEqual([
      { code: 'vnc_unencrypted', subjects: ['x11vnc'] },
      { code: 'autorun_enabled', subjects: ['autorun'] },
    ]);
    const file = await stored();
    expect(file.x11vnc).toBe(true);
    expect(file.autorun).toBe(true);
    expect(file.sshd).toBe(false);
    // ntpd was on already: not a change, no entry
    const entries = (await audit()).slice(before);
    expect(entries.map((e) => [e.action, e.user, e.detail])).toEqual([
      ['service_change', 'admin', { service: 'x11vnc', enabled: true }],
      ['service_change', 'admin', { service: 'autorun', enabled: true }],
    ]);
  });

  it('warns of the VPN without NTP, also in GET /rest/api/v1 and in GET /config/pew_system', async () => {
    const r = await admin.post('/config/pew_system', { cloud: true, ntpd: false, x11vnc: false, autorun: false });
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([{ code: 'vpn_without_ntp', subjects: ['cloud', 'ntpd'] }]);
    const info = await user.get('/rest/api/v1?cache=true&js=true');
    expect(info.body.warnings).toEqual([{ code: 'vpn_without_ntp', subjects: ['cloud', 'ntpd'] }]);
    expect(info.body.datetime.ntp.enabled).toBe(false); // the time card follows the service
    expect(info.body.services.find((s: { name: string }) => s.name === 'cloud').enabled).toBe(true);
    expect(codes(await user.get('/config/pew_system'))).toEqual(['vpn_without_ntp']);
    const back = await admin.post('/config/pew_system', { cloud: false, ntpd: true });
    expect(back.body.warnings).toEqual([]);
    expect((await user.get('/rest/api/v1/services')).body.services).toEqual(back.body.services);
  });

  it('refuses an unknown service, a wrong type and an empty change with codes, and changes nothing', async () => {
    const file = await stored();
    const entries = (await audit()).length;
    const cases: [unknown, string, string][] = [
      [{ telnetd: true }, 'telnetd', 'unknown_key'],
      [{ sshd: 'yes' }, 'sshd', 'type'],
      [{ sshd: 1 }, 'sshd', 'type'],
      [{ sshd: true, 'x11vnc; rm -rf /': true }, 'x11vnc; rm -rf /', 'unknown_key'],
      [{}, '', 'required'],
      [[{ name: 'sshd', enabled: true }], '', 'type'],
    ];
    for (const [body, path, code] of cases) {
      const r = await admin.post('/config/pew_system', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('invalid_input');
      expect(r.body.error.issues, JSON.stringify(body)).toContainEqual(expect.objectContaining({ path, code }));
    }
    expect(await stored()).toEqual(file);
    expect((await audit()).length).toBe(entries);
  });

  it('is for the administrator only', async () => {
    const r = await user.post('/config/pew_system', { sshd: true });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('forbidden');
    expect((await d.client().get('/config/pew_system')).status).toBe(401);
    expect((await stored()).sshd).toBe(false);
  });

  it('says which service failed when the system refuses a change, and audits the failure', async () => {
    // the services file cannot be written while a folder stands in its place
    const file = join(d.dataDir, 'services.json');
    await rm(file);
    await mkdir(file);
    try {
      const r = await admin.post('/config/pew_system', { sshd: true });
      expect(r.status).toBe(500);
      expect(r.body.error).toMatchObject({ code: 'save_failed', params: { service: 'sshd' } });
      expect((await audit()).at(-1)).toMatchObject({ action: 'service_change_failed', detail: { service: 'sshd', enabled: true } });
    } finally {
      await rm(file, { recursive: true });
    }
  });
});
