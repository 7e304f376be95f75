// The data point table of /log in chromium with spec §9's largest log file: 690 points (60 STRING,
// 400 difference) against a log file of 10 points, the same moves on each side by turns: switching
// to the file until its first row shows, scrolling to its end until its last row shows, and a
// keystroke in a row's name until the table shows it. The table draws only the rows in view, so
// the two sides should take about as long. The variable list export and import of 700 points is
// timed in node beside it. These were wall-clock limits in the browser test once (500 ms, 1 s);
// a busy machine made them fail there, so they are figures here.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { buildWeb } from '../../build/web.ts';
import { withDefaults } from '../../device/model/section.ts';
import { logSchema } from '../../device/model/sections/log.ts';
import { type LogFile, type LogRecord, logFileSchema, recordSchema, STRING_TYPE } from '../../device/model/sections/logfile.ts';
import { exportVariables } from '../../web/log/export.ts';
import { IMPORT_DEFAULTS, parseVariables } from '../../web/log/import.ts';
import { launchBrowser } from '../support/chromium.ts';
import { startTestDaemon } from '../support/daemon.ts';
import { median, type Row } from './stats.ts';

const RUNS = 15;

const rec = (r: Partial<LogRecord>) => withDefaults(recordSchema, r) as LogRecord;
const points = (n: number, extra: Partial<LogRecord> = {}, from = 0) =>
  Array.from({ length: n }, (_, i) => rec({ id: i + 1, name: `P${from + i}`, reg_addr: String((from + i) * 2), type: 4, ...extra }));
/** 60 STRING points, 400 difference points and 230 more, as the browser test's largest file */
export const bigPoints = (): LogRecord[] =>
  [
    ...points(60, { type: STRING_TYPE }).map((r, k) => ({ ...r, reg_addr: String(k * 26) })),
    ...points(400, { format: 'difference' }, 1000),
    ...points(230, {}, 2000),
  ].map((r, k) => ({ ...r, id: k + 1 }));

/**
 * Runs `act` in the page and answers the ms until a frame after which the expression `shown` is
 * true. A string, not a function: tsx would add helpers to a function's text that the page does not have.
 */
const timed = (page: Page, act: string, shown: string): Promise<number> =>
  page.evaluate(`(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const t0 = performance.now();
    ${act};
    do await frame();
    while (!(${shown}) && performance.now() - t0 < 30000);
    if (!(${shown})) throw new Error('not shown within 30 s: ' + ${JSON.stringify(shown)});
    return performance.now() - t0;
  })()`);
const hasRow = (j: number) => `!!document.querySelector('tr[data-point="${j}"]')`;
const rowHas = (j: number, text: string) => `[...document.querySelectorAll('tr[data-point="${j}"] td')].some((td) => td.textContent === '${text}')`;

const switchTo = (k: number) => `document.querySelector('[data-logfile="${k}"]').click()`;
const scrollEnd = "const v = document.querySelector('[data-points-view]'); v.scrollTop = v.scrollHeight; v.dispatchEvent(new Event('scroll'))";
const scrollTop = "const v = document.querySelector('[data-points-view]'); v.scrollTop = 0; v.dispatchEvent(new Event('scroll'))";
const rename = (name: string) => `const el = document.activeElement; el.value = '${name}'; el.dispatchEvent(new Event('input', { bubbles: true }))`;

export async function measureLogTable(rows: Row[]): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-log-'));
  await buildWeb({ outDir: join(work, 'web') });
  const browser = await launchBrowser();
  const d = await startTestDaemon({ webDir: join(work, 'web') });
  try {
    const big = bigPoints();
    const logFile = (f: Partial<LogFile>) => withDefaults(logFileSchema, f) as LogFile;
    const c = await d.admin();
    const log = {
      ...(withDefaults(logSchema, {}) as object),
      log_def: [logFile({ id: 1, name: 'small', records: points(10) }), logFile({ id: 2, name: 'big', records: big })],
    };
    const saved = await c.post('/config/pew_log', log);
    if (saved.status !== 200) throw new Error(`pew_log not saved: ${saved.status} ${saved.text}`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const [name, value] = c.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: d.url }]);
    const page = await context.newPage();
    await page.goto(`${d.url}/#/log`);
    await page.locator('main [data-page="log"] [data-logfile="1"]').waitFor({ timeout: 60_000 });

    const times = {
      switchBig: [] as number[],
      switchSmall: [] as number[],
      endBig: [] as number[],
      endSmall: [] as number[],
      keyBig: [] as number[],
      keySmall: [] as number[],
    };
    const side = async (k: 0 | 1, last: number, row: number) => {
      const small = k === 0;
      (small ? times.switchSmall : times.switchBig).push(await timed(page, switchTo(k), hasRow(0)));
      (small ? times.endSmall : times.endBig).push(await timed(page, scrollEnd, hasRow(last)));
      await page.locator(`main [data-page="log"] tr[data-point="${row}"]`).click();
      await page.locator(`#f-pew_log-log_def-${k}-records-${row}-name`).focus();
      const fresh = `R${Math.random().toString(36).slice(2, 8)}`;
      await page.waitForFunction((id) => document.activeElement?.id === id, `f-pew_log-log_def-${k}-records-${row}-name`);
      (small ? times.keySmall : times.keyBig).push(await timed(page, rename(fresh), rowHas(row, fresh)));
      await page.evaluate(scrollTop);
    };
    for (let i = 0; i < RUNS; i++) {
      for (const k of i % 2 ? ([0, 1] as const) : ([1, 0] as const)) await (k === 0 ? side(0, 9, 8) : side(1, 689, 680));
    }
    await context.close();
    const note = `median of ${RUNS} each, by turns, until the frame with the row; baseline: the same on a 10-point file`;
    rows.push({ figure: '/log switch to a 690-point file (ms)', ours: median(times.switchBig), baseline: median(times.switchSmall), note });
    rows.push({ figure: '/log scroll to its last row (ms)', ours: median(times.endBig), baseline: median(times.endSmall), note });
    rows.push({ figure: '/log keystroke in a point name (ms)', ours: median(times.keyBig), baseline: median(times.keySmall), note });

    // the variable list of 700 points (spec §9) exported and imported again, in node
    const recs = Array.from({ length: 700 }, (_, i) => ({ name: `P${i}`, area: 1, reg_addr: String(i * 2), type: 4 }));
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const back = parseVariables(exportVariables(recs), IMPORT_DEFAULTS);
      ms.push(performance.now() - t0);
      if (back.variables.length !== 700) throw new Error(`${back.variables.length} of 700 variables came back`);
    }
    rows.push({ figure: 'variable list of 700 points, export + import (ms)', ours: median(ms), note: `median of ${RUNS}, in node` });
  } finally {
    await d.stop();
    await browser.close();
    await rm(work, { recursive: true, force: true });
  }
}
