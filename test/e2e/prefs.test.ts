// Language and theme: switched from the top bar, every text from the chosen dictionary (no raw key,
// no empty label), the theme applied to the document, both remembered across a reload.

import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { PAGES } from '../../web/pages.ts';
import {
  type ConsolePage,
  consoleSuite,
  de,
  en,
  expectText,
  expectTitle,
  fieldInput,
  fr,
  loginApi,
  menuLink,
  openConsole,
  pageBody,
  pageDrawn,
} from './support.ts';

type Dict = typeof en;
const RAW_KEY = /^[a-z_]+(\.[a-z_]+)+$/;
// the view filter's choices (web/state/prefs.ts touches the document when imported)
const FILTERS = ['all', 'enabled', 'disabled'] as const;

/** Visible text that looks like a dictionary key, and labels without a text of their own. */
function textProblems(page: Page) {
  return page.evaluate((source) => {
    const rawKey = new RegExp(source);
    const rawKeys: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent?.trim() ?? '';
      const parent = n.parentElement;
      if (text && rawKey.test(text) && parent?.checkVisibility()) rawKeys.push(`${parent.tagName.toLowerCase()}: ${text}`);
    }
    const emptyLabels = [...document.querySelectorAll('label')]
      .filter((l) => {
        const own = l.cloneNode(true) as HTMLElement;
        own.querySelectorAll('input, select, textarea, option').forEach((c) => c.remove());
        return !own.textContent?.trim();
      })
      .map((l) => l.outerHTML.slice(0, 120));
    return { rawKeys, emptyLabels, labels: document.querySelectorAll('label').length };
  }, RAW_KEY.source);
}

describe('language and theme', () => {
  const suite = consoleSuite();
  let cp: ConsolePage;

  /** The shell and the MQTT page show the texts of `t`, and nothing that looks untranslated. */
  async function expectLanguage(page: Page, lang: string, t: Dict) {
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
    expect(await page.locator('select[data-action=language]').inputValue()).toBe(lang);
    await expectTitle(page, t.nav.mqtt);
    const menu = await page.locator('#menu a[data-page]').evaluateAll((as) => as.map((a) => [a.getAttribute('data-page'), a.firstElementChild?.textContent]));
    expect(menu).toEqual((['system', 'plc', 'apps'] as const).flatMap((g) => PAGES.filter((p) => p.group === g).map((p) => [p.id, t.nav[p.id]])));
    expect(await page.locator('#menu .group h2').allTextContents()).toEqual([t.menu.groups.system, t.menu.groups.plc, t.menu.groups.apps]);
    await expectText(page.locator('#menu .filter > span'), t.menu.filter);
    expect(await page.locator('#menu .filter option').allTextContents()).toEqual(FILTERS.map((f) => t.menu.filters[f]));
    expect(await page.locator('header .quick a').allTextContents()).toEqual(PAGES.filter((p) => p.quick).map((p) => t.nav[p.id]));
    expect(await page.locator('[data-action=help]').textContent()).toBe(t.shell.help);
    expect(await page.locator('[data-action=logout]').textContent()).toBe(t.shell.logout);
    expect(await page.locator('select[data-action=language] option').allTextContents()).toEqual([t.languages.de, t.languages.en, t.languages.fr]);
    const field = pageBody(page, 'mqtt').locator('[data-field=keep_alive]');
    await expectText(field.locator('label'), t.fields.pew_mqtt.keep_alive.label);
    expect(await pageBody(page, 'mqtt').locator('#mqtt-general').textContent()).toBe(t.service.general);
    await pageDrawn(page); // every step of /mqtt (web/shell/in-steps.tsx): the whole page is checked
    const problems = await textProblems(page);
    expect(problems.labels).toBeGreaterThan(10);
    expect(problems.rawKeys).toEqual([]);
    expect(problems.emptyLabels).toEqual([]);
  }

  it('switching to Deutsch and Français changes the texts; dracula changes the colours; both survive a reload', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/mqtt');
    await fieldInput(page, 'pew_mqtt', 'keep_alive').waitFor();
    expect(await page.locator('select[data-action=language] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual([
      'de',
      'en',
      'fr',
    ]);
    await expectLanguage(page, 'en', en);

    // the translations differ from English, so the switch shows on screen (not only in <html lang>)
    const differing = PAGES.filter((p) => de.nav[p.id] !== en.nav[p.id] && fr.nav[p.id] !== en.nav[p.id]).map((p) => p.id);
    expect(differing).toContain('mqtt');
    await page.locator('select[data-action=language]').selectOption('de');
    await expectLanguage(page, 'de', de as Dict);
    expect(await page.locator('#page-title').textContent()).not.toBe(en.nav.mqtt);
    await page.locator('select[data-action=language]').selectOption('fr');
    await expectLanguage(page, 'fr', fr as Dict);
    // another page in that language
    await menuLink(page, 'info').click();
    await expectTitle(page, fr.nav.info);
    await pageBody(page, 'info').locator('.facts').first().waitFor();
    await expectText(page.locator('#info-services'), fr.info.services);
    expect((await textProblems(page)).rawKeys).toEqual([]);
    await menuLink(page, 'mqtt').click();
    await expectTitle(page, fr.nav.mqtt);

    // theme
    const themeSelect = page.locator('select[data-action=theme]');
    expect(await themeSelect.inputValue()).toBe('default');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('default');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await themeSelect.selectOption('dracula');
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dracula');
    const dark = await background();
    expect(dark).not.toBe(light);
    const luminance = (rgb: string) =>
      rgb
        .match(/\d+/g)!
        .slice(0, 3)
        .map(Number)
        .reduce((a, b) => a + b, 0) / 3;
    expect(luminance(dark)).toBeLessThan(luminance(light));
    expect(await page.locator('select[data-action=theme] option:checked').textContent()).toBe(fr.themes.dracula);

    // reload: both remembered
    await page.reload();
    await page.locator('#page-title').waitFor();
    await fieldInput(page, 'pew_mqtt', 'keep_alive').waitFor();
    await expectLanguage(page, 'fr', fr as Dict);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dracula');
    expect(await themeSelect.inputValue()).toBe('dracula');
    expect(await background()).toBe(dark);

    // and back to English
    await page.locator('select[data-action=language]').selectOption('en');
    await expectLanguage(page, 'en', en);
  });
});
