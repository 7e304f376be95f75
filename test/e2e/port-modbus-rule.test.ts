// /port: the listening port's rule, hint and message agree (spec §5 range 1025 – 65535, §9 Modbus
// 502): 502 only on a Modbus/TCP gateway thread, said by the field's hint and by its message; the
// daemon refuses 502 on another thread with the same code.

import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { api, consoleSuite, en, expectText, fieldInput, fill, loginApi, openConsole } from './support.ts';

const thread = (port: number) => ({
  port,
  mb_translation: false,
  monitoring_cmd: true,
  service: 0,
  clients: 4,
  timeout: 60,
  ip_start: '0.0.0.0',
  ip_end: '0.0.0.0',
  mapping: [],
});
const field = (page: Page, path: string) => page.locator(`[data-page=port] [data-field="${path}"]`);

describe('the Modbus port rule on /port', () => {
  const suite = consoleSuite();

  it('502 is refused on a thread without the gateway, by the console and the daemon, and accepted with it', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    const a = await api(page, suite.d);
    expect((await a.post('/config/pew_redirect', { threads: [thread(9094)] })).status).toBe(200);
    await openConsole(page, suite.d, '/port');
    const port = fieldInput(page, 'pew_redirect', 'threads.0.port');
    await expectText(
      field(page, 'threads.0.port').locator('.hint'),
      `${en.fields.pew_redirect.threads.port.help} · ${fill(en.form.range, { min: 1025, max: 65535 })}`,
    );

    await port.fill('502');
    const modbusOnly = fill(en.errors.port_modbus_only, { port: 502, min: 1025, max: 65535 });
    await expectText(field(page, 'threads.0.port').locator('.error'), modbusOnly);
    await port.fill('500');
    await expectText(field(page, 'threads.0.port').locator('.error'), fill(en.errors.out_of_range, { min: 1025, max: 65535 }));
    await port.fill('502');
    await fieldInput(page, 'pew_redirect', 'threads.0.mb_translation').check();
    await expect.poll(() => field(page, 'threads.0.port').locator('.error').count()).toBe(0);

    const refused = await a.post('/config/pew_redirect', { threads: [thread(502)] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.issues).toEqual([
      { section: 'pew_redirect', path: 'threads.0.port', code: 'port_modbus_only', params: { port: 502, min: 1025, max: 65535 } },
    ]);
    expect((await a.post('/config/pew_redirect', { threads: [{ ...thread(502), mb_translation: true }] })).status).toBe(200);
  });
});
