// The trend graphs (/graphs, spec §2 graph page, §3 graph types, §8, §9 drawing points, CSV trend
// file max, palette): log files written with the logger's own CSV text functions into the internal
// volume of a real daemon in simulator mode, listed and downloaded through the log file routes and
// drawn in chromium. Nothing is mocked.

import type { Locator, Page } from '@playwright/test';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriesColour } from '../../web/graphs/palette.ts';
import { putLogFiles, trendCsv } from '../bench/graphs.ts';
import { graphView, seconds } from './graph-view.ts';
import { consoleSuite, en, expectText, expectTitle, fill, loginApi, openConsole, pageBody, USER } from './support.ts';

const TEMPS = 'temps_20261121.csv';
const FLOW = 'flow_20261121.csv';
const BROKEN = 'broken_20261121.csv';
const HUGE = 'huge_20261121.csv';
const SHORT = 'short_20261121.csv';
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } as const;
const SPIKE = 95.5;
const TEMPS_LINES = 5760; // 08:00:00 to 15:59:55 every 5 s: more lines than the 2880 drawing points

// header mode 3, comma and point: three points with names, units and sources
const temps = () =>
  trendCsv({
    header: 3,
    separator: 'comma',
    decimal: 'point',
    start: Date.UTC(2026, 10, 21, 8),
    stepMs: 5000,
    lines: TEMPS_LINES,
    points: [
      { name: 'Temp', dim: '°C', if: 0, area: 1, reg_addr: '100', type: 7, decimal: 2 },
      { name: 'Pressure', dim: 'bar', if: 4, area: 1, reg_addr: '5', type: 7, decimal: 3 },
      { name: 'Count', if: 5, area: 6, reg_addr: '10A', type: 0 },
    ],
    value: (i, p) => (p === 0 ? (i === 4000 ? SPIKE : 20 + 5 * Math.sin(i / 200)) : p === 1 ? 1 + 0.01 * Math.cos(i / 50) : i % 100),
  });

// header mode 0, semicolon and decimal comma: names are "Value n"
const flow = () =>
  trendCsv({
    header: 0,
    separator: 'semicolon',
    decimal: 'comma',
    start: Date.UTC(2026, 10, 21, 10),
    stepMs: 10_000,
    lines: 360,
    points: [
      { type: 7, decimal: 1 },
      { type: 7, decimal: 2 },
    ],
    value: (i, p) => (p === 0 ? 10 + (i % 6) / 2 : 3.25),
  });

describe('the trend graphs page', () => {
  const suite = consoleSuite();

  beforeAll(async () => {
    const line = '2026/11/21,08:00:00,1\r\n';
    await putLogFiles(suite.d, {
      [TEMPS]: temps(),
      [FLOW]: flow(),
      [BROKEN]: 'This is not a log file.\r\n21.11.2026;08:00:00;1\r\n',
      // seven minutes every 5 s: 09:00:30 to 09:07:25
      [SHORT]: trendCsv({
        header: 0,
        separator: 'comma',
        decimal: 'point',
        start: Date.UTC(2026, 10, 21, 9, 0, 30),
        stepMs: 5000,
        lines: 84,
        points: [{ type: 7, decimal: 1 }],
        value: (i) => i % 7,
      }),
      [HUGE]: Buffer.from(line.repeat(Math.ceil((11 * 1024 * 1024) / line.length))).subarray(0, 11 * 1024 * 1024),
    });
  });

  const body = (page: Page) => pageBody(page, 'graphs');
  const fileBox = (page: Page, name: string) => body(page).locator(`[data-file="0/${name}"]`);
  const graph = (page: Page, name: string) => body(page).locator(`[data-graph="0/${name}"]`);
  const view = (g: Locator) => graphView(g.page(), g);
  const host = (g: Locator) => view(g).host;
  const drawnCount = (g: Locator) => view(g).drawn();
  const seriesNames = (g: Locator) => view(g).seriesNames();
  const xLabels = (g: Locator) => g.locator('.ct-label.ct-horizontal').allTextContents();
  const yLabels = async (g: Locator) => (await g.locator('.ct-label.ct-vertical').allTextContents()).map(Number);
  const range = (g: Locator) => view(g).range();

  async function open(cred?: typeof USER, opts: Parameters<typeof suite.open>[0] = {}) {
    const cp = await suite.open(opts);
    await loginApi(cp.page, suite.d, cred);
    await openConsole(cp.page, suite.d, '/graphs');
    await body(cp.page).waitFor();
    return cp.page;
  }

  /** Chooses a file of the internal volume and waits until its chart is drawn. */
  async function choose(page: Page, name: string): Promise<Locator> {
    await fileBox(page, name).check();
    const g = graph(page, name);
    await host(g).locator('svg').waitFor();
    await expect.poll(() => drawnCount(g)).toBeGreaterThan(0);
    return g;
  }

  const redraw = (g: Locator, act: () => Promise<unknown>) => view(g).redraw(act);

  it('lists every volume and draws one series per point with the names of the header (mode 3)', async () => {
    const page = await open();
    await expectTitle(page, en.nav.graphs);
    await expectText(body(page).locator('[data-note=none]'), en.graphs.none);
    expect(
      await body(page)
        .locator('fieldset[data-storage]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-storage'))),
    ).toEqual(['0', '1', '2']);
    expect(await body(page).locator('fieldset[data-storage="0"] .files .name').allTextContents()).toEqual([BROKEN, FLOW, HUGE, SHORT, TEMPS]);

    const g = await choose(page, TEMPS);
    expect(await seriesNames(g)).toEqual(['Temp', 'Pressure', 'Count']);
    expect(await g.locator('.series-legend button').allTextContents()).toEqual(['Temp°C', 'Pressurebar', 'Count']);
    // the palette of spec §9: the first three colours, on the legend and on the lines
    expect(await g.locator('svg path.ct-line').evaluateAll((els) => els.map((e) => (e as SVGElement).style.stroke))).toEqual(
      [0, 1, 2].map((i) => `rgb(${[1, 3, 5].map((k) => parseInt(seriesColour(i).slice(k, k + 2), 16)).join(', ')})`),
    );
    // at most 2880 drawing points per series, and the one-line spike survives the thinning
    const points = await g.locator('svg path.ct-line').evaluateAll((els) => els.map((e) => (e.getAttribute('d')!.match(/[ML]/g) ?? []).length));
    for (const n of points) expect(n).toBeGreaterThan(1000), expect(n).toBeLessThanOrEqual(2880);
    expect(Math.max(...(await yLabels(g)))).toBeGreaterThanOrEqual(90);
    expect(Math.min(...(await yLabels(g)))).toBe(0); // the y axis from zero
    // time of day without the date on the x axis
    const labels = await xLabels(g);
    expect(labels[0]).toBe('08:00');
    for (const l of labels) expect(l).toMatch(/^\d\d:\d\d(:\d\d)?$/);
    await expectText(g.locator('[data-note=lines]'), fill(en.graphs.lines, { n: TEMPS_LINES }));
    expect(await range(g)).toEqual([seconds('08:00:00'), seconds('15:59:55')]);
  });

  it('semicolon with decimal comma and no header: "Value n" series, the axis from zero', async () => {
    const page = await open();
    const g = await choose(page, FLOW);
    expect(await seriesNames(g)).toEqual(['Value 1', 'Value 2']);
    const y = await yLabels(g);
    expect(Math.min(...y)).toBe(0);
    expect(Math.max(...y)).toBeGreaterThanOrEqual(12);
    expect(Math.max(...y)).toBeLessThan(20);
    expect(await xLabels(g)).toContain('10:30');
  });

  it('CTRL+drag zooms into the selected range, the wheel zooms, reset restores', async () => {
    const page = await open();
    const g = await choose(page, TEMPS);
    const fullLabels = await xLabels(g);
    const full = await range(g);
    const reset = g.locator('[data-action=reset-zoom]');
    expect(await reset.isDisabled()).toBe(true);
    const box = (await g.locator('.plot').boundingBox())!;
    const y = box.y + box.height / 2;

    // a drag without CTRL does nothing
    await page.mouse.move(box.x + box.width * 0.4, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, y, { steps: 5 });
    await page.mouse.up();
    expect(await range(g)).toEqual(full);

    // the selection rectangle shows while dragging
    await redraw(g, () => view(g).ctrlDrag(0.4, 0.6, 5, () => expect.poll(() => g.locator('.plot .selection').count()).toBe(1)));
    expect(await g.locator('.plot .selection').count()).toBe(0);
    const [a, b] = await range(g);
    expect(a).toBeGreaterThan(full[0] + 3600);
    expect(b).toBeLessThan(full[1] - 3600);
    expect(b - a).toBeLessThan((full[1] - full[0]) * 0.3);
    const zoomed = await xLabels(g);
    expect(zoomed).not.toEqual(fullLabels);
    expect(zoomed.length).toBeGreaterThan(1);
    for (const l of zoomed)
      expect(seconds(l.length === 5 ? `${l}:00` : l)).toBeGreaterThanOrEqual(a), expect(seconds(l.length === 5 ? `${l}:00` : l)).toBeLessThanOrEqual(b);
    // zoomed in, the 20 % of the file in view is drawn from all its lines (fewer than 2880)
    const points = await g
      .locator('svg path.ct-line')
      .first()
      .evaluate((e) => (e.getAttribute('d')!.match(/[ML]/g) ?? []).length);
    expect(points).toBeGreaterThan(900);
    expect(await reset.isEnabled()).toBe(true);

    // one wheel notch in shows 80 % of the range around the pointer
    await page.mouse.move(box.x + box.width / 2, y);
    await redraw(g, () => page.mouse.wheel(0, -100));
    const [c, d] = await range(g);
    expect(Math.abs(d - c - (b - a) * 0.8)).toBeLessThanOrEqual(2);
    expect(c).toBeGreaterThan(a);
    expect(d).toBeLessThan(b);
    // and out again, never past the file
    for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 100);
    await expect.poll(() => range(g)).toEqual(full);

    await redraw(g, () => view(g).ctrlDrag(0.2, 0.3, 3));
    expect(await range(g)).not.toEqual(full);
    await redraw(g, () => reset.click());
    expect(await range(g)).toEqual(full);
    expect(await xLabels(g)).toEqual(fullLabels);
    expect(await reset.isDisabled()).toBe(true);
  });

  it('a legend click hides its series, a second click shows it again', async () => {
    const page = await open();
    const g = await choose(page, TEMPS);
    const entry = g.locator('.series-legend button[data-series="1"]');
    expect(await entry.getAttribute('aria-pressed')).toBe('true');
    await redraw(g, () => entry.click());
    expect(await entry.getAttribute('aria-pressed')).toBe('false');
    expect(await seriesNames(g)).toEqual(['Temp', 'Count']);
    expect(await g.locator('svg g.gs-1 path').count()).toBe(0);
    // the others keep their colours
    expect(await g.locator('svg g.gs-2 path.ct-line').evaluate((e) => (e as SVGElement).style.stroke)).toBe('rgb(44, 160, 44)');
    await redraw(g, () => entry.click());
    expect(await entry.getAttribute('aria-pressed')).toBe('true');
    expect(await seriesNames(g)).toEqual(['Temp', 'Pressure', 'Count']);
    expect(await g.locator('svg g.gs-1 path.ct-line').count()).toBe(1);
  });

  it('chart types: bars, stacked bars standing on each other, and lines again', async () => {
    const page = await open();
    const g = await choose(page, FLOW);
    const type = body(page).locator('[data-control=chart-type]');
    expect(await type.locator('option').allTextContents()).toEqual([en.graphs.types.line, en.graphs.types.bar, en.graphs.types.stacked]);

    await redraw(g, () => type.selectOption('1'));
    expect(await g.locator('svg .ct-line').count()).toBe(0);
    expect(await g.locator('svg g.gs-0 line.ct-bar').count()).toBe(360);
    expect(await g.locator('svg g.gs-1 line.ct-bar').count()).toBe(360);
    const grouped = await g.locator('svg line.ct-bar').evaluateAll((els) => els.map((e) => [e.getAttribute('x1'), e.getAttribute('y1')]));
    expect(grouped[0]![0]).not.toBe(grouped[360]![0]); // side by side
    expect(grouped[0]![1]).toBe(grouped[360]![1]); // both from the zero line

    await redraw(g, () => type.selectOption('2'));
    const bottom = await g.locator('svg g.gs-0 line.ct-bar').evaluateAll((els) => els.map((e) => [Number(e.getAttribute('x1')), Number(e.getAttribute('y2'))]));
    const top = await g.locator('svg g.gs-1 line.ct-bar').evaluateAll((els) => els.map((e) => [Number(e.getAttribute('x1')), Number(e.getAttribute('y1'))]));
    expect(top.length).toBe(360);
    for (let i = 0; i < top.length; i += 37) {
      expect(top[i]![0]).toBeCloseTo(bottom[i]![0]!, 3); // one column per time
      expect(top[i]![1]).toBeCloseTo(bottom[i]![1]!, 3); // the second bar starts where the first ends
    }

    await redraw(g, () => type.selectOption('0'));
    expect(await g.locator('svg .ct-bar').count()).toBe(0);
    expect(await g.locator('svg path.ct-line').count()).toBe(2);
  });

  it('two files give two graphs; taking a file off removes its graph', async () => {
    const page = await open();
    await choose(page, TEMPS);
    await choose(page, FLOW);
    expect(
      await body(page)
        .locator('[data-graph]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-graph'))),
    ).toEqual([`0/${TEMPS}`, `0/${FLOW}`]);
    expect(await seriesNames(graph(page, TEMPS))).toEqual(['Temp', 'Pressure', 'Count']);
    expect(await seriesNames(graph(page, FLOW))).toEqual(['Value 1', 'Value 2']);
    await fileBox(page, TEMPS).uncheck();
    await expect.poll(() => body(page).locator('[data-graph]').count()).toBe(1);
    expect(await graph(page, FLOW).locator('svg g.ct-series').count()).toBe(2);
  });

  it('a file that is not a log file shows the message of spec §8', async () => {
    const page = await open();
    await fileBox(page, BROKEN).check();
    await expectText(graph(page, BROKEN).locator('[data-error=invalid_format]'), 'Invalid data format in graph (date, time, separator).');
    expect(en.graphs.invalidFormat).toBe('Invalid data format in graph (date, time, separator).');
    expect(await graph(page, BROKEN).locator('svg').count()).toBe(0);
  });

  it('a file over 10 MB is refused, without being downloaded', async () => {
    const page = await open();
    const downloads: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/download/')) downloads.push(r.url());
    });
    await fileBox(page, HUGE).check();
    await expectText(graph(page, HUGE).locator('[data-error=too_large]'), fill(en.graphs.tooLarge, { size: '11', max: '10' }));
    expect(downloads).toEqual([]);
    expect(await graph(page, HUGE).locator('svg').count()).toBe(0);
  });

  it('on a phone: a time mark every minute or two, no label cut off, the help speaks of fingers, pinch zooms and one finger drags along', async () => {
    const page = await open(undefined, PHONE);
    await expectText(body(page).locator('.intro [data-note=zoom]'), en.graphs.zoomTouch);
    const g = await choose(page, SHORT);
    const labels = await xLabels(g);
    expect(labels.length).toBeGreaterThanOrEqual(3);
    // every label inside the chart's box (its text, not chartist's wider span)
    const clipped = await g.locator('svg').evaluate((svg) => {
      const right = svg.getBoundingClientRect().right;
      return [...svg.querySelectorAll('.ct-label.ct-horizontal')].filter((l) => {
        const r = document.createRange();
        r.selectNodeContents(l);
        return r.getBoundingClientRect().right > right + 0.5;
      }).length;
    });
    expect(clipped).toBe(0);

    const full = await range(g);
    await g.locator('.plot').scrollIntoViewIfNeeded();
    const box = (await g.locator('.plot').boundingBox())!;
    const y = box.y + box.height / 2;
    const cx = box.x + box.width / 2;
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: number[]) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map((x, id) => ({ x, y, id })) });
    // two fingers 40 px apart spread to 160: a quarter of the range around the centre
    await redraw(g, async () => {
      await touch('touchStart', [cx - 20, cx + 20]);
      for (const d of [40, 60, 80]) await touch('touchMove', [cx - d, cx + d]);
      await touch('touchEnd', []);
    });
    const [a, b] = await range(g);
    expect(b - a).toBeLessThan((full[1] - full[0]) * 0.4);
    expect(a).toBeGreaterThan(full[0]);
    expect(b).toBeLessThan(full[1]);
    expect(await g.locator('[data-action=reset-zoom]').isEnabled()).toBe(true);
    // one finger dragged to the right: earlier times come into view, the span stays
    await redraw(g, async () => {
      await touch('touchStart', [cx - 60]);
      for (const x of [cx - 30, cx, cx + 30]) await touch('touchMove', [x]);
      await touch('touchEnd', []);
    });
    const [c, d] = await range(g);
    expect(c).toBeLessThan(a);
    expect(Math.abs(d - c - (b - a))).toBeLessThanOrEqual(1);
  });

  it('the user role sees the graphs too', async () => {
    const page = await open(USER);
    const g = await choose(page, FLOW);
    expect(await seriesNames(g)).toEqual(['Value 1', 'Value 2']);
  });
});
