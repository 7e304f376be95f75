// The live status of the SQL and NoSQL clients on /sql and /db in chromium (the one status
// component, web/forms/service-status.tsx, mounted by service name): with the answer given by
// page.route, an SQL client whose rows wait behind a table that does not fit (its code and
// meaning, the rows waiting and dropped) and a NoSQL client that has written rows, in English and
// French; the line per service on /info links both pages. Against the daemon: both entries are
// answered (off while disabled).

import type { Page, Route } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { ServiceStatus, ServicesStatus } from '../../device/model/service-status.ts';
import { api, consoleMoment, consoleSuite, en, expectText, expectTitle, fill, fr, loginApi, openConsole, pageBody } from './support.ts';

const at = Date.UTC(2026, 10, 27, 9, 30, 0);
const entry = (o: Partial<ServiceStatus> & Pick<ServiceStatus, 'service'>): ServiceStatus => ({
  enabled: true,
  state: 'idle',
  since: at,
  counters: {},
  queue: { waiting: 0, dropped: 0, bound: 10_000 },
  ...o,
});

const ANSWER: ServicesStatus = {
  services: [
    entry({
      service: 'sql',
      state: 'waiting',
      counters: { rows: 40, written: 40, failed: 1 },
      queue: { waiting: 17, dropped: 3, bound: 10_000 },
      lastError: { code: 'table_mismatch', number: 15, message: 'table tank_log does not fit the data points: no column level', at: at + 1_000 },
    }),
    entry({ service: 'nosql', state: 'idle', lastSuccess: at + 2_000, counters: { rows: 1250, written: 1250, failed: 0 } }),
  ],
};

async function answerWith(page: Page) {
  await page.route('**/config/service_status', (route: Route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(ANSWER) }));
}

describe('the live status of the SQL and NoSQL clients', () => {
  const suite = consoleSuite();

  it('/sql and /db show their entries: state, the code and meaning of the last error, rows written, waiting, dropped; /info links them', async () => {
    const { page } = await suite.open({ timezoneId: 'UTC' });
    await loginApi(page, suite.d);
    await answerWith(page);
    const t = en.serviceStatus;
    await openConsole(page, suite.d, '/sql');
    await expectTitle(page, en.nav.sql);
    const sql = pageBody(page, 'sql').locator('[data-block=sql-status]');
    const dd = (item: string, block = sql) => block.locator(`[data-item=${item}] dd`);
    await expectText(dd('state'), t.states.waiting);
    await expectText(sql.locator('[data-item=last-error] [data-meaning]'), `${fill(t.code, { number: 15 })}: ${t.codes.table_mismatch}`);
    await expectText(dd('counter-written'), '40');
    await expectText(sql.locator('[data-item=counter-written] dt'), t.counters.written);
    await expectText(dd('queue'), fill(t.queueValue, { waiting: '17', bound: '10,000' }));
    await expectText(dd('dropped'), '3');

    await page.evaluate(() => {
      location.hash = '#/db';
    });
    await expectTitle(page, en.nav.db);
    const db = pageBody(page, 'db').locator('[data-block=nosql-status]');
    await expectText(dd('state', db), t.states.idle);
    await expectText(dd('counter-written', db), '1,250');
    await expectText(dd('last-error', db), t.none);

    await page.evaluate(() => {
      location.hash = '#/info';
    });
    await expectTitle(page, en.nav.info);
    const info = pageBody(page, 'info');
    expect(await info.locator('[data-service-run=sql] a').getAttribute('href')).toBe('#/sql');
    expect(await info.locator('[data-service-run=nosql] a').getAttribute('href')).toBe('#/db');
    // the last error with its time (the browser in UTC)
    await expectText(
      info.locator('[data-service-run=sql] [data-code]'),
      `· ${fill(t.code, { number: 15 })}: ${t.codes.table_mismatch} · ${consoleMoment(at + 1_000)}`,
    );
  });

  it('in French, and against the daemon both entries are answered', async () => {
    const { page } = await suite.open({ timezoneId: 'UTC', locale: 'fr' });
    await page.addInitScript(() => localStorage.setItem('console.locale', 'fr'));
    await loginApi(page, suite.d);
    const { get } = await api(page, suite.d);
    const own = (await get('/config/service_status')).body as ServicesStatus;
    const dbs = own.services.filter((s) => s.service === 'sql' || s.service === 'nosql');
    expect(dbs.map((s) => [s.service, s.state])).toEqual([
      ['sql', 'off'],
      ['nosql', 'off'],
    ]);
    await answerWith(page);
    await openConsole(page, suite.d, '/sql');
    await expectTitle(page, fr.nav.sql);
    const sql = pageBody(page, 'sql').locator('[data-block=sql-status]');
    const meaning = `${fill(fr.serviceStatus.code, { number: 15 }, 'fr')}\u00a0: ${fr.serviceStatus.codes.table_mismatch}`;
    await expectText(sql.locator('[data-item=last-error] [data-meaning]'), meaning);
    await expectText(sql.locator('[data-item=counter-rows] dt'), fr.serviceStatus.counters.rows);
  });
});
