// Console figures of `npm run bench -- pages`: the pages other than /info, in chromium with the CPU
// throttled 4×, as a technician meets them.
// - A deep link (`/#/com` …) loaded cold by a returning browser (session and preferences cookie), until
//   the frame that shows the page's data is rendered, side by side with a bare page that makes the
//   same API calls for that page (who is signed in, then the page's data) and writes them as text.
//   The cookie holds the page the console showed last (device/model/first-frame.ts): for each route
//   the cookie the console leaves on that page (a reload, a bookmark to the page last used), and for
//   /com also one naming /info (a link from elsewhere: the daemon frames /info, which is not shown).
// - Moving between pages inside one loaded console: a click on the menu entry until the new page's
//   data is shown, for a cycle of route pairs, each page met for the first time in that console.
// - The longest task (PerformanceObserver `longtask`) while /log with 700 points and /port with a
//   thread of 10 restrictions are shown and edited.
// Both daemons hold the same settings: a log file of 690 points and one of 10 (the largest of spec
// §9, as test/bench/log-table.ts), one redirect thread with 10 restrictions (spec §9).
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { buildWeb } from '../../build/web.ts';
import { encodePrefs, type FrameRoute, PREFS_COOKIE } from '../../device/model/first-frame.ts';
import { withDefaults } from '../../device/model/section.ts';
import { logSchema } from '../../device/model/sections/log.ts';
import { type LogFile, logFileSchema } from '../../device/model/sections/logfile.ts';
import { restrictionSchema, threadSchema } from '../../device/model/sections/redirect.ts';
import { launchBrowser } from '../support/chromium.ts';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { bareWebDir, RETURNING, THROTTLE, timeToData } from './console.ts';
import { bigPoints } from './log-table.ts';
import { median, type Row } from './stats.ts';

// 5 routes × 2 sides × RUNS cold loads at 0.5-1.5 s each: 18 keep the part within a few minutes
// (/info's row takes 50: the medians here move more between runs, by about ±0.3 in the ratio)
const RUNS = 18;
const MOVE_ROUNDS = 10;

/** What "showing data" means on each page: the element that appears once the page's data is rendered. */
export const PAGE_READY = {
  // the overview's link state of COM1: the settings and the first com_status answer
  com: '[data-page=com] [data-overview-interface="1"] [data-state]',
  // the thread's listening state in the overview: the settings and the first port_status answer
  port: '[data-page=port] [data-overview-thread="0"] [data-state]',
  // the page's first screen: the logger's status facts and its general settings (the points of the
  // 690-point file begin two screens down at 1280 × 800: LOG_POINTS, timed after a move on its own)
  log: '[data-page=log]:has([data-block=log-status] .facts):has(#f-pew_log-enable_log)',
  // the service's status facts: the settings and the first service_status answer
  mqtt: '[data-page=mqtt] [data-block=mqtt-status] .facts',
  // the storages with their files
  graphs: '[data-page=graphs] .choose',
  info: '[data-page=info] .facts',
} as const;
/** /log's points shown: the first row of the 690-point file's table */
const LOG_POINTS = '[data-page=log] tr[data-point="0"]';
type Route = keyof typeof PAGE_READY;
const ROUTES = ['com', 'port', 'log', 'mqtt', 'graphs'] as const satisfies readonly Route[];
/** the menu moves timed, in this order, in one console opened on /info */
const MOVES: readonly (readonly [Route, Route])[] = [
  ['info', 'com'],
  ['com', 'log'],
  ['log', 'mqtt'],
  ['mqtt', 'port'],
  ['port', 'graphs'],
  ['graphs', 'info'],
];

// the API calls the console makes before each page shows its data (the start answers carry them
// into the console's page; the bare page asks for them): who is signed in, then the page's data
const BARE_CALLS: Record<(typeof ROUTES)[number], string[]> = {
  com: ['/config', '/config/com_status'],
  port: ['/config', '/config/port_status'],
  log: ['/config', '/config/log_status'],
  mqtt: ['/config', '/config/service_status'],
  graphs: ['/config/all_logfiles'],
};
const BARE_JS = `const calls=${JSON.stringify(BARE_CALLS)}[location.hash.slice(2)];const a=await fetch('/rest/api/v1/authentication');if(a.ok){const r=await Promise.all(calls.map(async(p)=>(await fetch(p)).json()));
const p=document.createElement('pre');p.id='ready';p.textContent=JSON.stringify(r).slice(0,4000);document.body.append(p);}`;

/** Gives `d` the bench's settings: the log files of 690 and 10 points, a thread with 10 restrictions on `port`. */
export async function settle(d: TestDaemon, port: number): Promise<void> {
  const c = await d.admin();
  const logFile = (f: Partial<LogFile>) => withDefaults(logFileSchema, f) as LogFile;
  const small = bigPoints()
    .slice(-10)
    .map((r, k) => ({ ...r, id: k + 1 }));
  const log = {
    ...(withDefaults(logSchema, {}) as object),
    log_def: [logFile({ id: 1, name: 'big', records: bigPoints() }), logFile({ id: 2, name: 'small', records: small })],
  };
  const mapping = Array.from({ length: 10 }, (_, j) =>
    withDefaults(restrictionSchema, { area: 'DT', register_area_start: j * 100, register_area_end: j * 100 + 9, read_write: 'RO' }),
  );
  const redirect = { threads: [withDefaults(threadSchema, { port, mapping })] };
  for (const [key, body] of [
    ['pew_log', log],
    ['pew_redirect', redirect],
  ] as const) {
    const r = await c.post(`/config/${key}`, body);
    if (r.status !== 200) throw new Error(`${key} not saved: ${r.status} ${r.text}`);
  }
  await d.ctx.redirects.settled();
}

/** a TCP port free on loopback now */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

/** the long tasks of the page, from its start: [startTime, duration] */
const LONG_TASKS = `(() => { window.longTasks = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longTasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true }); })();`;

/**
 * Clicks the menu entry of `to` and answers the ms until the frame after which `to` shows its data.
 * A string, not a function: the bench's own build would add helpers the page does not have.
 */
const move = async (page: Page, to: Route): Promise<number> => (await moveUntil(page, to))[0];

/** As `move`, and with `later` the ms until the frame after which that part of the page is shown too: [page, later]. */
const moveUntil = (page: Page, to: Route, later: string = PAGE_READY[to]): Promise<[number, number]> =>
  page.evaluate(`(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const seen = (q) => document.querySelector(q)?.checkVisibility();
    const t0 = performance.now();
    document.querySelector('nav a[data-page=${to}]').click();
    const until = async (q) => {
      while (!seen(q) && performance.now() - t0 < 30000) await frame();
      if (!seen(q)) throw new Error(q + ' not shown within 30 s');
      return performance.now() - t0;
    };
    await frame();
    const page = await until(${JSON.stringify(PAGE_READY[to])});
    return [page, await until(${JSON.stringify(later)})];
  })()`);

const longestSince = async (page: Page, t0: number): Promise<number> =>
  page.evaluate(`Math.max(0, ...window.longTasks.filter(([s]) => s >= ${t0}).map(([, d]) => d))`);
const now = (page: Page): Promise<number> => page.evaluate('performance.now()');
/** waits two frames, so that a task the last input started has run */
const settleFrames = (page: Page) => page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))))');

interface MoveFigures {
  moves: Map<string, number[]>;
  /** the moves to /log until its points are shown */
  logPoints: number[];
  logTask: number[];
  portTask: number[];
}

/** One round: a console opened cold on /info, the menu moves of MOVES, /log and /port edited on the way. */
async function moveRound(browser: Browser, url: string, cookies: readonly string[], f: MoveFigures): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addCookies(
      cookies.map((c) => {
        const [name, value] = c.split('=') as [string, string];
        return { name, value, url };
      }),
    );
    await context.addInitScript({ content: LONG_TASKS });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    // the console has taken over the daemon's frame and has loaded what it loads once idle
    await page.goto(`${url}/#/info`, { waitUntil: 'networkidle' });
    await page.waitForFunction(
      `!document.getElementById('app').hasAttribute('data-first-frame') && !!document.querySelector(${JSON.stringify(PAGE_READY.info)})`,
      undefined,
      { timeout: 60_000 },
    );
    // and what it loads once the browser is idle (the model, texts) is in: no new request for a second
    const requests = () => page.evaluate("performance.getEntriesByType('resource').length");
    for (let n = -1, since = Date.now(); Date.now() - since < 1000; await new Promise((r) => setTimeout(r, 250))) {
      const now = await requests();
      if (now !== n) [n, since] = [now as number, Date.now()];
    }
    const shown: Partial<Record<'log' | 'port', number>> = {};
    for (const [from, to] of MOVES) {
      const t0 = await now(page);
      const [ms, points] = await moveUntil(page, to, to === 'log' ? LOG_POINTS : undefined);
      const key = `${from}→${to}`;
      f.moves.set(key, [...(f.moves.get(key) ?? []), ms]);
      if (to === 'log') f.logPoints.push(points);
      if (to === 'log' || to === 'port') {
        await settleFrames(page);
        shown[to] = await longestSince(page, t0);
      }
    }
    // then each edited (after the cycle: an edit makes the next move ask whether to leave it)
    let t0 = await now(page);
    await move(page, 'log');
    const log = page.locator('main [data-page=log]');
    await log.locator('[data-points-view]').evaluate((v) => {
      v.scrollTop = v.scrollHeight;
      v.dispatchEvent(new Event('scroll'));
    });
    await log.locator('tr[data-point="689"]').click();
    const name = page.locator('#f-pew_log-log_def-0-records-689-name');
    await name.fill('');
    await name.pressSequentially('Level2');
    await settleFrames(page);
    f.logTask.push(Math.max(shown.log ?? 0, await longestSince(page, t0)));

    t0 = await now(page);
    await page.locator('nav a[data-page=port]').click();
    await page.locator('[role=alertdialog] button.danger').click();
    await page.locator(PAGE_READY.port).waitFor();
    const end = page.locator('#f-pew_redirect-threads-0-mapping-9-register_area_end');
    await end.fill('');
    await end.pressSequentially('950');
    const port = page.locator('main [data-page=port]');
    await port.locator('[data-restriction="9"] [data-action=remove-restriction]').click();
    await port.locator('[data-action=add-restriction]').click();
    await settleFrames(page);
    f.portTask.push(Math.max(shown.port ?? 0, await longestSince(page, t0)));
  } finally {
    await context.close();
  }
}

/** the preferences cookie the console leaves on `route` (English, default theme, every page) */
const cookieOn = (route: FrameRoute) => `${PREFS_COOKIE}=${encodePrefs({ locale: 'en', theme: 'default', filter: 'all', route })}`;
/** the deep links timed with the cookie naming another page than the one opened: [opened, cookie's] */
const ELSEWHERE: readonly (readonly [(typeof ROUTES)[number], FrameRoute])[] = [['com', 'info']];

/**
 * `runs` cold loads a side per row and `rounds` consoles for the moves (0: none): fewer while
 * developing; `elsewhere` false leaves out the rows of a cookie naming another page.
 */
export async function measurePages(
  rows: Row[],
  { runs = RUNS, rounds = MOVE_ROUNDS, routes = ROUTES as readonly Route[], elsewhere = true } = {},
): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-pages-'));
  const browser = await launchBrowser();
  // the console and the bare page load by turns, each from its own daemon started before
  await buildWeb({ outDir: join(work, 'web') });
  const [c, b] = await Promise.all([
    startTestDaemon({ webDir: join(work, 'web') }),
    startTestDaemon({ webDir: await bareWebDir(join(work, 'bare'), undefined, BARE_JS) }),
  ]);
  try {
    await settle(c, await freePort());
    await settle(b, await freePort());
    const session = (await c.admin()).cookie;
    const consoleCookies = [session, RETURNING];
    const bareCookies = [(await b.admin()).cookie];
    const loads: { route: (typeof ROUTES)[number]; cookie: FrameRoute }[] = [
      ...routes.filter((r): r is (typeof ROUTES)[number] => r !== 'info').map((route) => ({ route, cookie: route as FrameRoute })),
      ...(elsewhere ? ELSEWHERE.filter(([r]) => routes.includes(r)).map(([route, cookie]) => ({ route, cookie })) : []),
    ];
    for (const { route, cookie } of loads) {
      const times = { console: [] as number[], bare: [] as number[] };
      for (let i = 0; i < runs; i++) {
        for (const side of i % 2 ? (['bare', 'console'] as const) : (['console', 'bare'] as const)) {
          const d = side === 'console' ? c : b;
          const cookies = side === 'console' ? [session, cookieOn(cookie)] : bareCookies;
          times[side].push(await timeToData(browser, `${d.url}/#/${route}`, cookies, side === 'console' ? PAGE_READY[route] : '#ready'));
        }
      }
      const other = cookie !== route;
      rows.push({
        figure: `/${route} showing data${other ? `, cookie on /${cookie}` : ''}, CPU ${THROTTLE}× (ms)`,
        ours: median(times.console),
        baseline: median(times.bare),
        note: `median of ${runs} cold loads each of /#/${route}, by turns, the preferences cookie ${other ? `naming /${cookie} (a link from elsewhere)` : 'the console leaves on that page'}; baseline: bare page with ${['auth', ...BARE_CALLS[route]].join(', ')}`,
      });
    }

    const f: MoveFigures = { moves: new Map(), logPoints: [], logTask: [], portTask: [] };
    for (let i = 0; i < rounds; i++) await moveRound(browser, c.url, consoleCookies, f);
    for (const [pair, ms] of f.moves)
      rows.push({
        figure: `move ${pair}, CPU ${THROTTLE}× (ms)`,
        ours: median(ms),
        baseline: 150,
        note: `median of ${rounds} consoles, menu click until the page's data is shown, first visit; baseline: the goal`,
      });
    if (f.logPoints.length > 0)
      rows.push({
        figure: `move to /log until its points are shown, CPU ${THROTTLE}× (ms)`,
        ours: median(f.logPoints),
        baseline: 150,
        note: `the same moves until the first row of the 690-point table, which begins two screens below the first (1280 × 800); baseline: the moves' goal`,
      });
    for (const [name, ms] of [
      ['/log 690 + 10 points shown and edited', f.logTask],
      ['/port 10 restrictions shown and edited', f.portTask],
    ] as const)
      if (ms.length > 0)
        rows.push({
          figure: `${name}: longest task, CPU ${THROTTLE}× (ms)`,
          ours: Math.max(...ms),
          baseline: 100,
          note: `the longest of ${rounds} rounds (median round ${median(ms).toFixed(0)} ms), from the menu click on; baseline: the goal`,
        });
  } finally {
    await Promise.all([c.stop(), b.stop()]);
    await browser.close();
    await rm(work, { recursive: true, force: true });
  }
}
