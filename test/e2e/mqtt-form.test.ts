// The MQTT page as the template form: unsaved changes when leaving, save with its notice, reset to
// the defaults, and an invalid value refused by the console and by the daemon with the same code.

import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { SAVED_MS } from '../../web/state/notify.ts';
import {
  api,
  type ConsolePage,
  consoleSuite,
  de,
  en,
  expectNotice,
  expectText,
  expectTitle,
  fieldInput,
  fill,
  fr,
  loginApi,
  menuLink,
  openConsole,
  saveRefusal,
} from './support.ts';

const KEEP_ALIVE_DEFAULT = 65;

describe('the MQTT form', () => {
  const suite = consoleSuite();
  let cp: ConsolePage;

  const keepAlive = (page: Page) => fieldInput(page, 'pew_mqtt', 'keep_alive');
  const dialog = (page: Page) => page.locator('[role=alertdialog]');
  const marker = (page: Page) => menuLink(page, 'mqtt').locator('.mark');
  const storedKeepAlive = async (page: Page) => {
    const r = await (await api(page, suite.d)).get('/config/pew_mqtt');
    expect(r.status).toBe(200);
    return r.body.keep_alive as number;
  };

  it('leaving with an edit asks first; stay keeps it; save stores it with a 3 s notice; reset brings back the default', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/mqtt');
    await expectTitle(page, en.nav.mqtt);
    expect(await keepAlive(page).inputValue()).toBe(String(KEEP_ALIVE_DEFAULT));
    const save = page.locator('.page-bar [data-action=save]');
    expect(await save.isDisabled()).toBe(true);

    await keepAlive(page).fill('120');
    await expect.poll(() => save.isEnabled()).toBe(true);
    await expect.poll(() => marker(page).getAttribute('class')).toBe('mark changed');
    expect(await page.locator('[data-action=save-all]').isEnabled()).toBe(true);

    // another menu entry: the question, and "stay" keeps the page and the edit
    await menuLink(page, 'sql').click();
    await expectText(dialog(page).locator('#dlg-title'), en.confirm.unsavedTitle);
    await expectText(dialog(page).locator('#dlg-text'), en.confirm.unsavedLeave);
    await dialog(page).locator('button', { hasText: en.confirm.stay }).click();
    await expect.poll(() => dialog(page).count()).toBe(0);
    await expectTitle(page, en.nav.mqtt);
    await expect.poll(() => new URL(page.url()).hash).toBe('#/mqtt');
    expect(await keepAlive(page).inputValue()).toBe('120');
    expect(await storedKeepAlive(page)).toBe(KEEP_ALIVE_DEFAULT);

    // save: the green notice for 3 s. The page records when it comes and goes (performance.now()),
    // so the measured lifetime does not depend on how quickly this process polls.
    await page.evaluate(() => {
      const seen: { added?: number; removed?: number } = {};
      (window as unknown as { savedNotice: typeof seen }).savedNotice = seen;
      new MutationObserver(() => {
        const there = [...document.querySelectorAll('.notices .notice.info')].length > 0;
        if (there && seen.added === undefined) seen.added = performance.now();
        if (!there && seen.added !== undefined && seen.removed === undefined) seen.removed = performance.now();
      }).observe(document.body, { childList: true, subtree: true });
    });
    await save.click();
    const notice = page.locator('.notices .notice.info', { hasText: en.form.notice.saved });
    await notice.waitFor({ state: 'visible' });
    expect(await notice.locator('.bar').evaluate((e) => (e as HTMLElement).style.animationDuration)).toBe(`${SAVED_MS}ms`);
    expect(SAVED_MS).toBe(3000);
    const [r, g, b] = (await notice.evaluate((e) => getComputedStyle(e).backgroundColor)).match(/\d+/g)!.map(Number) as [number, number, number];
    expect(g).toBeGreaterThan(r); // green (info), not red (error) or orange (warning)
    expect(g).toBeGreaterThan(b);
    expect(await storedKeepAlive(page)).toBe(120);
    await expect.poll(() => marker(page).count()).toBe(0);
    expect(await save.isDisabled()).toBe(true);
    await notice.waitFor({ state: 'detached' }); // it goes by itself
    // after its 3 s (SAVED_MS, the bar's animation above), not sooner; later only as much as a busy
    // machine delays the page's timer
    const life = await page.evaluate(() => (window as unknown as { savedNotice: { added?: number; removed?: number } }).savedNotice);
    expect(life.removed! - life.added!).toBeGreaterThan(2900);

    // now leaving does not ask
    await menuLink(page, 'sql').click();
    await expectTitle(page, en.nav.sql);
    expect(await dialog(page).count()).toBe(0);
    await menuLink(page, 'mqtt').click();
    await expectTitle(page, en.nav.mqtt);

    // reload: the stored value
    await page.reload();
    await expectTitle(page, en.nav.mqtt);
    await expect.poll(() => keepAlive(page).inputValue()).toBe('120');

    // reset asks, puts the defaults in the fields, stores nothing until saved
    await page.locator('.page-bar [data-action=reset]').click();
    await expectText(dialog(page).locator('#dlg-title'), en.confirm.resetTitle);
    await dialog(page).locator('button.danger', { hasText: en.confirm.reset }).click();
    await expect.poll(() => keepAlive(page).inputValue()).toBe(String(KEEP_ALIVE_DEFAULT));
    await expectNotice(page, 'warning', en.form.notice.resetDone);
    await expect.poll(() => marker(page).getAttribute('class')).toBe('mark changed');
    expect(await storedKeepAlive(page)).toBe(120);
    await save.click();
    await expectNotice(page, 'info', en.form.notice.saved);
    expect(await storedKeepAlive(page)).toBe(KEEP_ALIVE_DEFAULT);
    expect(await keepAlive(page).inputValue()).toBe(String(KEEP_ALIVE_DEFAULT));

    // reset once more: the defaults are saved already, Save stays off, and the notice does not ask for it
    await page.locator('.page-bar [data-action=reset]').click();
    await dialog(page).locator('button.danger', { hasText: en.confirm.reset }).click();
    await expectNotice(page, 'info', en.form.notice.resetSame);
    expect(await save.isDisabled()).toBe(true);
  });

  it('an out-of-range value: inline message, marked in the menu, save refused; the daemon answers the same code', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/mqtt');
    const before = await (await api(page, suite.d)).get('/config/pew_mqtt');
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith('/config')) posts.push(r.url());
    });

    await keepAlive(page).fill('70000');
    const message = page.locator('[data-field=keep_alive] .error');
    await expectText(message, fill(en.errors.out_of_range, { min: 0, max: 65535 }));
    expect(await keepAlive(page).getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => marker(page).getAttribute('class')).toBe('mark invalid');
    expect(await marker(page).getAttribute('aria-label')).toBe(en.shell.invalid);

    await page.locator('.page-bar [data-action=save]').click();
    const error = page.locator('.notices .notice.error');
    await expectText(
      error.locator('span'),
      saveRefusal([[`${en.nav.mqtt}, ${en.fields.pew_mqtt.keep_alive.label}`, fill(en.errors.out_of_range, { min: 0, max: 65535 })]]),
    );
    expect(await error.getAttribute('role')).toBe('alert');
    expect(posts).toEqual([]);
    expect((await (await api(page, suite.d)).get('/config/pew_mqtt')).body).toEqual(before.body);
    expect(await keepAlive(page).inputValue()).toBe('70000');
    expect(await message.isVisible()).toBe(true);

    // the same value sent to the daemon with the session: refused with the code and params of the message
    const a = await api(page, suite.d);
    expect((await a.post('/config/pew_mqtt', { ...before.body, keep_alive: 70000 }, {})).status).toBe(403); // no CSRF token
    const r = await a.post('/config/pew_mqtt', { ...before.body, keep_alive: 70000 });
    expect(r.status).toBe(400);
    const issue = (r.body.error.issues as { path: string; code: string; params?: Record<string, number> }[]).find((i) => i.path === 'keep_alive');
    expect(issue).toMatchObject({ path: 'keep_alive', code: 'out_of_range', params: { min: 0, max: 65535 } });
    expect(await message.textContent()).toBe(fill(en.errors[issue!.code as 'out_of_range'], issue!.params!));
    expect((await a.get('/config/pew_mqtt')).body).toEqual(before.body);

    // a valid value clears the message and the marker
    await keepAlive(page).fill('65535');
    await expect.poll(() => message.count()).toBe(0);
    await expect.poll(() => marker(page).getAttribute('class')).toBe('mark changed');

    // leaving without saving drops the edit
    await menuLink(page, 'sql').click();
    await dialog(page).locator('button.danger', { hasText: en.confirm.leave }).click();
    await expectTitle(page, en.nav.sql);
    expect(await marker(page).count()).toBe(0);
    await menuLink(page, 'mqtt').click();
    await expectTitle(page, en.nav.mqtt);
    expect(await keepAlive(page).inputValue()).toBe(String(before.body.keep_alive));
    expect(posts).toEqual([]);
  });
  it.each([
    ['en-GB', en],
    ['de-DE', de],
    ['fr-FR', fr],
  ] as const)('logging out with an edit asks first: stay keeps it; log out drops it; nothing changed, no question (%s)', async (locale, t) => {
    cp = await suite.open({ locale });
    const { page } = cp;
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/mqtt');
    await expectTitle(page, t.nav.mqtt);
    const logout = page.locator('header [data-action=logout]');
    await keepAlive(page).fill('121');
    await logout.click();
    await expectText(dialog(page).locator('#dlg-title'), t.confirm.unsavedTitle);
    await expectText(dialog(page).locator('#dlg-text'), t.confirm.unsavedLogout);
    await dialog(page).locator('button', { hasText: t.confirm.stayLoggedIn }).click();
    await expect.poll(() => dialog(page).count()).toBe(0);
    await expectTitle(page, t.nav.mqtt);
    expect(await keepAlive(page).inputValue()).toBe('121');

    await logout.click();
    await dialog(page).locator('button', { hasText: t.confirm.logout }).click();
    await page.locator('#login-user').waitFor();
    expect((await (await suite.d.admin()).get('/config/pew_mqtt')).body.keep_alive).toBe(KEEP_ALIVE_DEFAULT);

    // signed in again: the saved value, and a log out without changes goes at once
    await loginApi(page, suite.d);
    await page.reload(); // the same address: a reload, as a technician signing in again would see it
    await expectTitle(page, t.nav.mqtt);
    expect(await keepAlive(page).inputValue()).toBe(String(KEEP_ALIVE_DEFAULT));
    await logout.click();
    await page.locator('#login-user').waitFor();
    expect(await dialog(page).count()).toBe(0);
  });
});
