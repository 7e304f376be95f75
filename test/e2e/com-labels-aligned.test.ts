// /com in French (longer labels that wrap): in each row of an interface's fields the controls stand
// on one line, whether the labels beside them take one line or two; at 1280 and 360 px, and nothing
// is wider than the screen at 360 px.
import { describe, expect, it } from 'vitest';
import { consoleSuite, expectTitle, fr, loginApi, openConsole, overflow, pageBody, pageDrawn } from './support.ts';

describe('the rows of /com in French', () => {
  const suite = consoleSuite();

  it.each([1280, 360])('the controls of one row stand on one line at %i px', async (width) => {
    const { page, context } = await suite.open({ viewport: { width, height: 900 }, locale: 'fr' });
    await page.addInitScript(() => localStorage.setItem('console.locale', 'fr'));
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/com');
    await expectTitle(page, fr.nav.com);
    const body = pageBody(page, 'com');
    await body.locator('section[data-interface] .grid .field').first().waitFor();
    // every block drawn: /com renders its interfaces in steps (web/shell/in-steps.tsx)
    await pageDrawn(page);
    // the fields of every block (interfaces, the PLC): their label's and control's boxes, grouped by grid row (same top)
    const rows = await body.evaluate((main) =>
      [...main.querySelectorAll('section.card .grid')].flatMap((grid) => {
        const byTop = new Map<number, { label: string; labelLines: number; control: number }[]>();
        for (const f of grid.querySelectorAll(':scope > .field, :scope > .field-wrap > .field')) {
          const label = f.querySelector(':scope > label, :scope > .label');
          const control = f.querySelector(':scope > .control, :scope > label + span');
          if (!label || !control) continue;
          const top = Math.round((f.closest('.field-wrap') ?? f).getBoundingClientRect().top);
          const lh = parseFloat(getComputedStyle(label).lineHeight) || 16;
          const entry = {
            label: label.textContent ?? '',
            labelLines: Math.round(label.getBoundingClientRect().height / lh),
            control: Math.round((control.getBoundingClientRect().top + control.getBoundingClientRect().bottom) / 2),
          };
          byTop.set(top, [...(byTop.get(top) ?? []), entry]);
        }
        return [...byTop.values()];
      }),
    );
    expect(rows.length).toBeGreaterThan(4);
    // the middle of each control (a checkbox is centred on the line of the inputs beside it)
    const misaligned = rows.filter((r) => Math.max(...r.map((f) => f.control)) - Math.min(...r.map((f) => f.control)) > 1);
    expect(JSON.stringify(misaligned), `${width} px`).toBe('[]');
    if (width === 1280)
      expect(
        rows.some((r) => r.some((f) => f.labelLines > 1)),
        'some French label takes two lines',
      ).toBe(true);
    else {
      const o = await overflow(page);
      expect(o.scrollWidth).toBe(360);
      expect(o.wider).toEqual([]);
    }
    await context.close();
  });
});
