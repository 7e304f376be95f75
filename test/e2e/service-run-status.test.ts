// The live status of the services the PLC drives in chromium (design/services.md "Status
// everywhere"; spec §2 service pages, §9 update tick 1500 ms): the one component on /mqtt, /httpc
// and /smtp and the line per service on /info, all from the one status answer
// (GET /config/service_status). With the answer given by page.route: a connected MQTT client with
// its counters, an HTTP client waiting for its server with a queue and its last error's code and
// meaning, an e-mail client in error whose control block cannot be read, in English and German;
// the FTP send's counters on /ftp; the states follow the next answer; a failing call and an answer
// that does not fit show "status unavailable", then recover; axe-core finds nothing on the four
// pages with their status shown.
// Against the daemon itself: the entries it answers are the ones the pages show.

import type { Page, Route } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { ServiceStatus, ServicesStatus } from '../../device/model/service-status.ts';
import { axeViolations } from './axe.ts';
import { api, consoleMoment, consoleSuite, de, en, expectText, expectTitle, fill, goToRoute, loginApi, openConsole, pageBody } from './support.ts';

const ZONE = 'UTC';
const moment = (ms: number, locale = en.app.dateLocale) => consoleMoment(ms, locale, ZONE);
const at = Date.UTC(2026, 10, 27, 9, 30, 0);

const entry = (o: Partial<ServiceStatus> & Pick<ServiceStatus, 'service'>): ServiceStatus => ({
  enabled: true,
  state: 'idle',
  since: at,
  counters: {},
  queue: { waiting: 0, dropped: 0, bound: 1000 },
  ...o,
});

const ANSWER: ServicesStatus = {
  services: [
    entry({ service: 'mqtt', state: 'connected', since: at, lastSuccess: at + 5_000, counters: { published: 1234, received: 7, failed: 0 } }),
    entry({
      service: 'httpc',
      state: 'waiting',
      since: at + 60_000,
      counters: { requests: 3, failed: 1 },
      queue: { waiting: 12, dropped: 2, bound: 1000 },
      lastError: { code: 'refused', number: 2, message: 'connect ECONNREFUSED 127.0.0.1:8089', at: at + 61_000 },
    }),
    entry({
      service: 'email',
      state: 'error',
      plc: { code: 'control_interface_off' },
      counters: { sent: 0, failed: 1 },
      lastError: { code: 'auth_failed', number: 5, message: '535 5.7.8 Authentication failed', at: at + 120_000 },
    }),
    entry({ service: 'script', enabled: false, state: 'off' }),
    entry({
      service: 'ftp',
      lastSuccess: at + 30_000,
      // an error the service has succeeded since: /info no longer shows it
      lastError: { code: 'refused', number: 2, message: 'connect ECONNREFUSED 127.0.0.1:21', at: at + 10_000 },
      counters: { sends: 5, sent: 12, failed: 2 },
      queue: { waiting: 0, dropped: 0, bound: 0 },
    }),
  ],
};

async function answerWith(page: Page, answer: { status: number; body: unknown }) {
  await page.route('**/config/service_status', async (route: Route) => {
    await route.fulfill({ status: answer.status, contentType: 'application/json', body: JSON.stringify(answer.body) });
  });
}

describe('the live status of MQTT, HTTP client and e-mail, and the line per service on /info', () => {
  const suite = consoleSuite();

  it('the three pages and /info from one answer: states, codes, counters, queue; follows the answer; unavailable, then back; axe clean', async () => {
    const { page } = await suite.open({ timezoneId: ZONE });
    await loginApi(page, suite.d);
    const answer = { status: 200, body: ANSWER as unknown };
    await answerWith(page, answer);
    const t = en.serviceStatus;

    await openConsole(page, suite.d, '/mqtt');
    await expectTitle(page, en.nav.mqtt);
    const mqtt = pageBody(page, 'mqtt').locator('[data-block=mqtt-status]');
    const dd = (block: typeof mqtt, item: string) => block.locator(`[data-item=${item}] dd`);
    await expectText(mqtt.locator('h2'), t.title);
    await expectText(dd(mqtt, 'state'), t.states.connected);
    expect(await mqtt.locator('[data-item=state] [data-state=connected]').getAttribute('class')).toContain('up');
    await expectText(dd(mqtt, 'since'), moment(at));
    await expectText(dd(mqtt, 'plc'), t.plcOk);
    await expectText(dd(mqtt, 'last-success'), moment(at + 5_000));
    await expectText(dd(mqtt, 'last-error'), t.none);
    await expectText(mqtt.locator('[data-item=counter-published] dt'), t.counters.published);
    await expectText(dd(mqtt, 'counter-published'), '1,234');
    await expectText(dd(mqtt, 'counter-received'), '7');
    await expectText(dd(mqtt, 'queue'), fill(t.queueValue, { waiting: '0', bound: '1,000' }));
    expect(await axeViolations(page)).toEqual([]);
    // the counters follow the next answer
    const next = structuredClone(ANSWER);
    next.services[0] = { ...next.services[0]!, state: 'reconnecting', counters: { published: 1235, received: 7, failed: 0 } };
    answer.body = next;
    await expectText(dd(mqtt, 'counter-published'), '1,235');
    await expectText(dd(mqtt, 'state'), t.states.reconnecting);

    await goToRoute(page, '/httpc', en.nav.httpc);
    const httpc = pageBody(page, 'httpc').locator('[data-block=httpc-status]');
    await expectText(dd(httpc, 'state'), t.states.waiting);
    await expectText(dd(httpc, 'since'), moment(at + 60_000));
    await expectText(dd(httpc, 'last-success'), t.never);
    await expectText(httpc.locator('[data-item=last-error] [data-meaning]'), `${fill(t.code, { number: 2 })}: ${t.codes.refused}`);
    await expectText(httpc.locator('[data-item=last-error] [data-detail]'), `· connect ECONNREFUSED 127.0.0.1:8089 · ${moment(at + 61_000)}`);
    await expectText(dd(httpc, 'queue'), fill(t.queueValue, { waiting: '12', bound: '1,000' }));
    await expectText(dd(httpc, 'dropped'), '2');
    await expectText(dd(httpc, 'counter-requests'), '3');
    expect(await axeViolations(page)).toEqual([]);

    await goToRoute(page, '/smtp', en.nav.smtp);
    const email = pageBody(page, 'smtp').locator('[data-block=email-status]');
    await expectText(dd(email, 'state'), t.states.error);
    await expectText(dd(email, 'plc'), `${t.plcDown} The service control interface is not enabled.`);
    await expectText(email.locator('[data-item=last-error] [data-meaning]'), `${fill(t.code, { number: 5 })}: ${t.codes.auth_failed}`);
    await expectText(dd(email, 'counter-sent'), '0');
    expect(await axeViolations(page)).toEqual([]);

    // /ftp: the same block under its general settings, with the FTP send's counters and no queue
    await goToRoute(page, '/ftp', en.nav.ftp);
    const ftp = pageBody(page, 'ftp').locator('[data-block=ftp-service-status]');
    await expectText(dd(ftp, 'state'), t.states.idle);
    await expectText(dd(ftp, 'last-success'), moment(at + 30_000));
    await expectText(ftp.locator('[data-item=counter-sends] dt'), t.counters.sends);
    await expectText(dd(ftp, 'counter-sends'), '5');
    await expectText(dd(ftp, 'counter-sent'), '12');
    await expectText(dd(ftp, 'counter-failed'), '2');
    expect(await ftp.locator('[data-item=queue]').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // /info: a line per service, linked to its page
    await goToRoute(page, '/info', en.nav.info);
    const run = pageBody(page, 'info').locator('[data-block=service-run]');
    await expectText(run.locator('[data-service-run=mqtt] dt'), en.nav.mqtt);
    await expectText(run.locator('[data-service-run=mqtt] [data-state]'), t.states.reconnecting);
    await expectText(run.locator('[data-service-run=httpc] [data-state]'), t.states.waiting);
    await expectText(run.locator('[data-service-run=httpc] [data-queue]'), `· ${t.queue}: 12`);
    await expectText(
      run.locator('[data-service-run=httpc] [data-code=refused]'),
      `· ${fill(t.code, { number: 2 })}: ${t.codes.refused} · ${moment(at + 61_000)}`,
    );
    await expectText(run.locator('[data-service-run=email] [data-state]'), t.states.error);
    expect(await run.locator('[data-service-run=ftp] [data-code]').count()).toBe(0); // succeeded since
    await expectText(run.locator('[data-service-run=script] [data-state]'), t.states.off);
    expect(await run.locator('[data-service-run=script] [data-since]').count()).toBe(0);
    expect(await run.locator('[data-service-run=email] a').getAttribute('href')).toBe('#/smtp');

    // a failing call, then an answer that does not fit: unavailable; then back
    answer.status = 500;
    answer.body = { error: 'internal' };
    await expectText(run.locator('[data-status=unavailable]'), en.com.unavailable);
    await goToRoute(page, '/mqtt', en.nav.mqtt);
    await expectText(mqtt.locator('[data-status=unavailable]'), en.com.unavailable);
    answer.status = 200;
    answer.body = { services: [{ ...ANSWER.services[0], state: 'sleeping' }] };
    await page.waitForTimeout(2 * 1500);
    await expectText(mqtt.locator('[data-status=unavailable]'), en.com.unavailable);
    answer.body = { services: [entry({ service: 'mqtt', enabled: false, state: 'off' })] };
    await expectText(dd(mqtt, 'state'), t.off);
    expect(await mqtt.locator('[data-item]').count()).toBe(1);
  });

  it('in German: the states, the error meaning and the numbers in the language of the console', async () => {
    const { page } = await suite.open({ timezoneId: ZONE, locale: 'de' });
    await page.addInitScript(() => localStorage.setItem('console.locale', 'de'));
    await loginApi(page, suite.d);
    await answerWith(page, { status: 200, body: ANSWER });
    const t = de.serviceStatus;
    await openConsole(page, suite.d, '/httpc');
    await expectTitle(page, de.nav.httpc);
    const httpc = pageBody(page, 'httpc').locator('[data-block=httpc-status]');
    await expectText(httpc.locator('h2'), t.title);
    await expectText(httpc.locator('[data-item=state] dd'), t.states.waiting);
    await expectText(httpc.locator('[data-item=last-error] [data-meaning]'), `${fill(t.code, { number: 2 }, 'de')}: ${t.codes.refused}`);
    await expectText(httpc.locator('[data-item=queue] dd'), fill(t.queueValue, { waiting: '12', bound: '1.000' }, 'de'));
    await expectText(httpc.locator('[data-item=since] dd'), moment(at + 60_000, de.app.dateLocale));
    await goToRoute(page, '/info', de.nav.info);
    await expectText(pageBody(page, 'info').locator('[data-block=service-run] h2'), t.runTitle);
    await expectText(pageBody(page, 'info').locator('[data-service-run=email] [data-state]'), t.states.error);
  });

  it('against the daemon: the pages show the entries it answers (MQTT enabled with no broker, the others off)', async () => {
    const { page } = await suite.open({ timezoneId: ZONE });
    await loginApi(page, suite.d);
    const a = await api(page, suite.d);
    const mqttSection = (await a.get('/config/pew_mqtt')).body as Record<string, unknown>;
    // nothing listens on port 9 of the loopback: the client is refused and tries again
    expect((await a.post('/config/pew_mqtt', { ...mqttSection, enable_mqtt: true, broker_addr: 'mqtt://127.0.0.1:9' })).status).toBe(200);
    let live: ServiceStatus | undefined;
    await expect
      .poll(
        async () => {
          live = ((await a.get('/config/service_status')).body as ServicesStatus).services.find((s) => s.service === 'mqtt');
          return live?.lastError?.code;
        },
        { timeout: 15_000 },
      )
      .toBe('refused');
    await openConsole(page, suite.d, '/mqtt');
    const mqtt = pageBody(page, 'mqtt').locator('[data-block=mqtt-status]');
    const refused = `${fill(en.serviceStatus.code, { number: 2 })}: ${en.serviceStatus.codes.refused}`;
    await expectText(mqtt.locator('[data-item=last-error] [data-meaning]'), refused);
    await expect.poll(() => mqtt.locator('[data-item=state] [data-state]').getAttribute('data-state')).toMatch(/^(connecting|reconnecting)$/);
    await goToRoute(page, '/smtp', en.nav.smtp);
    await expectText(pageBody(page, 'smtp').locator('[data-block=email-status] [data-item=state] dd'), en.serviceStatus.off);
    await goToRoute(page, '/info', en.nav.info);
    const run = pageBody(page, 'info').locator('[data-block=service-run]');
    await expectText(run.locator('[data-service-run=httpc] [data-state]'), en.serviceStatus.states.off);
    await expect.poll(() => run.locator('[data-service-run=mqtt] [data-state]').getAttribute('data-state')).toMatch(/^(connecting|reconnecting)$/);
    await expectText(run.locator('[data-service-run=script] [data-state]'), en.serviceStatus.states.off);
    // the FTP send, the TLS bridge, the clock sync and the IEC 104 station have their line from the same answer
    await expectText(run.locator('[data-service-run=ftp] a'), en.nav.ftp);
    await expectText(run.locator('[data-service-run=tls] a'), en.nav.tls);
    await expectText(run.locator('[data-service-run=rtc] a'), en.nav.datetime);
    await expectText(run.locator('[data-service-run=iec] a'), en.nav.iec);
    // and the SQL and NoSQL clients theirs
    await expectText(run.locator('[data-service-run=sql] a'), en.nav.sql);
    await expectText(run.locator('[data-service-run=nosql] a'), en.nav.db);
    expect(await run.locator('[data-service-run]').count()).toBe(10);
    expect((await a.post('/config/pew_mqtt', mqttSection)).status).toBe(200);
  });
});
