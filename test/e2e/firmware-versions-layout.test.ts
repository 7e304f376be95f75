// /firmware: the running version and the versions required on the unit are two rows, each label
// beside its value, nothing overlapping, at 1280 and 360 px in English, German and French.
import { describe, expect, it } from 'vitest';
import { consoleSuite, de, en, expectTitle, fr, loginApi, openConsole, pageBody } from './support.ts';

type Box = { left: number; right: number; top: number; bottom: number };

describe('the version rows of /firmware', () => {
  const suite = consoleSuite();

  it.each([
    { lang: 'en', t: en },
    { lang: 'de', t: de },
    { lang: 'fr', t: fr },
  ] as const)('label beside value, one row each, in $lang', async ({ lang, t }) => {
    for (const width of [1280, 360]) {
      const { page, context } = await suite.open({ viewport: { width, height: 800 }, locale: lang });
      await page.addInitScript((l) => localStorage.setItem('console.locale', l), lang);
      await loginApi(page, suite.d);
      await openConsole(page, suite.d, '/firmware');
      await expectTitle(page, t.nav.firmware);
      const list = pageBody(page, 'firmware').locator('dl:has([data-running-version])');
      await expect.poll(() => list.locator('[data-running-version]').textContent()).not.toBe('…');
      const boxes = await list.evaluate((dl) =>
        [...dl.querySelectorAll('dt')].map((dt) => {
          const box = (e: Element) => {
            const r = e.getBoundingClientRect();
            return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
          };
          return { label: dt.textContent, dt: box(dt), dd: box(dt.nextElementSibling!) };
        }),
      );
      const at = `${lang} ${width} px`;
      expect(
        boxes.map((b) => b.label),
        at,
      ).toEqual([t.firmware.running, t.firmware.minimums]);
      for (const { dt, dd } of boxes) {
        expect(dd.left, `${at}: the value right of its label`).toBeGreaterThanOrEqual(dt.right);
        expect(Math.abs(dd.top - dt.top), `${at}: the value on its label's line`).toBeLessThan(2);
      }
      const [a, b] = boxes as { dt: Box; dd: Box }[];
      expect(b!.dt.top, `${at}: the second row below the first`).toBeGreaterThanOrEqual(Math.max(a!.dt.bottom, a!.dd.bottom));
      await context.close();
    }
  });
});
