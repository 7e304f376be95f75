// The console for keyboard and screen reader users: every route names the browser tab, the focus
// stays on the page after Save, the Help panel takes the focus (visible below the sticky top bar)
// and closes on Esc, the users and audit tables scroll from the keyboard at 360 px, and the top bar
// of a phone takes at most a fifth of the screen height in every language.

import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { PAGES } from '../../web/pages.ts';
import { consoleSuite, de, en, expectTitle, fieldInput, fr, loginApi, menuLink, openConsole, pageBody, RETRY_RESET } from './support.ts';

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } as const;

/** What has the focus: tag, id, and the data-action or class that tells the element apart. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const e = document.activeElement;
    return e ? `${e.tagName.toLowerCase()}#${e.id}.${e.getAttribute('data-action') ?? e.className}` : 'none';
  });

describe('keyboard, focus and titles', () => {
  const suite = consoleSuite();

  it('every route sets the page title of the browser tab, in the console language', async () => {
    const { page } = await suite.open();
    await page.goto(`${suite.d.url}/`);
    await page.locator('#login-user').waitFor();
    await expect.poll(() => page.title()).toBe(`${en.auth.loginTitle} – ${en.app.title}`);
    await loginApi(page, suite.d);
    await page.reload();
    await page.locator('#page-title').waitFor();
    for (const p of PAGES) {
      await menuLink(page, p.id).click();
      await expectTitle(page, en.nav[p.id]);
      await expect.poll(() => page.title()).toBe(`${en.nav[p.id]} – ${en.app.title}`);
    }
    await page.evaluate(() => {
      location.hash = '#/nope';
    });
    await expect.poll(() => page.title()).toBe(`${en.nav.notfound} – ${en.app.title}`);
    await page.locator('select[data-action=language]').selectOption('de');
    await expect.poll(() => page.title()).toBe(`${de.nav.notfound} – ${de.app.title}`);
  });

  it('after Save and Save all the focus stays in the page, not on <body>', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/mqtt');
    const keepAlive = fieldInput(page, 'pew_mqtt', 'keep_alive');
    const before = await keepAlive.inputValue();

    await keepAlive.fill('71');
    const save = page.locator('.page-bar [data-action=save]');
    await save.focus();
    await page.keyboard.press('Enter');
    await page.locator('.notice.info').waitFor();
    await expect.poll(() => save.isDisabled()).toBe(true);
    await expect.poll(() => focused(page)).toBe('main#main.');
    // Tab goes on from the page, not from the top of the document
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);

    await keepAlive.fill(before);
    const saveAll = page.locator('[data-action=save-all]');
    await saveAll.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => saveAll.isDisabled()).toBe(true);
    await expect.poll(() => focused(page)).toBe('main#main.');
    expect(await (await page.request.get(`${suite.d.url}/config/pew_mqtt`, RETRY_RESET)).json()).toMatchObject({ keep_alive: Number(before) });
  });

  it('Help takes the focus below the sticky top bar, Esc closes it and the focus returns to the Help button', async () => {
    const { page } = await suite.open({ viewport: { width: 1280, height: 600 } });
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/log');
    await pageBody(page, 'log').waitFor();
    await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(300);

    await page.locator('[data-action=help]').click();
    const help = page.locator('main aside.help');
    await help.locator('p').first().waitFor();
    await expect.poll(() => focused(page)).toBe('aside#.help card');
    expect(await page.locator('[data-action=help]').getAttribute('aria-expanded')).toBe('true');
    // the panel's heading is on screen, below the top bar and not under it
    const header = (await page.locator('header.top').boundingBox())!;
    const title = (await help.locator('#help-title').boundingBox())!;
    expect(title.y).toBeGreaterThanOrEqual(header.y + header.height);
    expect(title.y + title.height).toBeLessThanOrEqual(600);

    await page.keyboard.press('Escape');
    await expect.poll(() => help.count()).toBe(0);
    await expect.poll(() => focused(page)).toBe('button#.help');
    expect(await page.locator('[data-action=help]').getAttribute('aria-expanded')).toBe('false');
  });

  it('at 360 px the users and audit tables scroll from the keyboard', async () => {
    const { page } = await suite.open(PHONE);
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/users');
    for (const table of ['users', 'audit'] as const) {
      const box = page.locator(`[data-table=${table}]`).locator('xpath=..');
      await box.waitFor();
      expect(await box.getAttribute('tabindex')).toBe('0');
      expect(await box.getAttribute('aria-labelledby')).toBe(`${table}-title`);
      // wider than the screen: the box scrolls, and the arrow keys scroll it once it has the focus
      const { scrollWidth, clientWidth } = await box.evaluate((e) => ({ scrollWidth: e.scrollWidth, clientWidth: e.clientWidth }));
      expect(scrollWidth).toBeGreaterThan(clientWidth);
      await box.focus();
      for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
      await expect.poll(() => box.evaluate((e) => e.scrollLeft)).toBeGreaterThan(0);
    }
  });

  it.each([
    { lang: 'en', t: en },
    { lang: 'de', t: de },
    { lang: 'fr', t: fr },
  ] as const)('at 360 px in $lang the top bar takes at most a fifth of the height; theme and language are in the menu', async ({ lang, t }) => {
    const { page } = await suite.open({ ...PHONE, locale: lang });
    await page.addInitScript((l) => localStorage.setItem('console.locale', l), lang);
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/com');
    await expectTitle(page, t.nav.com);
    const header = (await page.locator('header.top').boundingBox())!;
    expect(header.height).toBeLessThanOrEqual(740 * 0.2);
    expect(await page.locator('header.top select').count()).toBe(0);

    await page.locator('header button.menu-toggle').click();
    const language = page.locator('#menu select[data-action=language]');
    await language.waitFor();
    expect(await page.locator('#menu select[data-action=theme]').inputValue()).toBe('default');
    await page.locator('#menu select[data-action=theme]').selectOption('darcula');
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('darcula');
    await language.selectOption('en');
    await expectTitle(page, en.nav.com);
  });
});
