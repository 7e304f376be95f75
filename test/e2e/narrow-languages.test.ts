// At 360 px German and French keep a number with its unit and word it in their own order. That every
// page fits 360 px in every language, on a configured unit, is checked by the axe-core sweep
// (axe-sweep.ts, accessibility-phone.test.ts).
import { describe, expect, it } from 'vitest';
import { consoleSuite, de, fr, loginApi, openConsole, pageBody } from './support.ts';

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } as const;

describe('360 px in every language', () => {
  const suite = consoleSuite();

  it('German and French word the memory of /info in their order, the number kept with its unit', async () => {
    for (const [lang, text] of [
      ['de', '256\u00a0MiB von 512\u00a0MiB frei'],
      ['fr', '256\u00a0MiB libres sur 512\u00a0MiB'],
    ] as const) {
      const { page, context } = await suite.open({ ...PHONE, locale: lang });
      await page.addInitScript((l) => localStorage.setItem('console.locale', l), lang);
      await loginApi(page, suite.d);
      await openConsole(page, suite.d, '/info');
      const t = lang === 'de' ? de : fr;
      const row = pageBody(page, 'info').locator('.facts div', { has: page.locator('dt', { hasText: t.info.memory }) });
      await expect.poll(() => row.locator('dd').textContent()).toBe(text);
      await context.close();
    }
  });
});
