// The security warnings of spec §5 where they apply, shown while editing with the wording of the
// system information page: the TCP ports a page opens (/port, /iec, /rest, /tlsclient), frequent
// writes of the logger on /log; each follows the edit before it is saved.

import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { consoleSuite, en, expectText, fieldInput, fill, loginApi, openConsole, pageBody } from './support.ts';

const hint = (page: Page, id: string, code: string) => pageBody(page, id).locator(`[data-security=${code}]`);

describe('security warnings on the pages where they apply', () => {
  const suite = consoleSuite();

  async function open(path: string) {
    const cp = await suite.open();
    await loginApi(cp.page, suite.d);
    await openConsole(cp.page, suite.d, path);
    return cp.page;
  }
  async function saveSection(key: string, change: (v: Record<string, unknown>) => Record<string, unknown>) {
    const c = await suite.d.admin();
    const value = (await c.get(`/config/get_reset?section=${key}`)).body as Record<string, unknown>;
    const r = await c.post(`/config/${key}`, change(value));
    expect(r.status, r.text).toBe(200);
  }

  it('/port and /iec name the ports they open, and follow the edit', async () => {
    await saveSection('pew_redirect', () => ({
      threads: [
        { port: 9094, mb_translation: false, monitoring_cmd: true, service: 3, clients: 4, timeout: 60, ip_start: '0.0.0.0', ip_end: '0.0.0.0', mapping: [] },
      ],
    }));
    let page = await open('/port');
    await expectText(hint(page, 'port', 'open_tcp_port'), fill(en.info.warning.open_tcp_port, { subjects: '9094' }));
    await fieldInput(page, 'pew_redirect', 'threads.0.port').fill('9100');
    await expectText(hint(page, 'port', 'open_tcp_port'), fill(en.info.warning.open_tcp_port, { subjects: '9100' }));
    await suite.current!.context.close();
    suite.current = undefined;

    page = await open('/iec');
    expect(await hint(page, 'iec', 'open_tcp_port').count()).toBe(0);
    await fieldInput(page, 'pew_60870', 'enable_60870').check();
    await expectText(hint(page, 'iec', 'open_tcp_port'), fill(en.info.warning.open_tcp_port, { subjects: '2404' }));
  });

  it('/log warns about log files that write to the internal memory more than once a minute', async () => {
    await saveSection('pew_log', (v) => ({ ...v, enable_log: true, storage: 0 }));
    const page = await open('/log');
    expect(await hint(page, 'log', 'frequent_writes').count()).toBe(0);
    await pageBody(page, 'log').locator('[data-action=add-logfile]').click();
    await fieldInput(page, 'pew_log', 'log_def.0.cycle').fill('5');
    await fieldInput(page, 'pew_log', 'log_def.0.delay_store').fill('2');
    await expectText(hint(page, 'log', 'frequent_writes'), fill(en.info.warning.frequent_writes, { subjects: '1' }));
    await fieldInput(page, 'pew_log', 'storage').selectOption('1'); // USB: no wear of the unit's flash
    await expect.poll(() => hint(page, 'log', 'frequent_writes').count()).toBe(0);
  });
});
