// Problems name their place as the pages show it (spec §5, §8): a port used twice names the other
// thread ("Ports and restrictions, thread 1, listening port"), overlapping control registers name
// the other service's page and field, in every language; a refused save lists every problem, one
// line each, not only the first.

import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { api, consoleSuite, de, en, expectText, fieldInput, fill, fr, loginApi, openConsole } from './support.ts';

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
const errorAt = (page: Page, path: string) => page.locator(`[data-page] [data-field="${path}"] .error`);
const notice = (page: Page) => page.locator('.notices .notice.error span').first();

describe('problems named by their place', () => {
  const suite = consoleSuite();

  it('a port used twice names the other thread; the refused save lists every problem', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    const a = await api(page, suite.d);
    expect((await a.post('/config/pew_redirect', { threads: [thread(10501), thread(10502)] })).status).toBe(200);
    await openConsole(page, suite.d, '/port');
    await fieldInput(page, 'pew_redirect', 'threads.1.port').fill('10501');
    await fieldInput(page, 'pew_redirect', 'threads.1.ip_start').fill('10.0.0.300');

    const place = (l: typeof en, n: number) => `${l.nav.port}, ${fill(l.form.place.thread, { n })}, ${l.fields.pew_redirect.threads.port.label}`;
    await expectText(errorAt(page, 'threads.1.port'), fill(en.errors.port_conflict, { port: 10501, other: place(en, 1) }));
    await expectText(errorAt(page, 'threads.0.port'), fill(en.errors.port_conflict, { port: 10501, other: place(en, 2) }));

    await page.locator('.page-bar [data-action=save]').click();
    const ipPlace = `${en.nav.port}, ${fill(en.form.place.thread, { n: 2 })}, ${en.fields.pew_redirect.threads.ip_start.label}`;
    const line = (p: string, m: string) => fill(en.form.problem, { place: p, message: m });
    await expect
      .poll(() => notice(page).innerText())
      .toBe(
        [
          en.form.notice.saveFailed,
          line(place(en, 1), fill(en.errors.port_conflict, { port: 10501, other: place(en, 2) })),
          line(ipPlace, en.errors.invalid_ip),
          line(place(en, 2), fill(en.errors.port_conflict, { port: 10501, other: place(en, 1) })),
        ].join('\n'),
      );
    expect((await a.get('/config/pew_redirect')).body.threads.map((t: { port: number }) => t.port)).toEqual([10501, 10502]);

    // the same names in German and French
    for (const l of [de, fr]) {
      await page.locator('select[data-action=language]').selectOption(l === de ? 'de' : 'fr');
      await expectText(errorAt(page, 'threads.1.port'), fill(l.errors.port_conflict, { port: 10501, other: place(l, 1) }));
    }
  });

  it('overlapping control registers name the other service by its page and field', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    const a = await api(page, suite.d);
    const ftp = (await a.get('/config/pew_ftpc')).body;
    const saved = await a.post('/config/pew_ftpc', { ...ftp, enable_ftp: true, server_ip: '192.168.1.20', plc_control_dt: 600 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await openConsole(page, suite.d, '/mqtt');
    await fieldInput(page, 'pew_mqtt', 'enable_mqtt').check();
    await fieldInput(page, 'pew_mqtt', 'plc_control_dt').fill('600');
    const other = `${en.nav.ftp}, ${en.fields.pew_ftpc.plc_control_dt.label}`;
    await expectText(errorAt(page, 'plc_control_dt'), fill(en.errors.addresses_overlap, { other }));
    expect(await errorAt(page, 'plc_control_dt').innerText()).not.toContain('pew_');
  });
});
