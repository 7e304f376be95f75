// The /iec, /tls, /tlsclient, /tlsserver and /datetime pages in chromium against a daemon in
// simulator mode: every field of pew_60870, pew_tls and pew_rtc on its page, a complete setup saved,
// reloaded and stored, reset, the rules of spec §5/§9 refused by the console with their message and
// by the daemon with the same code, the live clock status (its call answered by page.route, so the
// ok, failed-sync and failing cases are exact; the daemon's own answer once), and the read-only view
// of the user role.

import type { Locator, Page, Route } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { RtcStatus } from '../../device/model/rtc-status.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { connectionSchema, iecSchema, pew_60870 } from '../../device/model/sections/iec.ts';
import { pew_rtc, rtcSchema } from '../../device/model/sections/rtc.ts';
import { pew_tls } from '../../device/model/sections/tls.ts';
import { freePort, freePorts } from '../support/ports.ts';
import { answerWithDetail, statusDetail } from '../support/service-status.ts';
import {
  api,
  type ConsolePage,
  consoleSuite,
  en,
  expectNotice,
  expectText,
  expectTitle,
  fieldInput,
  fill,
  loginApi,
  openConsole,
  pageBody,
  saveRefusal,
  USER,
  WAIT_MS,
} from './support.ts';

type Body = Record<string, any>;
type Issue = { path: string; code: string; params?: Record<string, unknown> };

/** expect.poll with the patience of a loaded machine */
const eventually = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: WAIT_MS, interval: 50 });

/** Sets a field the way a user does: ticks a checkbox, picks an option, or types. */
async function put(page: Page, section: string, path: string, value: string | boolean): Promise<void> {
  const input = fieldInput(page, section, path);
  const kind = await input.evaluate((e) => (e.tagName === 'SELECT' ? 'select' : (e as HTMLInputElement).type));
  if (kind === 'checkbox') await input.setChecked(value as boolean);
  else if (kind === 'select') await input.selectOption(String(value));
  else await input.fill(String(value));
}

async function putAll(page: Page, section: string, values: Record<string, string | boolean>): Promise<void> {
  for (const [path, value] of Object.entries(values)) await put(page, section, path, value);
}

const fieldError = (page: Page, path: string): Locator => page.locator(`[data-field="${path}"] .error`);
const saveButton = (page: Page) => page.locator('.page-bar [data-action=save]');
const dialog = (page: Page) => page.locator('[role=alertdialog]');

/** Saves the page and waits for the daemon's answer (an earlier saved notice may still be showing). */
async function save(page: Page): Promise<void> {
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/config'));
  await saveButton(page).click();
  expect((await answer).status()).toBe(200);
  await expectNotice(page, 'info', en.form.notice.saved);
}

async function reset(page: Page): Promise<void> {
  await page.locator('.page-bar [data-action=reset]').click();
  await dialog(page).locator('button.danger', { hasText: en.confirm.reset }).click();
  await expectNotice(page, 'warning', en.form.notice.resetDone);
}

/** Every POST the page sends to /config (a refused save must send none). */
function watchPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith('/config')) posts.push(r.url());
  });
  return posts;
}

/** The save of an invalid value is refused with "<page>, <field>: <message>" (`label` with its entry) and nothing posted. */
async function expectSaveRefused(page: Page, posts: string[], pageName: string, label: string, message: string): Promise<void> {
  const before = posts.length;
  await saveButton(page).click();
  await expectText(page.locator('.notices .notice.error span'), saveRefusal([[`${pageName}, ${label}`, message]]));
  expect(posts.length).toBe(before);
}

/** The daemon refuses `body` with an issue at `path` of the code (and params) the console showed. */
async function expectDaemonRefuses(page: Page, d: Parameters<typeof api>[1], section: string, body: Body, want: Issue): Promise<void> {
  const a = await api(page, d);
  const before = (await a.get(`/config/${section}`)).body;
  const r = await a.post(`/config/${section}`, body);
  expect(r.status).toBe(400);
  const issue = (r.body.error.issues as Issue[]).find((i) => i.path === want.path);
  expect(issue).toMatchObject(want);
  expect((await a.get(`/config/${section}`)).body).toEqual(before);
}

const stored = async (page: Page, d: Parameters<typeof api>[1], section: string): Promise<Body> => {
  const r = await (await api(page, d)).get(`/config/${section}`);
  expect(r.status).toBe(200);
  return r.body as Body;
};

describe('the IEC 60870, TLS and date/time pages', () => {
  const suite = consoleSuite();
  let cp: ConsolePage;

  it('/iec: every field; a full setup with 4 redundant connections saved, reloaded and stored; no 5th connection', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/iec');
    await expectTitle(page, en.nav.iec);
    const body = pageBody(page, 'iec');
    const port = await freePort();

    // every field of the section: the top level and the fields of the default connection
    for (const k of Object.keys(iecSchema.entries).filter((k) => k !== 'connections')) await fieldInput(page, 'pew_60870', k).waitFor();
    for (const k of Object.keys(connectionSchema.entries)) await fieldInput(page, 'pew_60870', `connections.0.${k}`).waitFor();
    expect(await body.locator('[data-connection]').count()).toBe(1);
    expect(await fieldInput(page, 'pew_60870', 'port').inputValue()).toBe('2404');
    expect(await fieldInput(page, 'pew_60870', 'connections.0.t1').inputValue()).toBe('15');

    // spec §5: the unencrypted warning while the server is enabled
    expect(await body.locator('[data-banner=iec-unencrypted]').count()).toBe(0);
    await put(page, 'pew_60870', 'enable_60870', true);
    await expectText(body.locator('[data-banner=iec-unencrypted]'), en.iec.unencrypted);

    await putAll(page, 'pew_60870', {
      asdu_address: '258',
      asdu_structured: true,
      originator: '7',
      port: String(port),
      expert_mode: true,
      plc_poll: '50',
      plc_reconnect_reset: true,
      plc_live_check: false,
    });
    await expectText(body.locator('[data-note=structured]'), fill(en.iec.structured, { hi: 1, lo: 2 }));
    const first = {
      area: 'FL',
      plc_buffer_rbm: '100',
      plc_buffer_m: '110',
      plc_buffer_m_depth: '50',
      plc_buffer_c: '200',
      t1: '20',
      t2: '8',
      t3: '40',
      k: '9',
      w: '6',
      testfrm_in_stop_dt: false,
      timeout: '2000',
      lock_mode: true,
      ip1: '10.0.0.1',
      ip2: '10.0.0.9',
    };
    await putAll(page, 'pew_60870', Object.fromEntries(Object.entries(first).map(([k, v]) => [`connections.0.${k}`, v])));
    await expectText(body.locator('[data-connection="0"] [data-footprint]').nth(0), fill(en.iec.footprint, { area: 'FL', first: 110, last: 159, count: 50 }));
    await expectText(body.locator('[data-connection="0"] [data-footprint]').nth(1), fill(en.iec.footprint, { area: 'FL', first: 200, last: 225, count: 26 }));

    // up to 4 connections; the add button stops there with the §5 message
    const add = body.locator('[data-action=add-connection]');
    for (let n = 2; n <= 4; n++) {
      await add.click();
      await eventually(() => body.locator('[data-connection]').count()).toBe(n);
    }
    expect(await add.isDisabled()).toBe(true);
    await expectText(body.locator('[data-note=max-connections]'), fill(en.errors.too_many, { max: 4 }));
    await expectText(body.locator('[data-count]'), fill(en.iec.count, { count: 4, max: 4 }));
    // remove the last one and add it again: the new one has the defaults
    await body.locator('[data-connection="3"] [data-action=remove-connection]').click();
    await eventually(() => body.locator('[data-connection]').count()).toBe(3);
    expect(await add.isEnabled()).toBe(true);
    await add.click();
    await eventually(() => body.locator('[data-connection]').count()).toBe(4);
    expect(await fieldInput(page, 'pew_60870', 'connections.3.t3').inputValue()).toBe('20');
    await putAll(page, 'pew_60870', {
      'connections.1.area': 'LD',
      'connections.1.plc_buffer_c': '300',
      'connections.3.ip1': '192.168.0.10',
      'connections.3.ip2': '192.168.0.20',
    });

    await save(page);
    const want = {
      enable_60870: true,
      asdu_address: 258,
      asdu_structured: true,
      expert_mode: true,
      originator: 7,
      port,
      plc_poll: 50,
      plc_reconnect_reset: true,
      plc_live_check: false,
      connections: [
        {
          area: 'FL',
          plc_buffer_rbm: 100,
          plc_buffer_m: 110,
          plc_buffer_m_depth: 50,
          plc_buffer_c: 200,
          t1: 20,
          t2: 8,
          t3: 40,
          k: 9,
          w: 6,
          testfrm_in_stop_dt: false,
          testfrm_in_start_dt: true,
          timeout: 2000,
          lock_mode: true,
          ip1: '10.0.0.1',
          ip2: '10.0.0.9',
        },
        { ...defaultsOf(pew_60870).connections[0], area: 'LD', plc_buffer_c: 300 },
        defaultsOf(pew_60870).connections[0],
        { ...defaultsOf(pew_60870).connections[0], ip1: '192.168.0.10', ip2: '192.168.0.20' },
      ],
    };
    expect(await stored(page, suite.d, 'pew_60870')).toEqual(want);

    // reload: the stored values in the fields
    await page.reload();
    await expectTitle(page, en.nav.iec);
    await eventually(() => body.locator('[data-connection]').count()).toBe(4);
    expect(await fieldInput(page, 'pew_60870', 'asdu_address').inputValue()).toBe('258');
    expect(await fieldInput(page, 'pew_60870', 'plc_live_check').isChecked()).toBe(false);
    expect(await fieldInput(page, 'pew_60870', 'connections.0.area').inputValue()).toBe('FL');
    expect(await fieldInput(page, 'pew_60870', 'connections.0.w').inputValue()).toBe('6');
    expect(await fieldInput(page, 'pew_60870', 'connections.1.area').inputValue()).toBe('LD');
    expect(await fieldInput(page, 'pew_60870', 'connections.3.ip2').inputValue()).toBe('192.168.0.20');
    expect(await saveButton(page).isDisabled()).toBe(true);

    // a 5th connection posted straight to the daemon: the same code the console names
    await expectDaemonRefuses(
      page,
      suite.d,
      'pew_60870',
      { ...want, connections: [...want.connections, defaultsOf(pew_60870).connections[0]] },
      { path: 'connections', code: 'too_many', params: { max: 4 } },
    );
  });

  it('/iec: the timer and window rules refused by the console and by the daemon with the same code; reset', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/iec');
    await expectTitle(page, en.nav.iec);
    const posts = watchPosts(page);
    const saved = await stored(page, suite.d, 'pew_60870');
    // the connection's place comes first ("connection 1, t2 …")
    const label = (k: string, n = 1) => `${fill(en.form.place.connection, { n })}, ${en.fields.pew_60870.connections[k as 't2'].label}`;

    // spec §5: t2 < t1 (here t2 = t1 = 20)
    await put(page, 'pew_60870', 'connections.0.t2', '20');
    await expectText(fieldError(page, 'connections.0.t2'), en.errors.iec_t2_t1);
    await expectSaveRefused(page, posts, en.nav.iec, label('t2'), en.errors.iec_t2_t1);
    const bad = structuredClone(saved);
    bad.connections[0].t2 = 20;
    await expectDaemonRefuses(page, suite.d, 'pew_60870', bad, { path: 'connections.0.t2', code: 'iec_t2_t1' });
    await put(page, 'pew_60870', 'connections.0.t2', '8');
    await eventually(() => fieldError(page, 'connections.0.t2').count()).toBe(0);

    // spec §5: t1 < t3
    await put(page, 'pew_60870', 'connections.1.t3', '15');
    await expectText(fieldError(page, 'connections.1.t3'), en.errors.iec_t1_t3);
    const bad3 = structuredClone(saved);
    bad3.connections[1].t3 = 15;
    await expectDaemonRefuses(page, suite.d, 'pew_60870', bad3, { path: 'connections.1.t3', code: 'iec_t1_t3' });
    await put(page, 'pew_60870', 'connections.1.t3', '20');

    // spec §5: w <= 2/3 k (k 6 allows w 4)
    await putAll(page, 'pew_60870', { 'connections.2.k': '6', 'connections.2.w': '5' });
    await expectText(fieldError(page, 'connections.2.w'), fill(en.errors.iec_w_k, { max: 4 }));
    await expectSaveRefused(page, posts, en.nav.iec, label('w', 3), fill(en.errors.iec_w_k, { max: 4 }));
    const badW = structuredClone(saved);
    Object.assign(badW.connections[2], { k: 6, w: 5 });
    await expectDaemonRefuses(page, suite.d, 'pew_60870', badW, { path: 'connections.2.w', code: 'iec_w_k', params: { max: 4 } });
    // spec §9: k max 14
    await put(page, 'pew_60870', 'connections.2.k', '15');
    await expectText(fieldError(page, 'connections.2.k'), fill(en.errors.out_of_range, { min: 2, max: 14 }));
    await putAll(page, 'pew_60870', { 'connections.2.k': '12', 'connections.2.w': '8' });
    await eventually(() => page.locator('[data-page=iec] .error').count()).toBe(0);
    expect(posts).toEqual([]);

    // reset: the defaults in the fields (one default connection), stored only when saved
    await reset(page);
    await eventually(() => pageBody(page, 'iec').locator('[data-connection]').count()).toBe(1);
    expect(await fieldInput(page, 'pew_60870', 'asdu_address').inputValue()).toBe('1');
    expect(await fieldInput(page, 'pew_60870', 'enable_60870').isChecked()).toBe(false);
    expect(await stored(page, suite.d, 'pew_60870')).toEqual(saved);
    await save(page);
    expect(await stored(page, suite.d, 'pew_60870')).toEqual(defaultsOf(pew_60870));
  });

  it('/tls overview, /tlsclient and /tlsserver: every field, a complete setup saved and stored, the port and range rules, reset', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/tls');
    await expectTitle(page, en.nav.tls);
    const posts = watchPosts(page);
    const overview = pageBody(page, 'tls');
    const [plainPort, tlsPort] = (await freePorts(2)) as [number, number];
    const label = (k: string) => en.fields.pew_tls[k as 'nontls_server_port'].label;

    // the overview: both switches, where they listen and forward, the links and the downloads
    await fieldInput(page, 'pew_tls', 'enable_tlsclient').waitFor();
    await fieldInput(page, 'pew_tls', 'enable_tlsserver').waitFor();
    await expectText(overview.locator('[data-flow=client]'), fill(en.tls.clientFlow, { port: 1502, host: en.tls.noHost, dest: 802 }));
    await expectText(overview.locator('[data-flow=server]'), fill(en.tls.serverFlow, { port: 8802, host: en.tls.noHost, dest: 502 }));
    expect(await overview.locator('a[download]').evaluateAll((as) => as.map((a) => a.getAttribute('download')))).toEqual([
      'example_tls.zip',
      'example_library.zip',
    ]);
    await overview.locator('a[data-link=tlsclient]').click();
    await expectTitle(page, en.nav.tlsclient);

    // /tlsclient: every field of the client part
    const clientFields = [
      'enable_tlsclient',
      'plc_control_dt',
      'plc_poll',
      'nontls_server_port',
      'nontls_accessability',
      'nontls_access_ip1',
      'nontls_access_ip2',
      'tls_server_host',
      'tls_destination_port',
      'tls_min_version_client',
      'ca_verification_tlsclient',
      'tlsclient_certauth',
      'tlsclientca',
      'tlsclientcert',
      'tlsclientkey',
    ];
    for (const k of clientFields) await fieldInput(page, 'pew_tls', k).waitFor();
    // spec §5: a non-TLS server port has a minimum of 500
    await put(page, 'pew_tls', 'nontls_server_port', '499');
    const portMessage = fill(en.errors.out_of_range, { min: 500, max: 65535 });
    await expectText(fieldError(page, 'nontls_server_port'), portMessage);
    await expectSaveRefused(page, posts, en.nav.tls, label('nontls_server_port'), portMessage);
    const defaults = defaultsOf(pew_tls) as Body;
    await expectDaemonRefuses(
      page,
      suite.d,
      'pew_tls',
      { ...defaults, nontls_server_port: 499 },
      { path: 'nontls_server_port', code: 'out_of_range', params: { min: 500, max: 65535 } },
    );
    await put(page, 'pew_tls', 'nontls_server_port', '500');
    await eventually(() => fieldError(page, 'nontls_server_port').count()).toBe(0);

    // spec §5: the IP end must be greater than the start
    await putAll(page, 'pew_tls', {
      enable_tlsclient: true,
      tls_server_host: 'gateway.example',
      nontls_accessability: true,
      nontls_access_ip1: '10.0.0.20',
      nontls_access_ip2: '10.0.0.10',
    });
    await expectText(fieldError(page, 'nontls_access_ip2'), en.errors.ip_range);
    await expectSaveRefused(page, posts, en.nav.tls, label('nontls_access_ip2'), en.errors.ip_range);
    await expectDaemonRefuses(
      page,
      suite.d,
      'pew_tls',
      {
        ...defaults,
        enable_tlsclient: true,
        tls_server_host: 'gateway.example',
        nontls_accessability: true,
        nontls_access_ip1: '10.0.0.20',
        nontls_access_ip2: '10.0.0.10',
      },
      { path: 'nontls_access_ip2', code: 'ip_range' },
    );

    // the minimum version: 1.2 or 1.3 proposed, an older one marked
    const versionNote = pageBody(page, 'tlsclient').locator('[data-note=tls-version]');
    await expectText(versionNote, en.tls.newSetups);
    await put(page, 'pew_tls', 'tls_min_version_client', '1.1');
    await eventually(() => versionNote.getAttribute('data-old')).toBe('true');
    // client-certificate authentication needs the certificate and the key
    await put(page, 'pew_tls', 'tlsclient_certauth', '1');
    await expectText(fieldError(page, 'tlsclientcert'), en.errors.required);
    const client = {
      plc_control_dt: '400',
      plc_poll: '2',
      nontls_server_port: String(plainPort),
      nontls_access_ip1: '10.0.0.1',
      nontls_access_ip2: '10.0.0.50',
      tls_destination_port: '8443',
      tls_min_version_client: '1.3',
      ca_verification_tlsclient: true,
      tlsclientca: 'ca.pem',
      tlsclientcert: 'client.crt',
      tlsclientkey: 'key.key',
    };
    await putAll(page, 'pew_tls', client);
    await eventually(() => versionNote.getAttribute('data-old')).toBe(null);
    await expectText(pageBody(page, 'tlsclient').locator('[data-footprint]'), fill(en.form.footprint, { first: 400, last: 401, count: 2 }));
    await save(page);

    // /tlsserver: every field of the server part, the register banner, a complete setup
    await openConsole(page, suite.d, '/tlsserver');
    await expectTitle(page, en.nav.tlsserver);
    const serverFields = [
      'enable_tlsserver',
      'plc_status_dt',
      'plc_poll_tlsserver',
      'tls_server_port',
      'tls_accessability',
      'tls_access_ip1',
      'tls_access_ip2',
      'nontls_server_host',
      'nontls_destination_port',
      'tls_min_version_server',
      'tlsserver_certauth',
      'tlsserverca',
      'tlsservercert',
      'tlsserverkey',
    ];
    for (const k of serverFields) await fieldInput(page, 'pew_tls', k).waitFor();
    expect([...clientFields, ...serverFields].sort()).toEqual(Object.keys(defaults).sort());
    await putAll(page, 'pew_tls', { enable_tlsserver: true, plc_status_dt: '401' });
    await expectText(page.locator('[data-banner=registers]'), en.form.multipleRegisters);
    const server = {
      plc_status_dt: '410',
      plc_poll_tlsserver: '3',
      tls_server_port: String(tlsPort),
      tls_accessability: true,
      tls_access_ip1: '0.0.0.0',
      tls_access_ip2: '0.0.0.0',
      nontls_server_host: '127.0.0.1',
      nontls_destination_port: '5020',
      tls_min_version_server: '1.2',
      tlsserver_certauth: '1',
      tlsservercert: 'server.pem',
      tlsserverkey: 'key.pem',
    };
    await putAll(page, 'pew_tls', server);
    await eventually(() => page.locator('[data-banner=registers]').count()).toBe(0);
    await expectText(fieldError(page, 'tlsserverca'), en.errors.required); // client certificates are checked against the CA
    await put(page, 'pew_tls', 'tlsserverca', 'ca.cer');
    await expectText(pageBody(page, 'tlsserver').locator('[data-note=all-addresses]'), en.port.allAddresses);
    await save(page);

    const want = {
      ...defaults,
      enable_tlsclient: true,
      plc_control_dt: 400,
      plc_poll: 2,
      tlsclientca: 'ca.pem',
      tlsclientcert: 'client.crt',
      tlsclientkey: 'key.key',
      tls_min_version_client: '1.3',
      nontls_server_port: plainPort,
      nontls_accessability: true,
      nontls_access_ip1: '10.0.0.1',
      nontls_access_ip2: '10.0.0.50',
      tls_server_host: 'gateway.example',
      tls_destination_port: 8443,
      ca_verification_tlsclient: true,
      tlsclient_certauth: 1,
      enable_tlsserver: true,
      plc_status_dt: 410,
      plc_poll_tlsserver: 3,
      tls_min_version_server: '1.2',
      tls_server_port: tlsPort,
      tls_accessability: true,
      tls_access_ip1: '0.0.0.0',
      tls_access_ip2: '0.0.0.0',
      nontls_destination_port: 5020,
      nontls_server_host: '127.0.0.1',
      tlsserver_certauth: 1,
      tlsserverca: 'ca.cer',
      tlsservercert: 'server.pem',
      tlsserverkey: 'key.pem',
    };
    expect(await stored(page, suite.d, 'pew_tls')).toEqual(want);

    // reload: the stored values, and the overview shows where both parts listen and forward
    await page.reload();
    await expectTitle(page, en.nav.tlsserver);
    await eventually(() => fieldInput(page, 'pew_tls', 'tls_server_port').inputValue()).toBe(String(tlsPort));
    expect(await fieldInput(page, 'pew_tls', 'tlsserver_certauth').inputValue()).toBe('1');
    expect(await fieldInput(page, 'pew_tls', 'tlsserverca').inputValue()).toBe('ca.cer');
    await openConsole(page, suite.d, '/tls');
    await expectText(overview.locator('[data-flow=client]'), fill(en.tls.clientFlow, { port: plainPort, host: 'gateway.example', dest: 8443 }));
    await expectText(overview.locator('[data-flow=server]'), fill(en.tls.serverFlow, { port: tlsPort, host: '127.0.0.1', dest: 5020 }));
    expect(await fieldInput(page, 'pew_tls', 'enable_tlsclient').isChecked()).toBe(true);
    await openConsole(page, suite.d, '/tlsclient');
    await eventually(() => fieldInput(page, 'pew_tls', 'nontls_access_ip2').inputValue()).toBe('10.0.0.50');
    expect(await fieldInput(page, 'pew_tls', 'tls_min_version_client').inputValue()).toBe('1.3');

    // reset (the page edits the whole pew_tls section): the defaults, stored when saved
    await reset(page);
    await eventually(() => fieldInput(page, 'pew_tls', 'nontls_server_port').inputValue()).toBe('1502');
    expect(await fieldInput(page, 'pew_tls', 'enable_tlsclient').isChecked()).toBe(false);
    expect(await stored(page, suite.d, 'pew_tls')).toEqual(want);
    await save(page);
    expect(await stored(page, suite.d, 'pew_tls')).toEqual(defaults);
  });

  it('/datetime: every field, a setup saved and stored, a bad clock register refused by both, reset; the live status block', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    // the status call is answered here: its daemon side is not what this test is about
    const t0 = Date.now();
    const base = Date.UTC(2026, 2, 1, 10, 0, 0);
    const ok: RtcStatus = {
      unitTime: base,
      timezone: 'UTC',
      ntp: { enabled: true, synchronized: true, servers: ['pool.ntp.org'] },
      running: true,
      lastSync: { at: base - 60_000, trigger: 'time', ok: true, written: '2026-03-01 09:59:00' },
    };
    let answer: { status: number; body: unknown } = { status: 200, body: ok };
    let calls = 0;
    await page.route('**/config/service_status', async (route: Route) => {
      calls++;
      const body = answer.body as RtcStatus;
      // the unit's clock runs on between two answers
      const running = answer.status === 200 && typeof body.unitTime === 'number' ? { ...body, unitTime: base + (Date.now() - t0) } : body;
      const sent = answer.status === 200 ? answerWithDetail('rtc', running) : running;
      await route.fulfill({ status: answer.status, contentType: 'application/json', body: JSON.stringify(sent) });
    });
    await openConsole(page, suite.d, '/datetime');
    await expectTitle(page, en.nav.datetime);
    const status = pageBody(page, 'datetime').locator('[data-block=rtc-status]');
    const posts = watchPosts(page);

    // the status: unit time (ticking), zone, NTP, running, the last update
    await status.locator('[data-status=ok]').waitFor();
    await expectText(status.locator('[data-item=timezone] dd'), 'UTC');
    await expectText(status.locator('[data-item=ntp] dd'), `${en.info.enabled} · ${en.datetime.synced} · pool.ntp.org`);
    await expectText(status.locator('[data-item=running] dd'), en.datetime.yes);
    const last = status.locator('[data-item=last-sync] dd');
    await eventually(async () => (await last.textContent()) ?? '').toContain(
      `${en.datetime.triggers.time} · ${fill(en.datetime.ok, { written: '2026-03-01 09:59:00' })}`,
    );
    expect(await last.textContent()).toContain('1 Mar 2026');
    const unitTime = status.locator('[data-item=unit-time]');
    const shown = async () => Number(await unitTime.getAttribute('data-ms'));
    const callsBefore = calls;
    const wall0 = Date.now();
    const first = await shown();
    expect(first).toBeGreaterThanOrEqual(base);
    expect(await unitTime.locator('dd').textContent()).toMatch(/^1 Mar 2026, 10:0\d:\d\d$/);
    const firstText = await unitTime.locator('dd').textContent();
    // it ticks: more than 2 s of the unit's time pass on the page ...
    await expect.poll(async () => (await shown()) - first).toBeGreaterThan(2000);
    const later = await shown();
    const wall = Date.now() - wall0;
    // ... never faster than time passes here (one update of 1.5 s ahead at the most)
    expect(later - first).toBeLessThanOrEqual(wall + 1500);
    expect(await unitTime.locator('dd').textContent()).not.toBe(firstText);
    // spec §9: asked every 1.5 s, never more often
    expect(calls - callsBefore).toBeGreaterThanOrEqual(1);
    expect(calls - callsBefore).toBeLessThanOrEqual(Math.ceil(wall / 1500) + 1);

    // a failed update: why, in the user's language, and the unit's own words
    answer = {
      status: 200,
      body: { ...ok, running: false, lastSync: { at: base, trigger: 'plc', ok: false, failure: { reason: 'no_answer', message: 'no reply within 1000 ms' } } },
    };
    await eventually(async () => (await last.textContent()) ?? '').toContain(
      `${en.datetime.triggers.plc} · ${en.datetime.failed}: ${en.com.reasons.no_answer} (no reply within 1000 ms)`,
    );
    expect(await status.locator('[data-item=last-sync]').getAttribute('data-ok')).toBe('false');
    await expectText(status.locator('[data-item=running] dd'), en.datetime.no);
    // the call failing, then an answer that is not a status: "status unavailable"; back when it answers again
    answer = { status: 500, body: { error: { code: 'internal', message: 'x' } } };
    await expectText(status.locator('[data-status=unavailable]'), en.com.unavailable);
    answer = { status: 200, body: ok };
    await status.locator('[data-status=ok]').waitFor();
    answer = { status: 200, body: { unitTime: 'soon' } };
    await expectText(status.locator('[data-status=unavailable]'), en.com.unavailable);
    answer = { status: 200, body: { ...ok, lastSync: undefined, ntp: { enabled: false, synchronized: false, servers: [] } } };
    await expectText(status.locator('[data-item=last-sync] dd'), en.datetime.never);
    await expectText(status.locator('[data-item=ntp] dd'), en.info.disabled);
    expect(cp.errors).toEqual([]);

    // every field of pew_rtc
    for (const k of Object.keys(rtcSchema.entries)) await fieldInput(page, 'pew_rtc', k).waitFor();
    // a bad clock register (spec §9: DT 0-999424), and a control block that does not fit the DT area
    await put(page, 'pew_rtc', 'rtc_address_dt', '999425');
    const dtMessage = fill(en.errors.out_of_range, { min: 0, max: 999424 });
    await expectText(fieldError(page, 'rtc_address_dt'), dtMessage);
    await expectSaveRefused(page, posts, en.nav.datetime, en.fields.pew_rtc.rtc_address_dt.label, dtMessage);
    const defaults = defaultsOf(pew_rtc) as Body;
    await expectDaemonRefuses(
      page,
      suite.d,
      'pew_rtc',
      { ...defaults, rtc_address_dt: 999425 },
      { path: 'rtc_address_dt', code: 'out_of_range', params: { min: 0, max: 999424 } },
    );
    await put(page, 'pew_rtc', 'rtc_control_rtc_r', '999421');
    await expectText(fieldError(page, 'rtc_control_rtc_r'), fill(en.errors.address_out_of_range, { min: 0, max: 999420 }));
    await expectDaemonRefuses(
      page,
      suite.d,
      'pew_rtc',
      { ...defaults, rtc_control_rtc_r: 999421 },
      { path: 'rtc_control_rtc_r', code: 'address_out_of_range', params: { min: 0, max: 999420 } },
    );
    expect(posts).toEqual([]);

    // a complete valid setup with the footprints of both register blocks
    await putAll(page, 'pew_rtc', {
      rtc_by_plc: true,
      rtc_control_rtc_r: '500',
      rtc_polling: '10',
      rtc_update_by_time: '60',
      rtc_sync_as_utc: true,
      rtc_address_dt: '90100',
    });
    const prints = pageBody(page, 'datetime').locator('[data-footprint]');
    await expectText(prints.nth(0), fill(en.form.footprint, { first: 500, last: 504, count: 5 }));
    await expectText(prints.nth(1), fill(en.form.footprint, { first: 90100, last: 90103, count: 4 }));
    await save(page);
    const want = { rtc_by_plc: true, rtc_sync_as_utc: true, rtc_polling: 10, rtc_control_rtc_r: 500, rtc_address_dt: 90100, rtc_update_by_time: 60 };
    expect(await stored(page, suite.d, 'pew_rtc')).toEqual(want);
    await page.reload();
    await expectTitle(page, en.nav.datetime);
    await eventually(() => fieldInput(page, 'pew_rtc', 'rtc_address_dt').inputValue()).toBe('90100');
    expect(await fieldInput(page, 'pew_rtc', 'rtc_by_plc').isChecked()).toBe(true);
    expect(await fieldInput(page, 'pew_rtc', 'rtc_update_by_time').inputValue()).toBe('60');

    await reset(page);
    await eventually(() => fieldInput(page, 'pew_rtc', 'rtc_address_dt').inputValue()).toBe('90054');
    await save(page);
    expect(await stored(page, suite.d, 'pew_rtc')).toEqual(defaults);
  });

  it('the user role sees the five pages read-only', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d, USER);
    for (const [id, section, field] of [
      ['iec', 'pew_60870', 'enable_60870'],
      ['tls', 'pew_tls', 'enable_tlsclient'],
      ['tlsclient', 'pew_tls', 'nontls_server_port'],
      ['tlsserver', 'pew_tls', 'tls_server_port'],
      ['datetime', 'pew_rtc', 'rtc_polling'],
    ] as const) {
      await openConsole(page, suite.d, `/${id}`);
      await expectTitle(page, en.nav[id]);
      await fieldInput(page, section, field).waitFor();
      const states = await pageBody(page, id)
        .locator('input, select, button')
        .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).disabled));
      expect(states.length).toBeGreaterThan(1);
      expect(states.filter((disabled) => !disabled)).toEqual([]);
      expect(await page.locator('[data-action=save], [data-action=reset], [data-action=save-all]').count()).toBe(0);
      await expectText(page.locator('.page-bar .badge'), en.shell.readOnly);
    }
    // the clock status of the daemon itself (no page.route here): the page shows its answer
    const a = await api(page, suite.d);
    const live = await statusDetail(a, 'rtc');
    const status = pageBody(page, 'datetime').locator('[data-block=rtc-status]');
    await expectText(status.locator('[data-item=timezone] dd'), live.timezone);
    expect(await status.locator('[data-item=running]').getAttribute('data-running')).toBe(String(live.running));
    // the daemon agrees that the role may only read
    const iec = await a.get('/config/pew_60870');
    expect(iec.status).toBe(200);
    expect((await a.post('/config/pew_60870', iec.body)).status).toBe(403);
  });
});
