// The MQTT connection test in chromium (spec §2 service layout, §8): a broker address saved on
// /mqtt, the test button runs the daemon's test against a running aedes broker and the page shows
// the passed summary and every step, each with what it found in the console's language (en, de, fr);
// a failure the unit tells in its own words is worded in the console's language too; with the
// broker stopped the same button shows the failure in words and the system's own message.

import { createServer, type Server, type Socket } from 'node:net';
import type { Page } from '@playwright/test';
import { Aedes } from 'aedes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { consoleSuite, de, en, expectText, fieldInput, fill, fr, loginApi, openConsole } from './support.ts';

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

  /** The broker's address saved on /mqtt through the page, unless saved already (the test runs on the saved settings). */
  async function saveBroker(page: Page): Promise<string> {
    const addr = `mqtt://${LOOPBACK}:${port}`;
    const input = fieldInput(page, 'pew_mqtt', 'broker_addr');
    await input.waitFor();
    if ((await input.inputValue()) === addr) return addr; // saved by a test before
    await input.fill(addr);
    const save = page.locator('.page-bar [data-action=save]');
    await expect.poll(() => save.isEnabled()).toBe(true);
    await save.click();
    await expect.poll(() => save.isDisabled(), { timeout: 15_000 }).toBe(true);
    return addr;
  }

  /** What each passed step shows: its name, then what it found, in the language `lang`. */
  const stepLines = (lang: 'en' | 'de' | 'fr', qos: number) => {
    const l = { en, de, fr }[lang];
    const line = (step: 'connect' | 'login' | 'write' | 'read', note: string) => fill(l.form.labelled, { label: l.service.test.steps[step], text: note }, lang);
    const notes = l.service.test.notes;
    // the topic and the byte count change from test to test: the rest of the line is the dictionary's
    const pattern = (text: string, parts: Record<string, string>) =>
      new RegExp(`^✓ ${Object.entries(parts).reduce((p, [mark, re]) => p.replace(mark, re), escapeRegExp(text))}$`);
    return [
      `✓ ${line('connect', fill(notes.reached, { address: `${LOOPBACK}:${port}` }, lang))}`,
      `✓ ${line('login', notes.login_anonymous)}`,
      pattern(line('write', fill(notes.published, { topic: 'TOPIC', qos }, lang)), { TOPIC: 'pew/connection-test/[0-9a-f]{12}' }),
      pattern(line('read', fill(notes.received, { bytes: 999 }, lang)), { '999': '\\d+' }),
    ];
  };

  it.each(['de', 'fr'] as const)('in %s each step says what it found in the language of the console', async (lang) => {
    const { page } = await suite.open({ locale: lang });
    await page.addInitScript((l) => localStorage.setItem('console.locale', l), lang);
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/mqtt');
    await saveBroker(page);
    const block = page.locator('[data-servicetest=pew_mqtt]');
    await block.locator('[data-action=servicetest]').click();
    await block.locator('[data-outcome=ok] [data-summary]').waitFor({ state: 'visible', timeout: 20_000 });
    const qos = Number(await fieldInput(page, 'pew_mqtt', 'qos').inputValue());
    const [connect, login, write, read] = stepLines(lang, qos);
    const shown = await block.locator('.test-steps li').allTextContents();
    expect(shown.slice(0, 2)).toEqual([connect, login]);
    expect(shown[2]).toMatch(write as RegExp);
    expect(shown[3]).toMatch(read as RegExp);
    // not a word of the English texts
    expect(shown.join('\n')).not.toMatch(/reached|without user name|published on|received back/);
  });

  it.each(['en', 'de', 'fr'] as const)('in %s a failure the unit tells in its own words is worded in the language of the console', async (lang) => {
    const l = { en, de, fr }[lang];
    const { page } = await suite.open({ locale: lang });
    await page.addInitScript((x) => localStorage.setItem('console.locale', x), lang);
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/mqtt');
    await saveBroker(page);
    // the daemon's answer when the broker accepts the connection and never answers the login
    const answer = {
      ok: false,
      peer: `mqtt://${LOOPBACK}:${port}`,
      ms: 912,
      steps: [
        { step: 'connect', ok: true, note: { code: 'reached', args: { address: `${LOOPBACK}:${port}` } } },
        { step: 'login', ok: false },
      ],
      failure: { reason: 'timeout', message: 'no answer within 900 ms', note: { code: 'no_answer_within', args: { ms: 900 } } },
    };
    await page.route('**/config/servicetest/pew_mqtt', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) }),
    );
    const block = page.locator('[data-servicetest=pew_mqtt]');
    await block.locator('[data-action=servicetest]').click();
    const failed = block.locator('[data-outcome=failed]');
    await failed.waitFor({ state: 'visible', timeout: 20_000 });
    await expectText(failed.locator('[data-summary]'), fill(l.service.test.failed, { peer: answer.peer, reason: l.service.test.failures.timeout }, lang));
    await expectText(failed.locator('[data-peer-message]'), fill(l.service.test.notes.no_answer_within, { ms: 900 }, lang));
    expect(await block.locator('.test-steps li').allTextContents()).toEqual([
      `✓ ${fill(l.form.labelled, { label: l.service.test.steps.connect, text: fill(l.service.test.notes.reached, { address: `${LOOPBACK}:${port}` }, lang) }, lang)}`,
      `✗ ${l.service.test.steps.login}`,
    ]);
  });

  it('passes against the running broker with its steps; fails in words once the broker is stopped', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/mqtt');
    const addr = await saveBroker(page);

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
    const [connect, login, write, read] = stepLines('en', Number(await fieldInput(page, 'pew_mqtt', 'qos').inputValue()));
    expect(await steps.allTextContents()).toEqual([connect, login, expect.stringMatching(write as RegExp), expect.stringMatching(read as RegExp)]);

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
