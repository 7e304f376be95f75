// Routes, the not-found page, deep links and history, the help, the view filter, a page chunk that
// fails to load, and the narrow (360 px) layout.

import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { PAGES } from '../../web/pages.ts';
import {
  ADMIN,
  api,
  type ConsolePage,
  consoleSuite,
  de,
  en,
  expectText,
  expectTitle,
  fieldInput,
  fill,
  fr,
  loginApi,
  menuLink,
  newPage,
  openConsole,
  overflow,
  pageBody,
} from './support.ts';

describe('navigation', () => {
  const suite = consoleSuite();
  let cp: ConsolePage;

  const hash = (page: Page) => new URL(page.url()).hash;

  it('every route shows its title and page; / is the information page; an unknown route is not found', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    await page.goto(`${suite.d.url}/`);
    await expectTitle(page, en.nav.info);
    await pageBody(page, 'info').locator('.facts').first().waitFor();

    for (const p of PAGES) {
      await menuLink(page, p.id).click();
      await expectTitle(page, en.nav[p.id]);
      await pageBody(page, p.id).waitFor();
      expect(hash(page)).toBe(`#${p.path}`);
      expect(await menuLink(page, p.id).getAttribute('aria-current')).toBe('page');
      expect(await page.locator('#menu a[aria-current=page]').count()).toBe(1);
    }
    // typed into the address bar
    for (const p of PAGES.filter((_, i) => i % 5 === 0)) {
      await page.evaluate((path) => {
        location.hash = path;
      }, `#${p.path}`);
      await expectTitle(page, en.nav[p.id]);
      await pageBody(page, p.id).waitFor();
    }

    await page.evaluate(() => {
      location.hash = '#/';
    });
    await expectTitle(page, en.nav.info);
    await pageBody(page, 'info').waitFor();

    await page.evaluate(() => {
      location.hash = '#/nope';
    });
    await expectTitle(page, en.nav.notfound);
    await expectText(pageBody(page, 'notfound').locator('p'), fill(en.notFound.text, { path: '/nope' }));
    expect(await page.locator('#menu a[aria-current=page]').count()).toBe(0);
    await pageBody(page, 'notfound').locator('a', { hasText: en.notFound.back }).click();
    await expectTitle(page, en.nav.info);
    expect(hash(page)).toBe('#/info');
  });

  it('a deep link opens its page after login, and the back button returns to the previous page', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    await page.goto(`${suite.d.url}/#/mqtt`);
    await expectTitle(page, en.nav.mqtt);
    expect(await fieldInput(page, 'pew_mqtt', 'keep_alive').inputValue()).toBe('65');
    expect(await menuLink(page, 'mqtt').getAttribute('aria-current')).toBe('page');

    await menuLink(page, 'sql').click();
    await expectTitle(page, en.nav.sql);
    await page.locator('header .quick a', { hasText: en.nav.log }).click();
    await expectTitle(page, en.nav.log);
    expect(hash(page)).toBe('#/log');

    await page.goBack();
    await expectTitle(page, en.nav.sql);
    expect(hash(page)).toBe('#/sql');
    await page.goBack();
    await expectTitle(page, en.nav.mqtt);
    expect(hash(page)).toBe('#/mqtt');
    await fieldInput(page, 'pew_mqtt', 'keep_alive').waitFor();
    await page.goForward();
    await expectTitle(page, en.nav.sql);

    // a deep link opened before login lands on that page once signed in
    const other = await newPage(suite.browser);
    await other.page.goto(`${suite.d.url}/#/legal`);
    await other.page.locator('#login-user').fill('admin');
    await other.page.locator('#login-pw').fill(ADMIN.password);
    await other.page.locator('main.auth button[type=submit]').click();
    await expectTitle(other.page, en.nav.legal);
    await pageBody(other.page, 'legal').waitFor();
    expect(other.errors).toEqual([]);
    await other.context.close();
  });

  // Refusing a Back press with "Stay on the page" must not lose the previous history entry
  // (web/router/hash.tsx keeps each entry's position in history.state and undoes the move).
  it('after "Stay on the page" on Back, Back still leads to the previous page', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/info');
    await menuLink(page, 'mqtt').click();
    await expectTitle(page, en.nav.mqtt);
    await fieldInput(page, 'pew_mqtt', 'keep_alive').fill('100');
    const dialog = page.locator('[role=alertdialog]');
    await page.goBack({ waitUntil: 'commit' });
    await dialog.locator('button', { hasText: en.confirm.stay }).click();
    await expectTitle(page, en.nav.mqtt);
    await expect.poll(() => hash(page)).toBe('#/mqtt');
    await page.goBack({ waitUntil: 'commit' });
    await dialog.locator('button.danger', { hasText: en.confirm.leave }).click();
    await expectTitle(page, en.nav.info);
    expect(hash(page)).toBe('#/info');
  });

  it('Help shows the help text of the current page', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/mqtt');
    await expectTitle(page, en.nav.mqtt);
    const help = page.locator('main aside.help');
    expect(await help.count()).toBe(0);

    await page.locator('[data-action=help]').click();
    await expectText(help.locator('#help-title'), en.shell.help);
    await expect.poll(() => help.locator('p').allTextContents()).toEqual(en.help.pages.mqtt.split('\n'));

    await menuLink(page, 'info').click();
    await expectTitle(page, en.nav.info);
    await expect.poll(() => help.locator('p').allTextContents()).toEqual(en.help.pages.info.split('\n'));

    await page.evaluate(() => {
      location.hash = '#/nope';
    });
    await expect.poll(() => help.locator('p').allTextContents()).toEqual([en.help.pages.notfound]);

    await help.locator('button', { hasText: en.shell.close }).click();
    await expect.poll(() => help.count()).toBe(0);
  });

  it('the view filter lists only enabled or only disabled applications', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    const a = await api(page, suite.d);
    const mqtt = (await a.get('/config/pew_mqtt')).body;
    expect((await a.post('/config/pew_mqtt', { ...mqtt, enable_mqtt: true, broker_addr: 'mqtt://broker.example:1883' })).status).toBe(200);
    expect((await a.get('/config/pew_sql')).body.enable_sql).toBe(false);

    await openConsole(page, suite.d, '/info');
    const apps = () =>
      page
        .locator('#menu .group')
        .nth(2)
        .locator('a')
        .evaluateAll((as) => as.map((x) => x.getAttribute('data-page')));
    const select = page.locator('#menu .filter select');
    expect(await select.inputValue()).toBe('all');
    await expect.poll(apps).toEqual(expect.arrayContaining(['mqtt', 'sql', 'db', 'ftp']));
    expect(await menuLink(page, 'mqtt').locator('.dot').getAttribute('class')).toBe('dot on');
    expect(await menuLink(page, 'sql').locator('.dot').getAttribute('class')).toBe('dot off');

    await select.selectOption('enabled');
    await expect.poll(apps).not.toContain('sql');
    const enabled = await apps();
    expect(enabled).toContain('mqtt');
    expect(enabled).not.toContain('ftp');
    // pages without a switch of their own stay listed, and the other groups are not filtered
    expect(enabled).toContain('graphs');
    expect(await menuLink(page, 'com').count()).toBe(1);
    expect(await menuLink(page, 'legal').count()).toBe(1);

    await select.selectOption('disabled');
    await expect.poll(apps).not.toContain('mqtt');
    const disabled = await apps();
    expect(disabled).toEqual(expect.arrayContaining(['sql', 'db', 'ftp', 'httpc', 'smtp', 'graphs']));

    // remembered in the browser
    await page.reload();
    await page.locator('#page-title').waitFor();
    expect(await select.inputValue()).toBe('disabled');
    await expect.poll(apps).toEqual(disabled);

    await select.selectOption('all');
    await expect.poll(apps).toEqual(expect.arrayContaining(['mqtt', 'sql']));
    expect((await a.post('/config/pew_mqtt', mqtt)).status).toBe(200);
  });

  it('a page chunk that fails to load shows the retry message; Retry loads it', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    // everything the first load needs (info page, model chunk in the background) is in before blocking
    await page.goto(`${suite.d.url}/#/info`, { waitUntil: 'networkidle' });
    await pageBody(page, 'info').locator('.facts').first().waitFor();

    const blocked: string[] = [];
    await page.route('**/assets/*.js', (route) => {
      blocked.push(new URL(route.request().url()).pathname);
      return route.abort('connectionfailed');
    });
    // a page whose chunk and texts this browser has not loaded yet
    await menuLink(page, 'datetime').click();
    await expectTitle(page, en.nav.datetime);
    const alert = page.locator('main .error-card[role=alert]');
    await expectText(alert.locator('p'), en.notify.chunkFailed);
    expect(blocked.length).toBeGreaterThan(0);
    expect(await pageBody(page, 'datetime').count()).toBe(0);
    // the shell keeps working meanwhile
    await menuLink(page, 'info').click();
    await expectTitle(page, en.nav.info);
    await pageBody(page, 'info').waitFor();

    await menuLink(page, 'datetime').click();
    await expectText(alert.locator('p'), en.notify.chunkFailed);
    await page.unroute('**/assets/*.js');
    await alert.locator('button', { hasText: en.notify.retry }).click();
    await expectTitle(page, en.nav.datetime);
    await expectText(pageBody(page, 'datetime').locator('label[for="f-pew_rtc-rtc_by_plc"]'), en.fields.pew_rtc.rtc_by_plc.label);
    expect(await alert.count()).toBe(0);
  });

  it.each([
    { lang: 'en', t: en },
    { lang: 'de', t: de },
    { lang: 'fr', t: fr },
  ] as const)('at 1280×800 ($lang) the menu is no scroll box of its own: the logger and the graphs are reached by scrolling the page', async ({ lang, t }) => {
    cp = await suite.open({ viewport: { width: 1280, height: 800 }, locale: lang });
    const { page } = cp;
    await page.addInitScript((l) => localStorage.setItem('console.locale', l), lang);
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/info');
    const wrap = await page.locator('.menu-wrap').evaluate((e) => ({ scroll: e.scrollHeight, client: e.clientHeight }));
    expect(wrap.scroll).toBeLessThanOrEqual(wrap.client + 1);
    await menuLink(page, 'graphs').click();
    await expectTitle(page, t.nav.graphs);
  });

  it('at 360 px the pages fit the width and the menu opens with ☰, as tall as its entries', async () => {
    cp = await suite.open({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const { page } = cp;
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/info');
    await pageBody(page, 'info').locator('.facts').first().waitFor();
    expect(await overflow(page)).toEqual({ scrollWidth: 360, wider: [] });

    const menu = page.locator('#menu');
    const toggle = page.locator('header button.menu-toggle');
    expect(await menu.isVisible()).toBe(false);
    expect(await toggle.isVisible()).toBe(true);
    expect(await toggle.textContent()).toContain('☰');
    await toggle.click();
    await menu.waitFor({ state: 'visible' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const box = await menu.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    // the open menu is not a box that scrolls inside the page: every entry is in it, the last one too
    const wrap = await page.locator('.menu-wrap').evaluate((e) => ({ scroll: e.scrollHeight, client: e.clientHeight }));
    expect(wrap.scroll).toBeLessThanOrEqual(wrap.client + 1);
    const last = await page.locator('#menu a').last().boundingBox();
    expect(last!.y + last!.height).toBeLessThanOrEqual(box!.y + box!.height + 1);
    await menuLink(page, 'mqtt').click();
    await expectTitle(page, en.nav.mqtt);
    await menu.waitFor({ state: 'hidden' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    await fieldInput(page, 'pew_mqtt', 'keep_alive').waitFor();
    expect(await overflow(page)).toEqual({ scrollWidth: 360, wider: [] });
    await page.locator('[data-action=help]').click();
    await page.locator('main aside.help p').first().waitFor();
    expect(await overflow(page)).toEqual({ scrollWidth: 360, wider: [] });
  });
});
