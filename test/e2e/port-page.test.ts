// The ports page (/port, spec §2, §3 "Port (pew_redirect)", §5, §9): threads with every field and
// their restrictions saved to the daemon and read back, the rules of §5 shown at the field (client
// side from the shared schema, and the daemon's own refusal), the gateway columns, the limit of 10
// threads, the connection test, the live counters and the user role.
//
// MOCKED: the daemon's `GET /config/port_status` and `POST /config/porttest` belong to the
// redirection engine that lands later, so these two routes, and only these, are answered in the
// browser by Playwright's `page.route` with the shapes the daemon will give. Everything else
// (session, GET/POST /config/pew_redirect, save, the cross-section rules) is the real daemon in
// simulator mode.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page, Request, Route } from '@playwright/test';
import { AREA_MAX } from '../../device/model/plc.ts';
import {
  USER, api, en, expectText, expectTitle, fieldInput, fill, loginApi, openConsole, pageBody, type ConsolePage, consoleSuite,
} from './support.ts';

const TICK_MS = 1500; // spec §9: update tick
const KEY = 'pew_redirect';

const restriction = (area: string, start: number, end: number, read_write = 'RO', extra: Record<string, unknown> = {}) =>
  ({ type: 0, register_area_start: start, register_area_end: end, register_area_mapped: 0, area, read_write, ...extra });
const thread = (extra: Record<string, unknown> = {}) => ({
  port: 9094, mb_translation: false, monitoring_cmd: true, service: 0, clients: 4, timeout: 60, ip_start: '0.0.0.0', ip_end: '0.0.0.0',
  mapping: [restriction('DT', 0, 9)], ...extra,
});

/** The two mocked routes: what they answer is set by the test; every call is recorded. */
function mockPort(page: Page) {
  const m = {
    listening: true,
    counters: { clients: 0, requests: 0, refused: 0, errors: 0, bytesIn: 0, bytesOut: 0 },
    detail: '',
    statusFails: false,
    statusCalls: [] as number[],
    test: { status: 200, body: {} as unknown },
    testBodies: [] as unknown[],
  };
  const json = (route: Route, status: number, body: unknown) =>
    route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
  const ready = Promise.all([
    page.route('**/config/port_status', async (route: Route) => {
      m.statusCalls.push(Date.now());
      if (m.statusFails) return json(route, 500, { error: { code: 'internal', message: 'Internal error' } });
      return json(route, 200, { threads: [{ index: 0, port: 9094, listening: m.listening, detail: m.detail, ...m.counters }] });
    }),
    page.route('**/config/porttest', async (route: Route, req: Request) => {
      m.testBodies.push(req.postDataJSON());
      await json(route, m.test.status, m.test.body);
    }),
  ]);
  return { m, ready };
}

describe('the ports page (port_status and porttest mocked in the browser)', () => {
  const suite = consoleSuite();
  let cp: ConsolePage;

  const body = (page: Page) => pageBody(page, 'port');
  const block = (page: Page, i: number) => body(page).locator(`[data-thread="${i}"]`);
  const row = (page: Page, i: number, j: number) => block(page, i).locator(`[data-restriction="${j}"]`);
  const input = (page: Page, path: string) => fieldInput(page, KEY, path);
  const errorAt = (page: Page, path: string) => body(page).locator(`[data-field="${path}"] .error`);
  const dialog = (page: Page) => page.locator('[role=alertdialog]');
  const stored = async (page: Page) => (await (await api(page, suite.d)).get(`/config/${KEY}`)).body as { threads: ReturnType<typeof thread>[] };
  const save = (page: Page) => page.locator('.page-bar [data-action=save]').click();

  /** Saves `threads` on the daemon, signs in, mocks the two routes and opens /port. */
  async function openPort(threads: unknown[] = [], opts: Parameters<typeof suite.open>[0] = {}, cred?: typeof USER) {
    const c = await suite.d.admin();
    expect((await c.post(`/config/${KEY}`, { threads })).status).toBe(200);
    cp = await suite.open(opts);
    const { page } = cp;
    await loginApi(page, suite.d, cred);
    const mock = mockPort(page);
    await mock.ready;
    await openConsole(page, suite.d, '/port');
    await body(page).waitFor();
    return { page, m: mock.m };
  }

  beforeEach(async () => {
    // every test starts without threads and with the REST API off
    const c = await suite.d.admin();
    expect((await c.post(`/config/${KEY}`, { threads: [] })).status).toBe(200);
    const rest = (await c.get('/config/get_reset?section=pew_api')).body;
    expect((await c.post('/config/pew_api', rest)).status).toBe(200);
  });

  it('a thread with every field and two restrictions is saved and read back', async () => {
    const { page } = await openPort();
    await expectTitle(page, en.nav.port);
    await expectText(body(page).locator('[data-empty]'), en.port.noThreads);
    await body(page).locator('[data-action=add-thread]').click();
    await block(page, 0).waitFor();
    await expectText(block(page, 0).locator('h2'), fill(en.port.thread, { n: 1, port: 9094 }));
    expect(await block(page, 0).locator('.grid > [data-field]').evaluateAll((els) => els.map((e) => e.getAttribute('data-field')))).toEqual(
      ['port', 'service', 'mb_translation', 'monitoring_cmd', 'clients', 'timeout', 'ip_start', 'ip_end'].map((f) => `threads.0.${f}`));
    // the interfaces by name; all addresses accepted by default (spec §5)
    expect(await input(page, 'threads.0.service').locator('option').allTextContents()).toEqual(['COM1', 'COM2', 'COM3', 'INTERNAL', 'COM4']);
    await expectText(block(page, 0).locator('[data-note=all-addresses]'), en.port.allAddresses);
    await expectText(block(page, 0).locator('[data-field="threads.0.timeout"] .unit'), 's');

    await input(page, 'threads.0.port').fill('9200');
    await input(page, 'threads.0.service').selectOption('3');
    await input(page, 'threads.0.monitoring_cmd').uncheck();
    await input(page, 'threads.0.clients').fill('8');
    await input(page, 'threads.0.timeout').fill('120');
    await input(page, 'threads.0.ip_start').fill('192.168.1.10');
    await input(page, 'threads.0.ip_end').fill('192.168.1.50');
    await expect.poll(() => block(page, 0).locator('[data-note=all-addresses]').count()).toBe(0);
    await expectText(block(page, 0).locator('h2'), fill(en.port.thread, { n: 1, port: 9200 }));

    // restrictions: a new one starts after the last DT entry, so it never overlaps
    await expectText(block(page, 0).locator('[data-empty]'), en.port.noRestrictions);
    await block(page, 0).locator('[data-action=add-restriction]').click();
    await input(page, 'threads.0.mapping.0.register_area_end').fill('99');
    await input(page, 'threads.0.mapping.0.read_write').selectOption('R/W');
    await block(page, 0).locator('[data-action=add-restriction]').click();
    expect(await input(page, 'threads.0.mapping.1.register_area_start').inputValue()).toBe('100');
    await input(page, 'threads.0.mapping.1.area').selectOption('WR');
    await input(page, 'threads.0.mapping.1.register_area_start').fill('0');
    await input(page, 'threads.0.mapping.1.register_area_end').fill('15');
    await expectText(row(page, 0, 1).locator('[data-note=range]'), fill(en.port.areaRange, { area: 'WR', max: AREA_MAX.WR }));
    expect(await input(page, 'threads.0.mapping.1.read_write').locator('option').allTextContents())
      .toEqual([en.fields.pew_redirect.threads.mapping.read_write.options.RO, en.fields.pew_redirect.threads.mapping.read_write.options['R/W'], en.fields.pew_redirect.threads.mapping.read_write.options.BLK]);
    // a third one, removed again
    await block(page, 0).locator('[data-action=add-restriction]').click();
    await row(page, 0, 2).locator('[data-action=remove-restriction]').click();
    await expect.poll(() => block(page, 0).locator('[data-restriction]').count()).toBe(2);

    await save(page);
    await page.locator('.notices .notice.info', { hasText: en.notify.saved }).waitFor();
    expect((await stored(page)).threads).toEqual([{
      port: 9200, mb_translation: false, monitoring_cmd: false, service: 3, clients: 8, timeout: 120, ip_start: '192.168.1.10', ip_end: '192.168.1.50',
      mapping: [restriction('DT', 0, 99, 'R/W'), restriction('WR', 0, 15)],
    }]);
  });

  it('an overlapping grant shows "addresses overlap" at the field and blocks the save', async () => {
    const { page } = await openPort([thread()]);
    const before = await stored(page);
    const posts: string[] = [];
    page.on('request', (r) => { if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith('/config')) posts.push(r.url()); });

    await block(page, 0).locator('[data-action=add-restriction]').click();
    await input(page, 'threads.0.mapping.1.register_area_start').fill('5');
    await input(page, 'threads.0.mapping.1.register_area_end').fill('20');
    await expectText(errorAt(page, 'threads.0.mapping.1.register_area_start'), fill(en.errors.addresses_overlap, { other: fill(en.port.restrictionN, { n: 1 }) }));
    expect(await input(page, 'threads.0.mapping.1.register_area_start').getAttribute('aria-invalid')).toBe('true');
    await save(page);
    const notice = page.locator('.notices .notice.error span');
    await notice.waitFor();
    expect(await notice.textContent()).toContain(`${en.notify.saveFailed} ${en.nav.port} · ${en.fields.pew_redirect.threads.mapping.register_area_start.label}:`);
    expect(posts).toEqual([]);
    expect(await stored(page)).toEqual(before);

    // Blocked may overlay a grant (it wins): no message
    await input(page, 'threads.0.mapping.1.read_write').selectOption('BLK');
    await expect.poll(() => errorAt(page, 'threads.0.mapping.1.register_area_start').count()).toBe(0);
  });

  it('start greater than end, an address beyond the area and an invalid IP range are shown at their fields', async () => {
    const { page } = await openPort([thread()]);
    await input(page, 'threads.0.mapping.0.register_area_start').fill('50');
    await expectText(errorAt(page, 'threads.0.mapping.0.register_area_start'), en.errors.start_after_end);
    await input(page, 'threads.0.mapping.0.register_area_start').fill('0');
    await expect.poll(() => errorAt(page, 'threads.0.mapping.0.register_area_start').count()).toBe(0);

    await input(page, 'threads.0.mapping.0.area').selectOption('WX');
    await input(page, 'threads.0.mapping.0.register_area_end').fill('600');
    await expectText(errorAt(page, 'threads.0.mapping.0.register_area_end'), fill(en.errors.address_out_of_range, { min: 0, max: AREA_MAX.WX }));

    await input(page, 'threads.0.ip_start').fill('10.0.0.9');
    await input(page, 'threads.0.ip_end').fill('10.0.0.1');
    await expectText(errorAt(page, 'threads.0.ip_end'), en.errors.ip_range);
    await input(page, 'threads.0.ip_end').fill('10.0.0.300');
    await expectText(errorAt(page, 'threads.0.ip_end'), en.errors.invalid_ip);
    await input(page, 'threads.0.port').fill('8080');
    await expectText(errorAt(page, 'threads.0.port'), fill(en.errors.port_unallowed, { ports: '3000, 8000, 8080, 8081, 5900' }));
  });

  it('the gateway columns appear only with Modbus translation; a coil table needs a relay area; the Modbus range is shown', async () => {
    const { page } = await openPort([thread({ mapping: [restriction('DT', 0, 9), restriction('WR', 0, 1, 'R/W', { register_area_mapped: 10 })] })]);
    const gatewayFields = () => block(page, 0).locator('[data-field$=".type"], [data-field$=".register_area_mapped"]');
    expect(await gatewayFields().count()).toBe(0);
    expect(await block(page, 0).locator('[data-modbus]').count()).toBe(0);

    await input(page, 'threads.0.mb_translation').check();
    await expect.poll(() => gatewayFields().count()).toBe(4);
    await expectText(block(page, 0).locator('[data-note=gateway]'), en.port.gatewayNote);
    expect(await row(page, 0, 0).locator('[data-field]').evaluateAll((els) => els.map((e) => e.getAttribute('data-field')!.replace(/^threads\.0\.mapping\.0\./, ''))))
      .toEqual(['type', 'area', 'register_area_start', 'register_area_end', 'register_area_mapped', 'read_write']);
    expect(await input(page, 'threads.0.mapping.0.type').locator('option').allTextContents())
      .toEqual(['0', '1', '2', '3'].map((k) => en.fields.pew_redirect.threads.mapping.type.options[k as '0']));
    await expectText(row(page, 0, 0).locator('[data-modbus]'), `· ${fill(en.port.modbusRange, { first: 0, last: 9, unit: en.port.words })}`);

    // the WR entry as coils: 16 per word
    await input(page, 'threads.0.mapping.1.type').selectOption('2');
    await expectText(row(page, 0, 1).locator('[data-modbus]'), `· ${fill(en.port.modbusRange, { first: 10, last: 41, unit: en.port.bits })}`);
    // coils from DT: the memory areas must match
    await input(page, 'threads.0.mapping.0.type').selectOption('2');
    await expectText(errorAt(page, 'threads.0.mapping.0.area'), en.errors.areas_mismatch);
    await input(page, 'threads.0.mapping.0.area').selectOption('WY');
    await expect.poll(() => errorAt(page, 'threads.0.mapping.0.area').count()).toBe(0);
    // two entries of the same table on the same Modbus addresses overlap
    await expectText(errorAt(page, 'threads.0.mapping.1.register_area_mapped'), fill(en.errors.addresses_overlap, { other: fill(en.port.restrictionN, { n: 1 }) }));
    await input(page, 'threads.0.mapping.1.register_area_mapped').fill('1000');
    await expect.poll(() => errorAt(page, 'threads.0.mapping.1.register_area_mapped').count()).toBe(0);

    await save(page);
    await page.locator('.notices .notice.info', { hasText: en.notify.saved }).waitFor();
    const t = (await stored(page)).threads[0]!;
    expect(t.mb_translation).toBe(true);
    expect(t.mapping).toEqual([
      restriction('WY', 0, 9, 'RO', { type: 2 }),
      restriction('WR', 0, 1, 'R/W', { type: 2, register_area_mapped: 1000 }),
    ]);

    await input(page, 'threads.0.mb_translation').uncheck();
    await expect.poll(() => gatewayFields().count()).toBe(0);
  });

  it('at most 10 threads (spec §9): the add button stops with "max entries reached"; each new one gets a free port', async () => {
    const { page } = await openPort();
    const add = body(page).locator('[data-action=add-thread]');
    for (let i = 0; i < 10; i++) await add.click();
    await expect.poll(() => body(page).locator('[data-thread]').count()).toBe(10);
    expect(await add.isDisabled()).toBe(true);
    await expectText(body(page).locator('[data-max]').last(), fill(en.errors.too_many, { max: 10 }));
    await save(page);
    await page.locator('.notices .notice.info', { hasText: en.notify.saved }).waitFor();
    expect((await stored(page)).threads.map((t) => t.port)).toEqual([9094, 9095, 9096, 9097, 9098, 9099, 9100, 9101, 9102, 9103]);

    // removing one frees the button again
    await block(page, 3).locator('[data-action=remove-thread]').click();
    await expect.poll(() => body(page).locator('[data-thread]').count()).toBe(9);
    expect(await add.isEnabled()).toBe(true);
    // and 10 restrictions per thread
    const addR = block(page, 0).locator('[data-action=add-restriction]');
    for (let i = 0; i < 10; i++) await addR.click();
    expect(await addR.isDisabled()).toBe(true);
    await expectText(block(page, 0).locator('[data-max]'), fill(en.errors.too_many, { max: 10 }));
  });

  it('the daemon\'s refusal is shown at the field: a port the REST API listens on (port_conflict)', async () => {
    const { page } = await openPort([thread()]);
    // the REST API is switched on behind the console's back, on the port the page is about to use
    const a = await api(page, suite.d);
    const rest = (await a.get('/config/pew_api')).body;
    expect((await a.post('/config/pew_api', { ...rest, api_enable: true, http_port: 9300 })).status).toBe(200);
    await input(page, 'threads.0.port').fill('9300');
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/config/${KEY}`);
    await save(page);
    expect((await answer).status()).toBe(400);
    await expectText(errorAt(page, 'threads.0.port'), fill(en.errors.port_conflict, { port: 9300, other: 'pew_api.http_port' }));
    await page.locator('.notices .notice.error').waitFor();
    expect((await stored(page)).threads[0]!.port).toBe(9094);
    // editing the field clears the daemon's message
    await input(page, 'threads.0.port').fill('9301');
    await expect.poll(() => errorAt(page, 'threads.0.port').count()).toBe(0);
  });

  it('reset from the page bar puts the defaults (no thread) in place, stored with the next save', async () => {
    const { page } = await openPort([thread(), thread({ port: 9095 })]);
    await page.locator('.page-bar [data-action=reset]').click();
    await dialog(page).locator('button', { hasText: en.confirm.reset }).click();
    await expectText(body(page).locator('[data-empty]'), en.port.noThreads);
    expect((await stored(page)).threads).toHaveLength(2);
    await save(page);
    await expect.poll(async () => (await stored(page)).threads.length).toBe(0);
  });

  it('connection test: request and raw reply, the failure note by reason, the refusal; with unsaved changes it asks first', async () => {
    const { page, m } = await openPort([thread()]);
    const test = block(page, 0).locator('[data-porttest]');
    m.test = { status: 200, body: { ok: true, index: 0, request: '%01#RDD0000000001**\r', raw: '%01$RD0100020015\r' } };
    await test.locator('[data-action=porttest]').click();
    await expectText(test.locator('[data-note]'), en.port.testOk);
    await expectText(test.locator('pre[data-text=request]'), '%01#RDD0000000001**\u240d');
    await expectText(test.locator('pre[data-text=raw]'), '%01$RD0100020015\u240d');
    expect(await test.locator('pre[data-text=raw]').evaluate((e) => getComputedStyle(e).fontFamily)).toMatch(/mono|Menlo|Consolas/i);
    expect(m.testBodies).toEqual([{ index: 0 }]);

    m.test = { status: 200, body: { ok: false, index: 0, reason: 'error_answer', message: 'PLC error 61', request: '%01#RDD0000000001**\r', raw: '%01!6129\r' } };
    await test.locator('[data-action=porttest]').click();
    await expectText(test.locator('[data-note]'), `${en.port.testFailed} ${en.port.reasons.error_answer}`);
    await expectText(test.locator('pre[data-text=raw]'), '%01!6129\u240d');
    await expectText(test.locator('pre[data-text=request]'), '%01#RDD0000000001**\u240d');
    m.test = { status: 200, body: { ok: false, index: 0, reason: 'not_listening', message: 'closed', raw: '' } };
    await test.locator('[data-action=porttest]').click();
    await expectText(test.locator('[data-note]'), `${en.port.testFailed} ${en.port.reasons.not_listening}`);
    await expectText(test.locator('pre[data-text=raw]'), en.port.nothing);
    expect(await test.locator('pre[data-text=request]').count()).toBe(0); // not sent: nothing to show

    m.test = { status: 409, body: { error: { code: 'interface_not_ready', message: 'no thread 0' } } };
    await test.locator('[data-action=porttest]').click();
    await expectText(test.locator('[data-outcome=refused]'), en.errors.interface_not_ready);
    expect(await page.locator('.notices .notice').count()).toBe(0);

    // an unsaved edit: the question first; cancel runs nothing
    await input(page, 'threads.0.clients').fill('9');
    await test.locator('[data-action=porttest]').click();
    await expectText(dialog(page).locator('#dlg-text'), en.confirm.unsavedTest);
    await dialog(page).locator('button', { hasText: en.confirm.cancel }).click();
    await expect.poll(() => dialog(page).count()).toBe(0);
    expect(m.testBodies).toHaveLength(4);
    m.test = { status: 200, body: { ok: true, index: 0, request: 'x', raw: 'y' } };
    await test.locator('[data-action=porttest]').click();
    await dialog(page).locator('button', { hasText: en.confirm.testAnyway }).click();
    await expectText(test.locator('[data-note]'), en.port.testOk);
    expect(m.testBodies).toHaveLength(5);
  });

  it('the counters update on the tick; a failed call says "status unavailable" quietly; an unsaved thread has none; leaving stops it', async () => {
    const { page, m } = await openPort([thread()]);
    const status = block(page, 0).locator('.link-status');
    await expectText(status.locator('[data-state]'), fill(en.port.listening, { port: 9094 }));
    m.counters = { clients: 2, requests: 1234, refused: 3, errors: 1, bytesIn: 20480, bytesOut: 30000 };
    m.detail = '2 clients from 10.0.0.5';
    await expectText(status.locator('[data-counter=requests] dd'), '1,234', TICK_MS + 1500);
    await expectText(status.locator('[data-counter=refused] dt'), en.port.stats.refused);
    await expectText(status.locator('[data-counter=bytesOut] dd'), '30,000');
    await expectText(status.locator('[data-detail]'), '2 clients from 10.0.0.5');
    m.listening = false;
    await expectText(status.locator('[data-state]'), fill(en.port.closed, { port: 9094 }), TICK_MS + 1500);
    const calls = m.statusCalls.slice(-3);
    for (let i = 1; i < calls.length; i++) expect(calls[i]! - calls[i - 1]!).toBeGreaterThan(TICK_MS - 400);

    // a new thread is not saved yet: no status for it
    await body(page).locator('[data-action=add-thread]').click();
    await expectText(block(page, 1).locator('.link-status p'), en.port.notSaved);

    m.statusFails = true;
    await expectText(status.locator('p.hint'), en.port.unavailable, 2 * TICK_MS + 1500);
    expect(await page.locator('.notices .notice').count()).toBe(0);
    m.statusFails = false;
    await expectText(status.locator('[data-state]'), fill(en.port.closed, { port: 9094 }), 2 * TICK_MS + 1500);

    // leaving the page stops the calls (the unsaved thread is dropped on the way)
    await page.locator('#menu a[data-page=info]').click();
    await dialog(page).locator('button', { hasText: en.confirm.leave }).click();
    await expectTitle(page, en.nav.info);
    await page.waitForTimeout(500);
    const count = m.statusCalls.length;
    await page.waitForTimeout(2 * TICK_MS + 500);
    expect(m.statusCalls.length).toBe(count);
  });

  it('the user role sees no test, add or remove button enabled and every field read-only; the counters still update', async () => {
    const { page, m } = await openPort([thread({ mapping: [restriction('DT', 0, 9), restriction('WR', 0, 1)] })], {}, USER);
    const buttons = body(page).locator('button');
    expect(await buttons.evaluateAll((bs) => bs.map((b) => `${b.getAttribute('data-action')}:${(b as HTMLButtonElement).disabled}`))).toEqual([
      'remove-thread:true', 'remove-restriction:true', 'remove-restriction:true', 'add-restriction:true', 'porttest:true', 'add-thread:true',
    ]);
    const enabled = await body(page).locator('input, select').evaluateAll((els) => els.filter((e) => !(e as HTMLInputElement).disabled).map((e) => e.id));
    expect(enabled).toEqual([]);
    await body(page).locator('[data-action=porttest]').click({ force: true });
    expect(m.testBodies).toEqual([]);
    await expectText(block(page, 0).locator('[data-state]'), fill(en.port.listening, { port: 9094 }));
    expect(await page.locator('.page-bar [data-action=save]').count()).toBe(0);
  });

  it('at 360 px the thread block with a gateway and a test result fits the width', async () => {
    const { page, m } = await openPort([thread({ mb_translation: true })], { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    m.test = { status: 200, body: { ok: true, index: 0, request: '%01#RDD' + '0123456789'.repeat(6) + '\r', raw: '%01$RD' + '0123456789'.repeat(8) + '\r' } };
    await block(page, 0).locator('[data-action=porttest]').click();
    await block(page, 0).locator('pre[data-text=raw]').waitFor();
    const wider = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      return [...document.querySelectorAll('main *')]
        .filter((e) => e.getBoundingClientRect().right > width + 0.5 && e.getBoundingClientRect().width > 0)
        .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`);
    });
    expect(wider).toEqual([]);
  });
});
