// The register watch page (/watch) in chromium against the daemon and a virtual FP-XH on COM1: no
// route is mocked. An entry shows the value the PLC holds and a value written into the PLC's memory
// (as the simulator's PLC program would) within two update ticks, with its sparkline once a few
// values came; an address past the DT range is refused with the range in English and German and
// nothing is saved; two variables of the data logger are imported with their settings; the
// administrator writes a value after the question and a value the type cannot hold writes nothing;
// the user role keeps a list of its own without write controls (and the daemon refuses its write);
// a silent PLC shows the failure worded.
import type { Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDefaults } from '../../device/model/section.ts';
import type { Log } from '../../device/model/sections/log.ts';
import { type LogFile, type LogRecord, logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import type { WatchEntry } from '../../device/model/watch.ts';
import type { SerialFraming } from '../../sim/wire.ts';
import { watchEntry as entry } from '../support/watch-entry.ts';
import { connector, enableCom1, liveConsoleSuite, serialPlc } from './live-plc.ts';
import { api, de, en, expectNotice, expectText, expectTitle, fieldInput, fill, loginApi, openConsole, pageBody, USER } from './support.ts';

const FRAMING: SerialFraming = { baud: 115200, bits: 8, parity: 'odd', stopbits: 1 };
const TICK_MS = 1500; // spec §9: update tick
/** two ticks, and the read of the second one (a request to the virtual PLC in this process) */
const TWO_TICKS_MS = 2 * TICK_MS + 1500;
const wire = serialPlc('FP-XH', FRAMING);
const plc = wire.plc;

describe('the register watch page against a virtual PLC on COM1', () => {
  const suite = liveConsoleSuite({ COM1: connector(wire) });

  beforeAll(async () => {
    await enableCom1(suite.d, FRAMING, 2000);
  });
  afterAll(() => plc.setFault({ kind: 'none' }));

  const body = (page: Page) => pageBody(page, 'watch');
  const row = (page: Page, n: number) => body(page).locator(`tr[data-entry="${n}"]`);
  const value = (page: Page, n: number) => row(page, n).locator('td.value');
  const input = (page: Page, path: string) => fieldInput(page, 'watch', path);

  /** A page of the given role on /watch with the list it has (`list`: saved through the API first). */
  async function open(cred = undefined as typeof USER | undefined, list?: WatchEntry[], lang?: 'de') {
    const cp = await suite.open(lang ? { locale: 'de-DE' } : {});
    if (lang) await cp.page.addInitScript((l) => localStorage.setItem('console.locale', l), lang);
    await loginApi(cp.page, suite.d, cred);
    const calls = await api(cp.page, suite.d);
    if (list) expect((await calls.post('/config/watch', { entries: list })).status).toBe(200);
    await openConsole(cp.page, suite.d, '/watch');
    await body(cp.page).locator('[data-list]').waitFor();
    return { ...cp, calls };
  }

  it('an entry DT n on COM1 shows the value the PLC holds, and a value the PLC gets shows within two ticks; its sparkline draws once a few came', async () => {
    plc.memory.writeWords('DT', 120, [777]);
    const { page, calls } = await open(undefined, []);
    await expectTitle(page, en.nav.watch);
    await expectText(body(page).locator('[data-note=empty]'), en.watch.none);

    // an entry made on the page: DT120 on COM1, saved with the page's own button
    await body(page).locator('[data-action=add-entry]').click();
    await input(page, 'entries.0.name').fill('level');
    await input(page, 'entries.0.if').selectOption('0');
    await input(page, 'entries.0.reg_addr').fill('120');
    await expectText(body(page).locator('[data-note=unsaved]'), en.watch.unsaved);
    expect(await page.locator('.page-bar [data-action=save]').count()).toBe(0); // no section: the page saves itself
    await body(page).locator('[data-action=save-list]').click();
    await expectNotice(page, 'info', en.watch.saved);
    expect((await calls.get('/config/watch')).body.entries).toEqual([entry({ name: 'level', reg_addr: '120' })]);

    await expectText(value(page, 0), '777', TWO_TICKS_MS);
    expect(await row(page, 0).locator('td').nth(2).textContent()).toBe(fill(en.watch.at, { address: 'DT120', interface: 'COM1' }));
    plc.memory.writeWords('DT', 120, [4321]); // as the simulator's PLC program would
    await expectText(value(page, 0), '4,321', TWO_TICKS_MS);
    plc.memory.writeWords('DT', 120, [0xffff]);
    await expectText(value(page, 0), '-1', TWO_TICKS_MS);

    // the trend: a chartist line of the numbers read, without axes
    const spark = row(page, 0).locator('td.trend [data-spark]');
    await expect.poll(async () => Number((await spark.getAttribute('data-points')) ?? 0), { timeout: 4 * TICK_MS + 1500 }).toBeGreaterThanOrEqual(4);
    await spark.locator('svg path.ct-line').waitFor();
    expect(await spark.locator('.ct-label, .ct-grid').count()).toBe(0);
    expect(await spark.getAttribute('aria-label')).toBe(fill(en.watch.trendOf, { name: 'level' }));
  });

  it('a value shown as its words: hex and binary of the words read', async () => {
    plc.memory.writeWords('DT', 130, [0x1234, 0x00f0]);
    const { page } = await open(undefined, [entry({ reg_addr: '130', type: 4, format: 'hex' }), entry({ reg_addr: '131', format: 'bin' })]);
    await expectText(value(page, 0), '0x1234 0x00F0', TWO_TICKS_MS);
    await expectText(value(page, 1), '0000 0000 1111 0000', TWO_TICKS_MS);
  });

  it('an address past the DT range shows the range in English and German, and nothing is saved', async () => {
    const before = [entry({ name: 'kept', reg_addr: '10' })];
    for (const [lang, t] of [
      ['en', en],
      ['de', de],
    ] as const) {
      const { page, calls, context, errors } = await open(undefined, before, lang === 'de' ? 'de' : undefined);
      await row(page, 0).locator('[data-action=edit-entry]').click();
      await input(page, 'entries.0.reg_addr').fill('999425');
      const error = body(page).locator('[data-field="entries.0.reg_addr"] .error');
      await expectText(error, fill(t.errors.address_out_of_range, { min: 0, max: 999424 }, lang));
      expect(await input(page, 'entries.0.reg_addr').getAttribute('aria-invalid')).toBe('true');
      // a DINT from the last DT takes a word past it: the range says so
      await input(page, 'entries.0.reg_addr').fill('999424');
      await input(page, 'entries.0.type').selectOption('4');
      await expectText(error, fill(t.errors.address_out_of_range, { min: 0, max: 999423 }, lang));

      await body(page).locator('[data-action=save-list]').click();
      const place = [t.nav.watch, fill(t.form.place.entry, { n: 1 }, lang), t.logger.pointFields.reg_addr.label].join(', ');
      const refused = [
        t.form.notice.saveFailed,
        fill(t.form.problem, { place, message: fill(t.errors.address_out_of_range, { min: 0, max: 999423 }, lang) }, lang),
      ];
      await expectText(page.locator('.notices .notice.error span'), refused.join('\n'));
      expect((await calls.get('/config/watch')).body.entries).toEqual(before);
      // the daemon refuses it the same way
      const r = await calls.post('/config/watch', { entries: [entry({ reg_addr: '999424', type: 4 })] });
      expect(r.body.error.issues[0]).toMatchObject({ path: 'entries.0.reg_addr', code: 'address_out_of_range', params: { min: 0, max: 999423 } });
      if (lang === 'en') {
        await context.close(); // the next language gets a page of its own; the suite closes the last one
        expect(errors).toEqual([]);
      }
    }
  });

  it('two variables of the data logger are imported with their settings', async () => {
    const point = (o: Partial<LogRecord>) => withDefaults(recordSchema, o) as LogRecord;
    const log = {
      log_def: [
        withDefaults(logFileSchema, {
          id: 1,
          name: 'tanks',
          interface: 0,
          plc_addr: 3,
          records: [
            point({ id: 1, name: 'tank_level', if: 0, area: 1, reg_addr: '300', type: 7, endian: 'big', decimal: 2 }),
            point({ id: 2, name: 'tank_name', if: 0, area: 1, reg_addr: '310', type: 13, str_len: 12 }),
          ],
        }) as LogFile,
        withDefaults(logFileSchema, {
          id: 2,
          name: 'pumps',
          interface: 3,
          records: [
            point({ id: 3, name: 'pump_run', if: 0, area: 6, reg_addr: '10A', type: 0 }),
            point({ id: 4, name: 'pump_hours', if: 0, plc_addr: 5, reg_addr: '320', type: 5 }),
          ],
        }) as LogFile,
      ],
    };
    const admin = await suite.d.admin();
    const current = (await admin.get('/config/pew_log')).body as Log;
    expect((await admin.post('/config/pew_log', { ...current, ...log })).status).toBe(200);

    const { page, calls } = await open(undefined, [entry({ name: 'first', reg_addr: '10' })]);
    await body(page).locator('[data-action=import]').click();
    const panel = body(page).locator('[data-import]');
    await expect.poll(() => panel.locator('[data-variable]').count()).toBe(4);
    expect(await panel.locator('li .name').allTextContents()).toEqual(['tank_level', 'tank_name', 'pump_run', 'pump_hours']);
    // a filter by name; the ticks stay when it changes
    await page.locator('#watch-import-filter').fill('TANK');
    expect(await panel.locator('li .name').allTextContents()).toEqual(['tank_level', 'tank_name']);
    await panel.locator('[data-variable="0.0"]').check();
    await page.locator('#watch-import-filter').fill('run');
    await panel.locator('[data-variable="1.0"]').check();
    await expectText(panel.locator('[data-action=add-picked]'), fill(en.watch.import.add, { count: 2 }));
    await panel.locator('[data-action=add-picked]').click();
    await expectNotice(page, 'info', fill(en.watch.import.added, { count: 2 }));
    expect(await body(page).locator('tr[data-entry]').count()).toBe(3);

    // the record's station, or its log file's where it is 0 and on the file's interface
    const imported = [
      entry({ name: 'tank_level', plc_addr: 3, reg_addr: '300', type: 7, endian: 'big', decimal: 2 }),
      entry({ name: 'pump_run', area: 6, reg_addr: '10A' }),
    ];
    await row(page, 1).locator('[data-action=edit-entry]').click();
    for (const [f, v] of [
      ['name', 'tank_level'],
      ['if', '0'],
      ['plc_addr', '3'],
      ['area', '1'],
      ['reg_addr', '300'],
      ['type', '7'],
      ['endian', 'big'],
      ['decimal', '2'],
      ['format', 'value'],
    ] as const)
      expect(await input(page, `entries.1.${f}`).inputValue(), f).toBe(v);
    await body(page).locator('[data-action=save-list]').click();
    await expectNotice(page, 'info', en.watch.saved);
    expect((await calls.get('/config/watch')).body.entries).toEqual([entry({ name: 'first', reg_addr: '10' }), ...imported]);
  });

  it('the administrator writes a value after the question, and the PLC has it; a value an INT cannot hold writes nothing', async () => {
    plc.memory.writeWords('DT', 140, [5]);
    const { page } = await open(undefined, [entry({ name: 'setpoint', reg_addr: '140' }), entry({ name: 'door', area: 4, reg_addr: '0' })]);
    await expectText(value(page, 0), '5', TWO_TICKS_MS);
    expect(await row(page, 1).locator('[data-write]').count()).toBe(0); // the inputs are never written
    const write = row(page, 0).locator('[data-write]');
    await write.locator('input').fill('1234');
    await write.locator('[data-action=write]').click();
    const dialog = page.locator('[role=alertdialog]');
    await expectText(dialog.locator('#dlg-text'), fill(en.watch.writeText, { value: '1234', at: fill(en.watch.at, { address: 'DT140', interface: 'COM1' }) }));
    await dialog.locator('button.danger').click();
    await expectText(write.locator('[data-written]'), en.watch.written);
    expect(plc.memory.readWords('DT', 140, 1)).toEqual([1234]);
    await expectText(value(page, 0), '1,234', TWO_TICKS_MS);

    // 70000 is no INT: the daemon's range, worded, and the PLC keeps its value
    await write.locator('input').fill('70000');
    await write.locator('[data-action=write]').click();
    await dialog.locator('button.danger').click();
    await expectText(write.locator('[data-write-error]'), fill(en.errors.out_of_range, { min: '-32768', max: '32767' }));
    expect(await write.locator('input').getAttribute('aria-invalid')).toBe('true');
    expect(plc.memory.readWords('DT', 140, 1)).toEqual([1234]);
    // answering no writes nothing either
    await write.locator('input').fill('9');
    await write.locator('[data-action=write]').click();
    await dialog.locator('button:not(.danger)').click();
    expect(await dialog.count()).toBe(0);
    expect(plc.memory.readWords('DT', 140, 1)).toEqual([1234]);
  });

  it('the user role keeps a list of its own and sees no write field; the daemon refuses its write', async () => {
    const adminList = [entry({ name: 'admin_only', reg_addr: '150' })];
    await (await suite.d.admin()).post('/config/watch', { entries: adminList });
    plc.memory.writeWords('DT', 160, [42]);
    const { page, calls } = await open(USER, []);
    await expectText(body(page).locator('[data-note=empty]'), en.watch.none);
    await body(page).locator('[data-action=add-entry]').click();
    await input(page, 'entries.0.if').selectOption('0');
    await input(page, 'entries.0.reg_addr').fill('160');
    await body(page).locator('[data-action=save-list]').click();
    await expectNotice(page, 'info', en.watch.saved);
    await expectText(value(page, 0), '42', TWO_TICKS_MS);

    expect(await body(page).locator('thead th').allTextContents()).not.toContain(en.watch.write);
    expect(await body(page).locator('[data-write], [data-action=write]').count()).toBe(0);
    expect((await calls.get('/config/watch')).body.entries).toEqual([entry({ reg_addr: '160' })]);
    expect((await (await suite.d.admin()).get('/config/watch')).body.entries).toEqual(adminList);
    const refused = await calls.post('/config/watch/write', { index: 0, value: '1' });
    expect(refused.status).toBe(403);
    expect(plc.memory.readWords('DT', 160, 1)).toEqual([42]);
  });

  it('a PLC that stays silent: the failure is worded at the entry and at a write, and the value comes back with the PLC', async () => {
    plc.memory.writeWords('DT', 170, [17]);
    const { page } = await open(undefined, [entry({ name: 'silent', reg_addr: '170' })]);
    await expectText(value(page, 0), '17', TWO_TICKS_MS);
    plc.setFault({ kind: 'silent' });
    const failure = value(page, 0).locator('[data-failure]');
    await expectText(failure, en.errors.reasons.plc_no_answer);
    expect(await failure.getAttribute('data-failure')).toBe('no_answer');
    // a write the PLC does not answer: the daemon's link_failed with its reason, worded at the row
    const write = row(page, 0).locator('[data-write]');
    await write.locator('input').fill('18');
    await write.locator('[data-action=write]').click();
    await page.locator('[role=alertdialog] button.danger').click();
    await expectText(write.locator('[data-write-error]'), `${en.errors.link_failed} ${en.errors.reasons.plc_no_answer}`);
    plc.setFault({ kind: 'none' });
    expect(plc.memory.readWords('DT', 170, 1)).toEqual([17]);
    await expectText(value(page, 0), '17');
  });
});
