// The /rest page in chromium (spec §2 service layout, §3 REST pew_api, §7 /apitest,
// get_http_content, delete_user_webfiles): every field, save with the REST port following it, reload,
// reset; an invalid port refused by the console and by the daemon with the same code; the REST test
// against the daemon's own REST server; the HTTP files list with delete after a question, and
// read-only for the user role.
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { api, consoleSuite, en, expectNotice, expectText, expectTitle, fieldInput, fill, loginApi, openConsole, pageBody, USER } from './support.ts';

const KEY = 'pew_api';
const FIELDS = [
  'api_enable',
  'ip1',
  'ip2',
  'http_port',
  'http_server',
  'use_encryption',
  'use_cors',
  'api_key',
  'keyless_writes',
  'write_areas',
  'host_names',
] as const;

describe('the /rest page', () => {
  const suite = consoleSuite();
  const input = (page: Page, path: string) => fieldInput(page, KEY, path);
  const save = (page: Page) => page.locator('.page-bar [data-action=save]');
  const dialog = (page: Page) => page.locator('[role=alertdialog]');

  it('shows every field; save runs the REST port, reload keeps it, the REST test passes; reset brings back the defaults', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/rest');
    await expectTitle(page, en.nav.rest);
    for (const f of FIELDS) {
      await expectText(page.locator(`[data-field=${f}] label`).first(), en.fields.pew_api[f].label);
      expect(await input(page, f).count(), f).toBe(1);
    }
    expect(await input(page, 'http_port').inputValue()).toBe('8443');
    expect(await input(page, 'use_encryption').isChecked()).toBe(true);
    await page.locator('[data-rest-state=off]').waitFor();
    // the §5 "no encryption" warning follows the edit
    const port = await freePort();
    await input(page, 'api_enable').check();
    await input(page, 'use_encryption').uncheck();
    await input(page, 'http_port').fill(String(port));
    await input(page, 'ip1').fill('127.0.0.1');
    await input(page, 'ip2').fill('127.0.0.1');
    await page.locator('[data-security]').first().waitFor();
    await expect.poll(() => save(page).isEnabled()).toBe(true);
    await save(page).click();
    await expectNotice(page, 'info', en.form.notice.saved);
    const stored = (await (await api(page, suite.d)).get('/config/pew_api')).body;
    expect(stored).toEqual({
      api_enable: true,
      ip1: '127.0.0.1',
      ip2: '127.0.0.1',
      http_port: port,
      http_server: false,
      use_encryption: false,
      use_cors: false,
      api_key: '',
      keyless_writes: false,
      write_areas: '',
      host_names: '',
    });
    await expectText(page.locator('[data-rest-state=listening]'), fill(en.rest.stateListening, { port, scheme: 'HTTP' }));
    const info = await fetch(`http://${LOOPBACK}:${port}/api/v1/info`);
    expect(info.status).toBe(200);

    await page.reload();
    await expectTitle(page, en.nav.rest);
    await expect.poll(() => input(page, 'http_port').inputValue()).toBe(String(port));
    expect(await input(page, 'api_enable').isChecked()).toBe(true);
    expect(await input(page, 'ip1').inputValue()).toBe('127.0.0.1');

    const block = page.locator(`[data-servicetest=${KEY}]`);
    await block.locator('[data-action=servicetest]').click();
    const passed = block.locator('[data-outcome=ok] [data-summary]');
    await passed.waitFor({ state: 'visible', timeout: 20_000 });
    expect(await passed.textContent()).toContain(`http://${LOOPBACK}:${port}`);
    expect(await block.locator('.test-steps li').evaluateAll((li) => li.map((l) => `${l.getAttribute('data-step')}:${l.getAttribute('data-ok')}`))).toEqual([
      'connect:true',
      'request:true',
    ]);

    // a client range without the test's own address: the test fails in words
    await input(page, 'ip1').fill('127.0.0.2');
    await input(page, 'ip2').fill('127.0.0.3');
    await save(page).click();
    await expect.poll(() => save(page).isDisabled()).toBe(true);
    await block.locator('[data-action=servicetest]').click();
    const failed = block.locator('[data-outcome=failed] [data-summary]');
    await failed.waitFor({ state: 'visible', timeout: 20_000 });
    await expectText(failed, fill(en.service.test.failed, { peer: `http://${LOOPBACK}:${port}`, reason: en.service.test.failures.auth_failed }));

    await page.locator('.page-bar [data-action=reset]').click();
    await dialog(page).locator('button.danger', { hasText: en.confirm.reset }).click();
    await expect.poll(() => input(page, 'http_port').inputValue()).toBe('8443');
    expect(await input(page, 'api_enable').isChecked()).toBe(false);
    expect((await (await api(page, suite.d)).get('/config/pew_api')).body.http_port).toBe(port); // not stored until saved
    await save(page).click();
    await expectNotice(page, 'info', en.form.notice.saved);
    await page.locator('[data-rest-state=off]').waitFor();
  });

  it('keyless writes bring the warning, the API key as a masked password takes it away; writes then need the key and reach only the writable areas', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/rest');
    const port = await freePort();
    await input(page, 'api_enable').check();
    await input(page, 'use_encryption').uncheck();
    await input(page, 'http_port').fill(String(port));
    const warning = pageBody(page, 'rest').locator('[data-security=api_without_key]');
    // security.md REST-1: without a key the API writes nothing, so there is nothing to warn of until the admin opts in
    expect(await input(page, 'keyless_writes').isChecked()).toBe(false);
    expect(await warning.count()).toBe(0);
    await input(page, 'keyless_writes').check();
    await expectText(warning, en.info.warning.api_without_key);
    await input(page, 'write_areas').fill('DT10, D5');
    await expectText(page.locator('[data-field=write_areas] .error'), fill(en.errors.invalid_write_area, { entry: 'D5' }));
    await input(page, 'write_areas').fill('DT10');
    expect(await input(page, 'api_key').getAttribute('type')).toBe('password');
    await input(page, 'api_key').fill('short');
    await expectText(page.locator('[data-field=api_key] .error'), fill(en.errors.too_short, { min: 16 }));
    const key = 'A-long-enough-API-key-2026';
    await input(page, 'api_key').fill(key);
    await expect.poll(() => warning.count()).toBe(0);
    await save(page).click();
    await expectNotice(page, 'info', en.form.notice.saved);
    const stored = (await (await api(page, suite.d)).get('/config/pew_api')).body;
    expect(stored.api_key).toBe('********');
    await suite.d.ctx.rest.settled();
    const write = (headers: Record<string, string>) =>
      fetch(`http://${LOOPBACK}:${port}/api/v1/plc/INTERNAL/DT/10`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ values: [7] }),
      });
    expect((await write({})).status).toBe(401);
    expect((await write({ 'x-api-key': key })).status).toBe(200);
    const outside = await fetch(`http://${LOOPBACK}:${port}/api/v1/plc/INTERNAL/DT/11`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ values: [7] }),
    });
    expect(outside.status).toBe(403);
    await page.reload();
    await expect.poll(() => input(page, 'api_key').inputValue()).toBe('********');
    await page.locator('.page-bar [data-action=reset]').click();
    await dialog(page).locator('button.danger', { hasText: en.confirm.reset }).click();
    await save(page).click();
    await expectNotice(page, 'info', en.form.notice.saved);
  });

  it('an out-of-range port: inline message, save refused; the daemon answers the same code', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/rest');
    const a = await api(page, suite.d);
    const before = (await a.get('/config/pew_api')).body;
    await input(page, 'http_port').fill('80');
    const message = page.locator('[data-field=http_port] .error');
    await expectText(message, fill(en.errors.out_of_range, { min: 1025, max: 65535 }));
    await save(page).click();
    await page.locator('.notices .notice.error').waitFor();
    const r = await a.post('/config/pew_api', { ...before, http_port: 80 });
    expect(r.status).toBe(400);
    const issue = (r.body.error.issues as { path: string; code: string; params?: Record<string, number> }[]).find((i) => i.path === 'http_port');
    expect(issue).toMatchObject({ code: 'out_of_range', params: { min: 1025, max: 65535 } });
    expect(await message.textContent()).toBe(fill(en.errors.out_of_range, issue!.params!));
    expect((await a.get('/config/pew_api')).body).toEqual(before);
  });

  it('lists the HTTP files; the administrator deletes ticked ones after a question; the user role only looks', async () => {
    const http = join(suite.d.dataDir, 'http');
    await mkdir(http, { recursive: true });
    await writeFile(join(http, 'index.html'), '<p>unit</p>');
    await writeFile(join(http, 'app.js'), 'x'.repeat(2048));
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/rest');
    const list = page.locator('[data-http-files]');
    await list.locator('tr[data-file="index.html"]').waitFor();
    expect(await list.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-file')))).toEqual(['app.js', 'index.html']);
    const remove = list.locator('[data-action=remove-http-files]');
    expect(await remove.isDisabled()).toBe(true);
    await list.getByLabel(fill(en.rest.check, { name: 'app.js' })).check();
    await expectText(remove, fill(en.rest.remove, { count: 1 }));
    await remove.click();
    await expectText(dialog(page).locator('#dlg-text'), fill(en.rest.removeText, { count: 1 }));
    await dialog(page).locator('button', { hasText: en.confirm.cancel }).click(); // no: nothing happens
    expect(await list.locator('tr[data-file="app.js"]').count()).toBe(1);
    await remove.click();
    await dialog(page).locator('button.danger', { hasText: en.rest.removeYes }).click();
    await expectNotice(page, 'info', fill(en.rest.removed, { count: 1 }));
    await expect.poll(() => list.locator('tr[data-file="app.js"]').count()).toBe(0);
    await expect(access(join(http, 'app.js'))).rejects.toThrow();
    expect(await list.locator('tbody tr').count()).toBe(1);
    expect(suite.current!.errors).toEqual([]);
    await suite.current!.context.close();
    suite.current = undefined;

    const viewer = await suite.open();
    await loginApi(viewer.page, suite.d, USER);
    await openConsole(viewer.page, suite.d, '/rest');
    const vlist = viewer.page.locator('[data-http-files]');
    await vlist.locator('tr[data-file="index.html"]').waitFor();
    expect(await vlist.getByLabel(fill(en.rest.check, { name: 'index.html' })).isDisabled()).toBe(true);
    expect(await vlist.locator('[data-action=remove-http-files]').isDisabled()).toBe(true);
    expect(await fieldInput(viewer.page, KEY, 'http_port').isDisabled()).toBe(true);
  });
});
