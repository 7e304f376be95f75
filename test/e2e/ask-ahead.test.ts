// A menu move asks for the new page's data with the move (web/api/ask-ahead.ts): on the way to /log
// the logger's status is asked while the page's code is still on its way, and the page, once its
// code is in, shows that answer without asking again. The page's idle preloads are taken out of the
// page and every script held once the console's start is done, so that the chunk of /log comes
// only when the test lets it.
import type { Route } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { IDLE_PRELOADS_ID, PREFS_COOKIE } from '../../device/model/first-frame.ts';
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

    holding = false;
    for (const r of held.splice(0)) await r.continue();
    await page.locator(SHOWN).waitFor({ timeout: WAIT_MS });
    // the page took the answer asked ahead: one request of the status from the click until it showed
    const shownAt = (await page.evaluate('window.statusShownAt')) as number;
    const before = asked.filter((t) => t >= movedAt && t <= shownAt).length;
    expect(before).toBe(1);
  });
});
