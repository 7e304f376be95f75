// /ftp: the server field refuses an address that is not one ("999.1.1.1"), in the console and
// the daemon, with the invalid-IP message; names and valid addresses pass.
import { describe, expect, it } from 'vitest';
import { api, consoleSuite, en, expectText, fieldInput, loginApi, openConsole } from './support.ts';

describe('the FTP server address', () => {
  const suite = consoleSuite();

  it('999.1.1.1 is refused as an invalid IP address; a name and a valid address are accepted', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/ftp');
    const server = fieldInput(page, 'pew_ftpc', 'server_ip');
    const error = page.locator('[data-page] [data-field="server_ip"] .error');
    await server.fill('999.1.1.1');
    await expectText(error, en.errors.invalid_ip);
    for (const ok of ['192.168.1.20', 'ftp.example.com']) {
      await server.fill(ok);
      await expect.poll(() => error.count()).toBe(0);
    }
    const a = await api(page, suite.d);
    const ftp = (await a.get('/config/pew_ftpc')).body;
    const r = await a.post('/config/pew_ftpc', { ...ftp, server_ip: '999.1.1.1' });
    expect(r.status).toBe(400);
    expect(r.body.error.issues).toEqual([{ section: 'pew_ftpc', path: 'server_ip', code: 'invalid_ip' }]);
  });
});
