// At 360 px every page fits the width in English, German and French (longer words and option
// texts must wrap or shrink, not push the page wider than the phone).
import { describe, expect, it } from 'vitest';
import { PAGES } from '../../web/pages.ts';
import { consoleSuite, de, en, expectTitle, fr, loginApi, openConsole, overflow, pageBody } from './support.ts';

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } as const;

describe('360 px in every language', () => {
  const suite = consoleSuite();

  it.each([
    { lang: 'en', t: en },
    { lang: 'de', t: de },
    { lang: 'fr', t: fr },
  ] as const)('every page fits 360 px in $lang', async ({ lang, t }) => {
    const { page } = await suite.open({ ...PHONE, locale: lang });
    await page.addInitScript((l) => localStorage.setItem('console.locale', l), lang);
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/info');
    const wide: Record<string, unknown> = {};
    for (const p of PAGES) {
      await page.evaluate((path) => {
        location.hash = path;
      }, `#${p.path}`);
      await expectTitle(page, t.nav[p.id]);
      await pageBody(page, p.id).waitFor();
      await page.waitForFunction(() => !document.querySelector('main .loading, main [aria-busy=true]'));
      const o = await overflow(page);
      if (o.scrollWidth !== 360 || o.wider.length) wide[p.path] = o;
    }
    expect(wide).toEqual({});
  });

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
