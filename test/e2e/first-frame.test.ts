// The console's first frame (web/main.tsx): a signed-in browser opening a page sees the shell and the
// page with its data together, never the shell alone with the page coming in a second render. A
// script run before the page's own looks at each animation frame for the shell (#main) without the
// page's content. The first render waits at most FIRST_RENDER_WAIT_MS (1 s) for the page and its
// data: a frame with the shell alone after that is a slow unit's loading state, not this fault.
import { describe, expect, it } from 'vitest';
import { consoleSuite, loginApi } from './support.ts';

const FIRST_RENDER_WAIT_MS = 1000;

/** Records in `window.shellOnlyAt` the time of the first frame with #main but without `content`, and in `window.contentAt` the first with it. */
const watchFrames = (content: string) =>
  `(() => { const look = () => { const main = document.querySelector('#main'); if (document.querySelector(${JSON.stringify(content)})) { window.contentAt = performance.now(); return; } if (main && window.shellOnlyAt === undefined) window.shellOnlyAt = performance.now(); requestAnimationFrame(look); }; requestAnimationFrame(look); })();`;

describe('first frame', () => {
  const suite = consoleSuite();

  for (const [path, content] of [
    ['/#/info', '[data-page=info] .facts'],
    ['/#/mqtt', '[data-page=mqtt] input'],
  ] as const) {
    it(`${path}: the shell comes with the page and its data, not before them`, async () => {
      const { page, context } = await suite.open();
      await loginApi(page, suite.d);
      await context.addInitScript({ content: watchFrames(content) });
      await page.goto(suite.d.url + path);
      const at = await page.waitForFunction(() => (window as unknown as { contentAt?: number }).contentAt, undefined, { timeout: 30_000 });
      expect(Number(await at.jsonValue())).toBeGreaterThan(0);
      const shellOnly = await page.evaluate(() => (window as unknown as { shellOnlyAt?: number }).shellOnlyAt);
      if (shellOnly !== undefined) expect(shellOnly, 'a frame showed the shell without the page').toBeGreaterThan(FIRST_RENDER_WAIT_MS);
    });
  }
});
