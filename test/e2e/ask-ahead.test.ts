// A menu move asks for the new page's data with the move (web/api/ask-ahead.ts): on the way to /log
// the logger's status is asked while the page's code is still on its way, and the page, once its
// code is in, shows that answer without asking again. The page's idle preloads are taken out of the
// page and every script held once the console's start is done, so that the chunk of /log comes
// only when the test lets it. Each visit's first render shows the answer asked for that visit, and
// the pages the daemon lists are run once the browser is idle (web/router/routes.tsx).
import type { Page, Route } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { IDLE_PRELOADS_ID, PREFS_COOKIE } from '../../device/model/first-frame.ts';
import { withDefaults } from '../../device/model/section.ts';
import { logSchema } from '../../device/model/sections/log.ts';
import { ROUTE_DATA_PATHS } from '../../device/model/start-answers.ts';
import { consoleSuite, loginApi, menuLink, openConsole, pageBody, WAIT_MS } from './support.ts';

const LOG_STATUS = ROUTE_DATA_PATHS.log[0]!;
const SHOWN = 'main [data-page=log] [data-block=log-status] .facts';

describe('a menu move asks for the page’s data with the move', () => {
  const suite = consoleSuite();

  it('/log: the status is asked while the chunk is held, and the page shows that answer without asking again', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    // the console's page without its idle preloads: no chunk of /log before the move
    await page.route(`${suite.d.url}/`, async (route) => {
      const r = await route.fetch();
      const body = (await r.text()).replace(new RegExp(`<script type="application/json" id="${IDLE_PRELOADS_ID}">.*?</script>`, 's'), '');
      await route.fulfill({ response: r, body });
    });
    let holding = false;
    const held: Route[] = [];
    await page.route('**/assets/*.js', (route) => (holding ? void held.push(route) : route.continue()));
    // each status request when it reaches the daemon (Date.now(): a request is held until it is
    // let through here, so the page cannot show the answer before its request is counted)
    const asked: number[] = [];
    await page.route(`**${LOG_STATUS}`, (route) => {
      asked.push(Date.now());
      return route.continue();
    });

    // from a page that asks for no status of its own
    await openConsole(page, suite.d, '/legal');
    await pageBody(page, 'legal').waitFor();
    // the start is done (web/after-start.ts keeps the preferences cookie once it asks ahead on moves)
    await expect.poll(async () => (await page.context().cookies()).some((c) => c.name === PREFS_COOKIE), { timeout: WAIT_MS }).toBe(true);
    holding = true;
    // the move's start, and when the status first shows (the machine's clock, as the requests are counted)
    const movedAt = (await page.evaluate(`(() => {
      new MutationObserver((_, o) => {
        if (!document.querySelector(${JSON.stringify(SHOWN)})) return;
        window.statusShownAt = Date.now();
        o.disconnect();
      }).observe(document.body, { subtree: true, childList: true });
      return Date.now();
    })()`)) as number;
    await menuLink(page, 'log').click();
    // the status is on its way while the page's code is held
    await expect.poll(() => asked.filter((t) => t >= movedAt).length, { timeout: WAIT_MS }).toBe(1);
    expect(held.length).toBeGreaterThan(0);
    expect(await pageBody(page, 'log').count()).toBe(0);
    // the page before stays meanwhile, marked busy
    expect(await pageBody(page, 'legal').count()).toBe(1);
    expect(await page.locator('main').getAttribute('aria-busy')).toBe('true');

    holding = false;
    for (const r of held.splice(0)) await r.continue();
    await page.locator(SHOWN).waitFor({ timeout: WAIT_MS });
    // the page took the answer asked ahead: one request of the status from the click until it showed
    const shownAt = (await page.evaluate('window.statusShownAt')) as number;
    const before = asked.filter((t) => t >= movedAt && t <= shownAt).length;
    expect(before).toBe(1);
    expect(await page.locator('main').getAttribute('aria-busy')).toBeNull();
  });

  /** A console on /info loaded again with the preferences cookie, once the pages the daemon lists have run. */
  async function onInfoWithPagesRun(): Promise<Page> {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/info');
    // with the preferences cookie the daemon frames /info and lists the other framed pages' files
    await expect.poll(async () => (await page.context().cookies()).some((c) => c.name === PREFS_COOKIE), { timeout: WAIT_MS }).toBe(true);
    await page.reload();
    await pageBody(page, 'info').waitFor();
    // the pages of that list are run when the browser is idle: /graphs' module adds its styles
    await expect.poll(() => page.evaluate(() => document.getElementById('graphs-css') !== null), { timeout: WAIT_MS }).toBe(true);
    return page;
  }

  it('a move to a page whose code has run asks for its status once: its early call, made first, and nothing asked ahead beside it', async () => {
    const page = await onInfoWithPagesRun();
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith(LOG_STATUS)) asked.push(r.url());
    });
    await menuLink(page, 'log').click();
    await page.locator(SHOWN).waitFor({ timeout: WAIT_MS });
    // a later move and its page: a second request of the move to /log would have been made by then
    await menuLink(page, 'com').click();
    await pageBody(page, 'com').waitFor({ timeout: WAIT_MS });
    expect(asked).toHaveLength(1);
  });

  it("a second visit's first render shows the status asked for it, never the last visit's; the listed pages' code has run before the move", async () => {
    const page = await onInfoWithPagesRun();
    await menuLink(page, 'log').click();
    await pageBody(page, 'log').locator('[data-block=log-status] [data-state=off]').waitFor({ timeout: WAIT_MS });
    await menuLink(page, 'info').click();
    await pageBody(page, 'info').waitFor();
    const admin = await suite.d.admin();
    try {
      const r = await admin.post('/config/pew_log', { ...(withDefaults(logSchema, {}) as Record<string, unknown>), enable_log: true });
      expect(r.status, r.text).toBe(200);
      // what the status block holds when the page first appears again
      await page.evaluate(`(() => {
        new MutationObserver((_, o) => {
          const body = document.querySelector('main [data-page=log]');
          if (!body) return;
          window.firstStatus = body.querySelector('[data-block=log-status] [data-running]') ? 'on' : body.querySelector('[data-block=log-status] [data-state=off]') ? 'off' : 'none';
          o.disconnect();
        }).observe(document.body, { subtree: true, childList: true });
      })()`);
      await menuLink(page, 'log').click();
      await pageBody(page, 'log').locator('[data-block=log-status] [data-running]').waitFor({ timeout: WAIT_MS });
      expect(await page.evaluate('window.firstStatus')).toBe('on');
    } finally {
      await admin.post('/config/pew_log', { ...(withDefaults(logSchema, {}) as Record<string, unknown>), enable_log: false });
    }
  });
});
