// The service switches of /info as unsaved settings (spec §2, §4): a switched service survives a
// visit to another page only through the same question as every page's settings, shows the unsaved
// marker on /info's menu entry and enables Save all, which saves it to the unit. The unsaved marker
// stays readable on the current page's own (highlighted) menu entry in every theme.

import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { consoleSuite, en, expectText, expectTitle, fieldInput, loginApi, menuLink, openConsole } from './support.ts';

const toggle = (page: Page, name: string) => page.locator(`[data-service-switch="${name}"]`);
const dialog = (page: Page) => page.locator('.dialog');
const saveAll = (page: Page) => page.locator('[data-action="save-all"]');
const enabledOnUnit = async (_page: Page, d: { ctx: { hw: { services(): Promise<{ name: string; enabled: boolean }[]> } } }, name: string) =>
  (await d.ctx.hw.services()).find((s) => s.name === name)?.enabled;

/** WCAG 2 contrast ratio of two computed CSS colours ("rgb(r, g, b)") */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = c
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map((x) => {
        const v = Number(x) / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('unsaved service switches and the unsaved marker', () => {
  const suite = consoleSuite();

  it('a switched service asks before leaving /info, shows the marker, and Save all saves it', async () => {
    const { page } = await suite.open();
    const d = suite.d;
    await loginApi(page, d);
    await openConsole(page, d, '/info');
    await toggle(page, 'x11vnc').waitFor();
    expect(await saveAll(page).isDisabled()).toBe(true);
    expect(await menuLink(page, 'info').locator('.mark').count()).toBe(0);

    await toggle(page, 'x11vnc').check();
    await menuLink(page, 'info').locator('.mark.changed').waitFor();
    expect(await saveAll(page).isDisabled()).toBe(false);

    // leaving asks; staying keeps the switch
    await menuLink(page, 'mqtt').click();
    await expectText(dialog(page).locator('#dlg-title'), en.confirm.unsavedTitle);
    await expectText(dialog(page).locator('#dlg-text'), en.confirm.unsavedLeave);
    await dialog(page).locator('button.btn:not(.danger)').click();
    await expectTitle(page, en.nav.info);
    expect(await toggle(page, 'x11vnc').isChecked()).toBe(true);

    // an address typed or the back button asks as well
    await page.evaluate(() => {
      location.hash = '#/mqtt';
    });
    await dialog(page).waitFor();
    await dialog(page).locator('button.btn:not(.danger)').click();
    await expectTitle(page, en.nav.info);
    await saveAll(page).click();
    await expect.poll(() => enabledOnUnit(page, d, 'x11vnc')).toBe(true);
    await expectText(page.locator('.notice span').first(), en.form.notice.saved);
    expect(await saveAll(page).isDisabled()).toBe(true);
    expect(await menuLink(page, 'info').locator('.mark').count()).toBe(0);
    await menuLink(page, 'mqtt').click();
    await expectTitle(page, en.nav.mqtt); // nothing unsaved: no question
    expect(await dialog(page).count()).toBe(0);
  });

  it('leaving /info with a switched service drops the switch after the question', async () => {
    const { page } = await suite.open();
    const d = suite.d;
    await loginApi(page, d);
    await openConsole(page, d, '/info');
    await toggle(page, 'autorun').waitFor();
    const before = await enabledOnUnit(page, d, 'autorun');
    await toggle(page, 'autorun').setChecked(!before);
    await menuLink(page, 'graphs').click(); // a page without sections asks as well
    await dialog(page).locator('button.btn.danger').click();
    await expectTitle(page, en.nav.graphs);
    expect(await saveAll(page).isDisabled()).toBe(true);
    expect(await menuLink(page, 'info').locator('.mark').count()).toBe(0);
    await menuLink(page, 'info').click();
    await toggle(page, 'autorun').waitFor();
    expect(await toggle(page, 'autorun').isChecked()).toBe(before);
    expect(await enabledOnUnit(page, d, 'autorun')).toBe(before);
  });

  it("the unsaved marker on the current page's menu entry stands out from its highlight in every theme", async () => {
    const { page } = await suite.open();
    const d = suite.d;
    await loginApi(page, d);
    await openConsole(page, d, '/mqtt');
    await fieldInput(page, 'pew_mqtt', 'keep_alive').fill('66');
    const mark = menuLink(page, 'mqtt').locator('.mark.changed');
    await mark.waitFor();
    const themes = await page.locator('select[data-action=theme] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(themes).toHaveLength(5);
    for (const theme of themes) {
      await page.locator('select[data-action=theme]').selectOption(theme);
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      const [fg, bg] = await mark.evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el.closest('a')!).backgroundColor]);
      expect(contrast(fg!, bg!), `${theme}: ${fg} on ${bg}`).toBeGreaterThanOrEqual(3);
    }
  });
});
