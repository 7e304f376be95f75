// /graphs: every y-axis label is shown whole, also when the axis runs above the highest value to a
// wider round number (two stacked series summing to 950 get an axis up to 1000: "1000", not ".000").

import type { Locator } from '@playwright/test';
import { beforeAll, describe, expect, it } from 'vitest';
import { putLogFiles, trendCsv } from '../bench/graphs.ts';
import { graphView } from './graph-view.ts';
import { consoleSuite, loginApi, openConsole, pageBody } from './support.ts';

const FILE = 'stack_20261121.csv';

/**
 * The y labels whose text does not fit the box chartist gives it: the text is right-aligned, so a
 * label too wide runs out to the left, where the box (a foreignObject) cuts it off.
 */
const clipped = (g: Locator) =>
  g.locator('svg').evaluate((svg) =>
    [...svg.querySelectorAll('.ct-label.ct-vertical')]
      .filter((l) => {
        const range = document.createRange();
        range.selectNodeContents(l);
        const text = range.getBoundingClientRect();
        const box = (l.closest('foreignObject') ?? l).getBoundingClientRect();
        return text.left < box.left - 0.5 || text.right > box.right + 0.5;
      })
      .map((l) => l.textContent),
  );

describe('the y labels of /graphs', () => {
  const suite = consoleSuite();

  beforeAll(async () => {
    await putLogFiles(suite.d, {
      [FILE]: trendCsv({
        header: 1,
        separator: 'comma',
        decimal: 'point',
        start: Date.UTC(2026, 10, 21, 8),
        stepMs: 60_000,
        lines: 30,
        points: [
          { name: 'A', type: 0 },
          { name: 'B', type: 0 },
        ],
        value: (i) => (i === 10 ? 475 : 100 + i),
      }),
    });
  });

  it('a stacked bar graph up to 1000 shows "1000" whole, as do the bar and line graphs of the same file', async () => {
    const { page } = await suite.open();
    await page.setViewportSize({ width: 1280, height: 800 });
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/graphs');
    const body = pageBody(page, 'graphs');
    await body.locator(`[data-file="0/${FILE}"]`).check();
    const g = body.locator(`[data-graph="0/${FILE}"]`);
    const view = graphView(page, g);
    await expect.poll(view.drawn).toBeGreaterThan(0);
    const type = body.locator('[data-control=chart-type]');
    for (const t of ['2', '1', '0']) {
      if (t !== '0' || (await type.inputValue()) !== '0') await view.redraw(() => type.selectOption(t));
      const labels = await g.locator('.ct-label.ct-vertical').allTextContents();
      if (t === '2') expect(labels).toContain('1000');
      expect(await clipped(g), `chart type ${t}`).toEqual([]);
    }
  });
});
