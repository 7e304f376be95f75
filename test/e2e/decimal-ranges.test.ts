// Ranges and range messages write their numbers as the language does (spec §1 languages): German
// and French "0,2 – 120", English "0.2 – 120"; ports keep their digits without grouping.

import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { consoleSuite, de, en, expectText, fieldInput, fill, fr, loginApi, menuLink, openConsole, pageDrawn } from './support.ts';

const field = (page: Page, path: string) => page.locator(`[data-page] [data-field="${path}"]`);

describe('numbers in ranges', () => {
  const suite = consoleSuite();

  it('the MQTT poll time range and its message use the decimal comma in German and French', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/mqtt');
    const help = (l: typeof en) => l.fields.pew_mqtt.plc_poll.help;
    const hint = (l: typeof en, min: string) => [help(l), fill(l.form.range, { min, max: '120' })].filter(Boolean).join(' · ');
    await expectText(field(page, 'plc_poll').locator('.hint'), hint(en, '0.2'));
    await fieldInput(page, 'pew_mqtt', 'plc_poll').fill('0.1');
    await expectText(field(page, 'plc_poll').locator('.error'), fill(en.errors.out_of_range, { min: '0.2', max: '120' }));
    for (const [lang, l] of [
      ['de', de],
      ['fr', fr],
    ] as const) {
      await page.locator('select[data-action=language]').selectOption(lang);
      await expectText(field(page, 'plc_poll').locator('.error'), fill(l.errors.out_of_range, { min: '0,2', max: '120' }));
      await fieldInput(page, 'pew_mqtt', 'plc_poll').fill('1');
      await expectText(field(page, 'plc_poll').locator('.hint'), hint(l, '0,2'));
      await fieldInput(page, 'pew_mqtt', 'plc_poll').fill('0.1');
    }
    // a port number keeps its digits (no grouping): 65535, not 65.535
    await fieldInput(page, 'pew_mqtt', 'keep_alive').fill('70000');
    await expectText(field(page, 'keep_alive').locator('.error'), fill(fr.errors.out_of_range, { min: '0', max: '65535' }));
  });

  it('the pages the daemon frames write their ranges and values without Intl.NumberFormat (its first use loads the number data: up to 160 ms of a move to /mqtt at CPU 4×)', async () => {
    const { page, context } = await suite.open();
    await context.addInitScript(() => {
      const made: string[] = [];
      (window as unknown as { intlMade: string[] }).intlMade = made;
      const Real = Intl.NumberFormat;
      Intl.NumberFormat = new Proxy(Real, {
        construct: (target, args: ConstructorParameters<typeof Intl.NumberFormat>) => {
          made.push(`${location.hash} ${JSON.stringify(args)}`);
          return new target(...args);
        },
      });
    });
    await loginApi(page, suite.d);
    for (const lang of ['en', 'de', 'fr'] as const) {
      await openConsole(page, suite.d, '/info');
      await page.locator('select[data-action=language]').selectOption(lang);
      for (const route of ['com', 'port', 'log', 'mqtt', 'graphs', 'info']) {
        await menuLink(page, route).click();
        await page.locator(`main [data-page="${route}"]`).waitFor();
        await pageDrawn(page);
      }
      expect(await page.evaluate(() => (window as unknown as { intlMade: string[] }).intlMade), lang).toEqual([]);
    }
  });
});
