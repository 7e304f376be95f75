// The daemon's first frame in the browser (device/model/first-frame.ts): with the console's script
// held back, a signed-in browser that has its preferences cookie sees /info with its data, from the
// page alone; the inline gate passes the page's Content-Security-Policy; once the script runs, the
// console takes the frame over and works as always. For another page, or on a narrow screen, the
// frame stays hidden and the console renders that page. The console keeps the cookie equal to the
// language, theme and filter it shows in, and the frame follows a change of them.

import type { BrowserContext, BrowserContextOptions, Page, Route } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { FIRST_FRAME_ATTR, IDLE_PRELOADS_ID, PREFS_COOKIE, START_SCRIPT_ATTR } from '../../device/model/first-frame.ts';
import { consoleSuite, de, en, loginApi, menuLink, pageBody, type TestDaemon, WAIT_MS } from './support.ts';

/** Holds back the console's scripts until `release` is called. */
async function holdScripts(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.route('**/assets/*.js', (route) => (released ? route.continue() : held.push(route)));
  return {
    release: async () => {
      released = true;
      await Promise.all(held.map((r) => r.continue()));
    },
  };
}

/** The messages of refused content (a gate the policy does not allow would show here). */
function cspReports(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) seen.push(m.text());
  });
  return seen;
}

const prefsCookie = (context: BrowserContext, d: TestDaemon, value: string) => context.addCookies([{ name: PREFS_COOKIE, value, url: d.url }]);
const cookieValue = async (context: BrowserContext) => (await context.cookies()).find((c) => c.name === PREFS_COOKIE)?.value;
const facts = (page: Page) => page.locator('[data-page=info] .facts').first();
const tookOver = (page: Page) => page.locator(`#app:not([${FIRST_FRAME_ATTR}])`).waitFor({ state: 'attached' });
/** Those of `files` (paths in the web folder, as the daemon lists them) the page has no modulepreload link for. */
const notPreloaded = (page: Page, files: readonly string[]) =>
  page.evaluate((list) => {
    const have = new Set([...document.querySelectorAll<HTMLLinkElement>('link[rel=modulepreload]')].map((l) => new URL(l.href).pathname.slice(1)));
    return list.filter((f) => !have.has(f));
  }, files);

describe("the daemon's first frame in the browser", () => {
  const suite = consoleSuite();

  /** A signed-in browser with its preferences cookie opening `path` with the console's scripts held back. */
  async function openHeld(path: string, opts: BrowserContextOptions = {}) {
    const { page, context } = await suite.open(opts);
    await loginApi(page, suite.d);
    await prefsCookie(context, suite.d, 'en.default.all');
    const csp = cspReports(page);
    const scripts = await holdScripts(page);
    await page.goto(suite.d.url + path, { waitUntil: 'commit' });
    return { page, csp, scripts };
  }
  const hiddenFrame = async (page: Page) => {
    await page.locator(`#app[${FIRST_FRAME_ATTR}] .facts`).first().waitFor({ state: 'attached' });
    expect(await facts(page).isVisible()).toBe(false);
  };

  for (const path of ['/#/info', '/']) {
    it(`${path}: the information page with its data before the script runs; then the console takes it over`, async () => {
      const { page, csp, scripts } = await openHeld(path);
      await expect.poll(() => facts(page).isVisible()).toBe(true);
      expect(await pageBody(page, 'info').textContent()).toContain('communicator-sim');
      expect(await page.locator('#page-title').textContent()).toBe(en.nav.info);
      expect(await page.evaluate((a) => document.documentElement.getAttribute(a), FIRST_FRAME_ATTR)).toBe('show');

      await scripts.release();
      await tookOver(page);
      expect(await page.evaluate((a) => document.documentElement.hasAttribute(a), FIRST_FRAME_ATTR)).toBe(false);
      expect(await facts(page).isVisible()).toBe(true);
      // the console works: its lazy block comes, and the menu leads on
      await pageBody(page, 'info').locator('[data-block="services"]').waitFor();
      await menuLink(page, 'com').click();
      await expect.poll(() => page.locator('#page-title').textContent()).toBe(en.nav.com);
      expect(csp).toEqual([]);
    });
  }

  it("the console's script joins the page only after the frame is painted, and then takes it over", async () => {
    const { page, context } = await suite.open();
    await loginApi(page, suite.d);
    await prefsCookie(context, suite.d, 'en.default.all');
    // noted by the page itself: when the first frame showing the data was rendered, and when a module
    // script came into the page (the parser's own included)
    await page.addInitScript(`(() => {
      window.notes = {};
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes)
          if (n.nodeName === 'SCRIPT' && n.type === 'module') window.notes.script ??= { at: performance.now(), src: n.src };
      }).observe(document, { childList: true, subtree: true });
      const look = () => {
        if (document.querySelector('[data-page=info] .facts')?.checkVisibility()) setTimeout(() => { window.notes.painted = performance.now(); }, 0);
        else requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    })()`);
    await page.goto(`${suite.d.url}/#/info`);
    await tookOver(page);
    const notes = await page.evaluate(() => (window as unknown as { notes: { painted?: number; script?: { at: number; src: string } } }).notes);
    // the script the daemon named in the frame's element, and no preload of it beside the frame
    const named = await page.locator('#app').getAttribute(START_SCRIPT_ATTR);
    expect(named).toMatch(/^assets\/[\w-]+\.js$/);
    expect(notes.painted).toBeTypeOf('number');
    expect(notes.script?.src).toBe(new URL(named!, page.url()).href);
    expect(await page.locator(`link[rel=modulepreload][href="${named}"]`).count()).toBe(0);
    expect(notes.script!.at).toBeGreaterThan(notes.painted!);
    expect(await page.locator('script[type=module]').count()).toBe(1);
    await pageBody(page, 'info').locator('[data-block="services"]').waitFor();
  });

  it('another page than the cookie names (a link from elsewhere): the frame stays hidden, and the console renders that page', async () => {
    const { page, scripts } = await openHeld('/#/com');
    await hiddenFrame(page);
    await scripts.release();
    await expect.poll(() => page.locator('#page-title').textContent()).toBe(en.nav.com);
    expect(await page.locator('div[data-page=info]').count()).toBe(0);
  });

  it('a narrow screen: the frame stays hidden, and the console renders /info itself', async () => {
    const { page, scripts } = await openHeld('/#/info', { viewport: { width: 600, height: 800 } });
    await hiddenFrame(page);
    await scripts.release();
    await tookOver(page);
    await expect.poll(() => facts(page).isVisible()).toBe(true);
  });

  it('the console keeps the cookie with its language, and the next frame comes in it', async () => {
    const { page, context } = await suite.open();
    await loginApi(page, suite.d);
    await page.goto(`${suite.d.url}/#/info`);
    await facts(page).waitFor();
    // the browser's language (en-GB) in the default theme and filter, set by the console without being asked
    await expect.poll(() => cookieValue(context)).toBe('en.default.all.info');
    await page.locator('select[data-action=language]').selectOption('de');
    await page.locator('select[data-action=theme]').selectOption('eclipse');
    await expect.poll(() => cookieValue(context)).toBe('de.eclipse.all.info');

    const scripts = await holdScripts(page);
    await page.reload({ waitUntil: 'commit' });
    await expect.poll(() => facts(page).isVisible()).toBe(true);
    expect(await page.locator('#page-title').textContent()).toBe(de.nav.info);
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dataset.theme])).toEqual(['de', 'eclipse']);
    await scripts.release();
    await tookOver(page);
    expect(await page.locator('#page-title').textContent()).toBe(de.nav.info);
  });

  describe('a page the browser showed last', () => {
    const overview = (page: Page) => pageBody(page, 'com').locator('[data-overview-interface="1"] [data-state]');

    it("reload on /#/com: the daemon's frame of /com with its link states before the script runs; then the console takes it over, once, and works", async () => {
      const { page, context } = await suite.open();
      await loginApi(page, suite.d);
      await prefsCookie(context, suite.d, 'en.default.all.com');
      const csp = cspReports(page);
      const scripts = await holdScripts(page);
      await page.goto(`${suite.d.url}/#/com`, { waitUntil: 'commit' });
      await expect.poll(() => overview(page).isVisible()).toBe(true);
      expect(await page.locator('#page-title').textContent()).toBe(en.nav.com);
      expect(await page.locator(`#app[${FIRST_FRAME_ATTR}="com"]`).count()).toBe(1);
      // the page's code and texts come with the console's script, in one wave
      await expect.poll(() => page.locator('link[rel=modulepreload]').count()).toBeGreaterThan(10);

      await scripts.release();
      await tookOver(page);
      await expect.poll(() => overview(page).isVisible()).toBe(true);
      // one page, one of each field: the console's render took over the frame's elements
      expect(await page.locator('[data-page=com]:not(a)').count()).toBe(1);
      expect(await page.locator('#f-pew-interfaces-0-timeout').count()).toBe(1);
      expect(await page.locator('#page-title').count()).toBe(1);
      // its inputs work: an edit enables the page's save
      const timeout = page.locator('#f-pew-interfaces-0-timeout');
      await timeout.fill('1500');
      await expect.poll(() => page.locator('main [data-action=save]').isEnabled()).toBe(true);
      expect(await timeout.inputValue()).toBe('1500');
      expect(csp).toEqual([]);
    });

    it('the console keeps the page it shows in the cookie, and the next load frames that page', async () => {
      const { page, context } = await suite.open();
      await loginApi(page, suite.d);
      await page.goto(`${suite.d.url}/#/info`);
      await facts(page).waitFor();
      await expect.poll(() => cookieValue(context)).toBe('en.default.all.info');
      await menuLink(page, 'mqtt').click();
      await expect.poll(() => cookieValue(context)).toBe('en.default.all.mqtt');
      await menuLink(page, 'users').click();
      await expect.poll(() => cookieValue(context)).toBe('en.default.all.other');
      await menuLink(page, 'com').click();
      await expect.poll(() => cookieValue(context)).toBe('en.default.all.com');

      const scripts = await holdScripts(page);
      await page.reload({ waitUntil: 'commit' });
      await expect.poll(() => overview(page).isVisible()).toBe(true);
      await scripts.release();
      await tookOver(page);
      expect(await page.locator('#page-title').textContent()).toBe(en.nav.com);
    });

    it('the cookie names /com, the address /port: no frame shown, and the console renders /port', async () => {
      const { page, context } = await suite.open();
      await loginApi(page, suite.d);
      await prefsCookie(context, suite.d, 'en.default.all.com');
      const scripts = await holdScripts(page);
      await page.goto(`${suite.d.url}/#/port`, { waitUntil: 'commit' });
      await page.locator(`#app[${FIRST_FRAME_ATTR}="com"] [data-overview-interface]`).first().waitFor({ state: 'attached' });
      expect(await overview(page).isVisible()).toBe(false);
      await scripts.release();
      await pageBody(page, 'port').waitFor();
      expect(await page.locator('#page-title').textContent()).toBe(en.nav.port);
      expect(await page.locator('div[data-page=com]').count()).toBe(0);
    });

    it('a narrow screen: the frame of /com stays hidden, and the console renders /com itself', async () => {
      const { page, context } = await suite.open({ viewport: { width: 600, height: 800 } });
      await loginApi(page, suite.d);
      await prefsCookie(context, suite.d, 'en.default.all.com');
      const scripts = await holdScripts(page);
      await page.goto(`${suite.d.url}/#/com`, { waitUntil: 'commit' });
      await page.locator(`#app[${FIRST_FRAME_ATTR}="com"] [data-overview-interface]`).first().waitFor({ state: 'attached' });
      expect(await overview(page).isVisible()).toBe(false);
      await scripts.release();
      await tookOver(page);
      await expect.poll(() => overview(page).isVisible()).toBe(true);
      expect(await page.locator('div[data-page=com]').count()).toBe(1);
    });

    it("once the console is idle on /info, the other framed pages' code is preloaded: a move to /log asks for no script", async () => {
      const { page, context } = await suite.open();
      await loginApi(page, suite.d);
      await prefsCookie(context, suite.d, 'en.default.all');
      // the files the daemon lists in the page
      let listed: string[] = [];
      await page.route(`${suite.d.url}/`, async (route) => {
        const r = await route.fetch();
        const body = await r.text();
        const list = new RegExp(`<script type="application/json" id="${IDLE_PRELOADS_ID}">(.*?)</script>`, 's').exec(body)?.[1];
        listed = [...new Set(Object.values(JSON.parse(list ?? '{}') as Record<string, string[]>).flat())];
        await route.fulfill({ response: r, body });
      });
      await page.goto(`${suite.d.url}/#/info`);
      await tookOver(page);
      expect(listed.length).toBeGreaterThan(10);
      // the list the daemon put into the page is gone into links (web/api/idle-preloads.ts), a few at a time
      await expect.poll(() => notPreloaded(page, listed), { timeout: 30_000 }).toEqual([]);
      expect(await page.locator('#idle-preloads').count()).toBe(0);
      const preloaded = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLLinkElement>('link[rel=modulepreload]')].map((l) => new URL(l.href).pathname),
      );
      // every preload fetched before the move
      await expect
        .poll(() => page.evaluate((n) => performance.getEntriesByType('resource').filter((e) => n.includes(new URL(e.name).pathname)).length, preloaded))
        .toBe(preloaded.length);
      const scripts: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('.js')) scripts.push(new URL(r.url()).pathname);
      });
      await menuLink(page, 'log').click();
      await pageBody(page, 'log').waitFor();
      expect(scripts).toEqual([]);
    });

    it("a bookmark to /#/com while the cookie names /info: the gate asks for /com's code and texts with the console's script, before the console runs", async () => {
      const { page, context } = await suite.open();
      await loginApi(page, suite.d);
      await prefsCookie(context, suite.d, 'en.default.all.info');
      const held = await holdScripts(page);
      await page.goto(`${suite.d.url}/#/com`, { waitUntil: 'domcontentloaded' });
      // the console's script is held back: what is asked for now comes from the page and its gate alone
      await page.waitForFunction(() => document.querySelector('script[type=module][src]') !== null);
      const listed = await page.evaluate(() => (JSON.parse(document.getElementById('idle-preloads')?.textContent ?? '{}') as Record<string, string[]>).com);
      expect(listed?.length).toBeGreaterThan(0);
      // the gate adds them in the task after the script's
      await expect.poll(() => notPreloaded(page, listed ?? []), { timeout: WAIT_MS }).toEqual([]);
      await held.release();
      await pageBody(page, 'com').locator('[data-overview-interface="1"] [data-state]').waitFor();
    });
  });
});
