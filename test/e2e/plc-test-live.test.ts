// The PLC test of the /com page (spec §5, §8, §9) in the browser against the REAL daemon and real
// virtual PLCs on in-process serial wires: no route of the page is mocked. Every CPU model is
// identified over MEWTOCOL on COM1, an error answer shows the failure note with the PLC's code and
// its raw reply, FP7 over MEWTOCOL7 on COM3 shows its model, a disabled interface is refused with
// the §8 text, and COM1's live status turns "connected" with requests counted.
// One browser, one daemon and one page for the whole file.

import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pew } from '../../device/model/sections/pew.ts';
import type { ByteChannel, SerialSettings } from '../../hw/types.ts';
import { CPU_MODELS, CPU_PROFILES, type CpuModel } from '../../sim/plc/profiles.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import type { SerialFraming } from '../../sim/wire.ts';
import type { Client } from '../support/daemon.ts';
import {
  type ConsolePage,
  en,
  expectText,
  expectTitle,
  fill,
  launchBrowser,
  loginApi,
  newPage,
  openConsole,
  pageBody,
  startConsoleDaemon,
  type TestDaemon,
} from './support.ts';

/** the PLCs' line; the interfaces are saved with the same baud rate (8O1 is the unit's default) */
const FRAMING: SerialFraming = { baud: 19200, bits: 8, parity: 'odd', stopbits: 1 };
const TICK_MS = 1500; // spec §9: update tick of the status
type Serial = 'COM1' | 'COM3';

const mewtocolPlc = (model: CpuModel) => new SerialPlcAttachment(new VirtualPlc({ model }), { protocol: 'MEWTOCOL', framing: FRAMING });
/** the virtual PLC on each serial connector; COM1's is swapped per CPU model (the link reopens after a restart) */
const wires: Record<Serial, SerialPlcAttachment> = { COM1: mewtocolPlc('FP-XH'), COM3: mewtocolPlc('FP7') };
const port =
  (c: Serial) =>
  (s: SerialSettings): ByteChannel =>
    wires[c].open(s);

// interface ids of pew (device/model/plc.ts): COM1 = 0, COM3 = 1, COM2 = 3
const COM1 = 0;
const COM3 = 1;
const COM2 = 3;

let browser: Browser;
let d: TestDaemon;
let admin: Client;
let cp: ConsolePage;
let page: Page;

const block = (id: number) => pageBody(page, 'com').locator(`[data-interface="${id}"]`);
const test = (id: number) => block(id).locator(`[data-plctest="${id}"]`);

/** Clicks the PLC test of an interface and gives the daemon's answer to it. */
async function runTest(id: number): Promise<{ status: number; body: any }> {
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/config/plctest');
  await test(id).locator('[data-action=plctest]').click();
  const r = await answer;
  expect(r.request().postDataJSON()).toEqual({ id });
  return { status: r.status(), body: await r.json() };
}

beforeAll(async () => {
  [browser, d] = await Promise.all([launchBrowser(), startConsoleDaemon({ serial: { virtualPorts: { COM1: port('COM1'), COM3: port('COM3') } } })]);
  admin = await d.admin();
  // COM1 MEWTOCOL and COM3 MEWTOCOL7 enabled at the PLCs' baud rate; COM2 stays disabled
  const p = (await admin.get('/config/pew')).body as Pew;
  const iface = (name: string) => p.interfaces.find((i) => i.name === name)!;
  Object.assign(iface('COM1'), { enabled: true, protocol: 'MEWTOCOL', baudrate: FRAMING.baud, bits: 8, parity: 'odd', stopbits: 1, timeout: 300 });
  Object.assign(iface('COM3'), { enabled: true, protocol: 'MEWTOCOL7', baudrate: FRAMING.baud, bits: 8, parity: 'odd', stopbits: 1, timeout: 300 });
  expect(iface('COM2').enabled).toBe(false);
  const r = await admin.post('/config/pew', p);
  expect(r.status, r.text).toBe(200);
  await d.ctx.com.settled();

  cp = await newPage(browser);
  page = cp.page;
  await loginApi(page, d);
  await openConsole(page, d, '/com');
  await block(5).waitFor(); // (expect.poll, hence expectTitle, only runs inside a test)
});

afterAll(async () => {
  await cp?.context.close();
  await browser?.close();
  await d?.stop();
  expect(cp?.errors ?? []).toEqual([]); // no uncaught exception in the page during the whole file
});

describe('the PLC test of /com against the daemon and virtual PLCs', () => {
  it('the page is /com with a block and a test button per interface', async () => {
    await expectTitle(page, en.nav.com);
    expect(await pageBody(page, 'com').locator('[data-action=plctest]').count()).toBe(5);
    expect(await test(COM1).locator('[data-action=plctest]').isEnabled()).toBe(true);
  });

  it.each(CPU_MODELS)('identifies a virtual %s over MEWTOCOL on COM1', async (model: CpuModel) => {
    wires.COM1 = mewtocolPlc(model);
    await d.ctx.com.links.restart(`next PLC: ${model}`);
    const requestsBefore = wires.COM1.plc.requests;
    const r = await runTest(COM1);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, id: COM1, cpu: { name: model } });
    expect(wires.COM1.plc.requests).toBeGreaterThan(requestsBefore); // this PLC answered it

    await expectText(test(COM1).locator('[data-cpu]'), fill(en.com.cpu, { name: model }));
    await expectText(test(COM1).locator('.hint').last(), en.com.testOk);
    // the raw box: the PLC's RT answer first (CPU code and version of the model)
    const raw = (await test(COM1).locator('pre[data-raw]').textContent()) ?? '';
    const p = CPU_PROFILES[model];
    expect(raw.startsWith(`%EE$RT${p.rtCode}${p.version}`), raw).toBe(true);
    expect(raw).toContain('⏎'); // the daemon gives the CR as ⏎ (device/com/dialog.ts)
    expect(raw).not.toContain('\r');
    await expectText(test(COM1).locator('.raw figcaption'), en.com.raw);
    const facts = (await test(COM1).locator('.facts').textContent()) ?? '';
    expect(facts).toContain('RUN');
    if (model === 'FP7') {
      expect(facts).toContain(`${en.com.model}CPS41E`);
      expect(raw).toMatch(/>@EEE00\$30STRD/); // the model came from MEWTOCOL7's STRD
    } else {
      expect(facts).not.toContain(en.com.model);
    }
    expect(await test(COM1).locator('[data-note]').count()).toBe(0);
  });

  it("an error answer: the failure note with the PLC's code and the raw reply with !61; the next test passes again", async () => {
    const model = wires.COM1.plc.model;
    wires.COM1.plc.setFault({ kind: 'error', code: 61, count: 1 });
    const r = await runTest(COM1);
    expect(r.body).toMatchObject({ ok: false, reason: 'plc_error', code: 61 });

    const result = test(COM1).locator('[data-outcome=failed]');
    await expectText(result.locator('[data-note]'), `${en.com.failed} ${en.com.reasons.plc_error} ${fill(en.com.errorCode, { code: 61 })}`);
    expect(await result.getAttribute('data-reason')).toBe('plc_error');
    const raw = (await result.locator('pre[data-raw]').textContent()) ?? '';
    expect(raw).toContain('!61');
    expect(raw).toMatch(/^%EE!61[0-9A-F]{2}⏎$/);
    expect(await test(COM1).locator('[data-cpu]').count()).toBe(0);

    // the fault was for one request: the PLC is healthy again
    expect((await runTest(COM1)).body.ok).toBe(true);
    await expectText(test(COM1).locator('[data-cpu]'), fill(en.com.cpu, { name: model }));
  });

  it('FP7 over MEWTOCOL7 on COM3 shows FP7 and its model CPS41E', async () => {
    const r = await runTest(COM3);
    expect(r.body).toMatchObject({ ok: true, id: COM3, protocol: 'MEWTOCOL7', cpu: { name: 'FP7' }, model: 'CPS41E' });
    await expectText(test(COM3).locator('[data-cpu]'), fill(en.com.cpu, { name: 'FP7' }));
    const facts = test(COM3).locator('.facts');
    expect(await facts.locator('dt').allTextContents()).toEqual([en.com.family, en.com.model, en.com.version, en.com.mode]);
    expect(await facts.locator('dd').allTextContents()).toEqual(['FP7', 'CPS41E', '4.53', 'RUN']);
    expect((await test(COM3).locator('pre[data-raw]').textContent()) ?? '').toMatch(/^>@EEE[0-9A-F]{2}\$30STRD/);
  });

  it('a disabled interface (COM2) is refused with the §8 text', async () => {
    const r = await runTest(COM2);
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('interface_not_ready');
    const refused = test(COM2).locator('[data-outcome=refused]');
    await expectText(refused, en.errors.interface_not_ready);
    expect(await refused.textContent()).toMatch(/^Selected interface not enabled or settings not saved\.?$/);
    expect(await test(COM2).locator('[data-outcome=ok], [data-outcome=failed]').count()).toBe(0);
  });

  it('the live status of COM1 says "connected" with its requests counted, COM2 "disabled"', async () => {
    const status = block(COM1).locator('.link-status');
    const badge = status.locator('[data-state]');
    await expectText(badge, en.com.states.up, 3 * TICK_MS + 1500);
    expect(await badge.getAttribute('class')).toBe('state up');
    const requests = async () => Number(((await status.locator('[data-counter=requests] dd').textContent()) ?? '').replace(/[^\d]/g, ''));
    await expect.poll(requests, { timeout: 3 * TICK_MS + 1500 }).toBeGreaterThan(0);
    await expectText(status.locator('[data-counter=requests] dt'), en.com.stats.requests);
    await expectText(status.locator('[data-baud]'), fill(en.com.baud, { rate: '19200' }));
    await expectText(block(COM2).locator('[data-state]'), en.com.states.disabled);

    // a PLC test is counted on a following tick
    const before = await requests();
    expect((await runTest(COM1)).body.ok).toBe(true);
    await expect.poll(requests, { timeout: 2 * TICK_MS + 1500 }).toBeGreaterThan(before);
    expect(cp.errors).toEqual([]);
  });
});
