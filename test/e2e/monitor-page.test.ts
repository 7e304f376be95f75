// The traffic monitor page (/monitor, docs/monitor.md) in the browser against the REAL daemon: a
// virtual FP-XH on COM1 (an in-process serial wire) and a redirect thread on COM1 whose only
// restriction is read-only. A PLC test while COM1 is captured shows its RT request and answer
// decoded with a round trip; an injected error 61 shows "data error" in English and German; a
// write refused by the thread shows the refusal event and the decoded error answer; a capture ends
// after its time (a capture minute is 5 s here); the user role captures; level raw shows text and
// hex; a malformed command filter is named and never sent; the pcap download is a pcap file; the
// capture's request is checked on the page as the unit checks it, and the unit's refusal is worded.
// One browser and one daemon for the file; each test opens the page anew and clears its list.

import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../support/daemon.ts';
import { connector, enableCom1, freePort, MewClient, serialPlc } from './live-plc.ts';
import {
  type ConsolePage,
  de,
  en,
  expectText,
  expectTitle,
  fill,
  fr,
  launchBrowser,
  loginApi,
  newPage,
  pageBody,
  RETRY_RESET,
  startConsoleDaemon,
  type TestDaemon,
  USER,
} from './support.ts';

/** a capture's minute in this file: the capture of one minute ends by itself within seconds */
const MINUTE_MS = 5000;
const FRAMING = { baud: 115200, bits: 8, parity: 'odd', stopbits: 1 } as const;
const wire = serialPlc('FP-XH', FRAMING);
const t = en.monitor;

let browser: Browser;
let d: TestDaemon;
let admin: Client;
let cp: ConsolePage;
let page: Page;
let threadPort: number;
/** the page's reads of the capture (their query strings), in order */
const reads: string[] = [];

const body = (p: Page = page) => pageBody(p, 'monitor');
const rows = (p: Page = page) => body(p).locator('.monitor-list li');
/** A dictionary text with its {params} as regular expressions (the rest matched as it is). */
const pattern = (text: string, params: Record<string, string>) =>
  new RegExp(`^${text.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, k: string) => params[k] ?? '')}$`);

/** Opens /monitor (anew: the list starts from the oldest record held), waits for the first answer and clears the list. */
async function openMonitor(p: Page = page): Promise<void> {
  await p.goto(`${d.url}/#/info`);
  await expectTitle(p, en.nav.info);
  await p.goto(`${d.url}/#/monitor`);
  await expectTitle(p, en.nav.monitor);
  await body(p).locator('[data-capture]').waitFor();
  await body(p).locator('[data-action=clear]').click();
  await expect.poll(() => rows(p).count()).toBe(0);
}

/** Starts a capture from the page's controls and waits until the page says it runs. */
async function capture(source: string, level: 'events' | 'frames' | 'raw' = 'frames', minutes = '60', p: Page = page): Promise<void> {
  await body(p).locator('#monitor-source').selectOption(source);
  await body(p).locator('#monitor-level').selectOption(level);
  await body(p).locator('#monitor-minutes').fill(minutes);
  const started = p.waitForResponse((r) => new URL(r.url()).pathname === '/config/monitor/start');
  await body(p).locator('[data-action=start]').click();
  const r = await started;
  expect(r.status(), await r.text()).toBe(200);
  expect(r.request().postDataJSON()).toEqual({ sources: [source], level, minutes: Number(minutes) });
  await expect.poll(() => body(p).locator('[data-capture]').getAttribute('data-capture')).toBe('on');
}

async function plcTest(): Promise<void> {
  const r = await admin.post('/config/plctest', { id: 0 });
  expect(r.status, r.text).toBe(200);
}

beforeAll(async () => {
  [browser, d] = await Promise.all([launchBrowser(), startConsoleDaemon({ serial: { virtualPorts: { COM1: connector(wire) } }, captureMinuteMs: MINUTE_MS })]);
  admin = await d.admin();
  await enableCom1(d, FRAMING, 2000);
  threadPort = await freePort();
  const restriction = { type: 0, area: 'DT', register_area_start: 0, register_area_end: 99, register_area_mapped: 0, read_write: 'RO' };
  const thread = { port: threadPort, mb_translation: false, monitoring_cmd: true, service: 0, clients: 4, timeout: 60, ip_start: '0.0.0.0', ip_end: '0.0.0.0' };
  const r = await admin.post('/config/pew_redirect', { threads: [{ ...thread, mapping: [restriction] }] });
  expect(r.status, r.text).toBe(200);
  await d.ctx.redirects.settled();
  // (expect.poll only runs inside a test)
  for (let i = 0; i < 300 && d.ctx.com.links.get(0)?.status().state !== 'up'; i++) await new Promise((r) => setTimeout(r, 50));

  cp = await newPage(browser);
  page = cp.page;
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname === '/config/monitor') reads.push(url.search.slice(1));
  });
  await loginApi(page, d);
});

afterAll(async () => {
  await cp?.context.close();
  await browser?.close();
  await d?.stop();
  expect(cp?.errors ?? []).toEqual([]); // no uncaught exception in the page during the whole file
});

describe('the traffic monitor page against the daemon and a virtual PLC', () => {
  it('a PLC test while COM1 is captured shows its RT request and answer decoded, with the round trip', async () => {
    await openMonitor();
    await expectText(body().locator('#monitor-records'), t.records);
    await capture('COM1');
    expect(await body().locator('[data-capture]').textContent()).toMatch(pattern(t.on, { sources: 'COM1', until: '\\d\\d:\\d\\d', by: 'admin' }));
    // the capture's own event comes first
    await expectText(rows().first().locator('.what'), fill(t.events.capture_started, { level: t.levels.frames, minutes: 60 }));
    expect(await rows().first().getAttribute('data-event')).toBe('capture_started');
    await plcTest();
    const request = rows().and(page.locator('[data-command=RT][data-dir=out]')).first();
    const answer = rows().and(page.locator('[data-command=RT][data-dir=in]')).first();
    await expectText(request.locator('.what'), t.status);
    await expectText(answer.locator('.what'), `${t.status}: ${t.done}`);
    expect(await request.locator('.src').textContent()).toBe('COM1');
    expect(await request.locator('.dir .sr').textContent()).toBe(t.sent);
    expect(await answer.locator('.dir .sr').textContent()).toBe(t.received);
    expect(await answer.locator('time').textContent()).toMatch(/^\d\d:\d\d:\d\d\.\d{3}$/);
    expect(await answer.locator('.rtt').textContent()).toMatch(new RegExp(`^${t.rtt} \\d+ ms$`));
    expect(Number(await answer.locator('.rtt').getAttribute('data-rtt'))).toBeGreaterThanOrEqual(0);
    expect(await request.locator('.rtt').count()).toBe(0);
    // frames, not raw: no bytes shown
    expect(await rows().locator('.raw').count()).toBe(0);
    expect(await rows().locator('.bad, [class=bad]').count()).toBe(0);
  });

  it('an error 61 injected on the virtual PLC shows "data error", in English and in German', async () => {
    await openMonitor();
    await capture('COM1');
    wire.plc.setFault({ kind: 'error', code: 61, count: 1 });
    expect((await admin.post('/config/plctest', { id: 0 })).body).toMatchObject({ ok: false, reason: 'plc_error', code: 61 });
    const error = rows().and(page.locator('[data-what=error]')).first();
    const english = fill(t.error, { code: '61', text: t.mew.data_error });
    await expectText(error.locator('.what'), `${t.bad} ${english}`);
    expect(english).toBe('Error 61: data error');
    expect(await error.getAttribute('class')).toBe('bad');
    expect(await error.locator('.state').textContent()).toBe(t.bad);
    // the request it answers is no error
    expect(await rows().and(page.locator('[data-command=RT][data-dir=out]')).first().getAttribute('class')).toBeNull();

    await page.locator('select[data-action=language]').selectOption('de');
    await expectText(error.locator('.what'), `${de.monitor.bad} ${fill(de.monitor.error, { code: '61', text: de.monitor.mew.data_error }, 'de')}`);
    expect(de.monitor.mew.data_error).toBe('Datenfehler');
    await expectText(body().locator('#monitor-records'), de.monitor.records);
    await page.locator('select[data-action=language]').selectOption('en');
    await expectText(error.locator('.what'), `${t.bad} ${english}`);
  });

  it("a write refused by the thread's read-only restriction shows the refusal event and the decoded error answer", async () => {
    await openMonitor();
    const source = `port:${threadPort}`;
    expect(await body().locator(`#monitor-source option[value="${source}"]`).textContent()).toBe(fill(t.portName, { port: threadPort }));
    await capture(source);
    const client = await MewClient.connect(threadPort);
    try {
      expect(await client.ask({ cmd: 'WD', area: 'DT', start: 5, words: [1] })).toMatch(/^%EE!65/);
    } finally {
      await client.close();
    }
    const refusal = rows().and(page.locator('[data-event=request_refused]')).first();
    await expectText(refusal.locator('.what'), `${t.bad} ${fill(t.events.request_refused, { code: 65 })}`);
    expect(await refusal.getAttribute('class')).toBe('bad');
    expect(await refusal.locator('.peer').textContent()).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(await refusal.locator('.src').textContent()).toBe(fill(t.portName, { port: threadPort }));
    // the client's request and the unit's answer to it
    const request = rows().and(page.locator('[data-command=WD][data-dir=in]')).first();
    await expectText(request.locator('.what'), `${t.write} DT 5 = 1`);
    const answer = rows().and(page.locator('[data-what=error][data-dir=out]')).first();
    await expectText(answer.locator('.what'), `${t.bad} ${fill(t.error, { code: '65', text: t.mew.protect_error })}`);
    expect(Number(await answer.locator('.rtt').getAttribute('data-rtt'))).toBeGreaterThanOrEqual(0);
    // the client came and went
    await expectText(rows().and(page.locator('[data-event=client_connected]')).first().locator('.what'), t.events.client_connected);
    await expectText(rows().and(page.locator('[data-event=client_closed]')).first().locator('.what'), t.events.client_closed);
    // Errors only: the list starts again with the refusal and the error answer alone
    await body().locator('#monitor-errors').check();
    await expect
      .poll(() => rows().evaluateAll((ls) => ls.map((l) => l.getAttribute('data-event') ?? l.getAttribute('data-what'))))
      .toEqual(['request_refused', 'error']);
    expect(reads.at(-1)).toMatch(/&errors=1$/);
    await body().locator('#monitor-errors').uncheck();
  });

  it('a capture ends by itself after its time, and the page says so', async () => {
    await openMonitor();
    await capture('COM1', 'events', '1');
    const state = body().locator('[data-capture]');
    await expect.poll(() => state.getAttribute('data-capture'), { timeout: 4 * MINUTE_MS }).toBe('timeout');
    await expectText(state, fill(t.timeout, { sources: 'COM1' }));
    await expectText(rows().last().locator('.what'), t.events.capture_timeout);
    expect(await rows().last().getAttribute('data-event')).toBe('capture_stopped');
    expect(await body().locator('[data-action=stop]').isDisabled()).toBe(true);
  });

  it('the user role starts and watches a capture', async () => {
    const viewer = await newPage(browser);
    try {
      await loginApi(viewer.page, d, USER);
      await openMonitor(viewer.page);
      expect(await body(viewer.page).locator('[data-action=start]').isEnabled()).toBe(true);
      await capture('COM1', 'frames', '60', viewer.page);
      expect(await body(viewer.page).locator('[data-capture]').textContent()).toMatch(
        pattern(t.on, { sources: 'COM1', until: '\\d\\d:\\d\\d', by: USER.username }),
      );
      await plcTest();
      await expectText(rows(viewer.page).and(viewer.page.locator('[data-command=RT][data-dir=in]')).first().locator('.what'), `${t.status}: ${t.done}`);
      // and may stop it
      await body(viewer.page).locator('[data-action=stop]').click();
      await expectText(body(viewer.page).locator('[data-capture]'), fill(t.stopped, { sources: 'COM1' }));
      expect(viewer.errors).toEqual([]);
    } finally {
      await viewer.context.close();
    }
  });

  it('level raw shows each frame as text and as hex', async () => {
    await openMonitor();
    await capture('COM1', 'raw');
    await plcTest();
    const request = rows().and(page.locator('[data-command=RT][data-dir=out]')).first();
    await request.waitFor();
    const [text, hex] = await request.locator('.raw').allTextContents();
    expect(text).toMatch(/^%EE#RT[0-9A-F*]{2}⏎$/);
    expect(hex).toMatch(/^25 45 45 23 52 54( [0-9a-f]{2}){2} 0d$/);
    expect(
      await request
        .locator('.raw')
        .first()
        .evaluate((e) => getComputedStyle(e).fontFamily),
    ).toMatch(/mono/i);
  });

  it("a malformed command filter is named in the user's language and never sent; a good one is", async () => {
    await openMonitor();
    const command = body().locator('#monitor-command');
    await command.fill('R D');
    await command.press('Enter');
    const error = body().locator('[data-error=command]');
    await expectText(error, fill(en.form.labelled, { label: t.command, text: en.errors.invalid_characters }));
    expect(await command.getAttribute('aria-invalid')).toBe('true');
    // reads go on, without the command
    const before = reads.length;
    await expect.poll(() => reads.length, { timeout: 10_000 }).toBeGreaterThan(before + 1);
    expect(reads.filter((q) => q.includes('command='))).toEqual([]);
    await page.locator('select[data-action=language]').selectOption('fr');
    await expectText(error, fill(fr.form.labelled, { label: fr.monitor.command, text: fr.errors.invalid_characters }, 'fr'));
    await page.locator('select[data-action=language]').selectOption('en');

    // a good one starts the list again from the oldest record held after the last Clear (the page's own, at its opening)
    const cleared = new URL((await body().locator('[data-download=text]').getAttribute('href'))!, d.url).searchParams.get('after');
    await command.fill('RT');
    await command.press('Enter');
    await expect.poll(() => error.count()).toBe(0);
    await expect.poll(() => reads.at(-1)).toBe(`after=${cleared}&command=RT`);
    await plcTest();
    await rows().first().waitFor();
    expect(await rows().evaluateAll((ls) => [...new Set(ls.map((l) => l.getAttribute('data-command')))])).toEqual(['RT']);
  });

  it('the pcap download link names the selected source and the cursor of the last Clear, and gives a pcap file', async () => {
    await openMonitor();
    await capture('COM1');
    await plcTest();
    await rows().and(page.locator('[data-command=RT][data-dir=in]')).first().waitFor();
    const link = body().locator('[data-download=pcap]');
    await expectText(link, t.downloadPcap);
    const href = new URL((await link.getAttribute('href'))!, d.url);
    expect(href.pathname).toBe('/config/monitor/download');
    expect(Object.fromEntries(href.searchParams)).toEqual({ format: 'pcap', after: expect.stringMatching(/^[1-9]\d*$/), source: 'COM1' });
    expect(await link.getAttribute('download')).toBe('capture.pcap');
    const r = await page.request.get(href.toString(), RETRY_RESET);
    expect(r.status()).toBe(200);
    const bytes = await r.body();
    expect([...bytes.subarray(0, 4)]).toEqual([0xd4, 0xc3, 0xb2, 0xa1]);
    expect(bytes.length).toBeGreaterThan(24); // the RT exchange after the Clear, a packet each

    // Clear: the list empties, reading goes on from the cursor, and the downloads start there
    const next = page.waitForResponse((res) => new URL(res.url()).pathname === '/config/monitor');
    const cursor = ((await (await next).json()) as { next: number }).next;
    await body().locator('[data-action=clear]').click();
    await expect.poll(() => rows().count()).toBe(0);
    const after = Number(new URL((await link.getAttribute('href'))!, d.url).searchParams.get('after'));
    expect(after).toBeGreaterThanOrEqual(cursor);
    const text = await page.request.get(new URL((await body().locator('[data-download=text]').getAttribute('href'))!, d.url).toString(), RETRY_RESET);
    expect((await text.text()).trim().split('\n')).toHaveLength(1); // the header line: nothing since the Clear

    // Pause: no read goes out; Resume reads on from the cursor
    await body().locator('[data-action=pause]').click();
    await expectText(body().locator('[data-note=paused]'), t.paused);
    const paused = reads.length;
    await page.waitForTimeout(3 * 1500); // a fixed wait: it shows that nothing is asked for
    expect(reads.length).toBe(paused);
    await body().locator('[data-action=pause]').click();
    await expect.poll(() => reads.length).toBeGreaterThan(paused);
    expect(reads.at(-1)).toMatch(new RegExp(`^after=${after}$|^after=[1-9]\\d*$`));
  });
  it("the capture's request is checked as the unit checks it, and the unit's refusal is named in the user's language", async () => {
    await openMonitor();
    const starts: unknown[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/config/monitor/start') starts.push(req.postDataJSON());
    });
    const error = body().locator('[data-error=capture]');
    await body().locator('#monitor-minutes').fill('61');
    await body().locator('[data-action=start]').click();
    await expectText(error, fill(en.form.labelled, { label: t.minutes, text: fill(en.errors.out_of_range, { min: 1, max: 60 }) }));
    await body().locator('#monitor-minutes').fill('1.5');
    await body().locator('[data-action=start]').click();
    await expectText(error, fill(en.form.labelled, { label: t.minutes, text: en.errors.not_integer }));
    expect(starts).toEqual([]);

    // a source the unit no longer has: the page, paused, still offers the thread that was just removed
    const source = `port:${threadPort}`;
    await body().locator('#monitor-source').selectOption(source);
    await body().locator('#monitor-minutes').fill('10');
    await body().locator('[data-action=pause]').click();
    const saved = (await admin.get('/config/pew_redirect')).body;
    expect((await admin.post('/config/pew_redirect', { threads: [] })).status).toBe(200);
    await d.ctx.redirects.settled();
    try {
      const refused = page.waitForResponse((r) => new URL(r.url()).pathname === '/config/monitor/start');
      await body().locator('[data-action=start]').click();
      const answer = await refused;
      expect(answer.status()).toBe(400);
      const issue = ((await answer.json()) as { error: { issues: { path: string; code: string; params: { allowed: string } }[] } }).error.issues[0]!;
      expect(issue).toMatchObject({ path: 'sources', code: 'invalid_value' });
      expect(issue.params.allowed).not.toContain(source);
      expect(starts).toEqual([{ sources: [source], level: 'frames', minutes: 10 }]);
      const allowed = issue.params;
      await expectText(error, fill(en.form.labelled, { label: t.source, text: fill(en.errors.invalid_value, allowed) }));
      await page.locator('select[data-action=language]').selectOption('de');
      await expectText(error, fill(de.form.labelled, { label: de.monitor.source, text: fill(de.errors.invalid_value, allowed, 'de') }, 'de'));
      await page.locator('select[data-action=language]').selectOption('en');
    } finally {
      expect((await admin.post('/config/pew_redirect', saved)).status).toBe(200);
      await d.ctx.redirects.settled();
    }
  });
});
