// The ports page (/port, spec §2, §3 "Port (pew_redirect)", §5, §9): threads with every field and
// their restrictions saved to the daemon and read back, the rules of §5 shown at the field (client
// side from the shared schema, and the daemon's own refusal), the gateway columns, the limit of 10
// threads, the connection test, the live counters and the user role.
//
// Against the REAL engine: the daemon in simulator mode with a virtual FP-XH on COM1 (an in-process
// serial wire with real timing). Its redirect threads listen on ports the kernel handed out, the
// connection test goes through them to the PLC, and a MEWTOCOL-COM client over TCP (node:net) makes
// the counters move. Two things stay mocked in the browser with `page.route`, each for one step
// only and said where: a failing `GET /config/port_status` (the daemon's route does not fail on its
// own), and a connection test answer with 100-character lines for the layout at 360 px (the real
// test reads one word, its lines are short).

import type { Page, Route } from '@playwright/test';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { printable } from '../../device/com/dialog.ts';
import { AREA_MAX } from '../../device/model/plc.ts';
import type { Pew } from '../../device/model/sections/pew.ts';
import {
  asciiToBytes,
  encodeModbusException,
  encodeModbusRequest,
  encodeModbusResponse,
  encodeTcpFrame,
  type MewRequest,
  MODBUS_EXCEPTION,
  mewCommandFrames,
  mewErrorFrame,
  mewReplyFrames,
} from '../../device/protocol/index.ts';
import type { SerialFraming } from '../../sim/wire.ts';
import { connector, enableCom1, freePort, freePorts, liveConsoleSuite, MewClient, mewAsk, otherProgram, serialPlc } from './live-plc.ts';
import {
  api,
  type ConsolePage,
  callStarts,
  de,
  en,
  expectNotice,
  expectText,
  expectTitle,
  fieldInput,
  fill,
  fr,
  loginApi,
  openConsole,
  overflow,
  pageBody,
  pageDrawn,
  saveRefusal,
  USER,
} from './support.ts';

const TICK_MS = 1500; // spec §9: update tick
const KEY = 'pew_redirect';
/** the virtual PLC's line; COM1 is saved with the same settings (8O1 is the unit's default) */
const FRAMING: SerialFraming = { baud: 115200, bits: 8, parity: 'odd', stopbits: 1 };
const COM1_TIMEOUT_MS = 300;
const wire = serialPlc('FP-XH', FRAMING);
const plc = wire.plc;

const restriction = (area: string, start: number, end: number, read_write = 'RO', extra: Record<string, unknown> = {}) => ({
  type: 0,
  register_area_start: start,
  register_area_end: end,
  register_area_mapped: 0,
  area,
  read_write,
  ...extra,
});
const thread = (extra: Record<string, unknown> = {}) => ({
  port: 9094,
  mb_translation: false,
  monitoring_cmd: true,
  service: 0,
  clients: 4,
  timeout: 60,
  ip_start: '0.0.0.0',
  ip_end: '0.0.0.0',
  mapping: [restriction('DT', 0, 9)],
  ...extra,
});
/** a MEWTOCOL frame as the daemon reports it (device/com/dialog.ts: the CR as ⏎) */
const shown = (frame: string) => printable(asciiToBytes(frame), true);
/** Modbus/TCP bytes as the daemon reports them: hex pairs */
const shownHex = (bytes: Uint8Array) => printable(bytes, false);
/** a counter as the page shows it (en-GB) */
const counter = (n: number) => new Intl.NumberFormat(en.app.dateLocale).format(n);

describe('the ports page against the daemon, its redirect threads and a virtual PLC on COM1', () => {
  const suite = liveConsoleSuite({ COM1: connector(wire) });
  let cp: ConsolePage;

  const body = (page: Page) => pageBody(page, 'port');
  const block = (page: Page, i: number) => body(page).locator(`[data-thread="${i}"]`);
  const row = (page: Page, i: number, j: number) => block(page, i).locator(`[data-restriction="${j}"]`);
  const input = (page: Page, path: string) => fieldInput(page, KEY, path);
  const errorAt = (page: Page, path: string) => body(page).locator(`[data-field="${path}"] .error`);
  const dialog = (page: Page) => page.locator('[role=alertdialog]');
  const stored = async (page: Page) => (await (await api(page, suite.d)).get(`/config/${KEY}`)).body as { threads: ReturnType<typeof thread>[] };
  const save = (page: Page) => page.locator('.page-bar [data-action=save]').click();

  /** Saves threads on the daemon behind the page's back and waits until they listen (or could not). */
  async function saveThreads(threads: unknown[]) {
    const c = await suite.d.admin();
    const r = await c.post(`/config/${KEY}`, { threads });
    expect(r.status, r.text).toBe(200);
    await suite.d.ctx.redirects.settled();
  }

  /**
   * Saves `threads` on the daemon, signs in and opens /port. `calls` records the page's status calls
   * (when they were sent) and the bodies of its connection tests.
   */
  async function openPort(threads: unknown[] = [], opts: Parameters<typeof suite.open>[0] = {}, cred?: typeof USER) {
    await saveThreads(threads);
    cp = await suite.open(opts);
    const { page } = cp;
    const calls = { status: [] as number[], tests: [] as unknown[] };
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path === '/config/port_status') calls.status.push(Date.now());
      if (path === '/config/porttest' && r.method() === 'POST') calls.tests.push(r.postDataJSON());
    });
    await loginApi(page, suite.d, cred);
    await openConsole(page, suite.d, '/port');
    await body(page).waitFor();
    return { page, calls };
  }

  beforeAll(async () => {
    // COM1 enabled at the PLC's line settings, COM2 not
    await enableCom1(suite.d, FRAMING, COM1_TIMEOUT_MS);
    const pew = (await (await suite.d.admin()).get('/config/pew')).body as Pew;
    expect(pew.interfaces.find((i) => i.name === 'COM2')!.enabled).toBe(false);
  });

  beforeEach(async () => {
    // every test starts without threads, with the REST API off and a healthy PLC
    const c = await suite.d.admin();
    expect((await c.post(`/config/${KEY}`, { threads: [] })).status).toBe(200);
    const rest = (await c.get('/config/get_reset?section=pew_api')).body;
    expect((await c.post('/config/pew_api', rest)).status).toBe(200);
    plc.setFault({ kind: 'none' });
  });

  it('a thread with every field and two restrictions is saved and read back', async () => {
    const { page } = await openPort();
    await expectTitle(page, en.nav.port);
    await expectText(body(page).locator('[data-empty]'), en.port.noThreads);
    await body(page).locator('[data-action=add-thread]').click();
    await block(page, 0).waitFor();
    await expectText(block(page, 0).locator('h2'), fill(en.port.thread, { n: 1, port: 9094 }));
    expect(
      await block(page, 0)
        .locator('.grid > [data-field]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-field'))),
    ).toEqual(['port', 'service', 'mb_translation', 'monitoring_cmd', 'clients', 'timeout', 'ip_start', 'ip_end'].map((f) => `threads.0.${f}`));
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
    expect(await input(page, 'threads.0.mapping.1.read_write').locator('option').allTextContents()).toEqual([
      en.fields.pew_redirect.threads.mapping.read_write.options.RO,
      en.fields.pew_redirect.threads.mapping.read_write.options['R/W'],
      en.fields.pew_redirect.threads.mapping.read_write.options.BLK,
    ]);
    // a third one, removed again
    await block(page, 0).locator('[data-action=add-restriction]').click();
    await row(page, 0, 2).locator('[data-action=remove-restriction]').click();
    await expect.poll(() => block(page, 0).locator('[data-restriction]').count()).toBe(2);

    await save(page);
    await expectNotice(page, 'info', en.form.notice.saved);
    expect((await stored(page)).threads).toEqual([
      {
        port: 9200,
        mb_translation: false,
        monitoring_cmd: false,
        service: 3,
        clients: 8,
        timeout: 120,
        ip_start: '192.168.1.10',
        ip_end: '192.168.1.50',
        mapping: [restriction('DT', 0, 99, 'R/W'), restriction('WR', 0, 15)],
      },
    ]);
  });

  it('an overlapping grant shows "addresses overlap" at the field and blocks the save', async () => {
    const { page } = await openPort([thread()]);
    const before = await stored(page);
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith('/config')) posts.push(r.url());
    });

    await block(page, 0).locator('[data-action=add-restriction]').click();
    await input(page, 'threads.0.mapping.1.register_area_start').fill('5');
    await input(page, 'threads.0.mapping.1.register_area_end').fill('20');
    await expectText(
      errorAt(page, 'threads.0.mapping.1.register_area_start'),
      fill(en.errors.addresses_overlap, { other: fill(en.port.restrictionN, { n: 1 }) }),
    );
    expect(await input(page, 'threads.0.mapping.1.register_area_start').getAttribute('aria-invalid')).toBe('true');
    await save(page);
    const notice = page.locator('.notices .notice.error span');
    await notice.waitFor();
    // the list names the thread and the restriction of the problem, and the other restriction in full
    const place = (n: number) => `${en.nav.port}, ${fill(en.form.place.thread, { n: 1 })}, ${fill(en.form.place.restriction, { n })}`;
    expect(await notice.textContent()).toBe(
      saveRefusal([
        [`${place(2)}, ${en.fields.pew_redirect.threads.mapping.register_area_start.label}`, fill(en.errors.addresses_overlap, { other: place(1) })],
      ]),
    );
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
    expect(
      await row(page, 0, 0)
        .locator('[data-field]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-field')!.replace(/^threads\.0\.mapping\.0\./, ''))),
    ).toEqual(['type', 'area', 'register_area_start', 'register_area_end', 'register_area_mapped', 'read_write']);
    expect(await input(page, 'threads.0.mapping.0.type').locator('option').allTextContents()).toEqual(
      ['0', '1', '2', '3'].map((k) => en.fields.pew_redirect.threads.mapping.type.options[k as '0']),
    );
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
    await expectText(
      errorAt(page, 'threads.0.mapping.1.register_area_mapped'),
      fill(en.errors.addresses_overlap, { other: fill(en.port.restrictionN, { n: 1 }) }),
    );
    await input(page, 'threads.0.mapping.1.register_area_mapped').fill('1000');
    await expect.poll(() => errorAt(page, 'threads.0.mapping.1.register_area_mapped').count()).toBe(0);

    await save(page);
    await expectNotice(page, 'info', en.form.notice.saved);
    const t = (await stored(page)).threads[0]!;
    expect(t.mb_translation).toBe(true);
    expect(t.mapping).toEqual([restriction('WY', 0, 9, 'RO', { type: 2 }), restriction('WR', 0, 1, 'R/W', { type: 2, register_area_mapped: 1000 })]);

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
    await expectNotice(page, 'info', en.form.notice.saved);
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

  it("the daemon's refusal is shown at the field: a port the REST API listens on (port_conflict)", async () => {
    const { page } = await openPort([thread()]);
    // the REST API is switched on behind the console's back, on the port the page is about to use
    const a = await api(page, suite.d);
    const rest = (await a.get('/config/pew_api')).body;
    expect((await a.post('/config/pew_api', { ...rest, api_enable: true, http_port: 9300 })).status).toBe(200);
    await input(page, 'threads.0.port').fill('9300');
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/config/${KEY}`);
    await save(page);
    expect((await answer).status()).toBe(400);
    await expectText(
      errorAt(page, 'threads.0.port'),
      fill(en.errors.port_conflict, { port: 9300, other: `${en.nav.rest}, ${en.fields.pew_api.http_port.label}` }),
    );
    await page.locator('.notices .notice.error').waitFor();
    expect((await stored(page)).threads[0]!.port).toBe(9094);
    // editing the field clears the daemon's message
    await input(page, 'threads.0.port').fill('9301');
    await expect.poll(() => errorAt(page, 'threads.0.port').count()).toBe(0);
  });

  it.each([
    ['en-GB', en],
    ['de-DE', de],
    ['fr-FR', fr],
  ] as const)("a thread on the console's own port is refused at the field, nothing stored (%s)", async (locale, dict) => {
    const { page } = await openPort([thread()], { locale });
    const own = suite.d.port;
    await input(page, 'threads.0.port').fill(String(own));
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/config/${KEY}`);
    await save(page);
    expect((await answer).status()).toBe(400);
    await expectText(errorAt(page, 'threads.0.port'), fill(dict.errors.port_console, { port: own }));
    expect((await stored(page)).threads[0]!.port).toBe(9094);
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

  it("connection test: the request and the virtual PLC's raw reply, its error answer, the refusal for a thread the daemon does not have; with unsaved changes it asks first", async () => {
    const port = await freePort();
    const { page, calls } = await openPort();
    // the thread is set up and saved on the page: COM1, status commands off, DT0-9 read-only
    await body(page).locator('[data-action=add-thread]').click();
    await input(page, 'threads.0.port').fill(String(port));
    await input(page, 'threads.0.monitoring_cmd').uncheck();
    await block(page, 0).locator('[data-action=add-restriction]').click();
    await input(page, 'threads.0.mapping.0.register_area_end').fill('9');
    await save(page);
    await expectNotice(page, 'info', en.form.notice.saved);
    const saved = thread({ port, monitoring_cmd: false });
    expect((await stored(page)).threads).toEqual([saved]);
    await suite.d.ctx.redirects.settled();
    await expectText(block(page, 0).locator('[data-state]'), fill(en.port.listening, { port }), TICK_MS + 1500);
    const test = block(page, 0).locator('[data-porttest]');
    // the test reads the first granted word, DT0, through the thread from the PLC on COM1
    plc.memory.writeWords('DT', 0, [0x1234]);
    const rd: MewRequest = { cmd: 'RD', area: 'DT', start: 0, count: 1 };
    const request = shown(mewCommandFrames('EE', rd)[0]!);
    const reached = plc.requests;
    await test.locator('[data-action=porttest]').click();
    await expectText(test.locator('[data-note]'), en.port.testOk);
    await expectText(test.locator('pre[data-text=request]'), request);
    await expectText(test.locator('pre[data-text=raw]'), shown(mewReplyFrames('%', 'EE', rd, { kind: 'words', words: [0x1234] })[0]!));
    expect(await test.locator('pre[data-text=raw]').textContent()).toMatch(/^%EE\$RD3412[0-9A-F]{2}⏎$/); // DT0 = 0x1234, low byte first
    expect(plc.requests).toBeGreaterThan(reached); // the PLC itself answered
    expect(await test.locator('pre[data-text=raw]').evaluate((e) => getComputedStyle(e).fontFamily)).toMatch(/mono|Menlo|Consolas/i);
    expect(calls.tests).toEqual([{ index: 0 }]);

    // the PLC refuses the next request with error 61: the failure note, the request and the PLC's own error reply
    plc.setFault({ kind: 'error', code: 61, count: 1 });
    await test.locator('[data-action=porttest]').click();
    await expectText(test.locator('[data-note]'), `${en.port.testFailed} ${en.port.reasons.error_answer}`);
    expect(await test.locator('[data-outcome=failed]').getAttribute('data-reason')).toBe('error_answer');
    await expectText(test.locator('pre[data-text=raw]'), shown(mewErrorFrame('%', 'EE', 61)));
    expect(await test.locator('pre[data-text=raw]').textContent()).toMatch(/^%EE!61[0-9A-F]{2}⏎$/);
    await expectText(test.locator('pre[data-text=request]'), request);

    // the thread is removed behind the page's back: the daemon refuses to test a thread it does not
    // have (409 interface_not_ready, the §8 text), without a notice
    await expect.poll(() => page.locator('.notices .notice').count()).toBe(0); // "saved" (3 s) has gone
    await saveThreads([]);
    await test.locator('[data-action=porttest]').click();
    await expectText(test.locator('[data-outcome=refused]'), en.errors.interface_not_ready);
    expect(await test.locator('[data-outcome=ok], [data-outcome=failed]').count()).toBe(0);
    expect(await page.locator('.notices .notice').count()).toBe(0);
    await saveThreads([saved]);

    // an unsaved edit: the question first; cancel runs nothing
    await input(page, 'threads.0.clients').fill('9');
    await test.locator('[data-action=porttest]').click();
    await expectText(dialog(page).locator('#dlg-text'), en.confirm.unsavedTest);
    await dialog(page).locator('button', { hasText: en.confirm.cancel }).click();
    await expect.poll(() => dialog(page).count()).toBe(0);
    expect(calls.tests).toHaveLength(3);
    await test.locator('[data-action=porttest]').click();
    await dialog(page).locator('button', { hasText: en.confirm.testAnyway }).click();
    await expectText(test.locator('[data-note]'), en.port.testOk);
    await expectText(test.locator('pre[data-text=raw]'), shown(mewReplyFrames('%', 'EE', rd, { kind: 'words', words: [0x1234] })[0]!));
    expect(calls.tests).toHaveLength(4);
  });

  it('failure reasons of the real engine: a client address the thread does not admit, an interface that is not enabled, a gateway on it (exception 0A)', async () => {
    const ports = await freePorts(3);
    const { page } = await openPort([
      thread({ port: ports[0], ip_start: '10.0.0.1', ip_end: '10.0.0.9' }), // the test connects from 127.0.0.1
      thread({ port: ports[1], service: 3 }), // COM2: not enabled
      thread({ port: ports[2], service: 3, mb_translation: true }), // a gateway to COM2
    ]);
    const test = (i: number) => block(page, i).locator('[data-porttest]');
    const counterOf = (i: number, k: string) => block(page, i).locator(`[data-counter=${k}] dd`);
    for (let i = 0; i < 3; i++) await expectText(block(page, i).locator('[data-state]'), fill(en.port.listening, { port: ports[i]! }));

    // the thread closes the connection of a client outside its address range at once
    await test(0).locator('[data-action=porttest]').click();
    await expectText(test(0).locator('[data-note]'), `${en.port.testFailed} ${en.port.reasons.refused}`);
    expect(await test(0).locator('[data-outcome=failed]').getAttribute('data-reason')).toBe('refused');
    await expectText(test(0).locator('pre[data-text=raw]'), en.port.nothing);
    await expectText(counterOf(0, 'refused'), '1', TICK_MS + 1500);
    await expectText(counterOf(0, 'requests'), '0');

    // COM2 is not enabled: the thread has no link to send the RT to, and the PLC never answers
    // (the daemon waits twice the interface timeout and a second); meanwhile the button says so
    const button = test(1).locator('[data-action=porttest]');
    await button.click();
    await expectText(button, en.port.testing);
    expect(await button.isDisabled()).toBe(true);
    await expectText(test(1).locator('[data-note]'), `${en.port.testFailed} ${en.port.reasons.no_answer}`);
    expect(await test(1).locator('[data-outcome=failed]').getAttribute('data-reason')).toBe('no_answer');
    await expectText(test(1).locator('pre[data-text=request]'), shown(mewCommandFrames('EE', { cmd: 'RT' })[0]!));
    await expectText(test(1).locator('pre[data-text=raw]'), en.port.nothing);
    await expectText(button, en.port.test);
    expect(await button.isEnabled()).toBe(true);
    await expectText(counterOf(1, 'errors'), '1', TICK_MS + 1500);
    await expectText(counterOf(1, 'requests'), '1');

    // the gateway to COM2 answers Modbus exception 0A (gateway path unavailable) at once
    await test(2).locator('[data-action=porttest]').click();
    await expectText(test(2).locator('[data-note]'), `${en.port.testFailed} ${en.port.reasons.error_answer}`);
    await expectText(
      test(2).locator('pre[data-text=request]'),
      shownHex(encodeTcpFrame({ transaction: 1, unit: 1, pdu: encodeModbusRequest({ fc: 3, address: 0, quantity: 1 }) })),
    );
    await expectText(
      test(2).locator('pre[data-text=raw]'),
      shownHex(encodeTcpFrame({ transaction: 1, unit: 1, pdu: encodeModbusException(3, MODBUS_EXCEPTION.GATEWAY_PATH_UNAVAILABLE) })),
    );
    expect(await test(2).locator('pre[data-text=raw]').textContent()).toMatch(/ 83 0a$/);
    await expectText(counterOf(2, 'errors'), '1', TICK_MS + 1500);
    expect(await page.locator('.notices .notice').count()).toBe(0);
  });

  it('a thread whose port another program holds: "not listening" with the reason on the tick; once it has gone, the test says the port is not listening', async () => {
    const other = await otherProgram();
    try {
      const { page } = await openPort([thread({ port: other.port })]);
      const status = block(page, 0).locator('.link-status');
      await expectText(status.locator('[data-state]'), fill(en.port.closed, { port: other.port }));
      expect(await status.locator('[data-state]').getAttribute('class')).toBe('state down');
      expect(await status.getAttribute('data-status')).toBe('closed');
      await expectText(status.locator('[data-detail][data-reason=port_in_use]'), `Port ${other.port} is in use by another program.`);
      await expectText(status.locator('[data-counter=clients] dd'), '0');

      // the program has gone, the thread does not try again: nothing listens on the port
      await other.close();
      const test = block(page, 0).locator('[data-porttest]');
      await test.locator('[data-action=porttest]').click();
      await expectText(test.locator('[data-note]'), `${en.port.testFailed} ${en.port.reasons.not_listening}`);
      expect(await test.locator('[data-outcome=failed]').getAttribute('data-reason')).toBe('not_listening');
      await expectText(test.locator('pre[data-text=raw]'), en.port.nothing);
      expect(other.connections()).toBe(0);
    } finally {
      await other.close();
    }
  });

  // a thread that could not open its port: the test must not talk to the program holding it
  it('the connection test of a thread whose port another program holds says "not listening" and never reaches that program', async () => {
    const other = await otherProgram();
    try {
      const { page } = await openPort([thread({ port: other.port })]);
      const test = block(page, 0).locator('[data-porttest]');
      await test.locator('[data-action=porttest]').click();
      await test.locator('[data-outcome]').waitFor();
      expect(await test.locator('[data-note]').textContent()).toBe(`${en.port.testFailed} ${en.port.reasons.not_listening}`);
      expect(other.connections()).toBe(0);
    } finally {
      await other.close();
    }
  });

  // `request` is only there when the test got as far as sending (device/model/porttest.ts)
  it('a test that could not connect shows no "Request sent" box', async () => {
    const other = await otherProgram();
    try {
      const { page } = await openPort([thread({ port: other.port })]);
      await other.close(); // nothing listens on the port any more
      const test = block(page, 0).locator('[data-porttest]');
      await test.locator('[data-action=porttest]').click();
      await expectText(test.locator('[data-note]'), `${en.port.testFailed} ${en.port.reasons.not_listening}`);
      expect(await test.locator('pre[data-text=request]').count()).toBe(0); // not sent: nothing to show
    } finally {
      await other.close();
    }
  });

  it('the counters show what a real MEWTOCOL client sent, on the tick; a port another program took; "status unavailable" quietly; an unsaved thread has none; leaving stops it', async () => {
    const port = await freePort();
    const { page, calls } = await openPort([thread({ port })]); // COM1, DT0-9 read-only, status commands allowed
    const status = block(page, 0).locator('.link-status');
    const shows = (k: string) => status.locator(`[data-counter=${k}] dd`);
    await expectText(status.locator('[data-state]'), fill(en.port.listening, { port }));
    expect(await status.locator('[data-state]').getAttribute('class')).toBe('state up');
    for (const k of ['clients', 'requests', 'refused', 'errors', 'bytesIn', 'bytesOut', 'faults']) await expectText(shows(k), '0');
    expect(await status.locator('[data-detail]').count()).toBe(0);

    // a client on one connection: three allowed requests, then writes to the read-only words and a
    // read past the grant, each refused with !65 before it reaches the PLC
    const held = [11, 22, 33, 44, 55, 66, 77, 88, 99, 111]; // DT0-DT9: no value the refused writes below would put there
    plc.memory.writeWords('DT', 0, held);
    const client = await MewClient.connect(port);
    const other = await otherProgram();
    try {
      const reached = plc.requests;
      const rd: MewRequest = { cmd: 'RD', area: 'DT', start: 0, count: 3 };
      expect(await client.ask(rd)).toBe(mewReplyFrames('%', 'EE', rd, { kind: 'words', words: [11, 22, 33] })[0]);
      expect(await client.ask({ cmd: 'RT' })).toMatch(/^%EE\$RT/);
      expect(await client.ask({ cmd: 'RD', area: 'DT', start: 9, count: 1 })).toMatch(/^%EE\$RD/);
      const refused = mewErrorFrame('%', 'EE', 65);
      expect(await client.ask({ cmd: 'RD', area: 'DT', start: 5, count: 10 })).toBe(refused);
      const writes = 45;
      for (let i = 0; i < writes; i++) expect(await client.ask({ cmd: 'WD', area: 'DT', start: i % 10, words: [i] })).toBe(refused);
      // the three allowed ones reached the PLC (more when a slow answer made the link ask again:
      // a retried read, a resync), no write did: every word the writes aimed at is as it was
      expect(plc.requests).toBeGreaterThanOrEqual(reached + 3);
      expect(plc.memory.readWords('DT', 0, 10)).toEqual(held);
      expect(client.bytesSent).toBeGreaterThan(999); // shown with a group separator

      await expectText(shows('requests'), counter(3 + 1 + writes), TICK_MS + 1500);
      await expectText(shows('refused'), counter(1 + writes));
      await expectText(status.locator('[data-counter=refused] dt'), en.port.stats.refused);
      await expectText(shows('clients'), '1');
      await expectText(shows('errors'), '0');
      await expectText(shows('bytesIn'), counter(client.bytesSent));
      expect(await shows('bytesIn').textContent()).toMatch(/^\d,\d{3}$/);
      await expectText(shows('bytesOut'), counter(client.bytesReceived));
      await client.close();
      await expectText(shows('clients'), '0', TICK_MS + 1500);
      // when the page sent its status calls, by its own clock (this process sees them later on a busy machine)
      const ticks = (await callStarts(page, '/config/port_status')).slice(-3);
      expect(ticks).toHaveLength(3);
      for (let i = 1; i < ticks.length; i++) expect(ticks[i]! - ticks[i - 1]!).toBeGreaterThan(TICK_MS - 400);

      // another program took a port; the thread is moved there behind the page's back: it cannot listen, and says why
      await saveThreads([thread({ port: other.port })]);
      await expectText(status.locator('[data-state]'), fill(en.port.closed, { port: other.port }), TICK_MS + 1500);
      expect(await status.locator('[data-state]').getAttribute('class')).toBe('state down');
      await expectText(status.locator('[data-detail][data-reason=port_in_use]'), `Port ${other.port} is in use by another program.`);
      await expectText(shows('requests'), '0');

      // a new thread is not saved yet: no status for it
      await body(page).locator('[data-action=add-thread]').click();
      await expectText(block(page, 1).locator('.link-status p'), en.port.notSaved);

      // MOCKED for this step only: the daemon's port_status does not fail by itself (a transient
      // failure cannot be made without breaking the daemon the whole file uses), so while
      // `statusFails` is set the browser answers it with a 500; every other call goes to the daemon
      let statusFails = true;
      await page.route('**/config/port_status', (route: Route) =>
        statusFails
          ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'Internal error' } }) })
          : route.continue(),
      );
      await expectText(status.locator('p.hint'), en.port.unavailable, 2 * TICK_MS + 1500);
      expect(await page.locator('.notices .notice').count()).toBe(0);
      statusFails = false;
      await expectText(status.locator('[data-state]'), fill(en.port.closed, { port: other.port }), 2 * TICK_MS + 1500);
      await expectText(status.locator('[data-detail][data-reason=port_in_use]'), `Port ${other.port} is in use by another program.`);

      // leaving for a page that shows no thread (/info shows them too) stops the calls (the unsaved thread is dropped on the way)
      await page.locator('#menu a[data-page=legal]').click();
      await dialog(page).locator('button', { hasText: en.confirm.leave }).click();
      await expectTitle(page, en.nav.legal);
      await page.waitForTimeout(500);
      const count = calls.status.length;
      await page.waitForTimeout(2 * TICK_MS + 500);
      expect(calls.status.length).toBe(count);
    } finally {
      await client.close();
      await other.close();
    }
  });

  it('the user role sees no test, add or remove button enabled and every field read-only; the counters still update', async () => {
    const port = await freePort();
    const { page, calls } = await openPort([thread({ port, mapping: [restriction('DT', 0, 9), restriction('WR', 0, 1)] })], {}, USER);
    // the page draws in steps (web/shell/in-steps.tsx): the thread's restrictions and test come after its first screen
    await pageDrawn(page);
    // every button that changes or tests something (the overview's names only move to their block)
    const buttons = body(page).locator('button:not([data-go])');
    expect(await buttons.evaluateAll((bs) => bs.map((b) => `${b.getAttribute('data-action')}:${(b as HTMLButtonElement).disabled}`))).toEqual([
      'remove-thread:true',
      'remove-restriction:true',
      'remove-restriction:true',
      'add-restriction:true',
      'porttest:true',
      'add-thread:true',
    ]);
    const enabled = await body(page)
      .locator('input, select')
      .evaluateAll((els) => els.filter((e) => !(e as HTMLInputElement).disabled).map((e) => e.id));
    expect(enabled).toEqual([]);
    await body(page).locator('[data-action=porttest]').click({ force: true });
    expect(calls.tests).toEqual([]);
    await expectText(block(page, 0).locator('[data-state]'), fill(en.port.listening, { port }));
    // a client's request shows on a following tick
    expect(await mewAsk(port, { cmd: 'RT' })).toMatch(/^%EE\$RT/);
    await expectText(block(page, 0).locator('[data-counter=requests] dd'), '1', TICK_MS + 1500);
    expect(calls.tests).toEqual([]);
    expect(await page.locator('.page-bar [data-action=save]').count()).toBe(0);
  });

  it('at 360 px the thread block with a gateway and a test result fits the width', async () => {
    const port = await freePort();
    const { page } = await openPort([thread({ port, mb_translation: true })], { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const test = block(page, 0).locator('[data-porttest]');
    // the reflow check (support.ts): the overview table scrolls in its own box
    const wider = async () => (await overflow(page)).wider;
    // the gateway's real test: holding register 0 (DT0) read from the PLC on COM1
    plc.memory.writeWords('DT', 0, [0xbeef]);
    await test.locator('[data-action=porttest]').click();
    await expectText(test.locator('[data-note]'), en.port.testOk);
    await expectText(
      test.locator('pre[data-text=request]'),
      shownHex(encodeTcpFrame({ transaction: 1, unit: 1, pdu: encodeModbusRequest({ fc: 3, address: 0, quantity: 1 }) })),
    );
    await expectText(
      test.locator('pre[data-text=raw]'),
      shownHex(encodeTcpFrame({ transaction: 1, unit: 1, pdu: encodeModbusResponse({ fc: 3, registers: [0xbeef] }) })),
    );
    expect(await wider()).toEqual([]);

    // MOCKED for this step only: the real test reads one word, so its lines are short; the boxes must
    // also hold a request and a reply of 70 and 90 characters without a space
    await page.route('**/config/porttest', (route: Route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ ok: true, index: 0, request: `%01#RDD${'0123456789'.repeat(6)}\r`, raw: `%01$RD${'0123456789'.repeat(8)}\r` }),
      }),
    );
    await test.locator('[data-action=porttest]').click();
    await expectText(test.locator('pre[data-text=raw]'), `%01$RD${'0123456789'.repeat(8)}\u240d`);
    expect(await wider()).toEqual([]);
  });
});
