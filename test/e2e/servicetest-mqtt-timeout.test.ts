// The MQTT connection test against a broker that accepts the TCP connection and never answers
// (spec §8): the failure is a timeout, not "the server reported an error", and the steps up to it
// are shown (TCP connected, the login without an answer), each as it happens: while the broker is
// silent the page already shows the connect step done and the login under way.

import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { consoleSuite, en, expectText, fieldInput, fill, loginApi, openConsole } from './support.ts';

describe('the MQTT connection test against a silent broker', () => {
  const suite = consoleSuite();
  let server: Server;
  const sockets = new Set<Socket>();
  let port = 0;

  beforeAll(async () => {
    port = await freePort();
    server = createServer((s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }); // takes the connection, says nothing
    await new Promise<void>((resolve) => server.listen(port, LOOPBACK, resolve));
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('shows the connect step and the waiting login at once, then fails with the timeout reason', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/mqtt');
    const addr = `mqtt://${LOOPBACK}:${port}`;
    await fieldInput(page, 'pew_mqtt', 'broker_addr').fill(addr);
    const save = page.locator('.page-bar [data-action=save]');
    await save.click();
    await expect.poll(() => save.isDisabled(), { timeout: 15_000 }).toBe(true);

    const block = page.locator('[data-servicetest=pew_mqtt]');
    await block.locator('[data-action=servicetest]').click();
    // live, before the broker's 8 s are over: connect done, login under way, no result yet (once
    // the 8 s are over the block shows the result instead, and this wait fails)
    const running = block.locator('[data-outcome=running]');
    await running.locator('li[data-step=login][data-running]').waitFor();
    expect(await running.locator('li').evaluateAll((li) => li.map((l) => `${l.getAttribute('data-step')}:${l.getAttribute('data-ok') ?? 'running'}`))).toEqual([
      'connect:true',
      'login:running',
    ]);
    expect(await block.locator('[data-outcome=failed]').count()).toBe(0);
    const failed = block.locator('[data-outcome=failed]');
    await failed.waitFor({ state: 'visible', timeout: 30_000 });
    await expectText(failed.locator('[data-summary]'), fill(en.service.test.failed, { peer: addr, reason: en.service.test.failures.timeout }));
    expect(await block.locator('.test-steps li').evaluateAll((li) => li.map((l) => `${l.getAttribute('data-step')}:${l.getAttribute('data-ok')}`))).toEqual([
      'connect:true',
      'login:false',
    ]);
    expect(await running.count()).toBe(0);
  });
});
