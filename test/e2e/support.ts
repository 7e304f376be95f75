// Support of the browser tests: Debian's chromium through Playwright, a daemon in simulator mode
// serving the console built by the global setup, and helpers to sign in and to call the API with
// the page's own session (cookie + CSRF token).
import type { APIResponse, Browser, BrowserContext, BrowserContextOptions, Locator, Page } from '@playwright/test';
import { i18nString } from 'typesafe-i18n';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { loadedLocales } from '../../web/i18n/i18n-util.ts';
import { launchBrowser } from '../support/chromium.ts';
import { ADMIN, startTestDaemon, type TestDaemon, type TestDaemonOptions, USER } from '../support/daemon.ts';
import { loadFullLocales } from '../support/locales.ts';

/** The texts the pages show: each language's dictionary with all its parts (web/i18n/<lang>/<part>). */
loadFullLocales();
const { en, de, fr } = loadedLocales;

export type { TestDaemon };
export { ADMIN, de, en, fr, launchBrowser, USER };

/** A moment as the console writes it everywhere (web/i18n/translate.ts formatDateTime: what toLocaleString writes) in a browser of `timeZone`. */
export const consoleMoment = (ms: number, locale = en.app.dateLocale, timeZone = 'UTC') => new Date(ms).toLocaleString(locale, { timeZone });

/** how long a wait for the console may take before the test fails (a loaded 2-core machine) */
export const WAIT_MS = 15_000;

/**
 * The scrypt cost of the passwords the browser tests set: N=2^10 instead of the unit's 2^15. The
 * tests sign in over a thousand times, and at the unit's cost each sign-in took 0.2-0.4 s of a core
 * (a fifth of the browser tests' CPU). Hashing itself, its cost and its queue under a login flood
 * are tested at the unit's cost (device/system/passwords.test.ts, test/integration/auth.test.ts,
 * login-lockout.test.ts, login-flood.test.ts).
 */
export const CONSOLE_TEST_HASH_COST = { N: 1 << 10, r: 8, p: 1 };

/**
 * How long the daemon's first frame may render for the browser tests: on a busy machine a render
 * took over the unit's 500 ms, and the page then came, as designed, without the frame a test looked
 * for. The unit's limits, and the page without a frame, are tested in device/api/first-frame.test.ts.
 */
export const CONSOLE_TEST_FRAME_LIMITS = { renderMs: 30_000, startMs: 60_000 };

/**
 * A daemon with the virtual unit in a fresh data folder (unless given one), serving the console of
 * the global setup; `serial`: the connectors of the virtual unit (e.g. in-process virtual PLCs).
 */
export function startConsoleDaemon(opts: Omit<TestDaemonOptions, 'webDir' | 'hashCost' | 'frameLimits'> = {}): Promise<TestDaemon> {
  return startTestDaemon({ ...opts, webDir: inject('webDir'), hashCost: CONSOLE_TEST_HASH_COST, frameLimits: CONSOLE_TEST_FRAME_LIMITS });
}

export interface ConsolePage {
  context: BrowserContext;
  page: Page;
  /** uncaught exceptions in the page (a test asserts it stays empty) */
  errors: string[];
}

/**
 * Records every notice the console shows (web/shell/notifications.tsx) as it is added, in
 * `window.shownNotices`: a notice lasts 3-5 s (spec §4, §9), and a test on a loaded machine may
 * look for it later than that.
 */
const RECORD_NOTICES = `window.shownNotices = [];
new MutationObserver((records) => {
  for (const r of records)
    for (const n of r.addedNodes)
      if (n instanceof Element)
        for (const e of n.matches('.notice') ? [n] : n.querySelectorAll('.notice'))
          window.shownNotices.push({ kind: e.getAttribute('data-kind'), text: e.querySelector('span')?.textContent ?? '' });
}).observe(document, { childList: true, subtree: true });`;

/** A new browser context (English, desktop size unless given) with one page. */
export async function newPage(browser: Browser, opts: BrowserContextOptions = {}): Promise<ConsolePage> {
  const context = await browser.newContext({ locale: 'en-GB', timezoneId: 'UTC', viewport: { width: 1280, height: 800 }, ...opts });
  context.setDefaultTimeout(WAIT_MS);
  await context.addInitScript({ content: RECORD_NOTICES });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/** Creates the administrator through the API unless the unit has one already. */
export async function ensureAdmin(d: TestDaemon): Promise<void> {
  if (!d.ctx.users.isEmpty()) return;
  const r = await d.client().post('/rest/api/v1/authentication/setup', ADMIN);
  if (r.status !== 201) throw new Error(`creating the administrator failed: ${r.status} ${r.text}`);
}

/**
 * A second user with the `user` role, straight into the daemon's user store (quicker than
 * `POST /config/users/add`, which test/integration/users-admin.test.ts and the users page test cover).
 */
export async function ensureUser(d: TestDaemon): Promise<void> {
  await ensureAdmin(d);
  if (!d.ctx.users.find(USER.username)) await d.ctx.users.add(USER.username, 'user', USER.password, new Date());
}

/** Signs the page's browser context in through the API (the session cookie lands in the context). */
export async function loginApi(page: Page, d: TestDaemon, cred = ADMIN): Promise<void> {
  if (cred === ADMIN) await ensureAdmin(d);
  else if (cred === USER) await ensureUser(d);
  const r = await page.request.post(`${d.url}/rest/api/v1/authentication`, { data: cred, ...RETRY_RESET });
  if (r.status() !== 200) throw new Error(`login of ${cred.username} failed: ${r.status()} ${await r.text()}`);
}

/** Signs in on the console's login page (it must be showing). */
export async function loginUi(page: Page, cred: { username: string; password: string }): Promise<void> {
  await page.locator('#login-user').fill(cred.username);
  await page.locator('#login-pw').fill(cred.password);
  await page.locator('main.auth button[type=submit]').click();
}

/** Opens the console at a route (`/mqtt`) and waits until the page and its title show. */
export async function openConsole(page: Page, d: TestDaemon, path = '/info'): Promise<void> {
  await page.goto(`${d.url}/#${path}`);
  await page.locator('#page-title').waitFor();
}

/** Moves the open console to a route (`/info`) as a link inside it does, and waits for the page's heading `title`. */
export async function goToRoute(page: Page, path: string, title: string): Promise<void> {
  await page.evaluate((p) => {
    location.hash = `#${p}`;
  }, path);
  await expectTitle(page, title);
}

/** Waits until the page shown has rendered its last step (web/shell/in-steps.tsx): every part of it is drawn. */
export const pageDrawn = (page: Page) => page.waitForFunction(() => !document.querySelector('main [data-stepping]'), undefined, { timeout: WAIT_MS });

/** The page component of a route inside <main> (every page has data-page with its id). */
export const pageBody = (page: Page, id: string): Locator => page.locator(`main [data-page="${id}"]`);
/** The menu entry of a page. */
export const menuLink = (page: Page, id: string): Locator => page.locator(`#menu a[data-page="${id}"]`);
/** The input of a section field, by the id the console gives it (web/forms/field.tsx). */
export const fieldInput = (page: Page, section: string, path: string): Locator => page.locator(`#f-${section}-${path.replace(/\./g, '-')}`);

/** Waits until the text of `loc` (trimmed) equals `text`; fails with the text it has. */
export async function expectText(loc: Locator, text: string, timeout = WAIT_MS): Promise<void> {
  await expect.poll(async () => ((await loc.count()) ? (await loc.first().textContent())?.trim() : '<missing>'), { timeout, interval: 50 }).toBe(text);
}

/** Waits until the page's heading shows `title`. */
export const expectTitle = (page: Page, title: string) => expectText(page.locator('#page-title'), title);

/**
 * Waits until the console has shown a notice of `kind` whose text holds `text` (since the page
 * loaded), and takes it off the record: each notice answers one wait. It fails with the notices
 * shown and not yet taken, so that a failure says what came instead.
 */
export async function expectNotice(page: Page, kind: 'info' | 'warning' | 'error', text: string): Promise<void> {
  const take = () =>
    page.evaluate(
      ([k, t]) => {
        const shown = (window as unknown as { shownNotices: { kind: string; text: string }[] }).shownNotices;
        const i = shown.findIndex((n) => n.kind === k && n.text.includes(t));
        if (i < 0) return shown.map((n) => `${n.kind}: ${n.text}`);
        shown.splice(i, 1);
        return 'shown';
      },
      [kind, text] as const,
    );
  await expect.poll(take, { timeout: WAIT_MS, interval: 50, message: `a notice "${kind}: ${text}"` }).toBe('shown');
}

/**
 * For the tests' own calls through a page's request context: a call on a kept-alive connection
 * that the daemon closes as idle (after 5 s) just as the call starts is reset (ECONNRESET, seen on
 * a busy machine); a browser sends it again on a new connection, and so does Playwright with these
 * retries (it retries that error only).
 */
export const RETRY_RESET = { maxRetries: 2 } as const;

/** The API with the page's session: the cookie from the context, the CSRF token from the session call. */
export async function api(page: Page, d: TestDaemon) {
  const auth = await page.request.get(`${d.url}/rest/api/v1/authentication`, RETRY_RESET);
  if (auth.status() !== 200) throw new Error(`the page has no session: ${auth.status()} ${await auth.text()}`);
  const { csrfToken } = (await auth.json()) as { csrfToken: string };
  const json = async (r: APIResponse) => ({ status: r.status(), body: (await r.json().catch(() => undefined)) as any });
  return {
    csrfToken,
    get: async (path: string) => json(await page.request.get(d.url + path, RETRY_RESET)),
    post: async (path: string, data: unknown, headers: Record<string, string> = { 'X-CSRF-Token': csrfToken }) =>
      json(await page.request.post(d.url + path, { data, headers, ...RETRY_RESET })),
  };
}

/** Interpolates a dictionary text with typesafe-i18n itself: `{name}` arguments and plural parts `{{s}}`. */
export const fill = (text: string, params: Record<string, string | number>, lang: 'en' | 'de' | 'fr' = 'en'): string => i18nString(lang)(text, params);

/** The notice of a refused save: the reason, then one line per problem ("<page>, <entry>, <field>: <message>"). */
export const saveRefusal = (lines: readonly (readonly [place: string, message: string])[], l: typeof en = en): string =>
  [l.form.notice.saveFailed, ...lines.map(([place, message]) => fill(l.form.problem, { place, message }))].join('\n');

/**
 * One browser and one daemon for a describe block (the administrator created unless `admin` is
 * false; `serial` as for startConsoleDaemon). `open()` gives each test a fresh page; after the test
 * its uncaught errors must be none and it is closed.
 */
export function consoleSuite(opts: { admin?: boolean; serial?: TestDaemonOptions['serial'] } = {}) {
  const suite = {} as { browser: Browser; d: TestDaemon; current?: ConsolePage; open(o?: BrowserContextOptions): Promise<ConsolePage> };
  beforeAll(async () => {
    [suite.browser, suite.d] = await Promise.all([launchBrowser(), startConsoleDaemon(opts.serial ? { serial: opts.serial } : {})]);
    if (opts.admin !== false) await ensureAdmin(suite.d);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.d?.stop();
  });
  afterEach(async () => {
    const cp = suite.current;
    suite.current = undefined;
    if (!cp) return;
    await cp.context.close();
    expect(cp.errors).toEqual([]);
  });
  suite.open = async (o = {}) => (suite.current = await newPage(suite.browser, o));
  return suite;
}

/**
 * The document's scroll width, and the visible elements that reach past the right edge of the
 * viewport (body has overflow-x: hidden, which would hide them from scrollWidth alone); content of
 * an element that scrolls or clips by itself is not counted, nor the skip link parked off-screen
 * to the left until it gets the focus.
 */
export async function overflow(page: Page) {
  await pageDrawn(page);
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clips = (e: Element) => {
      for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return true;
      return false;
    };
    const wider = [...document.body.querySelectorAll('*')]
      .filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && r.right > width + 0.5 && getComputedStyle(e).visibility !== 'hidden' && !clips(e);
      })
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}.${[...e.classList].join('.')} ${Math.round(e.getBoundingClientRect().left)}–${Math.round(e.getBoundingClientRect().right)}`,
      );
    return { scrollWidth: Math.max(document.documentElement.scrollWidth, width), wider };
  });
}

/**
 * When the page sent its GETs of `path`, by its own clock (the resource timing of its calls): a
 * busy test process sees them later than the page sent them, so their moments there tell no tick.
 */
export const callStarts = (page: Page, path: string): Promise<number[]> =>
  page.evaluate(
    (p) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname === p)
        .map((e) => e.startTime),
    path,
  );
