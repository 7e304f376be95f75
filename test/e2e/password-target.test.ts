// security.md SEC-2 in the console (issue 16 item 5): on /httpc a stored password is shown masked;
// once the server address changes, the password field asks for the password again (the message of
// `password_required` under it) and the page cannot be saved with the mask; typing the password
// clears it and the save stores the new server with the new password.
import { describe, expect, it } from 'vitest';
import { defaultsOf } from '../../device/model/section.ts';
import { pew_httpc } from '../../device/model/sections/httpc.ts';
import { api, consoleSuite, en, expectNotice, expectText, fieldInput, loginApi, openConsole } from './support.ts';

describe('a masked password and a changed server', () => {
  const suite = consoleSuite();

  it('asks for the password again on /httpc and saves once it is typed', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    const a = await api(page, suite.d);
    const saved = { ...defaultsOf(pew_httpc), server_addr: 'https://old.example/plc', server_user: 'plc', server_password: 'Old-Secret1' };
    expect((await a.post('/config/pew_httpc', saved)).status).toBe(200);
    await openConsole(page, suite.d, '/httpc');
    const pw = fieldInput(page, 'pew_httpc', 'server_password');
    await expect.poll(() => pw.inputValue()).toBe('********');
    const message = page.locator('[data-field=server_password] .error');
    expect(await message.count()).toBe(0);

    await fieldInput(page, 'pew_httpc', 'server_addr').fill('https://new.example/plc');
    await expectText(message, en.errors.password_required);
    const save = page.locator('.page-bar [data-action=save]');
    await save.click();
    await page.locator('.notices .notice.error').waitFor();
    expect((await a.get('/config/pew_httpc')).body.server_addr).toBe('https://old.example/plc');

    await pw.fill('New-Secret2');
    await expect.poll(() => message.count()).toBe(0);
    await save.click();
    await expectNotice(page, 'info', en.form.notice.saved);
    expect((await a.get('/config/pew_httpc')).body.server_addr).toBe('https://new.example/plc');
    expect(suite.d.ctx.store.get<{ server_password: string }>('pew_httpc').server_password).toBe('New-Secret2');
  });
});
