// /log: a STRING[n] of a variable list keeps its length n (the data point's str_len): it shows in
// the table and the point's editor, is stored, and the export writes STRING[n] again, not STRING[48].
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { withDefaults } from '../../device/model/section.ts';
import { logSchema } from '../../device/model/sections/log.ts';
import { type LogFile, logFileSchema } from '../../device/model/sections/logfile.ts';
import { api, consoleSuite, en, expectNotice, expectText, fieldInput, fill, loginApi, openConsole, pageBody, pageDrawn } from './support.ts';

const VARIABLES = `${[
  'Class;Identifier;IEC address;FP address;Type;Initial value;Comment',
  "VAR_GLOBAL;Batch_Name;%MW5.100;DT100;STRING[10];'';Charge",
  "VAR_GLOBAL;Recipe;%MW5.200;DT200;STRING;'';",
  "VAR_GLOBAL;Odd_Text;%MW5.300;DT300;STRING[9];'';",
].join('\r\n')}\r\n`;

describe('the string length of a data point on /log', () => {
  const suite = consoleSuite();

  it('STRING[10] imported shows, saves and exports as STRING[10]; a changed length exports as changed', async () => {
    const c = await suite.d.admin();
    const log = { ...(withDefaults(logSchema, {}) as object), log_def: [withDefaults(logFileSchema, { id: 1, name: 'batch', interface: 4 })] };
    expect((await c.post('/config/pew_log', log)).status).toBe(200);
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/log');
    const body = pageBody(page, 'log');
    await pageDrawn(page);
    await page.locator('#log-import-file').setInputFiles({ name: 'globals.csv', mimeType: 'text/csv', buffer: Buffer.from(VARIABLES) });
    // the preview of what Import adds, as the technician sees it before the click
    await expectText(body.locator('[data-found]'), fill(en.logger.transfer.found, { count: 3, skipped: 0, filtered: 0 }));
    await body.locator('[data-action=import]').click();
    await expectNotice(page, 'info', fill(en.logger.transfer.success, { name: 'batch', count: 3 }));
    const typeCell = (j: number) => body.locator(`tr[data-point="${j}"] td`).nth(7);
    await expect.poll(() => typeCell(0).textContent()).toBe('STRING[10]');
    expect(await typeCell(1).textContent()).toBe('STRING[48]');
    expect(await typeCell(2).textContent()).toBe('STRING[9]');

    // the point's editor shows the length, with its label, and takes a new one within 1 - 48
    await body.locator('tr[data-point="2"] [data-action=edit-point]').click();
    const len = fieldInput(page, 'pew_log', 'log_def.0.records.2.str_len');
    expect(await len.inputValue()).toBe('9');
    expect(await body.locator('[data-field="log_def.0.records.2.str_len"] label').first().textContent()).toContain(en.logger.pointFields.str_len.label);
    await len.fill('49');
    await expect
      .poll(() => body.locator('[data-field="log_def.0.records.2.str_len"] .error').textContent())
      .toBe(fill(en.errors.out_of_range, { min: 1, max: 48 }));
    await len.fill('12');
    await expect.poll(() => typeCell(2).textContent()).toBe('STRING[12]');

    await page.locator('.page-bar [data-action=save]').click();
    await expectNotice(page, 'info', en.form.notice.saved);
    const stored = (await (await api(page, suite.d)).get('/config/pew_log')).body as { log_def: LogFile[] };
    expect(stored.log_def[0]!.records.map((r) => [r.name, r.type, r.str_len])).toEqual([
      ['Batch_Name', 13, 10],
      ['Recipe', 13, 48],
      ['Odd_Text', 13, 12],
    ]);

    const [download] = await Promise.all([page.waitForEvent('download'), body.locator('[data-action=export]').click()]);
    const lines = (await readFile(await download.path(), 'utf8')).split('\r\n');
    expect(lines.slice(1, 4)).toEqual([
      'VAR_GLOBAL;Batch_Name;;DT100;STRING[10];;',
      'VAR_GLOBAL;Recipe;;DT200;STRING[48];;',
      'VAR_GLOBAL;Odd_Text;;DT300;STRING[12];;',
    ]);
  });
});
