// The README's "First ten minutes", steps 1–7, followed as written in Debian's chromium against the
// simulator that `npm start` runs (sim/simulator.ts, started here on a free port with a data folder
// of its own): the clicks the README names, found by the words it uses; its `npm run plc` commands
// and its node one-liner run as typed (DATA_DIR points `npm run plc` at this simulator, and the
// thread's port 9094 becomes a free one, so that an `npm start` beside the suite does not meet it);
// and the answers the README prints, asserted. README and product cannot drift apart unnoticed.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Variant } from '../../device/cli.ts';
import { type Daemon, startDaemon } from '../../device/main.ts';
import { simulatorVariant } from '../../sim/simulator.ts';
import { freePorts } from '../support/ports.ts';
import { ADMIN, type ConsolePage, en, expectNotice, expectText, expectTitle, fieldInput, fill, launchBrowser, newPage, pageBody } from './support.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

// ---- the README's walk-through, as a reader sees it ----
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const WALK = README.slice(README.indexOf('## First ten minutes'), README.indexOf('\nFrom here'));
/** the raw text of step n (from "n. " to the next step), its code blocks with their lines */
function rawStep(n: number): string {
  const from = WALK.indexOf(`\n${n}. `);
  const to = WALK.indexOf(`\n${n + 1}. `);
  if (from < 0) throw new Error(`the README's walk-through has no step ${n}`);
  return WALK.slice(from, to < 0 ? undefined : to);
}
/** the prose of step n as a reader reads it: line breaks and indents are spaces */
const step = (n: number) => rawStep(n).replace(/\s+/g, ' ');
/** the command lines of step n's ```sh blocks */
const commands = (n: number) =>
  [...rawStep(n).matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) =>
    m[1]!
      .trim()
      .split('\n')
      .map((l) => l.trim()),
  );
/** the one match group of `re` in `text`, or a failure that says what the README lacks */
function said(text: string, re: RegExp): string {
  const m = re.exec(text);
  if (!m) throw new Error(`the README's walk-through no longer says ${re}`);
  return m[1]!;
}
/** The README's port of the thread: the reader's own machine has it free; this test takes a free one. */
const README_PORT = 9094;

let dataDir: string;
let variant: Variant;
let daemon: Daemon;
let browser: Browser;
let cp: ConsolePage;
let page: Page;
let threadPort: number;

/** Runs a command line of the README as typed, in the checkout, against this test's simulator. */
async function type(line: string): Promise<string> {
  const { stdout } = await run('sh', ['-c', line.replaceAll(String(README_PORT), String(threadPort))], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
  });
  return stdout.trim();
}

const saved = () => expectNotice(page, 'info', en.form.notice.saved);

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'readme-'));
  [threadPort] = (await freePorts(1)) as [number];
  // what `npm start` does (sim/main.ts), with a free console port and the console of the global setup
  variant = await simulatorVariant({ dataDir, serialMap: {} });
  [daemon, browser] = await Promise.all([
    startDaemon({ hw: variant.hw, dataDir, port: 0, host: '127.0.0.1', extraRoutes: variant.routes, webDir: inject('webDir') }),
    launchBrowser(),
  ]);
  await variant.listening!(daemon.url);
  cp = await newPage(browser);
  page = cp.page;
});

afterAll(async () => {
  await cp?.context.close();
  await browser?.close();
  await daemon?.close();
  await variant?.close?.();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the README's first ten minutes", () => {
  it('1. creates the administrator on a fresh data folder and lands on System information', async () => {
    expect(step(1)).toContain(`*${en.nav.info}*`);
    await page.goto(daemon.url);
    await expectText(page.locator('#auth-title'), en.auth.setupTitle);
    await page.locator('#setup-user').fill(ADMIN.username);
    await page.locator('#setup-pw').fill(ADMIN.password);
    await page.locator('#setup-repeat').fill(ADMIN.password);
    await page.locator('main.auth button[type=submit]').click();
    await expectTitle(page, en.nav.info);
  });

  it('2. COM1 enabled at the factory settings; the PLC test answers with the CPU type FP-XH, RUN and the raw replies', async () => {
    const text = step(2);
    const address = said(text, /\(`(\/#\/com)`\)/);
    expect(text).toContain(`*${en.nav.com}*`);
    await page.goto(`${daemon.url}${address}`);
    await expectTitle(page, en.nav.com);
    const com1 = pageBody(page, 'com').locator('[data-interface="0"]');
    // "at the factory settings 9600 baud 8O1 that the page shows"
    expect(text).toContain('9600 baud 8O1');
    expect(await fieldInput(page, 'pew', 'interfaces.0.baudrate').inputValue()).toBe('9600');
    expect(await fieldInput(page, 'pew', 'interfaces.0.bits').inputValue()).toBe('8');
    expect(await fieldInput(page, 'pew', 'interfaces.0.parity').locator('option:checked').textContent()).toMatch(/odd/i);
    expect(await fieldInput(page, 'pew', 'interfaces.0.stopbits').inputValue()).toBe('1');

    await com1.getByRole('checkbox', { name: said(text, /Tick \*([^*]+)\* in the COM1 block/), exact: true }).check();
    await page
      .locator('.page-bar')
      .getByRole('button', { name: said(text, /and press \*\*([^*]+)\*\*\. Then/), exact: true })
      .click();
    await saved();
    await com1.getByRole('button', { name: said(text, /press \*\*([^*]+)\*\* in the same block/), exact: true }).click();
    const test = com1.locator('[data-plctest]');
    const cpu = said(text, /it answers \*([^*]+)\*/);
    expect(cpu).toBe(fill(en.com.cpu, { name: 'FP-XH' }));
    await expectText(test.locator('[data-cpu]'), cpu);
    expect(await test.locator('.facts').textContent()).toContain('RUN');
    expect(await test.locator('pre[data-raw]').textContent()).toMatch(/^%[0-9A-F]{2}\$RT/);
  });

  it('3. the wizard, clicked through as the README lists it, saves COM and Port settings and shows the new thread', async () => {
    const text = step(3);
    const address = said(text, /\(`(\/#\/wizard_com)`\)/);
    await page.goto(`${daemon.url}${address}`);
    await expectTitle(page, en.nav.wizard_com);
    const wizard = pageBody(page, 'wizard_com');
    // "*Simple*, **Continue**; interface *COM1 · RS232*, **Continue**; …; **Finish**."
    const clicks = text.slice(text.indexOf('):') + 2, text.indexOf('The wizard saves')).split(';');
    expect(clicks.length).toBe(6);
    for (const c of clicks) {
      const choice = /\*([^*]+)\*(?!\*)/.exec(c.replace(/\*\*[^*]+\*\*/g, ''))?.[1];
      if (choice) await wizard.getByRole('radio', { name: choice, exact: true }).check();
      const port = /TCP listening port (\d+)/.exec(c)?.[1];
      if (port) {
        const field = wizard.getByLabel(en.wizard.tcpPort, { exact: true });
        // the port the README names is the wizard's default
        expect(await field.inputValue()).toBe(port);
        await field.fill(String(threadPort));
      }
      const step = await wizard.getAttribute('data-step');
      await wizard.getByRole('button', { name: said(c, /\*\*([^*]+)\*\*/), exact: true }).click();
      if (!c.includes('Finish')) await expect.poll(() => wizard.getAttribute('data-step')).not.toBe(step);
    }
    await saved();
    // "shows *Ports and restrictions* with the new thread"
    expect(text).toContain(`*${en.nav.port}*`);
    await expectTitle(page, en.nav.port);
    await expectText(pageBody(page, 'port').locator('[data-thread="0"] [data-state]'), fill(en.port.listening, { port: threadPort }));
  });

  it('4. DT100 and DT101 read through the thread give the answer the README prints; the write is refused', async () => {
    const text = step(4);
    const lines = commands(4);
    expect(lines).toHaveLength(2);
    await type(lines[0]!); // npm run plc -- write COM1 DT100 1234 5678
    const answer = said(text, /The answer `([^`]+)`/);
    expect(answer).toBe('%01$RDD2042E1614');
    expect(await type(lines[1]!)).toBe(answer);
    // "A write (`%01#WDD0010000100D204**`) is answered `%01!6506`"
    const write = said(text, /A write \(`([^`]+)`\)/);
    const refused = said(text, /is answered `([^`]+)`/);
    const read = said(lines[1]!, /write\('([^']+)\\r'\)/);
    expect(await type(lines[1]!.replace(read, write))).toBe(refused);
    // the PLC kept its value: the refusal came from the unit
    expect(await type('npm run --silent plc -- read COM1 DT100 1')).toContain('1234');
  });

  it('5. the data logger set up on /log writes the CSV file, listed on the page and under data/volumes/internal/log/', async () => {
    const text = step(5);
    await page.goto(`${daemon.url}${said(text, /\(`(\/#\/log)`\)/)}`);
    await expectTitle(page, en.nav.log);
    const log = pageBody(page, 'log');
    const input = (path: string) => fieldInput(page, 'pew_log', path);
    await log.getByRole('checkbox', { name: said(text, /tick \*([^*]+)\*/), exact: true }).check();
    await log.getByRole('button', { name: said(text, /press \*\*([^*]+)\*\*,/), exact: true }).click();
    const name = said(text, /name it `([^`]+)`/);
    await input('log_def.0.name').fill(name);
    expect(text).toContain('interface COM1');
    await input('log_def.0.interface').selectOption({ label: 'COM1' });
    await input('log_def.0.trigger').selectOption({ label: said(text, /trigger \*([^*]+)\*/) });
    await input('log_def.0.cycle').fill(said(text, /log cycle (\d+) s/));
    const [label, perWrite] = said(text, /, (\*[^*]+\* \d+)\. Enter/).split(/\* /) as [string, string];
    await log.getByLabel(label.slice(1), { exact: true }).fill(perWrite);
    await page.locator('#log-add-count').fill(said(text, /Enter (\d+) in the number of data points/));
    await log.getByRole('button', { name: said(text, /and press \*\*([^*]+)\*\*;/), exact: true }).click();
    await expect.poll(() => log.locator('tr[data-point]').count()).toBe(2);
    const points = [...text.matchAll(/`(\w+)` and address (\d+)/g)].map((m) => [m[1]!, m[2]!] as const);
    expect(points).toEqual([
      ['Level', '100'],
      ['Flow', '101'],
    ]);
    for (const [j, [pointName, address]] of points.entries()) {
      await log.locator(`tr[data-point="${j}"]`).click();
      await input(`log_def.0.records.${j}.name`).fill(pointName);
      await input(`log_def.0.records.${j}.reg_addr`).fill(address);
      expect(await input(`log_def.0.records.${j}.area`).locator('option:checked').textContent()).toBe('DT');
    }
    await page
      .locator('.page-bar')
      .getByRole('button', { name: said(text, /\(area DT\)\. \*\*([^*]+)\*\*/), exact: true })
      .click();
    await saved();

    for (const line of commands(5)) await type(line);
    // "The CSV file appears in the page's file list (and under `data/volumes/internal/log/`)"
    const folder = join(dataDir, said(text, /under `data\/([^`]+)`/));
    const file = async () => (await readdir(folder).catch(() => [] as string[])).find((f) => f.startsWith(`${name}_`) && f.endsWith('.csv'));
    await expect.poll(file, { timeout: 60_000 }).toBeTruthy();
    const csv = join(folder, (await file())!);
    // the last values written (35 and 70) arrive in a record of the next cycles, Level before Flow
    await expect.poll(() => readFile(csv, 'utf8'), { timeout: 60_000 }).toMatch(/\b35\D70\s*$/m);
    const list = log.locator('[data-storage-files="0"]');
    await expect.poll(() => list.locator('[data-file] a').allTextContents(), { timeout: 30_000 }).toContain((await file())!);
  });

  it('6. the trend graph draws one line per data point, named as on /log', async () => {
    const text = step(6);
    await page.goto(`${daemon.url}${said(text, /\(`(\/#\/graphs)`\)/)}`);
    await expectTitle(page, en.nav.graphs);
    const graphs = pageBody(page, 'graphs');
    const pattern = said(text, /tick `([^`]+)`/); // trend_<date>.csv
    const [prefix, suffix] = pattern.split('<date>') as [string, string];
    const box = graphs.locator(`[data-file^="0/${prefix}"][data-file$="${suffix}"]`);
    await box.first().check();
    const g = graphs.locator(`[data-graph^="0/${prefix}"]`).first();
    await g.locator('.ct-host svg').waitFor();
    await expect.poll(() => g.locator('svg g.ct-series').evaluateAll((els) => els.map((e) => e.getAttribute('ct:series-name')))).toEqual(['Level', 'Flow']);
    expect(cp.errors).toEqual([]);
  });
  it('7. the traffic monitor captures COM1 and lists the RT request and answer of a PLC test run in a second tab, with the round trip', async () => {
    const text = step(7);
    expect(text).toContain(`*${en.nav.monitor}*`);
    await page.goto(`${daemon.url}${said(text, /\(`(\/#\/monitor)`\)/)}`);
    await expectTitle(page, en.nav.monitor);
    const monitor = pageBody(page, 'monitor');
    // "keep source COM1 and level *Decoded*"
    const source = monitor.getByLabel(en.monitor.source, { exact: true });
    await expect.poll(() => source.locator('option:checked').textContent()).toBe(said(text, /keep source (\w+)/));
    expect(await monitor.getByLabel(en.monitor.level, { exact: true }).locator('option:checked').textContent()).toBe(said(text, /and level \*([^*]+)\*/));
    await monitor.getByRole('button', { name: said(text, /and press \*\*([^*]+)\*\*\. In/), exact: true }).click();
    await expect.poll(() => monitor.locator('[data-capture]').getAttribute('data-capture')).toBe('on');
    // "In a second browser tab press **PLC test** on `/#/com`"
    const tab = await cp.context.newPage();
    try {
      await tab.goto(`${daemon.url}${said(text, /on `(\/#\/com)`/)}`);
      const com1 = pageBody(tab, 'com').locator('[data-interface="0"]');
      await com1.getByRole('button', { name: said(text, /tab press \*\*([^*]+)\*\*/), exact: true }).click();
      await com1.locator('[data-cpu]').waitFor();
    } finally {
      await tab.close();
    }
    // "lists the unit's `RT` request, *Read status*, and the PLC's answer, *Read status: done*, with its round trip in ms"
    const command = said(text, /the unit's `(\w+)` request/);
    const request = monitor.locator(`.monitor-list li[data-command="${command}"][data-dir=out]`).first();
    await expectText(request.locator('.what'), said(text, /request, \*([^*]+)\*/));
    const answer = monitor.locator(`.monitor-list li[data-command="${command}"][data-dir=in]`).first();
    await expectText(answer.locator('.what'), said(text, /answer, \*([^*]+)\*/));
    expect(await answer.locator('.rtt').textContent()).toMatch(/ \d+ ms$/);
    // "**Download pcap** saves the frames for Wireshark"
    const pcap = monitor.getByRole('link', { name: said(text, /\*\*([^*]+)\*\* saves the frames/), exact: true });
    const file = await page.request.get(new URL((await pcap.getAttribute('href'))!, daemon.url).toString());
    expect([...(await file.body()).subarray(0, 4)]).toEqual([0xd4, 0xc3, 0xb2, 0xa1]); // a pcap file's magic
    expect(cp.errors).toEqual([]);
  });
});
