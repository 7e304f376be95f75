// One chart of the /graphs page as the browser tests see it: how often it has drawn, its series,
// the time range it shows (seconds of the day, from its range line), and the gestures that zoom it.

import type { Locator, Page } from '@playwright/test';
import { expect } from 'vitest';

/** "hh:mm:ss" → seconds of the day */
export const seconds = (hms: string) =>
  hms
    .split(':')
    .map(Number)
    .reduce((s, x, i) => s + x * [3600, 60, 1][i]!, 0);

export function graphView(page: Page, g: Locator) {
  const host = g.locator('.ct-host');
  const drawn = async () => Number((await host.getAttribute('data-drawn')) ?? 0);
  return {
    g,
    host,
    drawn,
    /** Runs `act` and waits until the chart has drawn again. */
    async redraw(act: () => Promise<unknown>): Promise<void> {
      const before = await drawn();
      await act();
      await expect.poll(drawn).toBeGreaterThan(before);
    },
    seriesNames: () => g.locator('svg g.ct-series').evaluateAll((els) => els.map((e) => e.getAttribute('ct:series-name'))),
    /** the shown range as seconds of the day */
    async range(): Promise<readonly [number, number]> {
      const m = /(\d\d:\d\d:\d\d) .* (\d\d:\d\d:\d\d)$/.exec((await g.locator('[data-range]').textContent()) ?? '');
      return m ? ([seconds(m[1]!), seconds(m[2]!)] as const) : ([NaN, NaN] as const);
    },
    /**
     * CTRL+drag across the plot from `from` to `to` (fractions of its width), in `steps` moves;
     * `midway` runs with the button still down, halfway.
     */
    async ctrlDrag(from: number, to: number, steps = 5, midway?: () => Promise<unknown>): Promise<void> {
      const box = (await g.locator('.plot').boundingBox())!;
      const y = box.y + box.height / 2;
      await page.keyboard.down('Control');
      await page.mouse.move(box.x + box.width * from, y);
      await page.mouse.down();
      await page.mouse.move(box.x + (box.width * (from + to)) / 2, y, { steps });
      await midway?.();
      await page.mouse.move(box.x + box.width * to, y, { steps });
      await page.mouse.up();
      await page.keyboard.up('Control');
    },
  };
}
