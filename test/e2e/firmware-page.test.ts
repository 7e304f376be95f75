// The firmware page against a simulator started under its supervisor (spec §2 /firmware, §4
// upload → updating → rebooting then the page refreshes itself, §5 files together, §8): a lone
// .zip is reported as missing files before anything is sent, a bad .md5 is refused by the daemon
// with its message and nothing changes, and a good image is installed through the page: the page
// refreshes itself, and after signing in again /info shows the new version; a unit that does not
// come back gives the browser-timeout message after 2 minutes and a refresh about 90 s later.

import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BROWSER_TIMEOUT_MS, RETRY_REFRESH_MS } from '../../device/model/firmware.ts';
import { adminClient, buildTestImages, makeRoot, runningVersion, type Supervisor, startSupervisor, type TestImages } from '../support/firmware.ts';
import { ADMIN, type ConsolePage, en, expectNotice, expectText, launchBrowser, loginUi, newPage, pageBody, RETRY_RESET, WAIT_MS } from './support.ts';

describe('the firmware page', () => {
  let imgs: TestImages;
  let root: string;
  let sup: Supervisor;
  let browser: Browser;
  let cp: ConsolePage;

  beforeAll(async () => {
    imgs = await buildTestImages(['1.5.0', '1.5.1'], { webFrom: inject('webDir') });
    root = await makeRoot(imgs.keyPem);
    [sup, browser] = await Promise.all([startSupervisor(root, { image: imgs.images.get('1.5.0')!.zipFile }), launchBrowser()]);
    await adminClient(sup.url); // the administrator is set up
    cp = await newPage(browser);
    const r = await cp.page.request.post(`${sup.url}/rest/api/v1/authentication`, { data: ADMIN, ...RETRY_RESET });
    expect(r.status()).toBe(200);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await sup?.stop();
    await rm(imgs.dir, { recursive: true, force: true });
    await rm(root, { recursive: true, force: true });
  });

  const image = (v: string) => imgs.images.get(v)!;

  it('reports a lone .zip as missing files and sends nothing', async () => {
    const { page } = cp;
    await page.goto(`${sup.url}/#/firmware`);
    await expectText(pageBody(page, 'firmware').locator('[data-running-version]'), '1.5.0');
    await page.setInputFiles('#firmware-files', [image('1.5.1').zipFile]);
    await expectText(page.locator('[data-file-problem]'), en.firmware.reasons.missing_files);
    expect(await page.locator('[data-action=update]').isDisabled()).toBe(true);
  });

  it('a bad .md5 is refused by the unit with its message; nothing changes', async () => {
    const { page } = cp;
    const badMd5 = join(imgs.dir, 'communicator-1.5.1.md5');
    await writeFile(badMd5, '0123456789abcdef0123456789abcdef  communicator-1.5.1.zip\n');
    await page.setInputFiles('#firmware-files', [image('1.5.1').zipFile, badMd5]);
    await page.locator('[data-action=update]').click();
    await page.locator('[role=alertdialog] button', { hasText: en.firmware.start }).click();
    await expectText(page.locator('[data-update-error]'), en.firmware.refused.replace('{reason}', en.firmware.reasons.md5));
    expect(await runningVersion(sup.url)).toBe('1.5.0');
  });

  it('installs a good image: upload, updating, rebooting, the page refreshes itself, /info shows the new version', async () => {
    const { page } = cp;
    await page.goto(`${sup.url}/#/firmware`);
    await expectText(pageBody(page, 'firmware').locator('[data-running-version]'), '1.5.0');
    await page.setInputFiles('#firmware-files', [image('1.5.1').zipFile, image('1.5.1').md5File]);
    const t0 = Date.now();
    await page.locator('[data-action=update]').click();
    await page.locator('[role=alertdialog] button', { hasText: en.firmware.start }).click();
    // the progress card shows while the update runs; there is no way to cancel it
    await page.locator('[data-update-phase]').waitFor();
    expect(await page.locator('[data-update-phase] button').count()).toBe(0);
    // the page reloads itself once the restarted unit answers: the new daemon has no session, so the login shows
    await page.locator('main.auth').waitFor({ timeout: 90_000 });
    console.log(`firmware page: update → console back after ${Date.now() - t0} ms`);
    await loginUi(page, ADMIN);
    // signed in again, the console says how the update ended, with the version read from the unit
    await expectNotice(page, 'info', en.firmware.nowRunning.replace('{version}', '1.5.1').replace('{from}', '1.5.0'));
    await page.goto(`${sup.url}/#/info`);
    await expect.poll(async () => (await pageBody(page, 'info').textContent()) ?? '', { timeout: WAIT_MS }).toContain('1.5.1 (');
    await page.goto(`${sup.url}/#/firmware`);
    await expectText(pageBody(page, 'firmware').locator('[data-running-version]'), '1.5.1');
    await expectText(page.locator('[data-last-install]'), en.firmware.lastOk.replace('{version}', '1.5.1').replace('{from}', '1.5.0'));
    expect(cp.errors).toEqual([]);
  });

  it('a unit that does not come back: after 2 minutes the browser-timeout message, a retry refresh after about 90 s', async () => {
    const { page } = cp;
    // the page's clock is moved by hand; the unit is stopped once the update was accepted
    await page.clock.install();
    await page.goto(`${sup.url}/#/firmware`);
    await expectText(pageBody(page, 'firmware').locator('[data-running-version]'), '1.5.1');
    await page.setInputFiles('#firmware-files', [image('1.5.1').zipFile, image('1.5.1').md5File]);
    const accepted = page.waitForResponse((r) => r.url().includes('/config/firmware?') && r.status() === 202);
    await page.locator('[data-action=update]').click();
    await page.locator('[role=alertdialog] button', { hasText: en.firmware.start }).click();
    await accepted;
    await sup.stop();
    await page.clock.runFor(5_000);
    await expectText(page.locator('[data-update-phase]').locator('[aria-current=step]'), `${en.firmware.states.rebooting} …`);
    await page.clock.runFor(BROWSER_TIMEOUT_MS);
    await expect.poll(async () => (await page.locator('[data-update-timeout]').textContent()) ?? '', { timeout: WAIT_MS }).toContain(en.firmware.timeout);
    expect(await page.locator('[data-update-timeout]').textContent()).toContain(en.firmware.retryIn.replace('{seconds}', '90'));
    const reloaded = page.waitForEvent('framenavigated', { timeout: WAIT_MS });
    await page.clock.runFor(RETRY_REFRESH_MS);
    await reloaded;
  });
});
