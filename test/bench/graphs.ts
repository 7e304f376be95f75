// The trend graph figure of `npm run bench`: a 10 MB log file (spec §9: the largest a graph takes)
// from the click that chooses it on /graphs to the drawn chart in chromium, median of 5, side by
// side with a bare page that fetches the same file through the same download route and only
// splits it into numbers (the floor: no drawing at all). The files are written with the logger's
// own CSV text functions, so the page reads what the unit writes; the browser tests use them too.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { buildWeb } from '../../build/web.ts';
import { csvFormat, formatLine, headerLines, offsetCalendar } from '../../device/logger/csv-text.ts';
import { LOG_FOLDER, type LogValue } from '../../device/logger/types.ts';
import { withDefaults } from '../../device/model/section.ts';
import type { Log } from '../../device/model/sections/log.ts';
import { type LogRecord, recordSchema } from '../../device/model/sections/logfile.ts';
import { TREND_MAX_BYTES } from '../../web/graphs/csv-trend.ts';
import { launchBrowser } from '../support/chromium.ts';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { bareWebDir } from './console.ts';
import { median, type Row } from './stats.ts';

const RUNS = 5;

export interface TrendFileSpec {
  header: Log['header'];
  separator: Log['csv_separator'];
  decimal: Log['dec_separator'];
  /** the data points (name, dim, if, area, reg_addr, type, decimal …); defaults fill the rest */
  points: Partial<LogRecord>[];
  /** ms of the first line, written as UTC wall clock */
  start: number;
  stepMs: number;
  /** lines to write; or stop before `maxBytes` */
  lines?: number;
  maxBytes?: number;
  value: (line: number, point: number) => LogValue;
}

/** A log file's text as the logger writes it (device/logger/csv-text.ts), the wall clock in UTC. */
export function trendCsv(spec: TrendFileSpec): string {
  const records = spec.points.map((p, i) => withDefaults(recordSchema, { id: i + 1, name: `P${i + 1}`, ...p }) as LogRecord);
  const fmt = csvFormat({ header: spec.header, csv_separator: spec.separator, dec_separator: spec.decimal }, records, { calendar: offsetCalendar(() => 0) });
  const parts = headerLines(records, fmt);
  let bytes = parts.reduce((n, l) => n + Buffer.byteLength(l), 0);
  for (let i = 0; spec.lines === undefined || i < spec.lines; i++) {
    const line = formatLine({ at: spec.start + i * spec.stepMs, values: records.map((_, p) => spec.value(i, p)) }, fmt);
    bytes += Buffer.byteLength(line);
    if (spec.maxBytes !== undefined && bytes > spec.maxBytes) break;
    parts.push(line);
  }
  return parts.join('');
}

/** Writes `files` into the log folder of the daemon's internal volume. */
export async function putLogFiles(d: TestDaemon, files: Record<string, string | Uint8Array>): Promise<void> {
  const dir = join(d.dataDir, 'volumes', 'internal', LOG_FOLDER);
  await mkdir(dir, { recursive: true });
  for (const [name, body] of Object.entries(files)) await writeFile(join(dir, name), body);
}

const BIG = 'plant_20261121.csv';

/** Eight points for a day at one line a second, cut just below 10 MB. */
export const bigTrend = (): string =>
  trendCsv({
    header: 3,
    separator: 'semicolon',
    decimal: 'comma',
    start: Date.UTC(2026, 10, 21),
    stepMs: 1000,
    maxBytes: TREND_MAX_BYTES,
    points: Array.from({ length: 8 }, (_, i) => ({ name: `Sensor${i + 1}`, dim: 'bar', reg_addr: String(100 + 2 * i), type: 7, decimal: 3 })),
    value: (line, p) => 50 + 40 * Math.sin(line / (300 + 97 * p)) + (line % 977 === 0 ? 30 : 0),
  });

const BARE_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>bare</title></head><body><button id="go">go</button><script src="/assets/bare.js"></script></body></html>';
// the floor: the same download, decoded and split into numbers, nothing drawn
const BARE_JS = `document.getElementById('go').addEventListener('click',async()=>{const t=await (await fetch('/download/log/intern/${BIG}')).text();
let n=0;for(const l of t.split('\\r\\n')){const f=l.split(';');for(let i=2;i<f.length;i++)if(!isNaN(parseFloat(f[i].replace(',','.'))))n++;}
const p=document.createElement('pre');p.id='ready';p.textContent=String(n);document.body.append(p);});`;

/** ms from the click on `click` until `done` is in the page, both taken inside the page. */
async function clickToSelector(browser: Browser, d: TestDaemon, path: string, click: string, done: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const [name, value] = (await d.admin()).cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: d.url }]);
  const page = await context.newPage();
  try {
    await page.goto(`${d.url}${path}`);
    await page.locator(click).waitFor({ timeout: 60_000 });
    const ms = page.evaluate(
      ({ click, done }) =>
        new Promise<number>((resolve) => {
          let t0 = 0;
          document.querySelector(click)!.addEventListener(
            'click',
            () => {
              t0 = performance.now();
            },
            { capture: true },
          );
          new MutationObserver((_, obs) => {
            if (t0 && document.querySelector(done)) {
              obs.disconnect();
              resolve(performance.now() - t0);
            }
          }).observe(document.body, { subtree: true, childList: true, attributes: true });
        }),
      { click, done },
    );
    await page.locator(click).click();
    return await ms;
  } finally {
    await context.close();
  }
}

export async function measureGraphs(rows: Row[]): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-graphs-'));
  const browser = await launchBrowser();
  try {
    await buildWeb({ outDir: join(work, 'web') });
    const csv = bigTrend();
    const times: Record<'console' | 'bare', number[]> = { console: [], bare: [] };
    const setups = [
      ['console', join(work, 'web'), '/#/graphs', `[data-file="0/${BIG}"]`, `[data-graph="0/${BIG}"] .ct-host[data-drawn] svg`],
      ['bare', await bareWebDir(join(work, 'bare'), BARE_HTML, BARE_JS), '/', '#go', '#ready'],
    ] as const;
    for (const [label, webDir, path, click, done] of setups) {
      const d = await startTestDaemon({ webDir });
      try {
        await putLogFiles(d, { [BIG]: csv });
        for (let i = 0; i < RUNS; i++) times[label].push(await clickToSelector(browser, d, path, click, done));
      } finally {
        await d.stop();
      }
    }
    const mb = (Buffer.byteLength(csv) / 1024 / 1024).toFixed(1);
    rows.push({
      figure: '/graphs 10 MB log file: choice → chart (ms)',
      ours: median(times.console),
      baseline: median(times.bare),
      note: `median of ${RUNS}; ${mb} MB, 8 series; baseline: same download split into numbers, nothing drawn`,
    });
  } finally {
    await browser.close();
    await rm(work, { recursive: true, force: true });
  }
}
