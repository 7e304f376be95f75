// The data logger end to end in chromium: a log file with two data points is set up on /log and
// saved through the page, the daemon's logger reads them from a virtual PLC on COM1 once a second,
// the CSV file appears in the page's storage list with the PLC's values, and /graphs draws it:
// zoomed by CTRL+drag and the wheel, reset, a series hidden through the legend.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SerialFraming } from '../../sim/wire.ts';
import { graphView, seconds } from './graph-view.ts';
import { connector, enableCom1, liveConsoleSuite, serialPlc } from './live-plc.ts';
import { en, expectNotice, expectTitle, fieldInput, fill, loginApi, menuLink, openConsole, pageBody } from './support.ts';

const FRAMING: SerialFraming = { baud: 115200, bits: 8, parity: 'odd', stopbits: 1 };
const COM1_TIMEOUT_MS = 300;
const RECORDS = 12; // records to wait for before the file is drawn
const RECORD = /^(\d{4}\/\d\d\/\d\d),(\d\d:\d\d:\d\d),(\d+),(\d+)$/;
const wire = serialPlc('FP-XH', FRAMING);
const plc = wire.plc;

/** The records of a CSV text of this test's log file: time of day and the two values. */
function records(text: string) {
  const lines = text.split('\r\n').filter(Boolean);
  const data = lines.filter((l) => RECORD.test(l));
  return {
    head: lines.slice(0, lines.length - data.length),
    rows: data.map((l) =>
      RECORD.exec(l)!
        .slice(2)
        .map((x, i) => (i === 0 ? x : Number(x))),
    ) as [string, number, number][],
  };
}

describe('the data logger from /log to /graphs against a virtual PLC on COM1', () => {
  const suite = liveConsoleSuite({ COM1: connector(wire) });
  let ticker: ReturnType<typeof setInterval> | undefined;

  beforeAll(async () => {
    await enableCom1(suite.d, FRAMING, COM1_TIMEOUT_MS);
    // the PLC counts: DT100 = n, DT101 = 2n, both changed in one step
    let n = 0;
    ticker = setInterval(() => {
      n++;
      plc.memory.writeWords('DT', 100, [n, 2 * n]);
    }, 50);
  });
  afterAll(() => clearInterval(ticker));

  const body = (page: Page, id: string) => pageBody(page, id);
  const input = (page: Page, path: string) => fieldInput(page, 'pew_log', path);

  it('a log file set up on /log writes the PLC values every second; /graphs draws the file, zooms, resets and hides a series', async () => {
    const cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/log');
    const log = body(page, 'log');
    await log.waitFor();

    // general settings, a log file on COM1 every second, each record written at once
    await input(page, 'enable_log').check();
    await input(page, 'header').selectOption('2');
    await log.locator('[data-action=add-logfile]').click();
    await input(page, 'log_def.0.name').fill('trend');
    await input(page, 'log_def.0.interface').selectOption('0');
    await input(page, 'log_def.0.trigger').selectOption('1');
    await input(page, 'log_def.0.cycle').fill('1');
    await input(page, 'log_def.0.delay_store').fill('1');
    // two data points: the counter and its double
    await page.locator('#log-add-count').fill('2');
    await log.locator('[data-action=add-points]').click();
    await expect.poll(() => log.locator('tr[data-point]').count()).toBe(2);
    await input(page, 'log_def.0.records.0.name').fill('Level');
    await input(page, 'log_def.0.records.0.dim').fill('mm');
    await input(page, 'log_def.0.records.0.reg_addr').fill('100');
    await log.locator('tr[data-point="1"]').click();
    await input(page, 'log_def.0.records.1.name').fill('Flow');
    await input(page, 'log_def.0.records.1.reg_addr').fill('101');
    await page.locator('.page-bar [data-action=save]').click();
    await expectNotice(page, 'info', en.form.notice.saved);

    // the CSV file appears in the list of the internal storage
    const list = log.locator('[data-storage-files="0"]');
    const listed = async () => {
      await list.locator('[data-action=refresh-files]').click();
      return list.locator('[data-file] a').allTextContents();
    };
    await expect.poll(listed, { timeout: 20_000 }).toEqual([expect.stringMatching(/^trend_\d{8}\.csv$/)]);
    const name = (await list.locator('[data-file] a').textContent())!;
    const path = join(suite.d.dataDir, 'volumes', 'internal', 'log', name);
    await expect.poll(async () => records(await readFile(path, 'utf8')).rows.length, { timeout: 30_000, interval: 500 }).toBeGreaterThanOrEqual(RECORDS);

    // header mode 2: names and units; one record a second with the PLC's values of that moment
    const text = await readFile(path, 'utf8');
    const { head, rows } = records(text);
    expect(head).toEqual([expect.stringMatching(/,Level,Flow$/), expect.stringMatching(/,mm,$/)]);
    for (const [, level, flow] of rows) expect(flow).toBe(2 * level);
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i]![1]).toBeGreaterThan(rows[i - 1]![1]);
      expect((seconds(rows[i]![0]) - seconds(rows[i - 1]![0]) + 86400) % 86400).toBe(1);
    }
    // downloaded through the page, the file starts with what was on the disk
    const [download] = await Promise.all([page.waitForEvent('download'), list.locator('[data-file] a').click()]);
    expect((await readFile(await download.path(), 'utf8')).startsWith(text)).toBe(true);

    // /graphs through the menu: the file of the internal storage, one series per data point
    await menuLink(page, 'graphs').click();
    await expectTitle(page, en.nav.graphs);
    const graphs = body(page, 'graphs');
    await graphs.locator(`[data-file="0/${name}"]`).check();
    const { g, host, drawn, redraw, seriesNames: names, range, ctrlDrag } = graphView(page, graphs.locator(`[data-graph="0/${name}"]`));
    await host.locator('svg').waitFor();
    await expect.poll(drawn).toBeGreaterThan(0);
    expect(await names()).toEqual(['Level', 'Flow']);
    expect(await g.locator('.series-legend button').allTextContents()).toEqual(['Levelmm', 'Flow']);
    // every record on the disk when the file was opened is drawn (the logger went on writing)
    const note = (await g.locator('[data-note=lines]').textContent())!;
    const lines = Number(/\d+/.exec(note)![0]);
    expect(note).toBe(fill(en.graphs.lines, { n: lines }));
    expect(lines).toBeGreaterThanOrEqual(rows.length);
    const full = await range();
    expect(full[0]).toBe(seconds(rows[0]![0]));
    expect(full[1]! - full[0]!).toBeGreaterThanOrEqual(RECORDS - 1);

    // CTRL+drag over the middle zooms into it
    await redraw(() => ctrlDrag(0.3, 0.85));
    const [a, b] = await range();
    expect(a).toBeGreaterThan(full[0]!);
    expect(b).toBeLessThan(full[1]!);
    // three wheel notches in (80 % each) narrow it around the pointer to about half
    const box = (await g.locator('.plot').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await redraw(async () => {
      for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -100);
    });
    await expect
      .poll(async () => {
        const [c, d] = await range();
        return d! - c!;
      })
      .toBeLessThan(b! - a!);
    // reset shows the whole file again
    const reset = g.locator('[data-action=reset-zoom]');
    await redraw(() => reset.click());
    expect(await range()).toEqual(full);
    expect(await reset.isDisabled()).toBe(true);

    // a legend click hides Flow, a second shows it again
    const flowEntry = g.locator('.series-legend button[data-series="1"]');
    await redraw(() => flowEntry.click());
    expect(await flowEntry.getAttribute('aria-pressed')).toBe('false');
    expect(await names()).toEqual(['Level']);
    await redraw(() => flowEntry.click());
    expect(await names()).toEqual(['Level', 'Flow']);
  });
});
