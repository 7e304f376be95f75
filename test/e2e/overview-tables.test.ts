// Scan, don't scroll (issue "a console that fits the cabinet", items 7 and 8): the overview table at
// the top of /com (one row per interface: enabled, protocol, line settings, the running link's state
// and counters) and of /port (one row per thread: port, interface, state, clients, requests, refused,
// restrictions), each row's name leading to its block; and /info's "unit at work" above the system
// facts: one line per link, thread, service and the logger with its state, each linking to its page.
// In English, German and French; at 360 px the tables scroll in their own box, the page does not.
//
// Against the REAL engine: the daemon in simulator mode with a virtual FP-XH on COM1 (an in-process
// serial wire), a redirect thread listening on a port the kernel handed out and a MEWTOCOL client
// that makes the counters move.
import type { Page } from '@playwright/test';
import { beforeAll, describe, expect, it } from 'vitest';
import { withDefaults } from '../../device/model/section.ts';
import { threadSchema } from '../../device/model/sections/redirect.ts';
import type { SerialFraming } from '../../sim/wire.ts';
import { connector, enableCom1, freePort, liveConsoleSuite, mewAsk, serialPlc } from './live-plc.ts';
import { de, en, expectText, fill, fr, loginApi, openConsole, overflow, pageBody, USER, WAIT_MS } from './support.ts';

const FRAMING: SerialFraming = { baud: 19200, bits: 8, parity: 'odd', stopbits: 1 };
const wire = serialPlc('FP-XH', FRAMING);
const LANGS = { en, de, fr } as const;
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: WAIT_MS, interval: 50 });

describe('overview tables on /com and /port, the unit at work on /info', () => {
  const suite = liveConsoleSuite({ COM1: connector(wire) });
  let port = 0;

  beforeAll(async () => {
    await enableCom1(suite.d, FRAMING, 300);
    port = await freePort();
    const restriction = (start: number, read_write: string) => ({
      type: 0,
      area: 'DT',
      register_area_start: start,
      register_area_end: start + 9,
      register_area_mapped: 0,
      read_write,
    });
    const threads = [withDefaults(threadSchema, { port, service: 0, mapping: [restriction(0, 'RO'), restriction(10, 'R/W')] })];
    const r = await (await suite.d.admin()).post('/config/pew_redirect', { threads });
    expect(r.status, r.text).toBe(200);
    await suite.d.ctx.redirects.settled();
    // one request through the thread: its counter and COM1's move
    expect(await mewAsk(port, { cmd: 'RD', area: 'DT', start: 0, count: 1 })).toMatch(/^%EE\$RD/);
  });

  async function open(path: string, lang: keyof typeof LANGS = 'en', viewport = { width: 1280, height: 800 }) {
    const { page } = await suite.open({ viewport, locale: lang });
    await page.addInitScript((l) => localStorage.setItem('console.locale', l), lang);
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, path);
    return page;
  }
  const cells = (page: Page, table: string) =>
    page.locator(`[data-overview=${table}] tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));

  it('/com: one row per interface in the spec order, the form and the link side by side; a name leads to its block', async () => {
    const page = await open('/com');
    const t = en.com;
    const body = pageBody(page, 'com');
    // the page's title shows with the shell, the page once its chunk is in
    await body.locator('[data-overview=com] thead th').first().waitFor();
    const heads = await body.locator('[data-overview=com] thead th').allTextContents();
    expect(heads).toEqual([
      t.columns.interface,
      t.columns.state,
      t.columns.enabled,
      t.columns.protocol,
      t.columns.settings,
      t.stats.requests,
      t.stats.errors,
      t.stats.busyShare,
      t.columns.since,
    ]);
    // the overview is the page's first block
    expect(await body.locator('section').first().getAttribute('data-block')).toBe('com-overview');
    await poll(async () => (await cells(page, 'com'))[0]?.[1]).toBe(t.states.up);
    const rows = await cells(page, 'com');
    expect(rows.map((r) => [r[0], ...r.slice(2, 5)])).toEqual([
      ['COM1', t.yes, 'MEWTOCOL-COM', '19200 8O1'],
      ['COM2', t.no, 'MEWTOCOL-COM', '9600 8O1'],
      ['COM3', t.no, 'MEWTOCOL-COM', '9600 8O1'],
      ['INTERNAL', t.yes, 'Modbus', '–'],
      ['COM4', t.no, 'MEWTOCOL-COM', '–'],
    ]);
    expect(rows[1]![1]).toBe(t.states.disabled);
    expect(Number(rows[0]![5])).toBeGreaterThan(0); // the request through the thread
    // the row follows the form at once, before it is saved
    await page.locator('#f-pew-interfaces-0-baudrate').selectOption('38400');
    await poll(async () => (await cells(page, 'com'))[0]?.[4]).toBe('38400 8O1');
    await page.locator('#f-pew-interfaces-0-autobaud').check();
    await poll(async () => (await cells(page, 'com'))[0]?.[4]).toBe(`${en.fields.pew.interfaces.autobaud.label} 8O1`);
    // COM4's name moves the focus to its block's heading, in view
    await body.locator('[data-overview-interface="5"] button').click();
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('com-if-5');
    // in view, below the sticky top bar
    const [top, barBottom] = await page.evaluate(() => [
      document.getElementById('com-if-5')!.getBoundingClientRect().top,
      document.querySelector('.top')!.getBoundingClientRect().bottom,
    ]);
    expect(top).toBeGreaterThanOrEqual(barBottom!);
    expect(top).toBeLessThan(800 / 2);
    // a field's help once: COM1's timeout has it, COM3's only its range
    expect(await page.locator('#f-pew-interfaces-0-timeout-help').textContent()).toContain(en.fields.pew.interfaces.timeout.help);
    expect((await page.locator('#f-pew-interfaces-2-timeout-help').textContent()) ?? '').not.toContain(en.fields.pew.interfaces.timeout.help);
  });

  it.each(['en', 'de'] as const)(
    "/com (%s): Reset counters starts the running links' counters again from 0 and names the moment; the user role has no such button",
    async (lang) => {
      const l = LANGS[lang];
      expect(await mewAsk(port, { cmd: 'RD', area: 'DT', start: 0, count: 1 })).toMatch(/^%EE\$RD/);
      const page = await open('/com', lang);
      const body = pageBody(page, 'com');
      await poll(async () => Number((await cells(page, 'com'))[0]?.[5])).toBeGreaterThan(0);
      const before = (await cells(page, 'com'))[0]![8];
      expect(before).not.toBe('');
      const reset = body.locator('[data-action=reset-counters]');
      expect(await reset.textContent()).toBe(l.com.resetCounters);
      await reset.click();
      await poll(async () => (await cells(page, 'com'))[0]?.[5]).toBe('0');
      const row = (await cells(page, 'com'))[0]!;
      expect(row[6]).toBe('0'); // errors
      expect(row[8]).not.toBe(''); // counted since the reset
      const entries = (await (await page.request.get(`${suite.d.url}/config/audit?size=200`)).json()) as { entries: { action: string; detail?: unknown }[] };
      expect(entries.entries[0]).toMatchObject({ action: 'link_counters_reset', detail: { interfaces: expect.arrayContaining(['COM1', 'INTERNAL']) } });
      // a disabled interface counts nothing and has no moment
      expect((await cells(page, 'com'))[1]![8]).toBe('');

      const viewer = await suite.open({ locale: lang });
      await viewer.page.addInitScript((x) => localStorage.setItem('console.locale', x), lang);
      await loginApi(viewer.page, suite.d, USER);
      await openConsole(viewer.page, suite.d, '/com');
      await pageBody(viewer.page, 'com').locator('[data-overview=com]').waitFor();
      expect(await pageBody(viewer.page, 'com').locator('[data-action=reset-counters]').count()).toBe(0);
    },
  );

  it('/port: one row per thread with its state and counters; an added thread is "not saved" until saved', async () => {
    const page = await open('/port');
    const t = en.port;
    const body = pageBody(page, 'port');
    await poll(async () => (await cells(page, 'port'))[0]?.[1]).toBe(fill(t.listening, { port }));
    const [row] = await cells(page, 'port');
    expect([row![0], row![2], row![3]]).toEqual([fill(t.threadN, { n: 1 }), String(port), 'COM1']);
    expect(row![4]).toBe('0 / 4'); // no client connected now, at most 4
    expect(Number(row![5])).toBeGreaterThan(0);
    expect(row![6]).toBe('0');
    expect(row![7]).toBe('2');
    expect(row![8]).not.toBe(''); // counted since the thread started
    // Reset counters: requests from 0 again, audited with the thread's port
    const reset = body.locator('[data-action=reset-counters]');
    expect(await reset.textContent()).toBe(en.com.resetCounters);
    await reset.click();
    await poll(async () => (await cells(page, 'port'))[0]?.[5]).toBe('0');
    const entries = (await (await page.request.get(`${suite.d.url}/config/audit?size=200`)).json()) as { entries: { action: string; detail?: unknown }[] };
    expect(entries.entries[0]).toMatchObject({ action: 'thread_counters_reset', detail: { ports: [port] } });
    await body.locator('[data-action=add-thread]').click();
    await poll(async () => (await cells(page, 'port'))[1]?.[1]).toBe(t.unsaved);
    await body.locator('[data-overview-thread="1"] button').click();
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('port-thread-1');
  });

  it('restrictions: an editable table at 1280 px (seven rules on seven lines), cards at 360 px; no select cut short, Remove apart from Access', async () => {
    const rule = (start: number) => ({
      type: 0,
      area: 'DT',
      register_area_start: start,
      register_area_end: start + 9,
      register_area_mapped: start,
      read_write: 'R/W',
    });
    const gateway = withDefaults(threadSchema, { port: await freePort(), service: 0, mb_translation: true, mapping: [0, 10, 20, 30, 40, 50, 60].map(rule) });
    const c = await suite.d.admin();
    const saved = ((await c.get('/config/pew_redirect')).body as { threads: unknown[] }).threads;
    expect((await c.post('/config/pew_redirect', { threads: [...saved, gateway] })).status).toBe(200);
    try {
      for (const [lang, viewport] of [
        ['en', { width: 1280, height: 800 }],
        ['de', { width: 1280, height: 800 }],
        ['fr', { width: 1280, height: 800 }],
        ['fr', { width: 360, height: 740 }],
        ['de', { width: 360, height: 740 }],
      ] as const) {
        const page = await open('/port', lang, viewport);
        const rows = pageBody(page, 'port').locator('[data-thread="1"] [data-restriction]');
        await poll(() => rows.count()).toBe(7);
        const layout = await rows.evaluateAll((trs) =>
          trs.map((tr) => {
            const box = (sel: string) => tr.querySelector(sel)!.getBoundingClientRect();
            // a select is cut short when its box is narrower than the same select on its own (as wide as its longest option)
            const cut = [...tr.querySelectorAll('select')].filter((s) => {
              const alone = s.cloneNode(true) as HTMLSelectElement;
              alone.style.cssText = 'position:absolute;width:auto;left:0;top:0;visibility:hidden';
              s.after(alone); // beside it: the same styles apply
              const natural = alone.offsetWidth;
              alone.remove();
              return s.offsetWidth < natural - 0.5;
            }).length;
            const access = box('[data-field$=".read_write"] select');
            const remove = box('[data-action=remove-restriction]');
            const apart = remove.left >= access.right + 4 || remove.top >= access.bottom + 4;
            const tops = [...tr.querySelectorAll('select, input')].map((e) => Math.round(e.getBoundingClientRect().top));
            return { oneLine: new Set(tops).size === 1, cut, apart };
          }),
        );
        const where = `${lang} at ${viewport.width} px`;
        expect(
          layout.map((l) => l.cut),
          where,
        ).toEqual([0, 0, 0, 0, 0, 0, 0]);
        expect(
          layout.map((l) => l.apart),
          where,
        ).toEqual([true, true, true, true, true, true, true]);
        // a table row is one line of fields (the range note beside them), a card holds them in rows
        expect(
          layout.map((l) => l.oneLine),
          where,
        ).toEqual(Array(7).fill(viewport.width === 1280));
        expect((await overflow(page)).wider, where).toEqual([]);
        // at 1280 px the table fits its card in every language: nothing to scroll sideways
        const box = pageBody(page, 'port').locator('[data-thread="1"] .restriction-scroll');
        if (viewport.width === 1280) expect(await box.evaluate((b) => b.scrollWidth - b.clientWidth), where).toBeLessThanOrEqual(0);
        await page.context().close();
        suite.current = undefined;
      }
    } finally {
      expect((await c.post('/config/pew_redirect', { threads: saved })).status).toBe(200);
    }
  });

  for (const lang of ['en', 'de', 'fr'] as const) {
    it(`/info (${lang}): the unit at work above the facts, a line per link, thread, service and the logger, each linking to its page`, async () => {
      const page = await open('/info', lang);
      const l = LANGS[lang];
      const t = l.serviceStatus;
      const run = pageBody(page, 'info').locator('[data-block=service-run]');
      await expectText(run.locator('h2'), t.runTitle);
      expect(await run.locator('h3').allTextContents()).toEqual([t.groups.links, t.groups.threads, t.groups.services, t.groups.logger]);
      // above the system facts
      const [workTop, versionsTop] = await Promise.all([run.boundingBox(), page.locator('#info-versions').boundingBox()]);
      expect(workTop!.y).toBeLessThan(versionsTop!.y);
      await expectText(run.locator('[data-link-run="0"] [data-state]'), l.com.states.up);
      await expectText(run.locator('[data-link-run="3"] [data-state]'), l.com.states.disabled);
      expect(await run.locator('[data-link-run]').count()).toBe(5);
      expect(await run.locator('[data-link-run="0"] a').getAttribute('href')).toBe('#/com');
      await expectText(run.locator('[data-thread-run="0"] [data-state]'), fill(l.port.listening, { port }, lang));
      await expectText(run.locator('[data-thread-run="0"] a'), fill(l.port.threadN, { n: 1 }, lang));
      expect(await run.locator('[data-thread-run="0"] a').getAttribute('href')).toBe('#/port');
      await expectText(run.locator('[data-service-run=mqtt] a'), l.nav.mqtt);
      await expectText(run.locator('[data-logger-run] [data-state]'), t.loggerOff);
      expect(await run.locator('[data-logger-run] a').getAttribute('href')).toBe('#/log');
      // a name leads to its page
      await run.locator('[data-thread-run="0"] a').click();
      await pageBody(page, 'port').waitFor();
    });
  }

  it('at 360 px the tables scroll in their own box: nothing reaches past the window on /com, /port and /info', async () => {
    for (const path of ['/com', '/port', '/info']) {
      const page = await open(path, 'de', { width: 360, height: 740 });
      await page.locator('[data-overview], [data-block=service-run] [data-link-run]').first().waitFor();
      expect((await overflow(page)).wider, path).toEqual([]);
      await page.context().close();
      suite.current = undefined;
    }
  });
});
