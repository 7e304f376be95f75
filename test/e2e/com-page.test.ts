// The COM page (/com, spec §2, §3 "COM (pew)", §5, §8, §9): the interface blocks with the fields
// that apply to each, saving to the daemon, the invalid-IP and transparent-interface rules, the PLC
// test (success, PLC failure, refusal), the live link status on the update tick, the user role and
// one German message.
//
// MOCKED: the daemon's `GET /config/com_status` and `POST /config/plctest` are being built right now,
// so these two routes, and only these, are answered in the browser by Playwright's `page.route`
// with the shapes the daemon will give. Everything else (session, GET/POST /config/pew, save, the
// cross-section rules) is the real daemon in simulator mode.

import type { Page, Request, Route } from '@playwright/test';
import { beforeEach, describe, expect, it } from 'vitest';
import { INTERFACE_IDS, INTERFACE_NAMES } from '../../device/model/plc.ts';
import {
  api,
  type ConsolePage,
  callStarts,
  consoleSuite,
  de,
  en,
  expectNotice,
  expectText,
  expectTitle,
  fieldInput,
  fill,
  loginApi,
  openConsole,
  overflow,
  pageBody,
  saveRefusal,
  USER,
} from './support.ts';

type LinkState = 'disabled' | 'connecting' | 'up' | 'down' | 'absent';

const TICK_MS = 1500; // spec §9: update tick

function link(id: number, state: LinkState, extra: Record<string, unknown> = {}) {
  return {
    id,
    name: INTERFACE_NAMES[id as keyof typeof INTERFACE_NAMES],
    enabled: state !== 'disabled',
    protocol: 'MEWTOCOL',
    transport: id === 5 ? 'tcp' : id === 4 ? 'internal' : 'serial',
    state,
    stats: {
      requests: 0,
      errors: 0,
      timeouts: 0,
      retries: 0,
      lateAnswers: 0,
      mismatched: 0,
      checkErrors: 0,
      invalidFrames: 0,
      plcErrors: 0,
      reconnects: 0,
      bytesOut: 0,
      bytesIn: 0,
      busyShare: 0,
    },
    ...extra,
  };
}

/** The two mocked routes: what they answer is set by the test; every call is recorded. */
function mockCom(page: Page) {
  const m = {
    /** the state of COM1 in the next status answer; the other links are disabled */
    com1: 'connecting' as LinkState,
    com1Extra: {} as Record<string, unknown>,
    statusFails: false,
    statusDelayMs: 0,
    statusCalls: [] as number[],
    inFlight: 0,
    maxInFlight: 0,
    plcTest: { status: 200, body: {} as unknown },
    plcTestBodies: [] as unknown[],
  };
  const json = (route: Route, status: number, body: unknown) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
  const ready = Promise.all([
    page.route('**/config/com_status', async (route: Route) => {
      m.statusCalls.push(Date.now());
      m.inFlight++;
      m.maxInFlight = Math.max(m.maxInFlight, m.inFlight);
      try {
        if (m.statusDelayMs) await new Promise((r) => setTimeout(r, m.statusDelayMs));
        if (m.statusFails) await json(route, 500, { error: { code: 'internal', message: 'Internal error' } });
        else await json(route, 200, { links: INTERFACE_IDS.map((id) => (id === 0 ? link(0, m.com1, m.com1Extra) : link(id, 'disabled'))) });
      } finally {
        m.inFlight--;
      }
    }),
    page.route('**/config/plctest', async (route: Route, req: Request) => {
      m.plcTestBodies.push(req.postDataJSON());
      await json(route, m.plcTest.status, m.plcTest.body);
    }),
  ]);
  return { m, ready };
}

describe('the COM page (com_status and plctest mocked in the browser)', () => {
  const suite = consoleSuite();
  let cp: ConsolePage;
  let defaults: Record<string, unknown>;

  const block = (page: Page, id: number) => pageBody(page, 'com').locator(`[data-interface="${id}"]`);
  const at = (page: Page, id: number, field: string) => block(page, id).locator(`[data-field="interfaces.${INTERFACE_IDS.indexOf(id as never)}.${field}"]`);
  const input = (page: Page, id: number, field: string) => fieldInput(page, 'pew', `interfaces.${INTERFACE_IDS.indexOf(id as never)}.${field}`);
  const dialog = (page: Page) => page.locator('[role=alertdialog]');
  const stored = async (page: Page) =>
    (await (await api(page, suite.d)).get('/config/pew')).body as {
      interfaces: { id: number; enabled: boolean; baudrate: number; timeout: number; addr_offset: number; ip_port: string; service: number }[];
      interface_plc: number;
      restart_by_time: number;
    };

  /** Signs in, mocks the two routes, opens /com and waits for its blocks. */
  async function openCom(opts: Parameters<typeof suite.open>[0] = {}, cred?: typeof USER) {
    cp = await suite.open(opts);
    const { page } = cp;
    await loginApi(page, suite.d, cred);
    const mock = mockCom(page);
    await mock.ready;
    await openConsole(page, suite.d, '/com');
    await block(page, 5).waitFor();
    return { page, m: mock.m };
  }

  beforeEach(async () => {
    // every test starts from the default COM settings on the daemon
    const c = await suite.d.admin();
    defaults ??= (await c.get('/config/get_reset?section=pew')).body;
    expect((await c.post('/config/pew', defaults)).status).toBe(200);
  });

  it('every interface has its block, in the spec order, with the fields that apply to it', async () => {
    const { page } = await openCom();
    await expectTitle(page, en.nav.com);
    const com = pageBody(page, 'com');
    expect(await com.locator('[data-interface]').evaluateAll((els) => els.map((e) => e.getAttribute('data-interface')))).toEqual(['0', '3', '1', '4', '5']);
    expect(await com.locator('[data-interface] h2').allTextContents()).toEqual(
      INTERFACE_IDS.map((id) => `${INTERFACE_NAMES[id]} · ${en.com.kinds[String(id) as keyof typeof en.com.kinds]}`),
    );

    const fieldsOf = (id: number) =>
      block(page, id)
        .locator('[data-field]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-field')!.replace(/^interfaces\.\d+\./, '')));
    const serial = ['enabled', 'service', 'protocol', 'autobaud', 'baudrate', 'bits', 'parity', 'stopbits', 'flow', 'timeout', 'wait'];
    expect(await fieldsOf(0)).toEqual(serial); // COM1: no RS232/RS485 mode
    expect(await fieldsOf(3)).toEqual(['enabled', 'service', 'mode', ...serial.slice(2)]); // COM2 offers RS485
    expect(await fieldsOf(1)).toEqual(serial);
    expect(await fieldsOf(4)).toEqual(['enabled', 'protocol-fixed']); // INTERNAL: no baud rate, protocol fixed
    expect(await fieldsOf(5)).toEqual(['enabled', 'service', 'protocol', 'timeout', 'wait', 'ip_port', 'addr_offset.use']);

    // labels and choices from the dictionary
    await expectText(at(page, 0, 'baudrate').locator('label'), en.fields.pew.interfaces.baudrate.label);
    expect(await input(page, 3, 'mode').locator('option').allTextContents()).toEqual(['RS232', 'RS485']);
    expect(await input(page, 3, 'mode').inputValue()).toBe('5');
    expect(await input(page, 0, 'service').locator('option').allTextContents()).toEqual([
      en.fields.pew.interfaces.service.options['0'],
      en.fields.pew.interfaces.service.options['1'],
    ]);
    expect(await input(page, 0, 'parity').locator('option').allTextContents()).toEqual(['None', 'Odd', 'Even']);
    await expectText(at(page, 5, 'ip_port').locator('label'), en.fields.pew.interfaces.ip_port.label);
    expect(await block(page, 5).locator('[data-field="interfaces.4.addr_offset.use"] select option').allTextContents()).toEqual([
      en.com.offsetOff,
      en.com.offsetOn,
    ]);
    expect(await block(page, 5).locator('[data-field="interfaces.4.addr_offset"]').count()).toBe(0); // disabled: no value field
    await expectText(block(page, 4).locator('[data-field=protocol-fixed] span').last(), en.com.protocolFixed);
    await expectText(block(page, 4).locator('[data-note=memory]'), fill(en.com.internalNote, { min: 0, max: 32767 }));
    expect(await block(page, 4).locator('select').count()).toBe(0);
    // INTERNAL is enabled by default, the others are dimmed and say why
    expect(await block(page, 4).getAttribute('class')).not.toContain('off');
    expect(await block(page, 0).getAttribute('class')).toContain('off');
    await expectText(block(page, 0).locator('[data-off]'), en.com.off);
    expect(await input(page, 0, 'baudrate').isEnabled()).toBe(true);

    // PLC settings with the restart
    const plc = page.locator('#com-plc').locator('xpath=..');
    await expectText(page.locator('#com-plc'), en.com.plc);
    expect(await plc.locator('[data-field]').evaluateAll((els) => els.map((e) => e.getAttribute('data-field')))).toEqual([
      'interface_plc',
      'address_plc',
      'restart_by_plc',
      'restart_level',
      'restart_polling',
      'restart_control_r.bit',
      'restart_by_time',
    ]);
    expect(await fieldInput(page, 'pew', 'interface_plc').locator('option').allTextContents()).toEqual(
      INTERFACE_IDS.map((id) => `${INTERFACE_NAMES[id]} · ${en.com.kinds[String(id) as keyof typeof en.com.kinds]}`),
    );
    expect(await fieldInput(page, 'pew', 'interface_plc').inputValue()).toBe('4');
    await expectText(plc.locator('[data-field=restart_by_time] .unit'), 'h');
    expect(await block(page, 0).locator('[data-action=plctest]').isEnabled()).toBe(true);
  });

  it('edits are saved to the daemon: COM1 settings and the COM4 offset, disabled again with its own choice', async () => {
    const { page } = await openCom();
    await input(page, 0, 'enabled').check();
    await input(page, 0, 'baudrate').selectOption('19200');
    await input(page, 0, 'timeout').fill('2500');
    await input(page, 5, 'enabled').check();
    await input(page, 5, 'ip_port').fill('192.168.1.5:9094');
    const use = block(page, 5).locator('[data-field="interfaces.4.addr_offset.use"] select');
    await use.selectOption('on');
    await input(page, 5, 'addr_offset').fill('-12');
    await fieldInput(page, 'pew', 'restart_by_time').fill('24');
    expect(await block(page, 0).getAttribute('class')).not.toContain('off');

    await page.locator('.page-bar [data-action=save]').click();
    await expectNotice(page, 'info', en.form.notice.saved);
    let s = await stored(page);
    expect(s.interfaces[0]).toMatchObject({ id: 0, enabled: true, baudrate: 19200, timeout: 2500 });
    expect(s.interfaces[4]).toMatchObject({ id: 5, enabled: true, ip_port: '192.168.1.5:9094', addr_offset: -12 });
    expect(s.restart_by_time).toBe(24);

    await use.selectOption('off');
    expect(await block(page, 5).locator('[data-field="interfaces.4.addr_offset"]').count()).toBe(0);
    await page.locator('.page-bar [data-action=save]').click();
    await expect.poll(async () => (await stored(page)).interfaces[4]!.addr_offset).toBe(-32768);
    s = await stored(page);
    expect(s.interfaces[0]!.baudrate).toBe(19200);
  });

  it('an invalid PLC address on COM4 shows the invalid-IP message and blocks the save', async () => {
    const { page } = await openCom();
    const before = await stored(page);
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith('/config/pew')) posts.push(r.url());
    });

    await input(page, 5, 'ip_port').fill('300.1.2.3:9094');
    const message = at(page, 5, 'ip_port').locator('.error');
    await expectText(message, en.errors.invalid_ip);
    expect(await input(page, 5, 'ip_port').getAttribute('aria-invalid')).toBe('true');
    await page.locator('.page-bar [data-action=save]').click();
    await expectText(
      page.locator('.notices .notice.error span'),
      saveRefusal([[`${en.nav.com}, COM4, ${en.fields.pew.interfaces.ip_port.label}`, en.errors.invalid_ip]]),
    );
    expect(posts).toEqual([]);
    expect(await stored(page)).toEqual(before);

    await input(page, 5, 'ip_port').fill('10.0.0.7:502');
    await expect.poll(() => message.count()).toBe(0);
  });

  it("a transparent service control interface: the rule message inline, and the daemon's refusal shown at the field", async () => {
    const { page } = await openCom();
    const plcWrap = page.locator('[data-field-wrap=interface_plc]');
    await input(page, 0, 'service').selectOption('1');
    expect(await plcWrap.locator('[data-rule=transparent_interface]').count()).toBe(0); // COM1 is not the control interface yet
    await fieldInput(page, 'pew', 'interface_plc').selectOption('0');
    await expectText(plcWrap.locator('[data-rule=transparent_interface]'), en.errors.transparent_interface);
    // back to a normal service: the message goes
    await input(page, 0, 'service').selectOption('0');
    await expect.poll(() => plcWrap.locator('[data-rule=transparent_interface]').count()).toBe(0);
    await input(page, 0, 'service').selectOption('1');
    await plcWrap.locator('[data-rule=transparent_interface]').waitFor();

    // MQTT is switched on behind the console's back: its control registers now go through COM1,
    // the daemon refuses the save with transparent_interface and the console shows it at COM1's service
    const a = await api(page, suite.d);
    const mqtt = (await a.get('/config/pew_mqtt')).body;
    expect((await a.post('/config/pew_mqtt', { ...mqtt, enable_mqtt: true, broker_addr: 'mqtt://broker.example:1883' })).status).toBe(200);
    try {
      const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/config/pew');
      await page.locator('.page-bar [data-action=save]').click();
      const r = await answer;
      expect(r.status()).toBe(400);
      const issues = ((await r.json()) as { error: { issues: { section: string; path: string; code: string }[] } }).error.issues;
      expect(issues).toContainEqual(expect.objectContaining({ section: 'pew', path: 'interfaces.0.service', code: 'transparent_interface' }));
      await expectText(at(page, 0, 'service').locator('.error'), en.errors.transparent_interface);
      await page.locator('.notices .notice.error').waitFor();
      expect((await stored(page)).interface_plc).toBe(4);
    } finally {
      expect((await a.post('/config/pew_mqtt', mqtt)).status).toBe(200);
    }
  });

  it('PLC test success: CPU type, details and the raw reply; with unsaved changes it asks first', async () => {
    const { page, m } = await openCom();
    m.plcTest = {
      status: 200,
      body: {
        ok: true,
        id: 0,
        protocol: 'MEWTOCOL',
        cpu: { name: 'FP7', family: 'FP7' },
        model: 'CPS41E',
        version: '4.57',
        mode: 'RUN',
        raw: '%01$RT70014400000000000100000000**\r',
      },
    };
    const test = block(page, 0).locator('[data-plctest]');
    await test.locator('[data-action=plctest]').click();
    await expectText(test.locator('[data-cpu]'), fill(en.com.cpu, { name: 'FP7' }));
    await expectText(test.locator('pre[data-raw]'), '%01$RT70014400000000000100000000**␍');
    expect(await test.locator('.facts').textContent()).toContain('CPS41E');
    expect(await test.locator('.facts').textContent()).toContain('RUN');
    await expectText(test.locator('.raw figcaption'), en.com.raw);
    expect(m.plcTestBodies).toEqual([{ id: 0 }]);

    // an unsaved edit: the question first; cancel runs nothing, "run the test" runs it on the saved settings
    await input(page, 0, 'timeout').fill('3000');
    m.plcTest = { status: 200, body: { ok: true, id: 0, protocol: 'MEWTOCOL', cpu: { name: 'unknown', family: 'unknown' }, raw: '%01$RT99**\r' } };
    await test.locator('[data-action=plctest]').click();
    await expectText(dialog(page).locator('#dlg-text'), en.confirm.unsavedTest);
    await dialog(page).locator('button', { hasText: en.confirm.cancel }).click();
    await expect.poll(() => dialog(page).count()).toBe(0);
    expect(m.plcTestBodies).toHaveLength(1);
    await test.locator('[data-action=plctest]').click();
    await dialog(page).locator('button', { hasText: en.confirm.testAnyway }).click();
    await expectText(test.locator('[data-cpu]'), fill(en.com.cpu, { name: en.com.cpuUnknown }));
    // the family the unit reports as 'unknown' reads in the console's words
    await expectText(test.locator('.facts dd').first(), en.com.cpuUnknown);
    expect(m.plcTestBodies).toEqual([{ id: 0 }, { id: 0 }]);
    expect(await input(page, 0, 'timeout').inputValue()).toBe('3000'); // the edit stays
  });

  it('PLC test failure: the note of the reason with the PLC error code and the raw reply; no reply says so', async () => {
    const { page, m } = await openCom();
    const test = block(page, 3).locator('[data-plctest]');
    m.plcTest = { status: 200, body: { ok: false, id: 3, protocol: 'MEWTOCOL', reason: 'plc_error', message: 'PLC error 61', code: 61, raw: '%01!6129\r' } };
    await test.locator('[data-action=plctest]').click();
    await expectText(test.locator('[data-note]'), `${en.com.failed} ${en.com.reasons.plc_error} ${fill(en.com.errorCode, { code: 61 })}`);
    await expectText(test.locator('pre[data-raw]'), '%01!6129␍');
    expect(await test.locator('[data-cpu]').count()).toBe(0);
    expect(m.plcTestBodies).toEqual([{ id: 3 }]);

    m.plcTest = { status: 200, body: { ok: false, id: 3, protocol: 'MEWTOCOL', reason: 'no_answer', message: 'timeout', raw: '' } };
    await test.locator('[data-action=plctest]').click();
    await expectText(test.locator('[data-note]'), `${en.com.failed} ${en.com.reasons.no_answer}`);
    await expectText(test.locator('pre[data-raw]'), en.com.noReply);
  });

  it('PLC test refused (409): the §8 message of the code', async () => {
    const { page, m } = await openCom();
    const test = block(page, 1).locator('[data-plctest]');
    m.plcTest = { status: 409, body: { error: { code: 'interface_not_ready', message: 'Interface COM3 is not enabled' } } };
    await test.locator('[data-action=plctest]').click();
    await expectText(test.locator('[data-outcome=refused]'), en.errors.interface_not_ready);
    expect(en.errors.interface_not_ready).toBe('Selected interface not enabled or settings not saved.');

    m.plcTest = { status: 409, body: { error: { code: 'tcp_port_closed', message: 'closed', params: { address: '10.0.0.7:9094' } } } };
    await block(page, 5).locator('[data-action=plctest]').click();
    await expectText(block(page, 5).locator('[data-outcome=refused]'), en.errors.tcp_port_closed);
    expect(m.plcTestBodies).toEqual([{ id: 1 }, { id: 5 }]);
    expect(await page.locator('.notices .notice').count()).toBe(0);
  });

  it('the link status updates on the next tick, one request at a time; a failed call says "status unavailable" quietly; leaving stops it', async () => {
    const { page, m } = await openCom();
    const status = block(page, 0).locator('.link-status');
    await expectText(status.locator('[data-state]'), en.com.states.connecting);
    expect(await block(page, 5).locator('[data-state]').textContent()).toBe(en.com.states.disabled);

    m.com1Extra = {
      reason: { code: 'tcp_no_connection', args: { host: '192.168.1.5', port: 9094, ms: 1500 } },
      baudRate: 19200,
      autobaud: 'found',
      stats: {
        requests: 1234,
        errors: 2,
        timeouts: 1,
        retries: 3,
        lateAnswers: 5,
        mismatched: 0,
        checkErrors: 7,
        invalidFrames: 1,
        plcErrors: 3,
        lastPlcError: 61,
        reconnects: 2,
        bytesOut: 20480,
        bytesIn: 30000,
        busyShare: 0.25,
      },
    };
    const callsBefore = m.statusCalls.length;
    m.com1 = 'up';
    await expectText(status.locator('[data-state]'), en.com.states.up);
    // shown by the next tick's call (or by one already under way when the state changed)
    expect(m.statusCalls.length - callsBefore).toBeLessThanOrEqual(2);
    expect(await status.locator('[data-state]').getAttribute('class')).toBe('state up');
    await expectText(status.locator('[data-detail]'), 'No connection to 192.168.1.5:9094 within 1,500 ms.');
    await expectText(status.locator('[data-baud]'), fill(en.com.baud, { rate: '19200' }));
    await expectText(status.locator('[data-autobaud]'), en.com.autobaud.found);
    await expectText(status.locator('[data-counter=requests] dd'), '1,234');
    await expectText(status.locator('[data-counter=lateAnswers] dd'), '5');
    await expectText(status.locator('[data-counter=lateAnswers] dt'), en.com.stats.lateAnswers);
    await expectText(status.locator('[data-counter=checkErrors] dd'), '7');
    await expectText(status.locator('[data-counter=checkErrors] dt'), en.com.stats.checkErrors);
    await expectText(status.locator('[data-counter=invalidFrames] dd'), '1');
    await expectText(status.locator('[data-counter=plcErrors] dd'), '3');
    await expectText(status.locator('[data-counter=lastPlcError] dd'), '61');
    await expectText(status.locator('[data-counter=reconnects] dd'), '2');
    await expectText(status.locator('[data-counter=busyShare] dd'), '25%');
    await expectText(status.locator('[data-counter=busyShare] dt'), en.com.stats.busyShare);

    // the calls come every tick, by the page's own clock (this process sees them later on a busy
    // machine: two 86 ms apart once), and a slow answer never has a second call beside it
    const seen = m.statusCalls.length;
    await expect.poll(() => m.statusCalls.length).toBeGreaterThanOrEqual(seen + 2);
    const ticks = (await callStarts(page, '/config/com_status')).slice(-3);
    expect(ticks).toHaveLength(3);
    for (let i = 1; i < ticks.length; i++) expect(ticks[i]! - ticks[i - 1]!).toBeGreaterThan(TICK_MS - 400);
    m.statusDelayMs = 2 * TICK_MS;
    await page.waitForTimeout(3 * TICK_MS);
    expect(m.maxInFlight).toBe(1);
    m.statusDelayMs = 0;

    // a failing call: "status unavailable", no notification
    m.statusFails = true;
    await expectText(status.locator('p.hint'), en.com.unavailable);
    await page.waitForTimeout(2 * TICK_MS);
    expect(await page.locator('.notices .notice').count()).toBe(0);
    m.statusFails = false;
    await expectText(status.locator('[data-state]'), en.com.states.up);

    // leaving for a page that shows no link (/info shows them too) stops the calls
    await page.locator('#menu a[data-page=legal]').click();
    await expectTitle(page, en.nav.legal);
    await page.waitForTimeout(500);
    const count = m.statusCalls.length;
    await page.waitForTimeout(2 * TICK_MS + 500);
    expect(m.statusCalls.length).toBe(count);
  });

  it('the user role sees the PLC test buttons disabled and the fields read-only, the status still updates', async () => {
    const { page, m } = await openCom({}, USER);
    const buttons = pageBody(page, 'com').locator('[data-action=plctest]');
    expect(await buttons.count()).toBe(5);
    expect(await buttons.evaluateAll((bs) => bs.map((b) => (b as HTMLButtonElement).disabled))).toEqual([true, true, true, true, true]);
    const enabled = await pageBody(page, 'com')
      .locator('input, select')
      .evaluateAll((els) => els.filter((e) => !(e as HTMLInputElement).disabled).map((e) => e.id));
    expect(enabled).toEqual([]);
    await buttons.first().click({ force: true });
    expect(m.plcTestBodies).toEqual([]);
    await expectText(block(page, 0).locator('[data-state]'), en.com.states.connecting);
  });

  it('at 360 px every block fits the width, with a test result and the status shown', async () => {
    const { page, m } = await openCom({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    m.com1 = 'up';
    m.com1Extra = {
      reason: { code: 'open_failed', words: 'a long detail text of the link that has to wrap on a narrow screen' },
      baudRate: 115200,
      autobaud: 'found',
    };
    m.plcTest = { status: 200, body: { ok: false, id: 0, protocol: 'MEWTOCOL', reason: 'bad_reply', message: 'x', raw: `%01$RT${'0123456789'.repeat(8)}\r` } };
    await block(page, 0).locator('[data-action=plctest]').click();
    await block(page, 0).locator('pre[data-raw]').waitFor();
    await expectText(block(page, 0).locator('[data-state]'), en.com.states.up);
    // the reflow check (support.ts): the overview table scrolls in its own box
    expect((await overflow(page)).wider).toEqual([]);
  });

  it('in German: the labels, the test button and the refusal "TCP port of selected COM port not open"', async () => {
    const { page, m } = await openCom({ locale: 'de-DE' });
    await expectTitle(page, de.nav.com);
    await expectText(at(page, 0, 'baudrate').locator('label'), de.fields.pew.interfaces.baudrate.label);
    await expectText(block(page, 5).locator('[data-action=plctest]'), de.com.test);
    m.plcTest = { status: 409, body: { error: { code: 'tcp_port_closed', message: 'closed' } } };
    await block(page, 5).locator('[data-action=plctest]').click();
    await expectText(block(page, 5).locator('[data-outcome=refused]'), de.errors.tcp_port_closed);
    expect(de.errors.tcp_port_closed).toBe('TCP-Port des ausgewählten COM-Ports nicht geöffnet.');
    await expectText(block(page, 0).locator('[data-state]'), de.com.states.connecting);
    // why the link is down comes as a code, worded in the console's language (issue 36 item 9)
    m.com1Extra = { reason: { code: 'plc_no_answer' } };
    m.com1 = 'down';
    await expectText(block(page, 0).locator('[data-detail][data-reason=plc_no_answer]'), 'Keine Antwort von der SPS.');
    m.com1Extra = { reason: { code: 'port_in_use', args: { port: 10502 } } };
    await expectText(block(page, 0).locator('[data-detail]'), 'Port 10502 wird von einem anderen Programm verwendet.');
  });

  it('in French: why the link is down, in French, with the number in its form', async () => {
    const { page, m } = await openCom({ locale: 'fr-FR' });
    m.com1Extra = { reason: { code: 'tcp_no_connection', args: { host: '10.0.0.7', port: 9094, ms: 1500 } }, baudRate: 115200 };
    m.com1 = 'down';
    await expectText(block(page, 0).locator('[data-detail][data-reason=tcp_no_connection]'), 'Pas de connexion à 10.0.0.7:9094 en 1\u202f500\u00a0ms.');
    // a baud rate is a name, written as the baud rate list writes it, not a quantity with a group separator
    await expectText(block(page, 0).locator('[data-baud]'), '115200 bauds');
  });
});
