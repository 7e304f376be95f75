// The axe-core sweep of the console (the accessibility*.test.ts files): every route of the console,
// in all five themes, in English, German and French, at 1280 and 360 px: no violation of the WCAG
// 2.x A/AA rules or of axe's best practices.
//
// Each test has its own browser context, signed in once, and one page (loaded once, its routes
// reached by hash, not by reloads); themes are switched in place and axe runs once per state with
// the rules that state needs:
// - the full rule set runs on every route in every language at both widths, in the default theme,
//   with the reflow check (support.ts `overflow`: no visible element reaches past the window's edge);
// - the colour rules run on every route in the four other themes in English at 1280 px, and on the
//   shell (login page, Help panel, open menu) in every theme at 360 px. Themes are CSS custom
//   properties with no per-theme markup, and a width or a language changes the layout and the
//   words, not which colour sits on which background; the 360 px shell is where the layout puts
//   different colours together (menu over the page, wrapped top bar).
//
// The sweep is split over three files (one per width, one for the other themes) so that the browser
// tests' two workers share it, and each test is one width and language or one theme, well under
// the browser tests' limit on a busy machine (the whole sweep in one or two tests took 143-180 s
// there).

import type { BrowserContext, Page } from '@playwright/test';
import type { ExpectStatic } from 'vitest';
import { withDefaults } from '../../device/model/section.ts';
import { logSchema } from '../../device/model/sections/log.ts';
import { type LogFile, type LogRecord, logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import { restrictionSchema, threadSchema } from '../../device/model/sections/redirect.ts';
import { watchEntrySchema } from '../../device/model/watch.ts';
import { PAGES } from '../../web/pages.ts';
import { THEMES, type Theme } from '../../web/state/pref-choices.ts';
import { freePort } from '../support/ports.ts';
import { type AxeViolation, axeViolations } from './axe.ts';
import { mewAsk } from './live-plc.ts';
import { type consoleSuite, fieldInput, loginApi, overflow, pageBody, WAIT_MS } from './support.ts';

type Lang = (typeof LANGS)[number];
type Size = (typeof WIDTHS)[number];
type Suite = ReturnType<typeof consoleSuite>;

export const LANGS = ['en', 'de', 'fr'] as const;
export const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 360, height: 740 },
] as const;
const ROUTES = [...PAGES.map((p) => ({ id: p.id as string, path: p.path })), { id: 'notfound', path: '/no-such-page' }];

/** "<where>: <rule> (<impact>) <element> — <summary>" lines, one per element, for a readable failure. */
const lines = (where: string, vs: AxeViolation[]) => vs.flatMap((v) => v.nodes.map((n) => `${where}: ${v.rule} (${v.impact}) ${n.target} — ${n.summary}`));

async function setTheme(page: Page, theme: string) {
  await page.evaluate((th) => {
    document.documentElement.dataset.theme = th;
  }, theme);
}

/**
 * What the page shows now, in each of `themes`: all rules in the default theme, the colour rules in
 * any other; and in the default theme, that nothing extends past the window's edge (reflow).
 */
async function check(page: Page, where: string, themes: readonly Theme[]): Promise<string[]> {
  const found: string[] = [];
  for (const theme of themes) {
    await setTheme(page, theme);
    found.push(...lines(`${where} ${theme}`, await axeViolations(page, { colours: theme !== 'default' })));
    if (theme === 'default') found.push(...(await overflow(page)).wider.map((o) => `${where}: past the window's edge: ${o}`));
  }
  await setTheme(page, 'default');
  return found;
}

/** Waits until the route's page shows, nothing on it is still loading and its last step is drawn (web/shell/in-steps.tsx). */
async function openRoute(page: Page, id: string, path: string) {
  await page.evaluate((p) => {
    location.hash = p;
  }, `#${path}`);
  await pageBody(page, id).waitFor({ timeout: WAIT_MS });
  await page.waitForFunction(() => !document.querySelector('main .loading, main [aria-busy=true], main [data-stepping]'), undefined, { timeout: WAIT_MS });
}

/** A page of `context` in `lang`; its uncaught errors are collected into `errors`. */
async function langPage(context: BrowserContext, lang: Lang, errors: string[]): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(`${lang}: ${e.message}`));
  await page.addInitScript((l) => localStorage.setItem('console.locale', l), lang);
  return page;
}

/**
 * What one test checks: every route in `routes` themes, and the shell (the login page, a refused
 * save with its field error, the Help panel, at 360 px the open menu) in `shell` themes.
 */
export interface Sweep {
  size: Size;
  lang: Lang;
  routes: readonly Theme[];
  shell: readonly Theme[];
}

export async function sweep(suite: Suite, { size, lang, routes, shell }: Sweep): Promise<{ found: string[]; errors: string[] }> {
  const wide = size.width > 400;
  const context = await suite.browser.newContext({ viewport: size, ...(wide ? {} : { isMobile: true, hasTouch: true }) });
  context.setDefaultTimeout(WAIT_MS);
  const found: string[] = [];
  const errors: string[] = [];
  const where = `${lang} ${size.width}`;
  try {
    const login = await langPage(context, lang, errors);
    await login.goto(`${suite.d.url}/`);
    await login.locator('#login-user').waitFor();
    await login.waitForFunction((l) => document.documentElement.lang === l, lang);
    found.push(...(await check(login, `${where} login`, shell)));
    await loginApi(login, suite.d); // the session cookie now serves every page of the context
    await login.close();

    const page = await langPage(context, lang, errors);
    await page.goto(`${suite.d.url}/#/info`);
    await page.locator('#page-title').waitFor();
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    for (const r of ROUTES) {
      await openRoute(page, r.id, r.path);
      found.push(...(await check(page, `${where} ${r.path}`, routes)));
    }
    if (shell.length > 0) {
      await openRoute(page, 'mqtt', '/mqtt');
      await fieldInput(page, 'pew_mqtt', 'keep_alive').fill('70000'); // over its limit (0…65535)
      await page.locator('.page-bar [data-action=save]').click();
      await page.locator('.notice.error').waitFor();
      await page.locator('main .field .error').first().waitFor();
      found.push(...(await check(page, `${where} /mqtt refused`, shell)));
      await page.locator('[data-action=help]').click();
      await page.locator('main aside.help p').first().waitFor();
      found.push(...(await check(page, `${where} /mqtt help`, shell)));
      if (!wide) {
        await page.locator('header button.menu-toggle').click();
        await page.locator('#menu').waitFor({ state: 'visible' });
        found.push(...(await check(page, `${where} menu`, shell)));
      }
    }
    await page.close({ runBeforeUnload: false }); // a refused change is left unsaved
  } finally {
    await context.close();
  }
  return { found, errors };
}

/**
 * The unit as a technician leaves it, so that the pages show their tables and blocks filled: the
 * logger on with two files of long names, two redirect threads (one a Modbus/TCP gateway) with
 * restrictions, a capture of the first thread with a refused write, the administrator's register
 * watch list. Nothing of it needs a PLC that answers: the status shows its failed reads.
 */
export async function seedPlant(suite: Suite): Promise<void> {
  const c = await suite.d.admin();
  const point = (id: number, name: string) => withDefaults(recordSchema, { id, name, area: 1, reg_addr: String(100 + id), type: 1 }) as LogRecord;
  const file = (id: number, name: string) =>
    withDefaults(logFileSchema, {
      id,
      name,
      trigger: 1,
      cycle: 60,
      delay_store: 1,
      records: [point(2 * id - 1, 'flow_in'), point(2 * id, 'level')],
    }) as LogFile;
  const saved = await c.post('/config/pew_log', {
    ...(withDefaults(logSchema, {}) as Record<string, unknown>),
    enable_log: true,
    log_def: [file(1, 'boiler_house_temperatures_1'), file(2, 'pump_station_north_pressure')],
  });
  if (saved.status !== 200) throw new Error(`the logger was not saved: ${saved.text}`);
  const rule = (area: string, start: number, end: number, read_write: string, type = 0) =>
    withDefaults(restrictionSchema, { type, area, register_area_start: start, register_area_end: end, read_write });
  const port = await freePort();
  const threads = [
    withDefaults(threadSchema, { port, mapping: [rule('DT', 0, 99, 'RO'), rule('DT', 100, 199, 'R/W'), rule('WR', 0, 9, 'R/W')] }),
    withDefaults(threadSchema, { port: await freePort(), mb_translation: true, mapping: [rule('DT', 200, 299, 'R/W'), rule('WY', 0, 3, 'RO', 2)] }),
  ];
  const ports = await c.post('/config/pew_redirect', { threads });
  if (ports.status !== 200) throw new Error(`the threads were not saved: ${ports.text}`);
  // the traffic monitor holds a capture of the first thread at level raw: a client, its write the
  // read-only restriction refuses, the error answer (/monitor shows records of each kind)
  await suite.d.ctx.redirects.settled();
  const capture = await c.post('/config/monitor/start', { sources: [`port:${port}`], level: 'raw', minutes: 60 });
  if (capture.status !== 200) throw new Error(`the capture did not start: ${capture.text}`);
  await mewAsk(port, { cmd: 'WD', area: 'DT', start: 5, words: [1] });
  // the register watch: an entry the INTERNAL memory answers (its value and trend) and one on COM1, which is off (its failure)
  const watched = (o: Record<string, unknown>) => withDefaults(watchEntrySchema, o);
  const watch = await c.post('/config/watch', {
    entries: [
      watched({ name: 'boiler_house_flow_temperature', if: 4, reg_addr: '100', decimal: 1 }),
      watched({ name: 'pump_station_north_running', if: 0, area: 6, reg_addr: '10A' }),
      watched({ name: 'pressure_words', if: 4, reg_addr: '102', type: 4, format: 'bin' }),
    ],
  });
  if (watch.status !== 200) throw new Error(`the watch list was not saved: ${watch.text}`);
}

/** The test of one case: nothing found, no uncaught error in the pages. */
export function sweepCase(suite: Suite) {
  return async (c: Sweep, { expect }: { expect: ExpectStatic }) => {
    const { found, errors } = await sweep(suite, c);
    expect(found).toEqual([]);
    expect(errors).toEqual([]);
  };
}

/** Every route in each language at `size`, in the default theme; the shell in every theme in English. */
export const languageCases = (size: Size): (Sweep & { name: string })[] =>
  LANGS.map((lang) => ({
    name: `every route in ${lang} at ${size.width} px`,
    size,
    lang,
    routes: ['default'] as const,
    shell: lang === 'en' ? THEMES : (['default'] as const),
  }));

/** The routes in each other theme in English at 1280 px, a case per theme (colour rules). */
export const themeCases = (): (Sweep & { name: string })[] =>
  THEMES.slice(1).map((theme) => ({
    name: `every route in the ${theme} theme (colour rules) at ${WIDTHS[0].width} px`,
    size: WIDTHS[0],
    lang: 'en' as const,
    routes: [theme],
    shell: [],
  }));
