// The /backuprestore page (spec §2, §4 password warning, §5 backup password rules, §8 messages):
// a backup with a password made and downloaded through the page, a setting changed, the file
// restored through the page after the question, the setting back (in the daemon and in the form);
// a wrong password refused with "The password is not correct" and nothing changed; the user role
// sees the page read-only.

import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { api, consoleSuite, en, ensureUser, expectText, expectTitle, fieldInput, fill, loginApi, openConsole, pageBody, USER } from './support.ts';

const PASSWORD = 'Site-Backup-7!';

describe('the backup and restore page', () => {
  const suite = consoleSuite();
  const body = (page: Page) => pageBody(page, 'backuprestore');
  const dialog = (page: Page) => page.locator('[role=alertdialog]');
  const keepAlive = async (page: Page) => (await (await api(page, suite.d)).get('/config/pew_mqtt')).body.keep_alive as number;
  const setKeepAlive = async (page: Page, value: number) => {
    const a = await api(page, suite.d);
    const current = (await a.get('/config/pew_mqtt')).body;
    expect((await a.post('/config/pew_mqtt', { ...current, keep_alive: value })).status).toBe(200);
  };

  it('backs up with a password, restores the file after the question, refuses a wrong password', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await setKeepAlive(page, 77);
    await openConsole(page, suite.d, '/backuprestore');
    await expectTitle(page, en.nav.backuprestore);

    // no password: the warning of spec §4; a weak one: the rules show what is missing
    await expectText(body(page).locator('[data-no-password]'), en.backup.noPasswordWarning);
    const backupButton = body(page).locator('[data-action=backup]');
    await page.locator('#backup-password').fill('weakpass');
    expect(await body(page).locator('[data-no-password]').count()).toBe(0);
    expect(await body(page).locator('[data-password-rules] li[data-ok=false]').allInnerTexts()).toEqual(
      [en.backup.rules.upper, en.backup.rules.digit, en.backup.rules.special].map((t) => `✗ ${t}`),
    );
    expect(await backupButton.isDisabled()).toBe(true);
    await page.locator('#backup-password').fill(PASSWORD);
    await page.locator('#backup-password-again').fill(`${PASSWORD}x`);
    await expectText(body(page).locator('[data-mismatch]'), en.backup.mismatch);
    expect(await backupButton.isDisabled()).toBe(true);
    await page.locator('#backup-password-again').fill(PASSWORD);
    await expect.poll(() => backupButton.isEnabled()).toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download'), backupButton.click()]);
    expect(download.suggestedFilename()).toMatch(/^[A-Za-z0-9-]+_\d{4}-\d\d-\d\d\.i4csettings$/);
    const file = await download.path();
    expect(file).toBeTruthy();

    await setKeepAlive(page, 99);

    // a wrong password: the question, then the message of spec §8, and nothing changed
    // the downloaded file under the name the daemon gave it (Playwright keeps downloads under a random name)
    await page
      .locator('#restore-file')
      .setInputFiles({ name: download.suggestedFilename(), mimeType: 'application/octet-stream', buffer: await readFile(file!) });
    await page.locator('#restore-password').fill('Wrong-Pass-1!');
    await body(page).locator('[data-action=restore]').click();
    await expectText(dialog(page).locator('#dlg-text'), fill(en.backup.confirmText, { name: download.suggestedFilename() }));
    await dialog(page).locator('button', { hasText: en.backup.restore }).click();
    await expectText(body(page).locator('[data-restore-result=failed]'), en.errors.backup_wrong_password);
    expect(await keepAlive(page)).toBe(99);

    // the right one: restored, in the daemon and in the form
    await page.locator('#restore-password').fill(PASSWORD);
    await body(page).locator('[data-action=restore]').click();
    await dialog(page).locator('button', { hasText: en.backup.restore }).click();
    await expectText(body(page).locator('[data-restore-result=ok]'), en.backup.restoreDone);
    expect(await keepAlive(page)).toBe(77);
    await openConsole(page, suite.d, '/mqtt');
    await expect.poll(() => fieldInput(page, 'pew_mqtt', 'keep_alive').inputValue()).toBe('77');
  }, 120_000);

  it('is read-only for the user role', async () => {
    await ensureUser(suite.d);
    const { page } = await suite.open();
    await loginApi(page, suite.d, USER);
    await openConsole(page, suite.d, '/backuprestore');
    await expectText(body(page).locator('[data-read-only]'), en.backup.readOnly);
    expect(await body(page).locator('[data-action=backup]').isDisabled()).toBe(true);
    expect(await page.locator('#restore-file').isDisabled()).toBe(true);
  });
});
