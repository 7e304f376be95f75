// The IEC 60870-5-104 station's live status in chromium against a daemon in simulator mode: /iec
// saved with the station on a free port shows it listening; a control station (a raw TCP socket
// sending STARTDT act, then acknowledging what it gets) shows in its connection entry's table with
// its address, started and active; /info has the station's line running; saved off, the status
// block, the /info line and the unencrypted warning follow.

import { connect, type Socket } from 'node:net';
import type { Page } from '@playwright/test';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeApdu, SEQ_MODULO, seqAdd } from '../../device/protocol/iec104/apci.ts';
import { createIec104Framer } from '../../device/protocol/iec104/framer.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { consoleSuite, en, expectText, expectTitle, fieldInput, fill, goToRoute, loginApi, openConsole, overflow, pageBody, WAIT_MS } from './support.ts';

/** STARTDT act, as a control station sends it (IEC 60870-5-104 §5.3) */
const STARTDT_ACT = Buffer.from([0x68, 0x04, 0x07, 0x00, 0x00, 0x00]);

/** A control station: starts data transfer, acknowledges every I-frame and answers test frames, so the station keeps it. */
async function controlStation(port: number): Promise<{ socket: Socket; started: () => boolean }> {
  const socket = connect({ host: LOOPBACK, port });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined); // the station closes it when saved off
  const framer = createIec104Framer();
  let vr = 0;
  let started = false;
  socket.on('data', (b: Buffer) => {
    for (const e of framer.push(b)) {
      if (e.type !== 'apdu') continue;
      const a = e.apdu;
      if (a.format === 'U' && a.fn === 'startdt_con') started = true;
      if (a.format === 'U' && a.fn === 'testfr_act') socket.write(encodeApdu({ format: 'U', fn: 'testfr_con' }));
      if (a.format === 'I') {
        vr = seqAdd(vr, 1);
        socket.write(encodeApdu({ format: 'S', nr: vr % SEQ_MODULO }));
      }
    }
  });
  socket.write(STARTDT_ACT);
  return { socket, started: () => started };
}

const saveButton = (page: Page) => page.locator('.page-bar [data-action=save]');

async function save(page: Page): Promise<void> {
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/config'));
  await saveButton(page).click();
  expect((await answer).status()).toBe(200);
}

describe('the IEC 104 station live on /iec and /info', () => {
  const suite = consoleSuite();
  let station: Socket | undefined;

  afterEach(() => {
    station?.destroy();
    station = undefined;
  });

  it('listening on its port, a started control station with its address, the /info line; saved off, off everywhere', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/iec');
    await expectTitle(page, en.nav.iec);
    const body = pageBody(page, 'iec');
    const live = body.locator('[data-block=iec-status]');
    const t = en.iec.live;

    // off: the block says so, and no warning while it is neither saved on nor listening
    await expectText(live.locator('[data-status=off]'), t.off);
    expect(await body.locator('[data-banner=iec-unencrypted]').count()).toBe(0);

    const port = await freePort();
    await fieldInput(page, 'pew_60870', 'enable_60870').setChecked(true);
    await fieldInput(page, 'pew_60870', 'port').fill(String(port));
    await save(page);
    await expectText(live.locator('[data-item=listener] [data-state=listening]'), fill(t.listening, { port }));
    await expectText(live.locator('[data-item=state] [data-state]'), en.serviceStatus.states.idle);
    await expectText(live.locator('[data-iec-group="0"] [data-note=no-control-station]'), t.noConnection);

    // a control station starts data transfer: its row with its own address, started and active
    const cs = await controlStation(port);
    station = cs.socket;
    await expect.poll(() => cs.started(), { timeout: WAIT_MS }).toBe(true);
    const row = live.locator(`[data-iec-group="0"] tr[data-iec-conn]`);
    await expectText(row.locator('[data-remote]'), `${LOOPBACK}:${cs.socket.localPort}`);
    await expectText(row.locator('[data-link-state]'), t.linkStates.started);
    await expectText(row.locator('[data-active]'), t.active);
    await expectText(live.locator('[data-item=state] [data-state]'), en.serviceStatus.states.running);
    // at 360 px the table scrolls in its own box: nothing reaches past the screen
    await page.setViewportSize({ width: 360, height: 740 });
    await expect.poll(async () => (await overflow(page)).wider, { timeout: WAIT_MS }).toEqual([]);
    expect(await live.locator('.table-view').evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });

    // the warning follows the saved settings: after a reload (the edit is the saved copy) it shows
    await page.reload();
    await expectTitle(page, en.nav.iec);
    await expectText(body.locator('[data-banner=iec-unencrypted]'), en.iec.unencrypted);

    // /info: the station's line, linked to /iec, running
    await goToRoute(page, '/info', en.nav.info);
    const line = pageBody(page, 'info').locator('[data-block=service-run] [data-service-run=iec]');
    await expectText(line.locator('a'), en.nav.iec);
    expect(await line.locator('a').getAttribute('href')).toBe('#/iec');
    await expectText(line.locator('[data-state]'), en.serviceStatus.states.running);

    // saved off: the connection ends, the block and the line say off, the warning goes
    await goToRoute(page, '/iec', en.nav.iec);
    await fieldInput(page, 'pew_60870', 'enable_60870').setChecked(false);
    await save(page);
    await expect.poll(() => cs.socket.destroyed || cs.socket.readableEnded, { timeout: WAIT_MS }).toBe(true);
    await expectText(live.locator('[data-status=off]'), t.off);
    await expect.poll(() => body.locator('[data-banner=iec-unencrypted]').count(), { timeout: WAIT_MS }).toBe(0);
    await goToRoute(page, '/info', en.nav.info);
    await expectText(line.locator('[data-state]'), en.serviceStatus.states.off);
  });
});
