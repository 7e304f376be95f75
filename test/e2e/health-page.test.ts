// The health page (/health, docs/monitor.md "Health") against the REAL daemon: a virtual FP-XH on
// COM1 answering a stream of reads, the daemon sampling every 500 ms instead of 10 s
// (healthIntervalMs). The busy and requests charts draw COM1 and their text alternative names it
// with its request rate; the internal volume's figures are those of the sample the page shows; German
// and French headings, units and numbers; 360 px without sideways scrolling, the time labels apart;
// and, from a routed answer, the low-space warning of a volume under 10 % free. axe-core on the page
// with its charts and with the warning in every theme.

import type { Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HealthAnswer } from '../../device/model/health.ts';
import type { SerialFraming } from '../../sim/wire.ts';
import { THEMES } from '../../web/state/pref-choices.ts';
import { axeViolations } from './axe.ts';
import { connector, enableCom1, serialPlc } from './live-plc.ts';
import {
  api,
  type ConsolePage,
  de,
  en,
  expectText,
  expectTitle,
  fill,
  fr,
  launchBrowser,
  loginApi,
  menuLink,
  newPage,
  openConsole,
  overflow,
  pageBody,
  startConsoleDaemon,
  type TestDaemon,
  USER,
} from './support.ts';

const FRAMING: SerialFraming = { baud: 115200, bits: 8, parity: 'odd', stopbits: 1 };
const SAMPLE_MS = 500;
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } as const;
const GB = 1024 ** 3;
const MB = 1024 ** 2;

type Lang = 'en' | 'de' | 'fr';
const TEXTS = { en, de, fr } as const;
const LOCALE = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR' } as const;

const wire = serialPlc('FP-XH', FRAMING);
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let d: TestDaemon;
let reading = true;
let traffic: Promise<void>;
let cp: ConsolePage | undefined;

/** "Internal memory: 1.2 GB free of 3.9 GB (31 %)" as the page words a volume, in `lang`. */
function volumeText(lang: Lang, id: 'internal' | 'usb' | 'temp', v: { free: number; total: number }): string {
  const t = TEXTS[lang].health;
  const unit = v.total >= GB ? 'gb' : 'mb';
  const n = (bytes: number) => new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 1 }).format(bytes / (unit === 'gb' ? GB : MB));
  const size = (bytes: number) => fill(t.amounts[unit], { n: n(bytes) }, lang);
  const share = new Intl.NumberFormat(LOCALE[lang], { style: 'percent', maximumFractionDigits: 1 }).format(v.total > 0 ? v.free / v.total : 0);
  return fill(TEXTS[lang].form.labelled, { label: t.volumes[id], text: fill(t.free, { free: size(v.free), total: size(v.total), share }, lang) }, lang);
}

async function open(lang: Lang = 'en', opts: Parameters<typeof newPage>[1] = {}): Promise<Page> {
  cp = await newPage(browser, { locale: LOCALE[lang], ...opts });
  const { page } = cp;
  await page.addInitScript((l) => localStorage.setItem('console.locale', l), lang);
  await loginApi(page, d);
  await openConsole(page, d, '/health');
  await expectTitle(page, TEXTS[lang].nav.health);
  return page;
}

/** the chart `id` of the page */
const chart = (page: Page, id: string) => pageBody(page, 'health').locator(`[data-chart="${id}"]`);

beforeAll(async () => {
  [browser, d] = await Promise.all([launchBrowser(), startConsoleDaemon({ serial: { virtualPorts: { COM1: connector(wire) } }, healthIntervalMs: SAMPLE_MS })]);
  await enableCom1(d, FRAMING, 2000);
  // a SCADA's steady reads through the link, for the whole file
  traffic = (async () => {
    while (reading) {
      await d.ctx.com.links
        .get(0)
        ?.readWords('DT', 0, 4)
        .catch(() => undefined);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
});

afterAll(async () => {
  reading = false;
  await traffic;
  await browser?.close();
  await d?.stop();
});

describe('/health', () => {
  // each test's page is closed after it, and raised no uncaught error
  afterEach(async () => {
    const c = cp;
    cp = undefined;
    if (!c) return;
    await c.context.close();
    expect(c.errors).toEqual([]);
  });

  it('with COM1 up and read, the busy and requests charts draw a line for COM1 and their text alternatives name it with its rate', async () => {
    const page = await open();
    for (const id of ['busy', 'requests']) {
      const c = chart(page, id);
      await expectText(c.locator('.legend li[data-series="COM1"]'), 'COM1');
      // a line of several points: the path goes on (L) from its start (M) at least twice
      const segments = () =>
        c.locator('svg g.ct-series').evaluateAll((gs) => {
          const g = gs.find((e) => e.getAttribute('ct:series-name') === 'COM1');
          return (g?.querySelector('path.ct-line')?.getAttribute('d') ?? '').split('L').length - 1;
        });
      await expect.poll(segments).toBeGreaterThanOrEqual(2);
    }
    const now = (id: string) => chart(page, id).locator('table tr[data-series="COM1"] td[data-col="now"]');
    await expectText(chart(page, 'requests').locator('table tr[data-series="COM1"] th'), 'COM1');
    await expect.poll(async () => Number.parseFloat((await now('requests').textContent()) ?? '')).toBeGreaterThan(0);
    expect(await now('requests').textContent()).toMatch(/^[\d.,]+\/s$/);
    await expect.poll(async () => Number.parseFloat((await now('busy').textContent()) ?? '')).toBeGreaterThan(0);
    expect(await now('busy').textContent()).toMatch(/^[\d.]+%$/);
    expect(await chart(page, 'requests').locator('table caption').textContent()).toBe(fill(en.health.table.caption, { title: en.health.requests }));
    // the page follows the samples: the chart draws again as they come
    const drawn = async () => Number((await chart(page, 'requests').locator('.ct-host').getAttribute('data-drawn')) ?? 0);
    const before = await drawn();
    await expect.poll(drawn).toBeGreaterThan(before);
  });

  it('the storage figures are those of the newest sample the page shows, as GET /config/health answers it', async () => {
    const page = await open();
    const list = pageBody(page, 'health').locator('ul.volumes');
    await list.locator('li[data-volume="internal"]').waitFor();
    const shown = await list.evaluate((ul) => ({
      t: Number(ul.getAttribute('data-t')),
      text: ul.querySelector('[data-volume="internal"] [data-figures]')?.textContent ?? '',
    }));
    const answer = (await (await api(page, d)).get('/config/health')).body as HealthAnswer;
    const sample = answer.samples.find((s) => s.t === shown.t);
    expect(sample, 'the sample the page shows is one of the hour').toBeDefined();
    expect(sample!.volumes.internal!.free).toBeGreaterThan(0);
    expect(shown.text).toBe(volumeText('en', 'internal', sample!.volumes.internal!));
    // the chart names each mounted volume in its legend
    await expectText(chart(page, 'storage').locator('.legend li[data-series="internal"]'), en.health.volumes.internal);
    // an administrator gets no Save or Reset: nothing here is a setting
    expect(await page.locator('.page-bar [data-action]').count()).toBe(0);
  });

  it.each([
    ['de', '0,5'],
    ['fr', '0,5'],
  ] as const)('in %s the headings, units and numbers are the language’s', async (lang, halfSecond) => {
    const page = await open(lang);
    const t = TEXTS[lang].health;
    const body = pageBody(page, 'health');
    await expectText(body.locator('#health-links'), t.links);
    await expectText(body.locator('#health-storage'), t.storage);
    await expectText(chart(page, 'requests').locator('h3'), t.requests);
    await expectText(chart(page, 'requests').locator('.y-unit'), t.units.perSecond);
    await expectText(chart(page, 'memory').locator('.y-unit'), t.units.mb);
    // a sample every 0.5 s, written with the language's decimal comma
    await expectText(body.locator('.intro'), fill(t.intro, { seconds: halfSecond }, lang));
    const figures = body.locator('li[data-volume="internal"] [data-figures]');
    await figures.waitFor();
    const text = (await figures.textContent()) ?? '';
    // the volume's sizes with the language's unit and decimal comma, the share with its own % spacing
    const unit = lang === 'fr' ? '(Go|Mo)' : '(GB|MB)';
    expect(text).toMatch(new RegExp(`^${t.volumes.internal}\\u00a0?: [\\d\\u202f.]+(,\\d)?\\u00a0${unit} .* \\([\\d,]+[\\u00a0\\u202f]%\\)$`));
    await expect
      .poll(async () => (await chart(page, 'busy').locator('table td[data-col="now"]').first().textContent()) ?? '')
      .toMatch(/^[\d,]+[\u00a0\u202f]%$/);
  });

  it('at 360 px the charts stack inside the window, nothing scrolls sideways and the time labels stand apart', async () => {
    const page = await open('en', PHONE);
    await chart(page, 'memory').locator('svg').waitFor();
    const o = await overflow(page);
    expect(o.wider).toEqual([]);
    expect(o.scrollWidth).toBeLessThanOrEqual(360);
    const boxes = await pageBody(page, 'health')
      .locator('[data-chart]')
      .evaluateAll((els) =>
        els.map((e) => {
          const svg = e.querySelector('svg')!.getBoundingClientRect();
          const labels = [...e.querySelectorAll('.ct-label.ct-horizontal')].map((l) => {
            const r = document.createRange();
            r.selectNodeContents(l);
            const b = r.getBoundingClientRect();
            return [b.left, b.right] as const;
          });
          return { id: e.getAttribute('data-chart'), left: svg.left, right: svg.right, top: svg.top, labels };
        }),
      );
    expect(boxes.map((b) => b.id)).toEqual(['busy', 'requests', 'faults', 'storage', 'records', 'cpu', 'memory']);
    for (const b of boxes) {
      expect(b.left, b.id!).toBeGreaterThanOrEqual(0);
      expect(b.right, b.id!).toBeLessThanOrEqual(360);
      expect(b.labels.length, b.id!).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < b.labels.length; i++) expect(b.labels[i]![0], `${b.id} label ${i}`).toBeGreaterThan(b.labels[i - 1]![1]);
    }
    // stacked: one chart under the other
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.top).toBeGreaterThan(boxes[i - 1]!.top);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('a volume under 10 % free shows the low-space warning in words; the user role reaches the page', async () => {
    const t0 = Date.UTC(2026, 11, 3, 12);
    const sample = (i: number) => ({
      t: t0 + i * 10_000,
      links: {},
      volumes: { internal: { free: 0.05 * 4 * GB, total: 4 * GB }, usb: { free: 6 * GB, total: 8 * GB } },
      logRecords: 0,
      cpu: 0.02,
      rss: 60 * MB,
      heap: 20 * MB,
    });
    const answer: HealthAnswer = { intervalMs: 10_000, samples: [sample(0), sample(1), sample(2)] };
    cp = await newPage(browser);
    const { page } = cp;
    await page.route('**/config/health', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) }));
    await loginApi(page, d, USER);
    await openConsole(page, d, '/info');
    await menuLink(page, 'health').click();
    await expectTitle(page, en.nav.health);
    const internal = pageBody(page, 'health').locator('li[data-volume="internal"]');
    await expectText(internal.locator('[data-warning="low-space"]'), en.health.low);
    expect(await internal.getAttribute('class')).toBe('low');
    await expectText(internal.locator('[data-figures]'), volumeText('en', 'internal', answer.samples[2]!.volumes.internal!));
    const usb = pageBody(page, 'health').locator('li[data-volume="usb"]');
    await expectText(usb.locator('[data-figures]'), volumeText('en', 'usb', answer.samples[2]!.volumes.usb!));
    expect(await usb.locator('[data-warning]').count()).toBe(0);
    await expectText(pageBody(page, 'health').locator('[data-note="no-links"]'), en.health.noLinks);
    // the warning reads in every theme (the sweep of every route sees no volume low on space)
    expect(await axeViolations(page)).toEqual([]);
    for (const theme of THEMES.filter((th) => th !== 'default')) {
      await page.evaluate((th) => {
        document.documentElement.dataset.theme = th;
      }, theme);
      expect(await axeViolations(page, { colours: true }), theme).toEqual([]);
    }
  });
});
