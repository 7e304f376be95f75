// The system information the console's /info page shows (spec §2, §5): versions with the
// compatibility verdict, services, and the security warnings that follow the saved settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDefaults } from '../../device/model/section.ts';
import { pew_60870 } from '../../device/model/sections/iec.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';

let d: TestDaemon;
let admin: Client;
beforeAll(async () => {
  d = await startTestDaemon();
  admin = await d.admin();
});
afterAll(() => d.stop());

describe('GET /rest/api/v1', () => {
  it('answers OS, network, time, services, versions and no warning on a factory unit', async () => {
    const r = await admin.get('/rest/api/v1?cache=true&js=true');
    expect(r.status).toBe(200);
    expect(r.body.os.hostname).toBeTypeOf('string');
    expect(r.body.datetime.ntp.enabled).toBe(true);
    expect(r.body.services.map((s: { name: string }) => s.name)).toContain('ntpd');
    expect(r.body.versions.incompatible).toEqual([]);
    expect(r.body.warnings).toEqual([]);
  });
  it('names the open IEC port and the unencrypted IEC link once IEC is enabled', async () => {
    const iec = withDefaults(pew_60870.schema, { enable_60870: true });
    expect((await admin.post('/config/pew_60870', iec)).status).toBe(200);
    const r = await admin.get('/rest/api/v1');
    expect(r.body.warnings).toEqual([
      { code: 'open_tcp_port', subjects: [2404] },
      { code: 'iec_unencrypted', subjects: ['pew_60870'] },
    ]);
  });
});
