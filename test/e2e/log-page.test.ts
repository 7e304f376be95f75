// The data logger page (/log, spec §2, §3 "Data logger (pew_log)", §4, §5, §8, §9 Logger) against
// a daemon in simulator mode: a log file with data points configured through the page and saved,
// a variable list imported through the file chooser and exported again, the data point table with
// 700 rows, the messages of spec §8, deleting with renumbering (spec §4), the log interval warning,
// and the files of a storage, listed, downloaded and deleted through the log file routes.
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { beforeEach, describe, expect, it } from 'vitest';
import { withDefaults } from '../../device/model/section.ts';
import { logSchema } from '../../device/model/sections/log.ts';
import { type LogFile, type LogRecord, logFileSchema, recordSchema, STRING_TYPE } from '../../device/model/sections/logfile.ts';
import type { ComInterface } from '../../device/model/sections/pew.ts';
import { exportVariables } from '../../web/log/export.ts';
import { estimateReads } from '../../web/log/interval.ts';
import { callsDuring } from './call-count.ts';
import {
  api,
  type ConsolePage,
  consoleSuite,
  de,
  en,
  expectNotice,
  expectText,
  expectTitle,
  fieldInput,
  fill,
  loginApi,
  openConsole,
  pageBody,
  pageDrawn,
  saveRefusal,
  USER,
} from './support.ts';

const KEY = 'pew_log';
const t = en.logger;
const defaults = () => withDefaults(logSchema, {}) as Record<string, unknown>;
const logFile = (f: Partial<LogFile>) => withDefaults(logFileSchema, f) as LogFile;
const rec = (r: Partial<LogRecord>) => withDefaults(recordSchema, r) as LogRecord;
/** `n` DINT points P<from>… two words apart */
const points = (n: number, extra: Partial<LogRecord> = {}, from = 0) =>
  Array.from({ length: n }, (_, i) => rec({ id: i + 1, name: `P${from + i}`, reg_addr: String((from + i) * 2), type: 4, ...extra }));

// A global variable list as FPWIN Pro exports it (semicolons, a quoted comment, one header line).
const VARIABLES = `${[
  'Class;Identifier;IEC address;FP address;Type;Initial value;Comment',
  'VAR_GLOBAL;Tank_Level;%MW5.100;DT100;INT;0;Füllstand in mm',
  'VAR_GLOBAL;Flow_Total;%MD5.200;DDT200;DINT;0;"Durchfluss; gesamt"',
  'VAR_GLOBAL;Temp_Boiler;%MD5.210;DDT210;REAL;0.0;Kessel',
  'VAR_GLOBAL;Pump_On;%MX0.10.10;R10A;BOOL;FALSE;Pumpe',
  'VAR_GLOBAL;Flags;%MW0.5;WR5;WORD;0;Merkerwort',
  'VAR_GLOBAL;Motor_Data;%MW5.700;DT700;DUT_Motor;;',
].join('\r\n')}\r\n`;

type StoredLog = Record<string, unknown> & { log_def: LogFile[] };

describe('the data logger page', () => {
  const suite = consoleSuite();
  let cp: ConsolePage;

  const body = (page: Page) => pageBody(page, 'log');
  const input = (page: Page, path: string) => fieldInput(page, KEY, path);
  const errorAt = (page: Page, path: string) => body(page).locator(`[data-field="${path}"] .error`);
  const dialog = (page: Page) => page.locator('[role=alertdialog]');
  const rows = (page: Page) => body(page).locator('tr[data-point]');
  const row = (page: Page, j: number) => body(page).locator(`tr[data-point="${j}"]`);
  const cells = async (page: Page, j: number) => (await row(page, j).locator('td').allTextContents()).slice(1);
  const stored = async (page: Page) => (await (await api(page, suite.d)).get(`/config/${KEY}`)).body as StoredLog;
  const save = async (page: Page) => {
    await page.locator('.page-bar [data-action=save]').click();
    await expectNotice(page, 'info', en.form.notice.saved);
  };

  /** Saves pew_log (and changes pew) through the API, signs in and opens /log. */
  async function openLog(log: Record<string, unknown> = {}, opts: { cred?: typeof USER; pew?: (i: ComInterface) => ComInterface } = {}) {
    const c = await suite.d.admin();
    if (opts.pew) {
      const pew = (await c.get('/config/pew')).body;
      expect((await c.post('/config/pew', { ...pew, interfaces: pew.interfaces.map(opts.pew) })).status).toBe(200);
    }
    const r = await c.post(`/config/${KEY}`, { ...defaults(), ...log });
    expect(r.status, r.text).toBe(200);
    cp = await suite.open();
    await loginApi(cp.page, suite.d, opts.cred);
    await openConsole(cp.page, suite.d, '/log');
    await body(cp.page).waitFor();
    return cp.page;
  }

  beforeEach(async () => {
    const c = await suite.d.admin();
    const pew = (await c.get('/config/get_reset?section=pew')).body;
    expect((await c.post('/config/pew', pew)).status).toBe(200);
  });

  it('a log file with its data points is set up on the page and saved; values are checked as the daemon checks them', async () => {
    const page = await openLog();
    await expectTitle(page, en.nav.log);
    await expectText(body(page).locator('[data-logfiles] [data-empty]'), t.file.none);
    await expectText(body(page).locator('[data-points] [data-empty]'), t.point.noLogFile);
    // spec §8: data points need a log file
    await body(page).locator('[data-action=add-points]').click();
    await expectNotice(page, 'error', t.point.noLogFile);
    // without a log file, import and export say what they need instead of naming a file "–"
    await expectText(body(page).locator('[data-action=import]'), t.transfer.importNoFile);
    await expectText(body(page).locator('[data-action=export]'), t.transfer.exportNoFile);

    await body(page).locator('[data-action=add-logfile]').click();
    await expectText(body(page).locator('[data-logfile="0"]'), '1 · log1');
    await input(page, 'log_def.0.name').fill('tank');
    await expectText(body(page).locator('[data-logfile="0"]'), '1 · tank');
    expect(await input(page, 'log_def.0.interface').locator('option').allTextContents()).toEqual(['COM1', 'COM2', 'COM3', 'INTERNAL', 'COM4']);
    await input(page, 'log_def.0.interface').selectOption('0');
    // the fields of a trigger appear with it
    expect(await input(page, 'log_def.0.time_start').count()).toBe(0);
    await input(page, 'log_def.0.trigger').selectOption('2');
    // a time of day (the model keeps seconds after midnight: test/e2e/log-time-of-day.test.ts)
    await input(page, 'log_def.0.time_start').fill('01:00:00');
    await input(page, 'log_def.0.trigger').selectOption('3');
    await expectText(errorAt(page, 'log_def.0.cond_trig'), en.errors.required);
    await input(page, 'log_def.0.cond_trig').fill('10G');
    await expectText(errorAt(page, 'log_def.0.cond_trig'), en.errors.invalid_bit_address);
    await input(page, 'log_def.0.cond_trig').fill('10A');
    await input(page, 'log_def.0.cond_end').fill('10B');
    await input(page, 'log_def.0.cycle').fill('90000');
    await expectText(errorAt(page, 'log_def.0.cycle'), fill(en.errors.out_of_range, { min: 1, max: 86500 }));
    await input(page, 'log_def.0.cycle').fill('60');
    await input(page, 'log_def.0.split').selectOption('hour');
    await input(page, 'log_def.0.file_max').fill('24');
    await input(page, 'log_def.0.delay_store').fill('5');
    await input(page, 'log_def.0.enable_cond_store').check();
    await input(page, 'log_def.0.cond_store').fill('10C');
    await expectText(body(page).locator('[data-last-trig]'), t.file.never);

    // three points at once: DT0, DT1, DT2 through the log file's interface
    await expectText(body(page).locator('[data-points] [data-empty]'), t.point.none);
    await page.locator('#log-add-count').fill('3');
    await body(page).locator('[data-action=add-points]').click();
    await expect.poll(() => rows(page).count()).toBe(3);
    expect(await cells(page, 2)).toEqual(['3', 'Value3', '', 'COM1', '0', 'DT2', 'INT', 'Momentary', 'Little (low word first)', '0', 'off']);
    // the first new point is being edited
    await expectText(body(page).locator('[data-point-editor] h3'), fill(t.point.editTitle, { id: 1, name: 'Value1' }));
    await input(page, 'log_def.0.records.0.name').fill('Level');
    await input(page, 'log_def.0.records.0.dim').fill('mm');
    await input(page, 'log_def.0.records.0.reg_addr').fill('abc');
    await expectText(errorAt(page, 'log_def.0.records.0.reg_addr'), en.errors.invalid_characters);
    await expectText(row(page, 0).locator('[data-action=edit-point]'), '1 !');
    await input(page, 'log_def.0.records.0.reg_addr').fill('100');
    await input(page, 'log_def.0.records.0.type').selectOption('4');
    await input(page, 'log_def.0.records.0.format').selectOption('average');
    await input(page, 'log_def.0.records.0.decimal').fill('12');
    await expectText(errorAt(page, 'log_def.0.records.0.decimal'), fill(en.errors.out_of_range, { min: 0, max: 9 }));
    await input(page, 'log_def.0.records.0.decimal').fill('1');
    await input(page, 'log_def.0.records.0.enable_scal').check();
    await input(page, 'log_def.0.records.0.scal_plc_max').fill('27648');
    await input(page, 'log_def.0.records.0.scal_log_max').fill('1000');
    expect(await cells(page, 0)).toEqual(['1', 'Level', 'mm', 'COM1', '0', 'DT100', 'DINT', 'Average', 'Little (low word first)', '1', '0 – 27648 → 0 – 1000']);
    // another row into the editor: a bit point of R
    await row(page, 2).click();
    await input(page, 'log_def.0.records.2.area').selectOption('6');
    await input(page, 'log_def.0.records.2.reg_addr').fill('10F');

    // general settings with the register footprint
    await input(page, 'enable_log').check();
    await input(page, 'storage').selectOption('1');
    await input(page, 'header').selectOption('3');
    await input(page, 'csv_separator').selectOption('semicolon');
    await input(page, 'dec_separator').selectOption('comma');
    await input(page, 'enable_mem_ctrl').check();
    await expectText(body(page).locator('[data-footprint]').first(), fill(en.form.footprint, { first: 380, last: 383, count: 4 }));
    await input(page, 'mem_write_stop').fill('500');
    expect(await body(page).locator('[data-footprint]').allTextContents()).toEqual([
      fill(en.form.footprint, { first: 381, last: 383, count: 3 }),
      fill(t.register, { first: 500, count: 1 }),
      fill(t.register, { first: 384, count: 1 }),
    ]);
    expect(await input(page, 'version').count()).toBe(0); // the settings format version is the unit's, not shown

    await save(page);
    const s = await stored(page);
    expect(s).toMatchObject({
      enable_log: true,
      storage: 1,
      header: 3,
      csv_separator: 'semicolon',
      dec_separator: 'comma',
      enable_mem_ctrl: true,
      mem_write_stop: 500,
    });
    expect(s.log_def).toEqual([
      logFile({
        id: 1,
        name: 'tank',
        interface: 0,
        trigger: 3,
        time_start: 3600,
        cond_trig: '10A',
        cond_end: '10B',
        cycle: 60,
        split: 'hour',
        file_max: 24,
        delay_store: 5,
        enable_cond_store: true,
        cond_store: '10C',
        records: [
          rec({
            id: 1,
            name: 'Level',
            dim: 'mm',
            if: 0,
            reg_addr: '100',
            type: 4,
            format: 'average',
            decimal: 1,
            enable_scal: true,
            scal_plc_max: 27648,
            scal_log_max: 1000,
          }),
          rec({ id: 2, name: 'Value2', if: 0, reg_addr: '1' }),
          rec({ id: 3, name: 'Value3', if: 0, area: 6, reg_addr: '10F' }),
        ],
      }),
    ]);
  });

  it('a variable list is imported through the file chooser, with the rows left out and why, and exported again', async () => {
    const page = await openLog({ log_def: [logFile({ id: 1, name: 'plant', interface: 3, records: points(2) })] });
    // spec §5: a filter of at least 2 characters
    await page.locator('#log-import-filter').fill('x');
    await expectText(body(page).locator('[data-option=filter] .error'), fill(t.transfer.filterShort, { min: 2 }));
    await page.locator('#log-import-headerLines').fill('31');
    await expectText(body(page).locator('[data-option=headerLines] .error'), fill(en.errors.out_of_range, { min: 0, max: 30 }));
    await page.locator('#log-import-headerLines').fill('1');
    await page.locator('#log-import-filter').fill('');

    await page.locator('#log-import-file').setInputFiles({ name: 'globals.csv', mimeType: 'text/csv', buffer: Buffer.from(VARIABLES) });
    await expectText(body(page).locator('[data-found]'), fill(t.transfer.found, { count: 4, skipped: 2, filtered: 0 }));
    await body(page).locator('[data-skipped] summary').click();
    expect(await body(page).locator('[data-skipped] li').allTextContents()).toEqual([
      `${fill(t.transfer.line, { line: 6 })} · Flags: ${fill(t.transfer.reasons.relay_word, { value: 'WR5' })}`,
      `${fill(t.transfer.line, { line: 7 })} · Motor_Data: ${fill(t.transfer.reasons.unknown_type, { value: 'DUT_Motor' })}`,
    ]);
    // the filter narrows the preview (name or comment)
    await page.locator('#log-import-filter').fill('pump');
    await expectText(body(page).locator('[data-found]'), fill(t.transfer.found, { count: 1, skipped: 0, filtered: 5 }));
    await page.locator('#log-import-filter').fill('');
    await body(page).locator('[data-action=import]').click();
    await expectNotice(page, 'info', fill(t.transfer.success, { name: 'plant', count: 4 }));
    await expect.poll(() => rows(page).count()).toBe(6);
    expect(await cells(page, 2)).toEqual(['3', 'Tank_Level', '', 'COM2', '0', 'DT100', 'INT', 'Momentary', 'Little (low word first)', '0', 'off']);
    expect(await cells(page, 4)).toEqual(['5', 'Temp_Boiler', '', 'COM2', '0', 'DT210', 'REAL', 'Momentary', 'Little (low word first)', '2', 'off']);
    expect(await cells(page, 5)).toEqual(['6', 'Pump_On', '', 'COM2', '0', 'R10A', 'UINT', 'Momentary', 'Little (low word first)', '0', 'off']);

    // the same list again: every name is taken now (spec §8 "No valid entries in csv file found")
    await page.locator('#log-import-file').setInputFiles({ name: 'globals.csv', mimeType: 'text/csv', buffer: Buffer.from(VARIABLES) });
    await expectText(body(page).locator('[data-no-valid]'), t.transfer.noValid);
    await body(page).locator('[data-action=import]').click();
    await expectNotice(page, 'error', `${t.transfer.failed} ${t.transfer.noValid}`);

    await save(page);
    const records = (await stored(page)).log_def[0]!.records;
    expect(records.map((r) => [r.id, r.name, r.if, r.area, r.reg_addr, r.type])).toEqual([
      [1, 'P0', 4, 1, '0', 4],
      [2, 'P1', 4, 1, '2', 4],
      [3, 'Tank_Level', 3, 1, '100', 0],
      [4, 'Flow_Total', 3, 1, '200', 4],
      [5, 'Temp_Boiler', 3, 1, '210', 7],
      [6, 'Pump_On', 3, 6, '10A', 1],
    ]);

    // export: the points as a variable list that imports again
    const [download] = await Promise.all([page.waitForEvent('download'), body(page).locator('[data-action=export]').click()]);
    expect(download.suggestedFilename()).toBe('plant_variables.csv');
    expect(await readFile(await download.path(), 'utf8')).toBe(exportVariables(records));
  });

  it('700 points in one table: only the rows in view are drawn while switching, scrolling, adding and editing; the limits of spec §9 give the messages of spec §8', async () => {
    // how quick these moves are is a figure of `npm run bench -- log` (test/bench/log-table.ts), not a limit here
    // 60 STRING points, 400 difference points, 230 more: 690 in one log file
    const big = [
      ...points(60, { type: STRING_TYPE }).map((r, k) => ({ ...r, reg_addr: String(k * 26) })),
      ...points(400, { format: 'difference' }, 1000),
      ...points(230, {}, 2000),
    ].map((r, k) => ({ ...r, id: k + 1 }));
    const page = await openLog({ log_def: [logFile({ id: 1, name: 'empty' }), logFile({ id: 2, name: 'big', records: big })] });
    await expectText(
      body(page).locator('[data-counts]'),
      fill(t.point.counts, { total: 690, max: 700, strings: 60, maxStrings: 60, differences: 400, maxDifferences: 400 }),
    );

    // switching to the 690-point log file draws only the rows in view
    await body(page).locator('[data-logfile="1"]').click();
    await row(page, 0).waitFor();
    const inDom = await rows(page).count();
    expect(inDom).toBeGreaterThan(10);
    expect(inDom).toBeLessThan(60);
    // scrolling to the end shows the last rows, still only those in view: in the render the scroll
    // causes, the rows in view alone, with the last one; the rows above them come a frame later
    const drawn = await body(page)
      .locator('[data-points-view]')
      .evaluate(
        (v) =>
          new Promise<{ rows: number; last: boolean }>((resolve) => {
            const o = new MutationObserver(() => {
              o.disconnect();
              resolve({ rows: v.querySelectorAll('tr[data-point]').length, last: v.querySelector('tr[data-point="689"]') !== null });
            });
            o.observe(v, { childList: true, subtree: true });
            v.scrollTop = v.scrollHeight;
            v.dispatchEvent(new Event('scroll'));
          }),
      );
    expect(drawn.last).toBe(true);
    expect(drawn.rows).toBeGreaterThan(5);
    await expect.poll(() => rows(page).count()).toBeGreaterThan(drawn.rows);
    await row(page, 689).waitFor({ state: 'visible' });
    expect(await rows(page).count()).toBeLessThan(60);
    expect(await cells(page, 689)).toEqual(['690', 'P2229', '', 'INTERNAL', '0', 'DT4458', 'DINT', 'Momentary', 'Little (low word first)', '0', 'off']);

    // editing a row near the end: a keystroke shows in the table
    await row(page, 680).click();
    await expectText(body(page).locator('[data-point-editor] h3'), fill(t.point.editTitle, { id: 681, name: 'P2220' }));
    await input(page, 'log_def.1.records.680.name').fill('Renamed');
    await expect.poll(async () => (await cells(page, 680))[1]).toBe('Renamed');

    // a 61st STRING point: the point says so (spec §8), no further STRING point can be added, the save is refused
    await row(page, 689).click();
    await input(page, 'log_def.1.records.689.type').selectOption(String(STRING_TYPE));
    await expectText(body(page).locator('[data-point-error]'), t.point.maxReached);
    await expectText(body(page).locator('[data-list-error]'), t.point.maxReached);
    await expectText(body(page).locator('[data-max]'), t.point.maxReached);
    await body(page).locator('[data-action=add-points]').click();
    await expectNotice(page, 'error', t.point.maxReached);
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(new URL(r.url()).pathname);
    });
    await page.locator('.page-bar [data-action=save]').click();
    // refused, and the message names the field by its place, not by its path
    await expectNotice(page, 'error', saveRefusal([[`${en.nav.log}, ${fill(t.where.point, { file: 2, point: 690 })}`, '']]));
    expect(posts).toEqual([]);
    await input(page, 'log_def.1.records.689.type').selectOption('4');
    await expect.poll(() => body(page).locator('[data-point-error]').count()).toBe(0);
    // a 401st difference point likewise
    await input(page, 'log_def.1.records.689.format').selectOption('difference');
    await expectText(body(page).locator('[data-point-error]'), t.point.maxReached);
    await input(page, 'log_def.1.records.689.format').selectOption('momentary');
    await expect.poll(() => body(page).locator('[data-list-error]').count()).toBe(0);

    // spec §9 700 in all: of 50 asked, 10 fit, shown and scrolled into view; then none
    await page.locator('#log-add-count').fill('50');
    await body(page).locator('[data-action=add-points]').click();
    await row(page, 699).waitFor();
    await expectNotice(page, 'warning', `${t.point.maxReached} ${fill(t.point.added, { count: 10 })}`);
    await expectText(
      body(page).locator('[data-counts]'),
      fill(t.point.counts, { total: 700, max: 700, strings: 60, maxStrings: 60, differences: 400, maxDifferences: 400 }),
    );
    await row(page, 690).waitFor({ state: 'visible' });
    expect(await rows(page).count()).toBeLessThan(60);
    expect(await cells(page, 699)).toEqual(['700', 'P2239', '', 'INTERNAL', '0', 'DT4478', 'DINT', 'Momentary', 'Little (low word first)', '0', 'off']);
    await body(page).locator('[data-action=add-points]').click();
    await expectNotice(page, 'error', t.point.maxReached);
    // 700 points are valid: nothing on the page blocks the save, and the daemon takes them all
    expect(await page.evaluate(() => document.querySelectorAll('[data-page=log] .has-error, [data-page=log] [data-list-error]').length)).toBe(0);
    await save(page);
    const saved = (await stored(page)).log_def;
    expect(saved.map((f) => f.records.length)).toEqual([0, 700]);
    expect(saved[1]!.records[680]!.name).toBe('Renamed');
    expect(saved[1]!.records[699]).toMatchObject({ id: 700, name: 'P2239', reg_addr: '4478' });
  });

  /** /log with 30 points, point 4 in the editor and named X (a valid name: an empty one has a problem, whose going re-renders the field once more), the check caught up */
  async function namedX() {
    const page = await openLog({ log_def: [logFile({ id: 1, name: 'plant', records: points(30) })] });
    await row(page, 3).click();
    const name = input(page, 'log_def.0.records.3.name');
    await name.fill('X');
    await expect.poll(async () => (await cells(page, 3))[1]).toBe('X');
    await page.evaluate(() => new Promise((r) => setTimeout(() => setTimeout(r, 0), 0)));
    return { page, name };
  }

  it("a key typed into a point's name re-renders that field alone, not the page's other fields (some 40 on /log)", async () => {
    const { page, name } = await namedX();
    // every field of the page is one FieldView (web/forms/field.tsx): the innermost function around its class text
    const typed = 'Pump';
    const calls = await callsDuring(page, /["']check["']\s*:\s*["']["']/, async () => {
      for (let k = 1; k <= typed.length; k++) {
        await name.press(typed[k - 1]!);
        await expect.poll(async () => (await cells(page, 3))[1]).toBe(`X${typed.slice(0, k)}`);
      }
      // and the section's check that catches up in a task of its own (web/state/sections.ts shownValidation)
      await page.evaluate(() => new Promise((r) => setTimeout(() => setTimeout(r, 0), 0)));
    });
    // one render of the name's field a key; before, each key re-rendered every field of the page, twice
    expect(calls).toBe(typed.length);
    expect(await name.inputValue()).toBe(`X${typed}`);
  });

  it("a key typed into a point's name does not re-render the general settings; a register moved there does", async () => {
    const { page, name } = await namedX();
    // the general settings' card is one LogGeneral (web/pages/log-general.tsx): the innermost function around its card's id
    const general = /["']log-general["']/;
    const typed = await callsDuring(page, general, async () => {
      for (const key of 'Pump') await name.press(key);
      await expect.poll(async () => (await cells(page, 3))[1]).toBe('XPump');
      await page.evaluate(() => new Promise((r) => setTimeout(() => setTimeout(r, 0), 0)));
    });
    expect(typed).toBe(0);
    // the PLC control register's footprint is the card's own: a new register re-renders it
    const moved = await callsDuring(page, general, async () => {
      await input(page, 'plc_ctrl_wr').fill('390');
      await expect.poll(() => body(page).locator('[data-footprint]').allTextContents()).toContain(fill(t.register, { first: 390, count: 1 }));
    });
    expect(moved).toBeGreaterThan(0);
  });

  it('a click on another point re-renders the two rows whose selection moved, not every row in view', async () => {
    const page = await openLog({ log_def: [logFile({ id: 1, name: 'plant', records: points(30) })] });
    await row(page, 3).click();
    await expectText(body(page).locator('[data-point-editor] h3'), fill(en.logger.point.editTitle, { id: 4, name: 'P3' }));
    expect(await rows(page).count()).toBeGreaterThan(10);
    // each row of the table is one Row (web/pages/log-points.tsx): the innermost function around its edit button's action
    const calls = await callsDuring(page, /["']edit-point["'],\s*["']aria-label["']:\s*\w+\.point\.edit\(/, async () => {
      await row(page, 5).click();
      await expectText(body(page).locator('[data-point-editor] h3'), fill(en.logger.point.editTitle, { id: 6, name: 'P5' }));
    });
    expect(calls).toBe(2);
    expect(await row(page, 5).getAttribute('aria-selected')).toBe('true');
    expect(await row(page, 3).getAttribute('aria-selected')).toBe('false');
  });

  it("the table keeps the columns of its first layout: a long name typed into a point does not move them; another language's labels are measured again", async () => {
    const page = await openLog({ log_def: [logFile({ id: 1, name: 'plant', records: points(30) })] });
    const table = body(page).locator('table.points');
    const heads = () => table.locator('thead th').evaluateAll((ths) => ths.map((th) => th.getBoundingClientRect().width));
    const cut = () => table.locator('thead th').evaluateAll((ths) => ths.filter((th) => th.scrollWidth > th.clientWidth).map((th) => th.textContent));
    await table.and(page.locator('[data-columns=kept]')).waitFor();
    // laid out by the widths the browser gave the columns at first: one each, the header as it was
    const first = await heads();
    expect(first).toHaveLength(12);
    const kept = await table.locator('col').evaluateAll((cols) => cols.map((c) => Number.parseFloat((c as HTMLElement).style.width)));
    expect(Math.max(...kept.map((w, k) => Math.abs(w - first[k]!)))).toBeLessThan(0.5);
    expect(await cut()).toEqual([]);

    // a name longer than the column: the row shows it cut, the columns stay where they are (laid out
    // by the cells, the name's column would widen and every other one move)
    await row(page, 3).click();
    const long = 'Pump_station_north_outlet_pressure_sensor_left';
    await input(page, 'log_def.0.records.3.name').fill(long);
    await expect.poll(async () => (await cells(page, 3))[1]).toBe(long);
    const after = await heads();
    expect(Math.max(...after.map((w, k) => Math.abs(w - first[k]!)))).toBeLessThan(0.5);
    expect(
      await row(page, 3)
        .locator('td')
        .nth(2)
        .evaluate((td) => td.scrollWidth > td.clientWidth),
    ).toBe(true);

    // German labels are longer: measured again, none of them is cut
    await page.locator('select[data-action=language]').selectOption('de');
    await expectText(table.locator('thead th').nth(10), de.logger.pointFields.decimal.label);
    await expect.poll(cut).toEqual([]);
    await table.and(page.locator('[data-columns=kept]')).waitFor();
    expect(await cut()).toEqual([]);
    expect((await heads())[10]).toBeGreaterThan(first[10]!);
  });

  it('the cards far below the first screen are laid out only when they come near the view', async () => {
    const page = await openLog({ log_def: [logFile({ id: 1, name: 'big', records: points(690) })] });
    const storage = body(page).locator('[data-storage-files]');
    const title = storage.locator('h2');
    await title.waitFor({ state: 'attached' });
    const laidOut = () => title.evaluate((e) => e.checkVisibility({ contentVisibilityAuto: true }));
    // the storages' card is some three screens down at 1280 × 800: in the page, not laid out
    expect(await laidOut()).toBe(false);
    // scrolled to, it is drawn as any other
    await storage.scrollIntoViewIfNeeded();
    await expect.poll(laidOut).toBe(true);
    expect(await title.evaluate((e) => (e as HTMLElement).offsetHeight)).toBeGreaterThan(10);
  });

  it('deleting log files and data points renumbers the rest from 1 (spec §4)', async () => {
    const page = await openLog({ log_def: [logFile({ id: 1, name: 'a' }), logFile({ id: 2, name: 'b', records: points(5) }), logFile({ id: 3, name: 'c' })] });
    await body(page).locator('[data-action=remove-logfile]').click();
    await expectText(dialog(page).locator('#dlg-text'), fill(t.file.removeText, { name: 'a', count: 0 }));
    await dialog(page).locator('button', { hasText: t.file.removeYes }).click();
    await expect.poll(() => body(page).locator('[data-logfile]').allTextContents()).toEqual(['1 · b', '2 · c']);
    expect(await body(page).locator('[data-logfile="0"]').getAttribute('aria-pressed')).toBe('true');

    await row(page, 1).locator('input[type=checkbox]').check();
    await row(page, 3).locator('input[type=checkbox]').check();
    await expectText(body(page).locator('[data-action=remove-points]'), fill(t.point.removeChecked, { count: 2 }));
    await body(page).locator('[data-action=remove-points]').click();
    await expect.poll(async () => (await rows(page).all()).length).toBe(3);
    expect(await Promise.all([0, 1, 2].map(async (j) => (await cells(page, j)).slice(0, 2)))).toEqual([
      ['1', 'P0'],
      ['2', 'P2'],
      ['3', 'P4'],
    ]);
    await row(page, 1).click();
    await body(page).locator('[data-action=remove-point]').click();
    await expect.poll(() => rows(page).count()).toBe(2);
    expect(await Promise.all([0, 1].map(async (j) => (await cells(page, j)).slice(0, 2)))).toEqual([
      ['1', 'P0'],
      ['2', 'P4'],
    ]);

    await save(page);
    const s = await stored(page);
    expect(s.log_def.map((f) => [f.id, f.name])).toEqual([
      [1, 'b'],
      [2, 'c'],
    ]);
    expect(s.log_def[0]!.records.map((r) => [r.id, r.name])).toEqual([
      [1, 'P0'],
      [2, 'P4'],
    ]);
  });

  it('the log interval warning: reads that take longer than the cycle are flagged at the log file', async () => {
    const slowCom1 = (i: ComInterface): ComInterface => (i.id === 0 ? { ...i, enabled: true, baudrate: 1200 } : i);
    const records = points(30, { if: 0 }).map((r, k) => ({ ...r, reg_addr: String(k * 100) }));
    const page = await openLog({ log_def: [logFile({ id: 1, name: 'slow', interface: 0, cycle: 1, records })] }, { pew: slowCom1 });
    const pew = (await (await api(page, suite.d)).get('/config/pew')).body as { interfaces: ComInterface[] };
    const e = estimateReads(logFile({ id: 1, name: 'slow', interface: 0, cycle: 1, records }), 0, pew.interfaces);
    expect(e.requests).toBe(30);
    await expectText(body(page).locator('[data-interval-warning]'), fill(t.file.interval, { ms: Math.ceil(e.ms), requests: 30, cycle: 1 }));
    await expectText(body(page).locator('[data-logfile="0"] [data-mark=interval]'), '⚠');
    await expectText(body(page).locator('[data-estimate]'), fill(t.file.estimate, { points: 30, requests: 30, ms: Math.ceil(e.ms) }));
    await input(page, 'log_def.0.cycle').fill('60');
    await expect.poll(() => body(page).locator('[data-interval-warning]').count()).toBe(0);
    expect(await body(page).locator('[data-mark=interval]').count()).toBe(0);
    // a PLC flag trigger has no cycle to miss
    await input(page, 'log_def.0.cycle').fill('1');
    await body(page).locator('[data-interval-warning]').waitFor();
    await input(page, 'log_def.0.trigger').selectOption('4');
    await expect.poll(() => body(page).locator('[data-interval-warning]').count()).toBe(0);
  });

  it('the files of a storage are listed, downloaded and deleted; the user role only downloads', async () => {
    const dir = join(suite.d.dataDir, 'volumes', 'internal', 'log');
    await mkdir(dir, { recursive: true });
    const first = 'Date,Time,Level\r\n2026/03/14,10:00:00,12.5\r\n';
    const second = 'Date,Time,Level\r\n2026/03/15,10:00:00,13.0\r\n2026/03/15,10:15:00,13.5\r\n';
    await writeFile(join(dir, 'tank_20260314.csv'), first);
    await writeFile(join(dir, 'tank_20260315.csv'), second);
    const page = await openLog();
    const list = body(page).locator('[data-storage-files="0"]');
    await list.locator('[data-file]').first().waitFor();
    expect(await list.locator('[data-file] a').allTextContents()).toEqual(['tank_20260314.csv', 'tank_20260315.csv']);
    expect(await list.locator('[data-file="tank_20260315.csv"] td.num').textContent()).toBe(`${second.length} B`);

    const [download] = await Promise.all([page.waitForEvent('download'), list.locator('[data-file="tank_20260315.csv"] a').click()]);
    expect(download.suggestedFilename()).toBe('tank_20260315.csv');
    expect(await readFile(await download.path(), 'utf8')).toBe(second);

    await list.locator('[data-file="tank_20260314.csv"] input[type=checkbox]').check();
    await list.locator('[data-action=remove-files]').click();
    await expectText(dialog(page).locator('#dlg-text'), fill(t.storageFiles.removeText, { storage: t.generalFields.storage.options['0'], count: 1 }));
    await dialog(page).locator('button', { hasText: t.storageFiles.removeYes }).click();
    await expectNotice(page, 'info', fill(t.storageFiles.removed, { count: 1 }));
    await expect.poll(() => list.locator('[data-file] a').allTextContents()).toEqual(['tank_20260315.csv']);
    await expect(stat(join(dir, 'tank_20260314.csv'))).rejects.toMatchObject({ code: 'ENOENT' });

    // another storage: empty
    await page.locator('#log-volume').selectOption('2');
    await expectText(body(page).locator('[data-storage-files="2"] [data-empty]'), t.storageFiles.none);

    // a listing that fails says so
    await page.route('**/config/get_files_intern', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"x"}}' }),
    );
    await page.locator('#log-volume').selectOption('0');
    await expectText(body(page).locator('[data-files-failed]'), t.storageFiles.listFailed);
    await cp.context.close();

    // the user role sees and downloads the files, but deletes nothing
    const user = await suite.open();
    cp = user;
    await loginApi(user.page, suite.d, USER);
    await openConsole(user.page, suite.d, '/log');
    const ulist = pageBody(user.page, 'log').locator('[data-storage-files="0"]');
    await ulist.locator('[data-file]').first().waitFor();
    expect(await ulist.locator('[data-file] input[type=checkbox]').isDisabled()).toBe(true);
    expect(await ulist.locator('[data-action=remove-files]').isDisabled()).toBe(true);
    const [d2] = await Promise.all([user.page.waitForEvent('download'), ulist.locator('[data-file] a').first().click()]);
    expect(await readFile(await d2.path(), 'utf8')).toBe(second);
    // and every setting read-only
    const enabled = await pageBody(user.page, 'log')
      .locator('input:not([type=checkbox][aria-label]), select')
      .evaluateAll((els) => els.filter((e) => !(e as HTMLInputElement).disabled).map((e) => e.id));
    expect(enabled).toEqual(['log-volume']);
  });

  it('at 360 px the page fits the width; the table scrolls inside its frame', async () => {
    cp = await suite.open({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const c = await suite.d.admin();
    expect(
      (
        await c.post(`/config/${KEY}`, {
          ...defaults(),
          log_def: [logFile({ id: 1, name: 'narrow', records: points(20, { dim: 'mbar', enable_scal: true }) })],
        })
      ).status,
    ).toBe(200);
    const { page } = cp;
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/log');
    await row(page, 3).click();
    await page.locator('#log-import-file').setInputFiles({ name: 'globals.csv', mimeType: 'text/csv', buffer: Buffer.from(VARIABLES) });
    await body(page).locator('[data-skipped] summary').click();
    await pageDrawn(page); // every step of /log drawn: the whole page is measured
    const wider = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const clipped = (e: Element) => {
        for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return true;
        return false;
      };
      return [...document.querySelectorAll('main *')]
        .filter((e) => e.getBoundingClientRect().right > width + 0.5 && e.getBoundingClientRect().width > 0 && !clipped(e))
        .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`);
    });
    expect(wider).toEqual([]);
    expect(
      await body(page)
        .locator('[data-points-view]')
        .evaluate((e) => e.scrollWidth > e.clientWidth),
    ).toBe(true);
  });
});
