// The MQTT connection test in chromium (spec §2 service layout, §8): a broker address saved on
// /mqtt, the test button runs the daemon's test against a running aedes broker and the page shows
// the passed summary and every step; with the broker stopped the same button shows the failure in
// words and the system's own message.

import { createServer, type Server, type Socket } from 'node:net';
import { Aedes } from 'aedes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { consoleSuite, en, expectText, fieldInput, fill, loginApi, openConsole } from './support.ts';

describe('the MQTT connection test on /mqtt', () => {
  const suite = consoleSuite();
  let broker: Aedes;
  let server: Server;
  const sockets = new Set<Socket>();
  let port = 0;

  beforeAll(async () => {
    port = await freePort();
    broker = await Aedes.createBroker();
    server = createServer((s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      broker.handle(s);
    });
    await new Promise<void>((resolve) => server.listen(port, LOOPBACK, () => resolve()));
  });
  afterAll(async () => {
    server?.close();
    await new Promise<void>((r) => (broker ? broker.close(() => r()) : r()));
  });

  it('passes against the running broker with its steps; fails in words once the broker is stopped', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/mqtt');
    const addr = `mqtt://${LOOPBACK}:${port}`;
    await fieldInput(page, 'pew_mqtt', 'broker_addr').fill(addr);
    const save = page.locator('.page-bar [data-action=save]');
    await expect.poll(() => save.isEnabled()).toBe(true);
    await save.click();
    await expect.poll(() => save.isDisabled(), { timeout: 15_000 }).toBe(true);

    const block = page.locator('[data-servicetest=pew_mqtt]');
    await block.locator('[data-action=servicetest]').click();
    const passed = block.locator('[data-outcome=ok] [data-summary]');
    await passed.waitFor({ state: 'visible', timeout: 20_000 });
    const [before, after] = en.service.test.ok.split('{ms}') as [string, string];
    expect(await passed.textContent()).toMatch(new RegExp(`^${escapeRegExp(fill(before, { peer: addr }))}\\d+${escapeRegExp(after)}$`));
    const steps = block.locator('.test-steps li');
    expect(await steps.evaluateAll((li) => li.map((l) => `${l.getAttribute('data-step')}:${l.getAttribute('data-ok')}`))).toEqual([
      'connect:true',
      'login:true',
      'write:true',
      'read:true',
    ]);
    expect(await steps.nth(0).textContent()).toContain(`${en.service.test.steps.connect}: ${LOOPBACK}:${port}`);
    expect(await steps.nth(3).textContent()).toMatch(new RegExp(`${en.service.test.steps.read}: \\d+ bytes back`));

    // the broker goes away: nothing listens on its port any more
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
    await block.locator('[data-action=servicetest]').click();
    const failed = block.locator('[data-outcome=failed]');
    await failed.waitFor({ state: 'visible', timeout: 20_000 });
    await expectText(failed.locator('[data-summary]'), fill(en.service.test.failed, { peer: addr, reason: en.service.test.failures.refused }));
    expect(await failed.locator('[data-peer-message]').textContent()).toContain(`ECONNREFUSED ${LOOPBACK}:${port}`);
    expect(await steps.evaluateAll((li) => li.map((l) => `${l.getAttribute('data-step')}:${l.getAttribute('data-ok')}`))).toEqual(['connect:false']);
  });
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
