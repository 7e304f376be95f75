// The PLC connection wizard (/wizard_com, spec §2 "Wizard", §5, §8): simple and advanced runs that
// finish with one save-all request and are read back from the daemon, the step checks, a failure
// that says "Something went wrong" and changes nothing, Cancel, and the user role.
// Nothing is mocked: the daemon in simulator mode answers every call, with virtual PLCs on COM1 and
// COM2 (in-process serial wires). After Finish the saved settings are used for real: a MEWTOCOL-COM
// client reads the PLC through the new thread's TCP port, and in the advanced run a Modbus/TCP
// client (the npm package modbus-serial) reads it through the gateway's port. The listening ports
// are free ports from the kernel, typed into the wizard.

import type { Page } from '@playwright/test';
import modbusSerial from 'modbus-serial';
import { beforeEach, describe, expect, it } from 'vitest';
import { AREA_MAX, WORD_AREAS } from '../../device/model/plc.ts';
import { type MewRequest, mewErrorFrame, mewReplyFrames } from '../../device/protocol/index.ts';
import { connector, freePorts, HOST, liveConsoleSuite, mewAsk, serialPlc } from './live-plc.ts';
import {
  api,
  type ConsolePage,
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
  pageBody,
  pageDrawn,
  USER,
} from './support.ts';

// a CommonJS package: its `default` is the client class
const ModbusRTU = modbusSerial.default;

/** the virtual PLCs, at the line settings the wizard runs choose (8O1 is the unit's default) */
const com1 = serialPlc('FP-XH', { baud: 115200, bits: 8, parity: 'odd', stopbits: 1 });
const com2 = serialPlc('FP0R', { baud: 19200, bits: 8, parity: 'odd', stopbits: 1 });
/** the reply frame of a read of words, as the PLC (and a thread for it) sends it */
const wordsReply = (req: MewRequest, words: number[]) => mewReplyFrames('%', 'EE', req, { kind: 'words', words } as never)[0]!;
/** `!65`: what a thread answers a command its restrictions do not allow */
const REFUSED = mewErrorFrame('%', 'EE', 65);

type Value = Record<string, any>;

describe('the connection wizard', () => {
  const suite = liveConsoleSuite({ COM1: connector(com1), COM2: connector(com2) });
  let cp: ConsolePage;
  let defaults: { pew: Value; pew_redirect: Value; pew_api: Value };

  const wizard = (page: Page) => pageBody(page, 'wizard_com');
  const stepIs = (page: Page, step: string) => expect.poll(() => wizard(page).getAttribute('data-step')).toBe(step);
  const action = (page: Page, name: string) => wizard(page).locator(`[data-action=${name}]`);
  const dialog = (page: Page) => page.locator('[role=alertdialog]');
  const failure = (page: Page) => wizard(page).locator('[data-failure]');
  const stored = async (page: Page) => {
    const a = await api(page, suite.d);
    return { pew: (await a.get('/config/pew')).body as Value, pew_redirect: (await a.get('/config/pew_redirect')).body as Value };
  };

  /** Continues from `from` and waits for `to`. */
  async function next(page: Page, from: string, to: string) {
    await stepIs(page, from);
    await action(page, 'continue').click();
    await stepIs(page, to);
  }

  async function openWizard(opts: Parameters<typeof suite.open>[0] = {}, cred?: typeof USER) {
    cp = await suite.open(opts);
    const { page } = cp;
    await loginApi(page, suite.d, cred);
    await openConsole(page, suite.d, '/wizard_com');
    await wizard(page).waitFor();
    return page;
  }

  beforeEach(async () => {
    // every test starts from the default COM and Port settings with one existing thread, REST off
    const c = await suite.d.admin();
    defaults ??= {
      pew: (await c.get('/config/get_reset?section=pew')).body,
      pew_redirect: (await c.get('/config/get_reset?section=pew_redirect')).body,
      pew_api: (await c.get('/config/get_reset?section=pew_api')).body,
    };
    const existing = {
      threads: [
        {
          port: 9500,
          mb_translation: false,
          monitoring_cmd: true,
          service: 0,
          clients: 2,
          timeout: 30,
          ip_start: '0.0.0.0',
          ip_end: '0.0.0.0',
          mapping: [{ type: 0, register_area_start: 0, register_area_end: 9, register_area_mapped: 0, area: 'DT', read_write: 'RO' }],
        },
      ],
    };
    expect((await c.post('/config', { pew: defaults.pew, pew_redirect: existing, pew_api: defaults.pew_api })).status).toBe(200);
  });

  it('simple mode, allow all read: the chosen interface is enabled and one thread with 7 read-only entries (every word area, DT included) replaces the old ones; a client reads the PLC through it', async () => {
    const [tcpPort] = (await freePorts(1)) as [number];
    const page = await openWizard();
    await expectTitle(page, en.nav.wizard_com);
    const w = wizard(page);
    expect(await w.locator('[data-step-item]').allTextContents()).toEqual(
      (['mode', 'iface', 'params', 'tcp', 'rules', 'finish'] as const).map((s) => en.wizard.steps[s]),
    );
    await expectText(w.locator('#wizard-step-title'), fill(en.wizard.stepTitle, { n: 1, count: 6, name: en.wizard.steps.mode }));
    expect(await w.locator('#w-mode-0').isChecked()).toBe(true);
    expect(await action(page, 'back').isDisabled()).toBe(true);
    await next(page, 'mode', 'iface');

    await w.locator('#w-iface-3').check(); // COM2
    await next(page, 'iface', 'params');
    await expectText(w.locator('[data-note=enabled]'), fill(en.wizard.enables, { name: 'COM2' }));
    // the fields of COM2 as on /com, without the enabled switch (the wizard enables it)
    expect(
      await w.locator('[data-params] [data-field]').evaluateAll((els) => els.map((e) => e.getAttribute('data-field')!.replace(/^interfaces\.\d+\./, ''))),
    ).toEqual(['service', 'mode', 'protocol', 'autobaud', 'baudrate', 'bits', 'parity', 'stopbits', 'flow', 'timeout', 'wait']);
    await fieldInput(page, 'pew', 'interfaces.1.baudrate').selectOption('19200');
    await fieldInput(page, 'pew', 'interfaces.1.mode').selectOption('1');
    await next(page, 'params', 'tcp');

    await expectText(w.locator('[data-field="threads.0.port"] label'), en.wizard.tcpPort);
    expect(await fieldInput(page, 'pew_redirect', 'threads.0.port').inputValue()).toBe('9094');
    await fieldInput(page, 'pew_redirect', 'threads.0.port').fill(String(tcpPort));
    await next(page, 'tcp', 'rules'); // simple mode: no Modbus port, no gateway

    expect(await w.locator('#w-rule-0').isChecked()).toBe(true);
    await expectText(w.locator('#w-rule-0-hint'), en.wizard.ruleHints.read);
    expect(await w.locator('[data-preview] li').count()).toBe(WORD_AREAS.length);
    await expectText(
      w.locator('[data-preview] li').first(),
      fill(en.wizard.entry, { area: 'DT', start: 0, end: AREA_MAX.DT, rights: en.fields.pew_redirect.threads.mapping.read_write.options.RO }),
    );
    await next(page, 'rules', 'finish');
    await expectText(w.locator('[data-note=overwrite]'), en.wizard.overwrite);
    expect(await w.locator('[data-summary]').textContent()).toContain(String(tcpPort));

    const posts: { path: string; body: Value }[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith('/config')) posts.push({ path: new URL(r.url()).pathname, body: r.postDataJSON() });
    });
    await action(page, 'finish').click();
    await expectNotice(page, 'info', en.form.notice.saved);
    await expectTitle(page, en.nav.port);
    // one save-all request with both sections
    expect(posts.map((p) => [p.path, Object.keys(p.body).sort()])).toEqual([['/config', ['pew', 'pew_redirect']]]);

    const s = await stored(page);
    expect(s.pew.interfaces.find((i: Value) => i.id === 3)).toMatchObject({ enabled: true, baudrate: 19200, mode: 1 });
    expect(s.pew.interfaces.find((i: Value) => i.id === 0).enabled).toBe(false);
    expect(s.pew_redirect.threads).toHaveLength(1);
    const t = s.pew_redirect.threads[0];
    expect(t).toMatchObject({ port: tcpPort, service: 3, mb_translation: false });
    expect(t.mapping.map((r: Value) => [r.area, r.register_area_start, r.register_area_end, r.read_write])).toEqual(
      WORD_AREAS.map((a) => [a, 0, AREA_MAX[a], 'RO']),
    );
    // the ports page shows the new thread
    await pageBody(page, 'port').locator('[data-thread="0"]').waitFor();
    expect(await pageBody(page, 'port').locator('[data-thread]').count()).toBe(1);

    // the saved settings work: COM2 talks to its PLC at 19200, and a client reads it through the new port
    await suite.d.ctx.com.settled();
    await suite.d.ctx.redirects.settled();
    com2.plc.memory.writeWords('LD', 123, [0x0bad]);
    com2.plc.memory.writeWords('DT', 100, [1234, 5678]);
    const rd: MewRequest = { cmd: 'RD', area: 'LD', start: 123, count: 1 };
    expect(await mewAsk(tcpPort, rd)).toBe(wordsReply(rd, [0x0bad]));
    // DT is read like every other area (the README's walk-through reads DT100-DT101 this way)
    const rdDt: MewRequest = { cmd: 'RD', area: 'DT', start: 100, count: 2 };
    expect(await mewAsk(tcpPort, rdDt)).toBe(wordsReply(rdDt, [1234, 5678]));
    // allow all read: a write is refused and never reaches the PLC
    const reached = com2.plc.requests;
    expect(await mewAsk(tcpPort, { cmd: 'WD', area: 'LD', start: 123, words: [1] })).toBe(REFUSED);
    expect(await mewAsk(tcpPort, { cmd: 'WD', area: 'DT', start: 100, words: [1] })).toBe(REFUSED);
    expect(com2.plc.requests).toBe(reached);
    expect(com2.plc.memory.readWords('LD', 123, 1)).toEqual([0x0bad]);
    expect(com2.plc.memory.readWords('DT', 100, 1)).toEqual([1234]);
    await expectText(pageBody(page, 'port').locator('[data-thread="0"] [data-state]'), fill(en.port.listening, { port: tcpPort }));
  });

  it('advanced with a gateway and individual DT restrictions: two threads, the gateway mapped as its note says; MEWTOCOL and Modbus/TCP clients read the PLC through them', async () => {
    const [tcpPort, mbPort] = (await freePorts(2)) as [number, number];
    const page = await openWizard();
    const w = wizard(page);
    await w.locator('#w-mode-1').check();
    expect(await w.locator('[data-step-item]').count()).toBe(8);
    await next(page, 'mode', 'iface');
    await next(page, 'iface', 'params'); // COM1
    await fieldInput(page, 'pew', 'interfaces.0.baudrate').selectOption('115200');
    await next(page, 'params', 'tcp');
    expect(await fieldInput(page, 'pew_redirect', 'threads.0.port').inputValue()).toBe('9094');
    await fieldInput(page, 'pew_redirect', 'threads.0.port').fill(String(tcpPort));
    await next(page, 'tcp', 'modbus');
    expect(await fieldInput(page, 'pew_redirect', 'threads.1.port').inputValue()).toBe('502');
    await fieldInput(page, 'pew_redirect', 'threads.1.port').fill(String(mbPort));
    await next(page, 'modbus', 'gateway');
    expect(await w.locator('#w-gateway-0').isChecked()).toBe(true);
    await w.locator('#w-gateway-1').check();
    await expectText(w.locator('[data-note=layout]'), fill(en.wizard.layout, { port: mbPort, r: 10000 }));
    await next(page, 'gateway', 'rules');

    await w.locator('#w-rule-2').check();
    const add = w.locator('[data-action=add-restriction]');
    await add.click();
    // advanced mode offers the DT area
    expect(await fieldInput(page, 'pew_redirect', 'threads.0.mapping.0.area').locator('option').allTextContents()).toEqual([...WORD_AREAS]);
    await fieldInput(page, 'pew_redirect', 'threads.0.mapping.0.register_area_end').fill('99');
    await fieldInput(page, 'pew_redirect', 'threads.0.mapping.0.read_write').selectOption('R/W');
    await add.click();
    // an overlapping grant: shown at the field, Continue names it and stays
    await fieldInput(page, 'pew_redirect', 'threads.0.mapping.1.register_area_start').fill('50');
    await fieldInput(page, 'pew_redirect', 'threads.0.mapping.1.register_area_end').fill('199');
    const overlap = fill(en.errors.addresses_overlap, { other: fill(en.port.restrictionN, { n: 1 }) });
    await expectText(w.locator('[data-field="threads.0.mapping.1.register_area_start"] .error'), overlap);
    await action(page, 'continue').click();
    await expectText(failure(page), `${en.fields.pew_redirect.threads.mapping.register_area_start.label}: ${overlap}`);
    await stepIs(page, 'rules');
    await fieldInput(page, 'pew_redirect', 'threads.0.mapping.1.register_area_start').fill('100');
    await expect.poll(() => failure(page).count()).toBe(0);
    await add.click();
    await fieldInput(page, 'pew_redirect', 'threads.0.mapping.2.area').selectOption('WR');
    await fieldInput(page, 'pew_redirect', 'threads.0.mapping.2.register_area_start').fill('0');
    await fieldInput(page, 'pew_redirect', 'threads.0.mapping.2.register_area_end').fill('15');
    await expectText(w.locator('[data-note=gateway-rules]'), fill(en.wizard.gatewayIndividual, { r: 10000 }));
    await next(page, 'rules', 'finish');

    // Back keeps what was entered
    await action(page, 'back').click();
    await stepIs(page, 'rules');
    expect(await w.locator('[data-restriction]').count()).toBe(3);
    await next(page, 'rules', 'finish');
    await action(page, 'finish').click();
    await expectTitle(page, en.nav.port);

    const s = await stored(page);
    expect(s.pew.interfaces.find((i: Value) => i.id === 0)).toMatchObject({ enabled: true, baudrate: 115200 });
    const entry = (area: string, start: number, end: number, rw: string, type = 0, mapped = 0) => ({
      type,
      register_area_start: start,
      register_area_end: end,
      register_area_mapped: mapped,
      area,
      read_write: rw,
    });
    expect(s.pew_redirect.threads).toHaveLength(2);
    expect(s.pew_redirect.threads[0]).toMatchObject({
      port: tcpPort,
      service: 0,
      mb_translation: false,
      mapping: [entry('DT', 0, 99, 'R/W'), entry('DT', 100, 199, 'RO', 0, 0), entry('WR', 0, 15, 'RO', 0, 0)],
    });
    expect(s.pew_redirect.threads[1]).toMatchObject({
      port: mbPort,
      service: 0,
      mb_translation: true,
      mapping: [entry('DT', 0, 99, 'R/W', 0, 0), entry('DT', 100, 199, 'RO', 0, 100), entry('WR', 0, 15, 'RO', 2, 10000)],
    });
    // the ports page shows the gateway with its Modbus ranges
    const gw = pageBody(page, 'port').locator('[data-thread="1"]');
    await expectText(gw.locator('[data-restriction="2"] [data-modbus]'), `· ${fill(en.port.modbusRange, { first: 10000, last: 10255, unit: en.port.bits })}`);

    // the saved settings work: COM1 talks to its PLC at 115200, both threads forward to it
    await suite.d.ctx.com.settled();
    await suite.d.ctx.redirects.settled();
    const plc = com1.plc;
    plc.memory.writeWords('DT', 100, [101, 102, 103]);
    plc.memory.writeWords('DT', 150, [4242]);
    plc.memory.writeWords('DT', 200, [9999]);
    plc.memory.writeBits('R', 16, [false, true, false, false]); // R10-R13: WR1 bits 0-3

    // MEWTOCOL through the TCP port: DT100-199 read-only, DT0-99 writable, DT200 granted to nobody
    const rd150: MewRequest = { cmd: 'RD', area: 'DT', start: 150, count: 1 };
    expect(await mewAsk(tcpPort, rd150)).toBe(wordsReply(rd150, [4242]));
    expect(await mewAsk(tcpPort, { cmd: 'WD', area: 'DT', start: 150, words: [1] })).toBe(REFUSED);
    expect(await mewAsk(tcpPort, { cmd: 'RD', area: 'DT', start: 200, count: 1 })).toBe(REFUSED);
    expect(await mewAsk(tcpPort, { cmd: 'WD', area: 'DT', start: 10, words: [77] })).toMatch(/^%EE\$WD[0-9A-F]{2}\r$/);
    expect(plc.memory.readWords('DT', 10, 1)).toEqual([77]);
    expect(plc.memory.readWords('DT', 150, 1)).toEqual([4242]);

    // Modbus/TCP through the gateway's port: holding registers are the DT words at their own address
    const mb = new ModbusRTU();
    await mb.connectTCP(HOST, { port: mbPort });
    try {
      mb.setID(1);
      mb.setTimeout(3000);
      expect((await mb.readHoldingRegisters(100, 3)).data).toEqual([101, 102, 103]);
      expect((await mb.readHoldingRegisters(150, 1)).data).toEqual([4242]);
      expect((await mb.readHoldingRegisters(10, 1)).data).toEqual([77]);
      // the WR entry as coils from 10000: coil 10017 is WR1 bit 1 (R11)
      expect((await mb.readCoils(10016, 4)).data.slice(0, 4)).toEqual([false, true, false, false]);
      // outside the DT restrictions (DT0-199), or a write to the read-only ones: exception 02, and the PLC hears nothing
      const reached = plc.requests;
      await expect(mb.readHoldingRegisters(200, 1)).rejects.toMatchObject({ modbusCode: 2 });
      await expect(mb.readHoldingRegisters(195, 10)).rejects.toMatchObject({ modbusCode: 2 });
      await expect(mb.writeRegister(150, 1)).rejects.toMatchObject({ modbusCode: 2 });
      expect(plc.requests).toBe(reached);
      expect(plc.memory.readWords('DT', 150, 1)).toEqual([4242]);
      // the connection is still served
      expect((await mb.readHoldingRegisters(101, 1)).data).toEqual([102]);
    } finally {
      await new Promise<void>((resolve) => (mb.isOpen ? mb.close(() => resolve()) : resolve()));
    }
    await expectText(pageBody(page, 'port').locator('[data-thread="0"] [data-state]'), fill(en.port.listening, { port: tcpPort }));
    await expectText(gw.locator('[data-state]'), fill(en.port.listening, { port: mbPort }));
  });

  it('a new interface for the gateway is enabled with its own parameters; COM4 needs its PLC address first', async () => {
    const page = await openWizard();
    const w = wizard(page);
    await w.locator('#w-mode-1').check();
    await next(page, 'mode', 'iface');
    await next(page, 'iface', 'params');
    await next(page, 'params', 'tcp');
    await next(page, 'tcp', 'modbus');
    await fieldInput(page, 'pew_redirect', 'threads.1.port').fill('10502');
    await next(page, 'modbus', 'gateway');
    await w.locator('#w-gateway-2').check();
    expect(await w.locator('[data-choice=gateway-iface] input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual([
      '3',
      '1',
      '4',
      '5',
    ]);
    await w.locator('#w-gateway-iface-5').check();
    await action(page, 'continue').click();
    await expectText(w.locator('[data-field="interfaces.4.ip_port"] .error'), en.errors.required);
    await expectText(failure(page), `${en.fields.pew.interfaces.ip_port.label}: ${en.errors.required}`);
    await fieldInput(page, 'pew', 'interfaces.4.ip_port').fill('192.168.1.5:9094');
    await next(page, 'gateway', 'rules');
    await w.locator('#w-rule-1').check();
    await next(page, 'rules', 'finish');
    await action(page, 'finish').click();
    await expectTitle(page, en.nav.port);
    const s = await stored(page);
    expect(
      s.pew.interfaces
        .filter((i: Value) => i.enabled)
        .map((i: Value) => i.id)
        .sort(),
    ).toEqual([0, 4, 5]);
    expect(s.pew.interfaces.find((i: Value) => i.id === 5).ip_port).toBe('192.168.1.5:9094');
    expect(s.pew_redirect.threads[1]).toMatchObject({ port: 10502, service: 5, mb_translation: true });
    expect(s.pew_redirect.threads[1].mapping.every((r: Value) => r.read_write === 'R/W')).toBe(true);
  });

  it('an input error names the field and its fault; a failed Finish says "Something went wrong" with the first problem, stays on the step and changes nothing', async () => {
    const page = await openWizard();
    const w = wizard(page);
    const before = await stored(page);
    await next(page, 'mode', 'iface');
    await next(page, 'iface', 'params');
    await next(page, 'params', 'tcp');
    // spec §5: 8080 is an unallowed port
    await fieldInput(page, 'pew_redirect', 'threads.0.port').fill('8080');
    const unallowed = fill(en.errors.port_unallowed, { ports: '3000, 8000, 8080, 8081, 5900' });
    await expectText(w.locator('[data-field="threads.0.port"] .error'), unallowed);
    await action(page, 'continue').click();
    // an input to correct is named with its fault; "Something went wrong" is for a Finish that failed
    await expectText(failure(page), `${en.wizard.tcpPort}: ${unallowed}`);
    expect(en.wizard.failed).toBe('Something went wrong.');
    await stepIs(page, 'tcp');

    // the daemon's refusal at Finish: the REST API took the port behind the wizard's back
    await fieldInput(page, 'pew_redirect', 'threads.0.port').fill('9400');
    await next(page, 'tcp', 'rules');
    await w.locator('#w-rule-2').check();
    await w.locator('[data-action=add-restriction]').click();
    // simple mode offers no DT area
    expect(await fieldInput(page, 'pew_redirect', 'threads.0.mapping.0.area').locator('option').allTextContents()).toEqual(
      WORD_AREAS.filter((a) => a !== 'DT'),
    );
    await next(page, 'rules', 'finish');
    const a = await api(page, suite.d);
    expect((await a.post('/config/pew_api', { ...defaults.pew_api, api_enable: true, http_port: 9400 })).status).toBe(200);
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/config');
    await action(page, 'finish').click();
    expect((await answer).status()).toBe(400);
    await expectText(
      failure(page),
      `${en.wizard.failed} ${en.wizard.tcpPort}: ${fill(en.errors.port_conflict, { port: 9400, other: `${en.nav.rest}, ${en.fields.pew_api.http_port.label}` })}`,
    );
    await stepIs(page, 'finish');
    await expectTitle(page, en.nav.wizard_com);
    expect(await stored(page)).toEqual(before);
    // the daemon's problem is shown at the field it belongs to
    await action(page, 'back').click();
    await action(page, 'back').click();
    await stepIs(page, 'tcp');
    await expectText(
      w.locator('[data-field="threads.0.port"] .error'),
      fill(en.errors.port_conflict, { port: 9400, other: `${en.nav.rest}, ${en.fields.pew_api.http_port.label}` }),
    );

    // the REST API is moved away: typing the port again clears the daemon's message, and Finish succeeds
    expect((await a.post('/config/pew_api', defaults.pew_api)).status).toBe(200);
    await fieldInput(page, 'pew_redirect', 'threads.0.port').fill('9400');
    await expect.poll(() => w.locator('[data-field="threads.0.port"] .error').count()).toBe(0);
    await next(page, 'tcp', 'rules');
    await next(page, 'rules', 'finish');
    await action(page, 'finish').click();
    await expectTitle(page, en.nav.port);
    expect((await stored(page)).pew_redirect.threads.map((t: Value) => t.port)).toEqual([9400]);
  });

  it.each([
    { locale: 'de-DE', t: de, failed: 'Etwas ist schiefgelaufen.' },
    { locale: 'fr-FR', t: fr, failed: 'Une erreur s’est produite.' },
  ] as const)('$locale: an input error names the field and its fault, without "$failed" (a failed Finish only)', async ({ locale, t, failed }) => {
    const page = await openWizard({ locale });
    await expectTitle(page, t.nav.wizard_com);
    await next(page, 'mode', 'iface');
    await next(page, 'iface', 'params');
    await next(page, 'params', 'tcp');
    await fieldInput(page, 'pew_redirect', 'threads.0.port').fill('3000');
    await action(page, 'continue').click();
    await expectText(
      failure(page),
      fill(t.form.labelled, { label: t.wizard.tcpPort, text: fill(t.errors.port_unallowed, { ports: '3000, 8000, 8080, 8081, 5900' }) }),
    );
    expect(t.wizard.failed).toBe(failed);
  });

  it("Cancel changes nothing: without input it goes straight to /port, with input it asks first; the page bar's Reset and Save are not on the wizard", async () => {
    const page = await openWizard();
    const w = wizard(page);
    const pageBar = (what: string) => page.locator(`.page-bar [data-action=${what}]`);
    // the wizard stores through Finish only: the page's Reset would load defaults into COM and Port behind it
    expect(await pageBar('reset').count()).toBe(0);
    expect(await pageBar('save').count()).toBe(0);
    const before = await stored(page);
    await next(page, 'mode', 'iface');
    await action(page, 'cancel').click();
    await expectTitle(page, en.nav.port);
    expect(await dialog(page).count()).toBe(0);
    expect(await pageBar('reset').count()).toBe(1);

    await page.locator('#menu a[data-page=wizard_com]').click();
    await wizard(page).waitFor();
    await w.locator('#w-mode-1').check();
    await next(page, 'mode', 'iface');
    await w.locator('#w-iface-1').check();
    await action(page, 'cancel').click();
    await expectText(dialog(page).locator('#dlg-text'), en.wizard.cancelText);
    await dialog(page).locator('button', { hasText: en.wizard.stay }).click();
    await stepIs(page, 'iface');
    expect(await w.locator('#w-iface-1').isChecked()).toBe(true);
    await action(page, 'cancel').click();
    await dialog(page).locator('button', { hasText: en.wizard.discard }).click();
    await expectTitle(page, en.nav.port);
    expect(await stored(page)).toEqual(before);
    // the threads' blocks come in the page's later steps (web/shell/in-steps.tsx)
    await pageDrawn(page);
    expect(await pageBody(page, 'port').locator('[data-thread]').count()).toBe(1);
  });

  it('the user role can look through the steps but not finish', async () => {
    const page = await openWizard({}, USER);
    for (const [from, to] of [
      ['mode', 'iface'],
      ['iface', 'params'],
      ['params', 'tcp'],
      ['tcp', 'rules'],
      ['rules', 'finish'],
    ] as const)
      await next(page, from, to);
    expect(await action(page, 'finish').isDisabled()).toBe(true);
  });
});
