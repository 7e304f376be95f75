// Console figures of `npm run bench`: gzip bytes of the first load of /#/info and of every asset
// (against the budgets), and the time from navigation to /info showing data in chromium with the
// CPU throttled 4×, side by side with a bare page that fetches the same data and writes it as text
// (the floor: one HTML file, one script, the same API calls).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from '@playwright/test';
import { buildWeb } from '../../build/web.ts';
import { encodePrefs, PREFS_COOKIE } from '../../device/model/first-frame.ts';
import { launchBrowser } from '../support/chromium.ts';
import { startTestDaemon } from '../support/daemon.ts';
import { NEIGHBOURS, startSlowDaemon } from './slow-core.ts';
import { median, type Row } from './stats.ts';

// single loads spread over 150-500 ms on a shared machine: 15 loads a side left the ratio moving by
// ±0.2 between runs, 25 still by ±0.2 (1.22× to 1.62× in runs minutes apart); 50 narrow the spread
// of the medians by about 30 % (a factor of √2)
const RUNS = 50;
const CONSOLE_READY = '[data-page=info] .facts';
const BARE_READY = '#ready';

type Sides = Record<'console' | 'bare', number[]>;
interface Side {
  url: string;
  /** `name=value` each: the session, and for the console the preferences cookie it keeps (device/model/first-frame.ts) */
  cookies: string[];
  selector: string;
}

/** RUNS cold loads of each side, by turns, the side that goes first changing each turn. */
async function byTurns(browser: Browser, consoleSide: Side, bare: Side): Promise<Sides> {
  const times: Sides = { console: [], bare: [] };
  const load = async (side: keyof Sides) => {
    const s = side === 'console' ? consoleSide : bare;
    times[side].push(await timeToData(browser, `${s.url}/#/info`, s.cookies, s.selector));
  };
  for (let i = 0; i < RUNS; i++) {
    for (const side of i % 2 ? (['bare', 'console'] as const) : (['console', 'bare'] as const)) await load(side);
  }
  return times;
}
export const THROTTLE = 4;
/** the preferences cookie of a browser that has had the console open before (English, default theme, every page) */
export const RETURNING = `${PREFS_COOKIE}=${encodePrefs({ locale: 'en', theme: 'default', filter: 'all', route: 'info' })}`;

const BARE_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>bare</title><script type="module" src="/assets/bare.js"></script></head><body><div id="app"></div></body></html>';
// the same calls the console makes before /info shows data: who is signed in, then system information
const BARE_JS = `const a=await fetch('/rest/api/v1/authentication');if(a.ok){const i=await (await fetch('/rest/api/v1?cache=true&js=true')).json();
const p=document.createElement('pre');p.id='ready';p.textContent=i.os.hostname+' '+i.versions.app+' '+i.services.map(s=>s.name).join(' ');document.body.append(p);}`;

/** A web folder for a bare baseline page: `html` as index.html, `js` as assets/bare.js, each with its .gz twin. */
export async function bareWebDir(dir: string, html = BARE_HTML, js = BARE_JS): Promise<string> {
  await mkdir(join(dir, 'assets'), { recursive: true });
  for (const [name, text] of [
    ['index.html', html],
    ['assets/bare.js', js],
  ] as const) {
    await writeFile(join(dir, name), text);
    await writeFile(join(dir, `${name}.gz`), gzipSync(text, { level: 9 }));
  }
  return dir;
}

/**
 * A script the browser runs before the page's own: at each animation frame it looks for `selector`
 * shown (in the page and not hidden: the daemon's first frame, of the page its cookie names, is in
 * the page whatever the address, and shown only when the address is that page's);
 * in the first frame that has it, it posts a task, which runs once that frame is rendered, and notes
 * the time as `dataShownAt`. A string, not a function: the bench's own build would add helpers to a
 * function's text that the page does not have.
 */
const shownAtScript = (selector: string) =>
  `(() => { const look = () => { if (document.querySelector(${JSON.stringify(selector)})?.checkVisibility()) setTimeout(() => { window.dataShownAt = performance.now(); }, 0); else requestAnimationFrame(look); }; requestAnimationFrame(look); })();`;

/** how often the bench asks the page for the time it noted, over the DevTools protocol */
const ASK_MS = 50;

/**
 * ms from navigation start until the frame that shows `selector` is rendered, cold cache, CPU
 * throttled, as the page itself notes it (shownAtScript). The bench reads the note with a bare
 * Runtime.evaluate every ASK_MS, not with Playwright's waitForSelector or waitForFunction: those run
 * Playwright's injected script in the page (40-80 ms of the throttled main thread during the load,
 * on both sides alike), and waitForSelector looks only after 0, 20, 50, 100 and 100 ms and then every
 * 500 ms, which rounded a load up to its next look.
 */
export async function timeToData(browser: Browser, url: string, cookies: readonly string[], selector: string): Promise<number> {
  const context = await browser.newContext();
  await context.addCookies(
    cookies.map((c) => {
      const [name, value] = c.split('=') as [string, string];
      return { name, value, url };
    }),
  );
  await context.addInitScript({ content: shownAtScript(selector) });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  await page.goto(url, { waitUntil: 'commit' });
  const t0 = performance.now();
  let ms: unknown;
  while (typeof ms !== 'number') {
    if (performance.now() - t0 > 60_000) throw new Error(`${selector} not shown within 60 s on ${url}`);
    await new Promise((r) => setTimeout(r, ASK_MS));
    ms = (await cdp.send('Runtime.evaluate', { expression: 'window.dataShownAt', returnByValue: true })).result.value;
  }
  await context.close();
  return ms;
}

export async function measureConsole(rows: Row[]): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-console-'));
  const browser = await launchBrowser();
  try {
    const report = await buildWeb({ outDir: join(work, 'web') });
    const kb = (n: number) => n / 1024;
    rows.push({
      figure: 'console first load /#/info (KB gz)',
      ours: kb(report.firstLoad.gzipBytes),
      baseline: kb(report.budgets.firstLoadGzip),
      note: `budget; ${report.firstLoad.files.length} files, gzip -9; ESPHome web_server v3 ≈ 77 KB in one page`,
    });
    rows.push({
      figure: 'console all assets (KB gz)',
      ours: kb(report.total.gzipBytes),
      baseline: kb(report.budgets.totalGzip),
      note: `budget; ${report.files.length} files incl. de/fr and every page`,
    });

    // the console and the bare page load by turns, each from its own daemon started before: a
    // machine that gets busier during the run slows both sides alike
    const fast = await Promise.all([startTestDaemon({ webDir: join(work, 'web') }), startTestDaemon({ webDir: await bareWebDir(join(work, 'bare')) })]);
    let times: Sides;
    try {
      const [c, b] = await Promise.all(fast.map(async (d) => ({ url: d.url, cookie: (await d.admin()).cookie })));
      times = await byTurns(
        browser,
        { url: c!.url, cookies: [c!.cookie, RETURNING], selector: CONSOLE_READY },
        { url: b!.url, cookies: [b!.cookie], selector: BARE_READY },
      );
    } finally {
      await Promise.all(fast.map((d) => d.stop()));
    }
    rows.push({
      figure: `/info showing data, CPU ${THROTTLE}× (ms)`,
      ours: median(times.console),
      baseline: median(times.bare),
      note: `median of ${RUNS} cold loads each, by turns, until the frame showing the data is rendered; baseline: bare page with the same API calls`,
    });

    // both sides of the unit: the same figure with the daemon on one core at a quarter of its speed
    // (both daemons on that core, one set of busy loops: only the one being loaded works)
    const slowConsole = await startSlowDaemon(join(work, 'web'));
    let slow: Sides;
    try {
      const slowBare = await startSlowDaemon(join(work, 'bare'), 0);
      try {
        slow = await byTurns(
          browser,
          { url: slowConsole.url, cookies: [slowConsole.cookie, RETURNING], selector: CONSOLE_READY },
          { url: slowBare.url, cookies: [slowBare.cookie], selector: BARE_READY },
        );
      } finally {
        await slowBare.stop();
      }
    } finally {
      await slowConsole.stop();
    }
    rows.push({
      figure: `/info showing data, CPU ${THROTTLE}×, daemon ¼ core (ms)`,
      ours: median(slow.console),
      baseline: median(slow.bare),
      note: `median of ${RUNS} each, by turns; daemons taskset to core ${slowConsole.core} with ${NEIGHBOURS} busy loops (test/bench/slow-core.ts)`,
    });
  } finally {
    await browser.close();
    await rm(work, { recursive: true, force: true });
  }
}
