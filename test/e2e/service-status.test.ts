// The live status blocks of the TLS pages and of /ftp in chromium (spec §2, §9 update tick):
// with the one status call (GET /config/service_status) answered by page.route (a part listening with its counters, one not
// listening with the daemon's reason, one stopped by the PLC, an FTP send ended with an error
// code, a failing call and an answer that does not fit showing "status unavailable", then
// recovering), and against the daemon itself: a saved TLS client part listening on its port, and
// an enabled FTP send without a PLC (its control interface not enabled) showing idle and why the
// control block cannot be used.

import type { Page, Route } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { FtpStatus } from '../../device/model/ftp-status.ts';
import type { TlsPartStatus, TlsStatus } from '../../device/model/tls-status.ts';
import { freePort } from '../support/ports.ts';
import { answerWithDetail, statusDetail } from '../support/service-status.ts';
import { api, consoleMoment, consoleSuite, en, expectText, expectTitle, fill, loginApi, openConsole, pageBody, WAIT_MS } from './support.ts';

const eventually = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: WAIT_MS, interval: 50 });
/** the browser's time zone, so that the expected times can be formatted here the same way */
const ZONE = 'UTC';
const LOCALE = en.app.dateLocale;
const count = (n: number) => new Intl.NumberFormat(LOCALE).format(n);
const moment = (ms: number) => consoleMoment(ms, LOCALE, ZONE);

/**
 * Answers the one status call with whatever `answer` holds at the time of the call: a 200 carries
 * `answer.body` as the detail of the service's entry, any other status carries it as it is.
 */
async function answerWith(page: Page, service: 'ftp' | 'tls', answer: { status: number; body: unknown }) {
  await page.route('**/config/service_status', async (route: Route) => {
    const body = answer.status === 200 ? answerWithDetail(service, answer.body) : answer.body;
    await route.fulfill({ status: answer.status, contentType: 'application/json', body: JSON.stringify(body) });
  });
}

/** Moves to another page of the console without reloading it. */
const go = async (page: Page, path: string, title: string) => {
  await page.evaluate((p) => {
    location.hash = `#${p}`;
  }, path);
  await expectTitle(page, title);
};

const part = (o: Partial<TlsPartStatus>): TlsPartStatus => ({
  enabled: true,
  port: 1502,
  listening: true,
  stoppedByPlc: false,
  connections: 0,
  accepted: 0,
  refused: 0,
  tlsFailures: 0,
  errors: 0,
  faults: 0,
  bytesIn: 0,
  bytesOut: 0,
  ...o,
});

describe('the live status of the TLS bridge and of the FTP send', () => {
  const suite = consoleSuite();

  it('TLS pages: a part listening with its counters, one not listening and why, one stopped by the PLC; unavailable, then back', async () => {
    const { page } = await suite.open({ timezoneId: ZONE });
    await loginApi(page, suite.d);
    const listening: TlsStatus = {
      client: part({ port: 1502, connections: 2, accepted: 1234, refused: 3, tlsFailures: 4, errors: 5, faults: 6, bytesIn: 1_234_567, bytesOut: 89 }),
      server: part({ port: 802, listening: false, reason: { code: 'port_in_use', args: { port: 802 } } }),
    };
    const answer = { status: 200, body: listening as unknown };
    await answerWith(page, 'tls', answer);

    await openConsole(page, suite.d, '/tlsclient');
    await expectTitle(page, en.nav.tlsclient);
    const client = pageBody(page, 'tlsclient').locator('[data-block=tls-client-status]');
    await expectText(client.locator('[data-item=state] [data-state=listening]'), fill(en.tls.states.listening, { port: 1502 }));
    const want = { connections: 2, accepted: 1234, refused: 3, tlsFailures: 4, errors: 5, faults: 6, bytesIn: 1_234_567, bytesOut: 89 };
    for (const [k, n] of Object.entries(want)) {
      await expectText(client.locator(`[data-item=${k}] dt`), en.tls.stats[k as keyof typeof want]);
      await expectText(client.locator(`[data-item=${k}] dd`), count(n));
    }
    // the counters follow the next answer
    answer.body = { ...listening, client: { ...listening.client, accepted: 1235 } };
    await expectText(client.locator('[data-item=accepted] dd'), count(1235));

    await go(page, '/tlsserver', en.nav.tlsserver);
    const server = pageBody(page, 'tlsserver').locator('[data-block=tls-server-status]');
    await expectText(server.locator('[data-state=closed]'), fill(en.tls.states.closed, { port: 802 }));
    await expectText(server.locator('[data-item=state] [data-detail]'), 'Port 802 is in use by another program.');
    answer.body = { ...listening, server: part({ port: 802, listening: false, stoppedByPlc: true, reason: { code: 'stopped_by_plc' } }) };
    await expectText(server.locator('[data-item=state] [data-state=stopped]'), en.tls.states.stopped);
    expect(await server.locator('[data-detail]').count()).toBe(0);

    // the overview: one line per part
    await go(page, '/tls', en.nav.tls);
    const tls = pageBody(page, 'tls');
    await expectText(tls.locator('[data-part-state=client] [data-state]'), fill(en.tls.states.listening, { port: 1502 }));
    await expectText(tls.locator('[data-part-state=server] [data-state]'), en.tls.states.stopped);
    answer.body = { client: part({ enabled: false, listening: false }), server: listening.server };
    await expectText(tls.locator('[data-part-state=client] [data-state]'), en.tls.states.disabled);
    await expectText(tls.locator('[data-part-state=server] [data-state]'), fill(en.tls.states.closed, { port: 802 }));

    // a failing call, then an answer that does not fit: unavailable; then back
    answer.status = 500;
    answer.body = { error: 'internal' };
    await expectText(tls.locator('[data-part-state=client] [data-status=unavailable]'), en.com.unavailable);
    await go(page, '/tlsclient', en.nav.tlsclient);
    await expectText(client.locator('[data-status=unavailable]'), en.com.unavailable);
    answer.status = 200;
    answer.body = { client: { ...listening.client, accepted: 'many' }, server: listening.server };
    await page.waitForTimeout(2 * 1500);
    await expectText(client.locator('[data-status=unavailable]'), en.com.unavailable);
    answer.body = listening;
    await expectText(client.locator('[data-item=state] [data-state=listening]'), fill(en.tls.states.listening, { port: 1502 }));
  });

  it('/ftp: an FTP send ended with an error code and its last send; unavailable, then back', async () => {
    const { page } = await suite.open({ timezoneId: ZONE });
    await loginApi(page, suite.d);
    const started = Date.UTC(2026, 10, 21, 13, 0, 0);
    const failed: FtpStatus = {
      enabled: true,
      cycle: true,
      nextCycle: started + 3_600_000,
      running: false,
      state: 'error',
      localDir: 'internal/log',
      plc: { code: 'control_interface_off' },
      lastSend: {
        trigger: 'cycle',
        started,
        finished: started + 95_000,
        result: 'error',
        files: ['tank_20261120.csv'],
        bytes: 20_480,
        failed: 2,
        held: ['tank_20261121.csv'],
        attempts: 4,
        deleted: 1,
        renamed: [{ file: 'tank_20261120.csv', remote: 'tank_20261120_1.csv', local: 'tank_20261120_1.bak' }],
        error: { code: 'refused', number: 2, message: 'connect ECONNREFUSED 127.0.0.1:2121' },
      },
    };
    const answer = { status: 200, body: failed as unknown };
    await answerWith(page, 'ftp', answer);
    await openConsole(page, suite.d, '/ftp');
    await expectTitle(page, en.nav.ftp);
    const block = pageBody(page, 'ftp').locator('[data-block=ftp-status]');
    const dd = (item: string) => block.locator(`[data-item=${item}] dd`);
    await expectText(dd('state'), `${en.ftpStatus.states.error} ${fill(en.ftpStatus.code, { number: 2 })}: ${en.ftpStatus.codes.refused}`);
    await expectText(dd('plc'), `${en.ftpStatus.plcDown} The service control interface is not enabled.`);
    await expectText(dd('local-dir'), 'internal/log');
    await expectText(dd('next-cycle'), moment(started + 3_600_000));
    await expectText(dd('retry'), en.ftpStatus.noRetry);
    await expectText(dd('last-send'), `${moment(started + 95_000)} · ${en.ftpStatus.triggers.cycle} · ${en.ftpStatus.states.error}`);
    await expectText(dd('files'), '1 (tank_20261120.csv)');
    await expectText(dd('bytes'), count(20_480));
    await expectText(dd('failed'), '2');
    await expectText(dd('held'), '1 (tank_20261121.csv)');
    await expectText(dd('deleted'), '1');
    await expectText(dd('renamed'), 'tank_20261120.csv → tank_20261120_1.csv (tank_20261120_1.bak)');
    await expectText(dd('attempts'), '4');
    await expectText(dd('error'), 'connect ECONNREFUSED 127.0.0.1:2121');

    // a retry that waits, the control block reachable again
    answer.body = { ...failed, state: 'running', running: true, retryAt: started + 125_000, plc: undefined };
    await expectText(dd('state'), en.ftpStatus.states.running);
    await expectText(dd('plc'), en.ftpStatus.plcOk);
    await expectText(dd('retry'), moment(started + 125_000));

    answer.status = 503;
    await expectText(block.locator('[data-status=unavailable]'), en.com.unavailable);
    answer.status = 200;
    answer.body = { ...failed, state: 'paused' };
    await page.waitForTimeout(2 * 1500);
    await expectText(block.locator('[data-status=unavailable]'), en.com.unavailable);
    answer.body = { enabled: false, cycle: false, running: false, state: 'idle', localDir: 'internal/log' } satisfies FtpStatus;
    await expectText(dd('state'), en.ftpStatus.off);
    expect(await block.locator('[data-item]').count()).toBe(1);
  });

  it('against the daemon: the saved TLS client part listens on its port; the enabled FTP send without a PLC is idle and says why', async () => {
    const { page } = await suite.open({ timezoneId: ZONE });
    await loginApi(page, suite.d);
    const a = await api(page, suite.d);
    const port = await freePort();
    const tls = (await a.get('/config/pew_tls')).body as Record<string, unknown>;
    const saved = await a.post('/config/pew_tls', {
      ...tls,
      enable_tlsclient: true,
      nontls_server_port: port,
      tls_server_host: '127.0.0.1',
      ca_verification_tlsclient: false,
    });
    expect(saved.status).toBe(200);
    await openConsole(page, suite.d, '/tlsclient');
    await expectTitle(page, en.nav.tlsclient);
    const client = pageBody(page, 'tlsclient').locator('[data-block=tls-client-status]');
    await expectText(client.locator('[data-item=state] [data-state=listening]'), fill(en.tls.states.listening, { port }));
    await expectText(client.locator('[data-item=connections] dd'), '0');
    await go(page, '/tls', en.nav.tls);
    await expectText(pageBody(page, 'tls').locator('[data-part-state=client] [data-state]'), fill(en.tls.states.listening, { port }));
    await expectText(pageBody(page, 'tls').locator('[data-part-state=server] [data-state]'), en.tls.states.disabled);

    // no PLC: the service control interface (pew.interface_plc) is COM1, which is not enabled
    const pew = (await a.get('/config/pew')).body as Record<string, unknown>;
    expect((await a.post('/config/pew', { ...pew, interface_plc: 0 })).status).toBe(200);
    const ftp = (await a.get('/config/pew_ftpc')).body as Record<string, unknown>;
    expect((await a.post('/config/pew_ftpc', { ...ftp, enable_ftp: true, server_ip: '127.0.0.1' })).status).toBe(200);
    // the engine reports why it cannot use the control block after its first poll of it
    let live: FtpStatus | undefined;
    await eventually(async () => {
      live = await statusDetail(a, 'ftp');
      return live.plc;
    }).not.toBe('');
    expect(live?.state).toBe('idle');
    await go(page, '/ftp', en.nav.ftp);
    const block = pageBody(page, 'ftp').locator('[data-block=ftp-status]');
    await expectText(block.locator('[data-item=state] dd'), en.ftpStatus.states.idle);
    expect(live!.plc).toEqual({ code: 'control_interface_off' });
    await expectText(block.locator('[data-item=plc] [data-detail]'), en.errors.reasons.control_interface_off);
    await expectText(block.locator('[data-item=local-dir] dd'), live!.localDir);
    await expectText(block.locator('[data-item=last-send] dd'), en.ftpStatus.never);
  });
});
