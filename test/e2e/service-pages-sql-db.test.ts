// The /sql and /db pages in chromium (spec §2 service layout, §3 pew_sql, pew_nosql and their data
// points, §5 rules, §8 messages, §9 limits): every field, a complete setup with three data points
// saved, reloaded and stored, reset, invalid values refused by the console and by the daemon with
// the same code, the MongoDB/InfluxDB switch, the InfluxDB "Read databases" listing (answered by
// page.route: its daemon side is not part of this test) and the read-only user role.

import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MASK } from '../../device/model/fields.ts';
import { DATA_AREA_MAX, MAX_DATAPOINTS, wordsOf } from '../../device/model/sections/datapoint.ts';
import { nosqlSchema } from '../../device/model/sections/nosql.ts';
import { sqlSchema } from '../../device/model/sections/sql.ts';
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

type Key = 'pew_sql' | 'pew_nosql';

/** expect.poll with the patience of a loaded machine (the page chunk may arrive after the title) */
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: WAIT_MS, interval: 50 });

const input = (page: Page, key: Key, path: string) => fieldInput(page, key, path);
const fieldError = (page: Page, _key: Key, path: string) => page.locator(`[data-field="${path}"] .error`);
const rows = (page: Page) => page.locator('[data-points] tbody tr');
/** the word orders as the table names them (the English dictionary) */
const ENDIAN = en.fields.pew_sql.datalist.endian.options;
const saveButton = (page: Page) => page.locator('.page-bar [data-action=save]');
const dialog = (page: Page) => page.locator('[role=alertdialog]');

async function save(page: Page): Promise<void> {
  await saveButton(page).click();
  await expectNotice(page, 'info', en.form.notice.saved);
}

/** Adds a point with the button and fills the fields given (the editor opens on the new row). */
async function addPoint(page: Page, key: Key, values: Record<string, string | boolean>): Promise<void> {
  const j = await rows(page).count();
  await page.locator('[data-action=add-point]').click();
  await page.locator(`[data-point-editor="${j}"]`).waitFor();
  for (const [f, value] of Object.entries(values)) {
    const el = input(page, key, `datalist.${j}.${f}`);
    if (typeof value === 'boolean') await el.setChecked(value);
    else if ((await el.evaluate((e) => e.tagName)) === 'SELECT') await el.selectOption(value);
    else await el.fill(value);
  }
}

/** Every field of the schema but the data list (and the keys the page hides for this type) has its input and label. */
async function expectAllFields(page: Page, key: Key, keys: string[]): Promise<void> {
  const labels = en.fields[key] as unknown as Record<string, { label: string }>;
  await input(page, key, keys[0]!).waitFor();
  for (const k of keys) {
    expect(await input(page, key, k).count(), k).toBe(1);
    await expectText(page.locator(`label[for="f-${key}-${k}"]`), labels[k]!.label);
  }
}

describe('the SQL and NoSQL pages', () => {
  const suite = consoleSuite();
  let cp: ConsolePage;

  it('/sql: every field; a setup with three data points is saved, reloaded and stored; reset brings the defaults', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/sql');
    await expectTitle(page, en.nav.sql);
    await expectAllFields(
      page,
      'pew_sql',
      Object.keys(sqlSchema.entries).filter((k) => k !== 'datalist'),
    );
    await expectText(page.locator('[data-footprint]'), fill(en.form.footprint, { first: 350, last: 355, count: 6 }));
    await expectText(page.locator('[data-points] [data-empty]'), en.fields.datapoints.none);
    expect(await page.locator('[data-servicetest=pew_sql]').count()).toBe(1);
    expect(await page.locator('.downloads a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
      '/download/examples/sql.zip',
      '/download/examples/library.zip',
    ]);

    // the port follows the database type while it is the usual one
    expect(await input(page, 'pew_sql', 'port').inputValue()).toBe('1433');
    await input(page, 'pew_sql', 'db_type').selectOption('2');
    await poll(() => input(page, 'pew_sql', 'port').inputValue()).toBe('5432');
    await input(page, 'pew_sql', 'db_type').selectOption('1');
    await poll(() => input(page, 'pew_sql', 'port').inputValue()).toBe('3306');
    await input(page, 'pew_sql', 'port').fill('3307');
    await input(page, 'pew_sql', 'db_type').selectOption('2');
    await poll(() => input(page, 'pew_sql', 'db_type').inputValue()).toBe('2');
    expect(await input(page, 'pew_sql', 'port').inputValue()).toBe('3307'); // a port of one's own stays

    await input(page, 'pew_sql', 'enable_sql').check();
    await input(page, 'pew_sql', 'plc_control_dt').fill('400');
    await expectText(page.locator('[data-footprint]'), fill(en.form.footprint, { first: 400, last: 405, count: 6 }));
    await input(page, 'pew_sql', 'plc_poll').fill('2.5');
    await input(page, 'pew_sql', 'server').fill('db.plant.local');
    await input(page, 'pew_sql', 'instance_name').fill('plant');
    await input(page, 'pew_sql', 'tablename').fill('line_1');
    await input(page, 'pew_sql', 'user').fill('writer');
    await input(page, 'pew_sql', 'pass').fill('Wr1ter-secret');
    await input(page, 'pew_sql', 'timeout').fill('20');
    await input(page, 'pew_sql', 'ca_verification').uncheck();
    await input(page, 'pew_sql', 'insertWithoutPLC').check();
    await input(page, 'pew_sql', 'interface').selectOption({ label: 'COM4' });
    await input(page, 'pew_sql', 'plc_addr').fill('3');
    await input(page, 'pew_sql', 'ca').fill('ca.pem');

    await addPoint(page, 'pew_sql', { name: 'temperature', address: '100', type: 'REAL', decimal: '2', unit: 'degC', enable_scal: true });
    await input(page, 'pew_sql', 'datalist.0.scale_plc_max').fill('1000');
    await input(page, 'pew_sql', 'datalist.0.scale_log_max').fill('50');
    // the next point continues after the last one: same type, next free word
    await addPoint(page, 'pew_sql', { name: 'pieces', type: 'UDINT', endian: 'big' });
    expect(await input(page, 'pew_sql', 'datalist.1.address').inputValue()).toBe('102');
    await addPoint(page, 'pew_sql', { name: 'door_open', area: 'R', type: 'BOOL', address: '10', bit: '10' });
    await expectText(page.locator('[data-counts]'), fill(en.fields.datapoints.count, { count: 3, max: MAX_DATAPOINTS }));
    expect(await rows(page).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)))).toEqual([
      ['1', 'temperature', 'DT100', 'REAL', '2', ENDIAN.little, 'degC', '0 – 1000 → 0 – 50'],
      ['2', 'pieces', 'DT102', 'UDINT', '2', ENDIAN.big, '', en.fields.datapoints.scaleOff],
      ['3', 'door_open', 'R10A', 'BOOL', '2', ENDIAN.big, '', en.fields.datapoints.scaleOff],
    ]);
    await save(page);

    const stored = (await (await api(page, suite.d)).get('/config/pew_sql')).body;
    expect(stored).toMatchObject({
      enable_sql: true,
      db_type: 2,
      port: 3307,
      plc_control_dt: 400,
      plc_poll: 2.5,
      server: 'db.plant.local',
      instance_name: 'plant',
      tablename: 'line_1',
      user: 'writer',
      pass: PASSWORD_MASK,
      timeout: 20,
      use_encryption: true,
      ca_verification: false,
      insertWithoutPLC: true,
      interface: 5,
      plc_addr: 3,
      ca: 'ca.pem',
    });
    expect(stored.datalist).toEqual([
      {
        name: 'temperature',
        area: 'DT',
        address: 100,
        bit: 0,
        type: 'REAL',
        decimal: 2,
        endian: 'little',
        unit: 'degC',
        enable_scal: true,
        scale_plc_min: 0,
        scale_plc_max: 1000,
        scale_log_min: 0,
        scale_log_max: 50,
      },
      {
        name: 'pieces',
        area: 'DT',
        address: 102,
        bit: 0,
        type: 'UDINT',
        decimal: 2,
        endian: 'big',
        unit: '',
        enable_scal: false,
        scale_plc_min: 0,
        scale_plc_max: 100,
        scale_log_min: 0,
        scale_log_max: 100,
      },
      {
        name: 'door_open',
        area: 'R',
        address: 10,
        bit: 10,
        type: 'BOOL',
        decimal: 2,
        endian: 'big',
        unit: '',
        enable_scal: false,
        scale_plc_min: 0,
        scale_plc_max: 100,
        scale_log_min: 0,
        scale_log_max: 100,
      },
    ]);

    await page.reload();
    await expectTitle(page, en.nav.sql);
    await poll(() => input(page, 'pew_sql', 'server').inputValue()).toBe('db.plant.local');
    expect(await input(page, 'pew_sql', 'pass').inputValue()).toBe(PASSWORD_MASK);
    expect(await input(page, 'pew_sql', 'interface').inputValue()).toBe('5');
    await poll(() => rows(page).count()).toBe(3);
    await rows(page).nth(2).click();
    expect(await input(page, 'pew_sql', 'datalist.2.bit').inputValue()).toBe('10');
    expect(await input(page, 'pew_sql', 'datalist.2.area').inputValue()).toBe('R');
    expect(await input(page, 'pew_sql', 'datalist.0.scale_plc_max').count()).toBe(0); // only the selected point is edited
    // deleting a point: the rows after it move up
    await rows(page).nth(1).click();
    await page.locator('[data-point-editor="1"] [data-action=remove-point]').click();
    await poll(() => rows(page).count()).toBe(2);
    await expectText(rows(page).nth(1).locator('td').nth(1), 'door_open');
    await expectText(rows(page).nth(1).locator('td').first(), '2');

    // reset: the defaults in the fields, nothing stored until saved
    await page.locator('.page-bar [data-action=reset]').click();
    await dialog(page).locator('button.danger', { hasText: en.confirm.reset }).click();
    await poll(() => input(page, 'pew_sql', 'server').inputValue()).toBe('');
    expect(await input(page, 'pew_sql', 'port').inputValue()).toBe('1433');
    expect(await input(page, 'pew_sql', 'plc_control_dt').inputValue()).toBe('350');
    await expectText(page.locator('[data-points] [data-empty]'), en.fields.datapoints.none);
    expect((await (await api(page, suite.d)).get('/config/pew_sql')).body.datalist).toHaveLength(3);
  });

  it("/sql: a bad address, a data point out of range and too many points are refused with the daemon's codes", async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/sql');
    await poll(() => rows(page).count()).toBe(3);
    const a = await api(page, suite.d);
    const before = (await a.get('/config/pew_sql')).body;
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith('/config')) posts.push(r.url());
    });

    // DT100 REAL moved to FL 40000: past the last start address of a 2-word value in FL
    await rows(page).first().click();
    await input(page, 'pew_sql', 'datalist.0.area').selectOption('FL');
    await input(page, 'pew_sql', 'datalist.0.address').fill('40000');
    const flLast = { min: 0, max: DATA_AREA_MAX.FL - wordsOf('REAL') + 1 };
    const addressText = fill(en.errors.address_out_of_range, flLast);
    await expectText(fieldError(page, 'pew_sql', 'datalist.0.address'), addressText);
    await expectText(rows(page).first().locator('td').first(), '1 !');
    await saveButton(page).click();
    await expectText(
      page.locator('.notices .notice.error span'),
      saveRefusal([[`${en.nav.sql}, ${fill(en.form.place.point, { n: 1 })}, ${en.fields.pew_sql.datalist.address.label}`, addressText]]),
    );
    expect(posts).toEqual([]);
    const badAddress = structuredClone(before);
    Object.assign(badAddress.datalist[0], { area: 'FL', address: 40000 });
    let r = await a.post('/config/pew_sql', badAddress);
    expect(r.status).toBe(400);
    expect(r.body.error.issues.find((i: { path: string }) => i.path === 'datalist.0.address')).toMatchObject({
      path: 'datalist.0.address',
      code: 'address_out_of_range',
      params: flLast,
    });

    // decimals past 9 on a 32-bit value
    await input(page, 'pew_sql', 'datalist.0.address').fill('32000');
    await poll(() => fieldError(page, 'pew_sql', 'datalist.0.address').count()).toBe(0);
    await input(page, 'pew_sql', 'datalist.0.decimal').fill('12');
    const decimalText = fill(en.errors.out_of_range, { min: 0, max: 9 });
    await expectText(fieldError(page, 'pew_sql', 'datalist.0.decimal'), decimalText);
    const badDecimal = structuredClone(before);
    badDecimal.datalist[0].decimal = 12;
    r = await a.post('/config/pew_sql', badDecimal);
    expect(r.status).toBe(400);
    expect(r.body.error.issues.find((i: { path: string }) => i.path === 'datalist.0.decimal')).toMatchObject({
      path: 'datalist.0.decimal',
      code: 'out_of_range',
      params: { min: 0, max: 9 },
    });
    // and a column name the database could not take
    await input(page, 'pew_sql', 'datalist.0.decimal').fill('1');
    await input(page, 'pew_sql', 'datalist.0.name').fill('1st');
    await expectText(fieldError(page, 'pew_sql', 'datalist.0.name'), en.errors.must_start_with_letter);
    expect(posts).toEqual([]);
    expect((await a.get('/config/pew_sql')).body).toEqual(before);

    // 100 points stored through the API: the console refuses a 101st with the §8 message, the daemon with too_many
    const point = before.datalist[1];
    const full = { ...before, datalist: Array.from({ length: MAX_DATAPOINTS }, (_, i) => ({ ...point, name: `p${i}`, address: i * 2 })) };
    expect((await a.post('/config/pew_sql', full)).status).toBe(200);
    page.on('dialog', (d) => void d.accept()); // the browser's question before dropping the unsaved edits
    await page.reload();
    await poll(() => rows(page).count()).toBe(MAX_DATAPOINTS);
    await expectText(page.locator('[data-points] [data-max]'), en.fields.datapoints.maxReached);
    await page.locator('[data-action=add-point]').click();
    await expectText(page.locator('.notices .notice.error span'), en.fields.datapoints.maxReached);
    expect(await rows(page).count()).toBe(MAX_DATAPOINTS);
    r = await a.post('/config/pew_sql', { ...full, datalist: [...full.datalist, { ...point, name: 'one_more', address: 500 }] });
    expect(r.status).toBe(400);
    expect(r.body.error.issues.find((i: { path: string }) => i.path === 'datalist')).toMatchObject({
      path: 'datalist',
      code: 'too_many',
      params: { max: MAX_DATAPOINTS },
    });
    expect(posts).toEqual([]);
  });

  it('/db: Mongo or Influx fields, the tag pair rule, an Influx setup saved, and "Read databases" lists and picks', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/db');
    await expectTitle(page, en.nav.db);
    const all = Object.keys(nosqlSchema.entries).filter((k) => k !== 'datalist');
    await expectAllFields(
      page,
      'pew_nosql',
      all.filter((k) => k !== 'measurement'),
    );
    expect(await input(page, 'pew_nosql', 'measurement').count()).toBe(0);
    expect(await input(page, 'pew_nosql', 'port').count()).toBe(0); // spec §3: no port
    expect(await page.locator('[data-action=read-influx]').count()).toBe(0);
    await expectText(page.locator('[data-footprint]'), fill(en.form.footprint, { first: 370, last: 379, count: 10 }));
    expect(await page.locator('.downloads a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
      '/download/examples/mongo.zip',
      '/download/examples/influx.zip',
      '/download/examples/library.zip',
    ]);

    // spec §5 "both given or both ignored": a tag name without a value is no error, the page says it is ignored
    await input(page, 'pew_nosql', 'tag_name').fill('line');
    await expectText(page.locator('[data-note=tag-ignored]'), en.errors.tag_pair);
    expect(await fieldError(page, 'pew_nosql', 'tag_value').count()).toBe(0);
    const a = await api(page, suite.d);
    const before = (await a.get('/config/pew_nosql')).body;
    expect((await a.post('/config/pew_nosql', { ...before, tag_name: 'line' })).status).toBe(200);
    expect((await a.post('/config/pew_nosql', before)).status).toBe(200);
    await input(page, 'pew_nosql', 'tag_value').fill('L-1');
    await poll(() => page.locator('[data-note=tag-ignored]').count()).toBe(0);

    // Influx: the measurement instead of the collection, and the listing
    await input(page, 'pew_nosql', 'db_type').selectOption('1');
    await input(page, 'pew_nosql', 'measurement').waitFor();
    expect(await input(page, 'pew_nosql', 'collection').count()).toBe(0);
    await expectAllFields(
      page,
      'pew_nosql',
      all.filter((k) => k !== 'collection'),
    );
    await input(page, 'pew_nosql', 'enable_sql').check();
    await input(page, 'pew_nosql', 'server').fill('http://influx.plant.local:8086');
    await input(page, 'pew_nosql', 'instance_name').fill('plant');
    await input(page, 'pew_nosql', 'measurement').fill('line1');
    await addPoint(page, 'pew_nosql', { name: 'speed', type: 'INT' });
    await addPoint(page, 'pew_nosql', { name: 'power', type: 'REAL', decimal: '1' });
    await addPoint(page, 'pew_nosql', { name: 'label', type: 'STRING', area: 'DT', address: '600' });
    await save(page);
    const stored = (await a.get('/config/pew_nosql')).body;
    expect(stored).toMatchObject({
      enable_sql: true,
      db_type: 1,
      server: 'http://influx.plant.local:8086',
      instance_name: 'plant',
      measurement: 'line1',
      tag_name: 'line',
      tag_value: 'L-1',
      collection: '',
    });
    expect(stored.datalist.map((p: { name: string; type: string; address: number }) => [p.name, p.type, p.address])).toEqual([
      ['speed', 'INT', 0],
      ['power', 'REAL', 1],
      ['label', 'STRING', 600],
    ]);

    let answer: { status: number; body: unknown } = { status: 200, body: { databases: ['plant', 'lab'], measurements: ['line1', 'line2'] } };
    let asked = 0;
    await page.route('**/config/pew_getinflux', (route) => {
      asked++;
      return route.fulfill({ status: answer.status, contentType: 'application/json', body: JSON.stringify(answer.body) });
    });
    await page.locator('[data-action=read-influx]').click();
    const list = page.locator('[data-influx-list]');
    await list.waitFor();
    expect(asked).toBe(1);
    expect(await list.locator('[data-list=databases] button').allTextContents()).toEqual(['plant', 'lab']);
    expect(await list.locator('[data-list=measurements] button').allTextContents()).toEqual(['line1', 'line2']);
    expect(await list.locator('[data-pick=plant]').getAttribute('aria-pressed')).toBe('true');
    await list.locator('[data-list=databases] [data-pick=lab]').click();
    await poll(() => input(page, 'pew_nosql', 'instance_name').inputValue()).toBe('lab');
    await list.locator('[data-list=measurements] [data-pick=line2]').click();
    await poll(() => input(page, 'pew_nosql', 'measurement').inputValue()).toBe('line2');
    expect(await list.locator('[data-list=measurements] [data-pick=line2]').getAttribute('aria-pressed')).toBe('true');

    // with unsaved changes it asks first (the listing uses the saved settings); a refusal shows its text
    answer = {
      status: 502,
      body: { error: { code: 'db_peer_failed', message: 'x', params: { reason: 'refused', message: 'connect ECONNREFUSED 10.1.1.5:8086' } } },
    };
    await page.locator('[data-action=read-influx]').click();
    await dialog(page).locator('button', { hasText: en.confirm.testAnyway }).click();
    await expectText(page.locator('[data-influx] [data-outcome=refused]'), fill(en.errors.db_peer_failed, { message: 'connect ECONNREFUSED 10.1.1.5:8086' }));
    expect(asked).toBe(2);
    expect(await list.count()).toBe(0);

    // an answer that is not of the schema is not shown as a list
    answer = { status: 200, body: { databases: 'plant' } };
    await page.locator('[data-action=read-influx]').click();
    await dialog(page).locator('button', { hasText: en.confirm.testAnyway }).click();
    await expectText(page.locator('[data-influx] [data-outcome=refused]'), en.errors.internal);

    // back to Mongo: the collection again, no listing
    await input(page, 'pew_nosql', 'db_type').selectOption('0');
    await input(page, 'pew_nosql', 'collection').waitFor();
    expect(await input(page, 'pew_nosql', 'measurement').count()).toBe(0);
    expect(await page.locator('[data-action=read-influx]').count()).toBe(0);
    await expectText(fieldError(page, 'pew_nosql', 'collection'), en.errors.required);
  });

  it('the user role sees both pages read-only and the daemon refuses its saves', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d, USER);
    for (const [path, id, key] of [
      ['/sql', 'sql', 'pew_sql'],
      ['/db', 'db', 'pew_nosql'],
    ] as const) {
      await openConsole(page, suite.d, path);
      await poll(() => rows(page).count()).toBeGreaterThan(0);
      await rows(page).first().click();
      await input(page, key, 'datalist.0.name').waitFor();
      const form = pageBody(page, id);
      // every control is disabled; only choosing the point to look at stays possible
      const states = await form
        .locator('input, select, textarea, button[data-action]:not([data-action=edit-point])')
        .evaluateAll((els) => els.map((e) => [(e as HTMLInputElement).name || e.getAttribute('data-action'), (e as HTMLInputElement).disabled]));
      expect(states.length).toBeGreaterThan(20);
      expect(states.filter(([, disabled]) => !disabled)).toEqual([]);
      expect(await page.locator('[data-action=save], [data-action=reset], [data-action=save-all]').count()).toBe(0);
      const a = await api(page, suite.d);
      const stored = await a.get(`/config/${key}`);
      expect(stored.status).toBe(200);
      expect((await a.post(`/config/${key}`, stored.body)).status).toBe(403);
    }
    expect(await page.locator('[data-action=read-influx]').count()).toBe(1); // the saved type is InfluxDB
  });
});
