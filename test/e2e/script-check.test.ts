// The script's check and live status on /script in chromium (device/model/script; docs/script.md):
// an error shows on its line beside the text and in the list below as the technician types, in
// the user's language; a script with errors cannot be enabled (the console refuses the save and
// the daemon answers the same line and column); once fixed and saved, the status shows it running
// with each section's runs.

import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { api, consoleSuite, de, en, expectNotice, expectText, expectTitle, fieldInput, fill, loginApi, openConsole } from './support.ts';

describe('the script check on /script', () => {
  const suite = consoleSuite();
  const editor = (page: Page) => page.locator('#f-script_file-content');
  const save = (page: Page) => page.locator('.page-bar [data-action=save]');
  const stored = async (page: Page, key: string) => (await (await api(page, suite.d)).get(`/config/${key}`)).body;

  it('shows an error on its line as one types, blocks enabling, and the status of the running script', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/script');
    await expectTitle(page, en.nav.script);

    const bad = '[init]\nfile counts.csv\n[cycle 1]\nread x = DX 1\nappend x\n';
    await editor(page).fill(bad);
    const item = page.locator('[data-script-error=bad_area]');
    await expect.poll(() => item.getAttribute('data-line')).toBe('4');
    const message = fill(en.scriptLang.codes.bad_area, { area: 'DX', allowed: 'DT, LD, FL, WR, WL, WX, WY, INTERN' });
    await expectText(item, fill(en.scriptLang.at, { line: 4, column: 10, message }));
    await expect.poll(() => page.locator('.script-gutter .bad').allTextContents()).toEqual(['4', '5']);
    // x is set by no valid read: the append of line 5 is an error too, on its own line
    await expect.poll(() => page.locator('[data-script-error=unknown_name]').getAttribute('data-line')).toBe('5');
    // a click on the error puts the cursor on its place
    await item.locator('button').click();
    expect(await editor(page).evaluate((el: HTMLTextAreaElement) => el.selectionStart)).toBe(bad.indexOf('DX'));

    // enabling a script with errors: the switch shows why, the save is refused, nothing is stored
    await fieldInput(page, 'pew_script', 'enable_script').check();
    await expectText(page.locator('[data-field=enable_script] .error'), fill(en.errors.script_invalid, { line: 4, column: 10 }));
    expect(await page.locator('[data-action=write-file]').isDisabled()).toBe(true);
    await save(page).click();
    await page.locator('.notices .notice.error').first().waitFor();
    expect((await stored(page, 'pew_script')).enable_script).toBe(false);
    const r = await (await api(page, suite.d)).post('/config', {
      pew_script: { ...(await stored(page, 'pew_script')), enable_script: true },
      script_file: { content: bad },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.issues).toContainEqual({
      section: 'script_file',
      path: 'content',
      code: 'script_invalid',
      params: { area: 'DX', allowed: 'DT, LD, FL, WR, WL, WX, WY, INTERN', line: 4, column: 10, script: 'bad_area' },
    });

    // fixed: no errors, saved, running; the status counts the cycle's runs
    await editor(page).fill('[init]\nfile counts.csv\n[cycle 1]\nread x = INTERN 7\nappend x\n');
    await page.locator('[data-script-ok]').waitFor();
    expect(await page.locator('.script-gutter .bad').count()).toBe(0);
    await save(page).click();
    await expectNotice(page, 'info', en.form.notice.saved);
    expect((await stored(page, 'pew_script')).enable_script).toBe(true);
    const status = page.locator('[data-block=script-status]');
    await expect.poll(() => status.locator('[data-item=state] [data-state]').getAttribute('data-state'), { timeout: 15_000 }).toBe('running');
    await expectText(status.locator('[data-item=state] [data-state]'), en.scriptLang.status.states.running);
    await expect
      .poll(async () => Number(await status.locator('tr[data-section="cycle 1"] [data-runs]').textContent()), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(2);
    await expectText(status.locator('tr[data-section="init"] [data-runs]'), '1');
    await expectText(status.locator('[data-item=last-error] dd'), en.scriptLang.status.none);
  });

  it('the errors in German', async () => {
    const { page } = await suite.open({ locale: 'de-DE' });
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/script');
    await expectTitle(page, de.nav.script);
    await editor(page).fill('[cycle 0]\n');
    await expectText(
      page.locator('[data-script-error=cycle_range]'),
      fill(de.scriptLang.at, { line: 1, column: 8, message: fill(de.scriptLang.codes.cycle_range, { min: 1, max: 86400 }) }),
    );
  });
});
