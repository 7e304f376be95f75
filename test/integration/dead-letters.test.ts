// Issue 33 item 2 against real PostgreSQL 15 and InfluxDB 1.x (test/support/db-servers.ts), a
// virtual FP-XH on COM1 holding the blocks and the data points: a row queued for a target that a
// save re-points is never written into the new target (it is a dead letter, target_gone, visible
// in the status and the download); a row whose columns no longer fit the table is a dead letter
// after 3 tries and the rows behind it go on; a database that is down keeps every row waiting in
// order (no dead letter); the admin retries and discards letters, audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATE } from '../../device/model/blocks/convention.ts';
import { NOSQL_BLOCK } from '../../device/model/blocks/nosql.ts';
import { SQL_BLOCK } from '../../device/model/blocks/sql.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { type Nosql, pew_nosql } from '../../device/model/sections/nosql.ts';
import { pew_sql, type Sql } from '../../device/model/sections/sql.ts';
import type { ServiceStatus, ServicesStatus } from '../../device/model/service-status.ts';
import type { DeadLetter } from '../../device/service-runtime/dead-letters.ts';
import { influxRequest } from '../../device/services/influx.ts';
import { DB_NAME, DB_PASSWORD, DB_USER, type DbServer, type PostgresServer, startInflux, startPostgres } from '../support/db-servers.ts';
import { COM1, dbBlock, EVERY_TYPE, placeValues, point } from './db-rig.ts';
import { until } from './logger-rig.ts';
import { type MqttRig, startMqttRig } from './mqtt-rig.ts';

let rig: MqttRig;
let postgres: PostgresServer;
let influx: DbServer;

beforeAll(async () => {
  [rig, postgres, influx] = await Promise.all([startMqttRig(), startPostgres(), startInflux()]);
  placeValues(rig.plc, EVERY_TYPE);
}, 180_000);

afterAll(async () => {
  await rig?.d.stop();
  await Promise.all([postgres?.stop(), influx?.stop()]);
}, 60_000);

const level = point({ name: 'level', type: 'DINT', address: 1004 }); // -123456789
const temp = point({ name: 'temp', type: 'REAL', address: 1010, decimal: 2 }); // 21.46

const status = async (service: 'sql' | 'nosql'): Promise<ServiceStatus> =>
  ((await rig.admin.get('/config/service_status')).body as ServicesStatus).services.find((s) => s.service === service)!;
const letters = async (service: 'sql' | 'nosql'): Promise<DeadLetter<{ values: unknown[] }>[]> =>
  (JSON.parse((await rig.admin.get(`/config/dead_letters/${service}?format=json`)).text) as { letters: DeadLetter<{ values: unknown[] }>[] }).letters;

async function pgRows(sql: string): Promise<Record<string, unknown>[]> {
  const c = await postgres.owner();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

describe('PostgreSQL', () => {
  const block = () => dbBlock(rig.plc, SQL_BLOCK, 350);
  async function saveSql(over: Partial<Sql>): Promise<void> {
    const r = await rig.admin.post('/config/pew_sql', {
      ...defaultsOf(pew_sql),
      enable_sql: true,
      db_type: 2,
      server: postgres.host,
      port: postgres.port,
      user: DB_USER,
      pass: DB_PASSWORD,
      instance_name: DB_NAME,
      use_encryption: false,
      plc_poll: 0.5,
      timeout: 5,
      interface: COM1,
      plc_addr: 0,
      ...over,
    } satisfies Sql);
    expect(r.status, r.text).toBe(200);
    await rig.d.ctx.services.settled();
  }

  it('a row queued for another database and table is never written into the re-pointed one: a dead letter, target_gone', async () => {
    // the old target cannot take the row now (its database does not exist): the row waits
    await saveSql({ instance_name: 'not_there', tablename: 'before_t', datalist: [level] });
    expect(await block().insert({ waiting: true })).toMatchObject({ state: STATE.waiting, queue_waiting: 1 });
    await saveSql({ tablename: 'after_t', datalist: [temp] });
    expect(await block().insert()).toMatchObject({ state: STATE.done, error: 0, queue_waiting: 0 });
    expect(await pgRows('SELECT temp FROM after_t')).toEqual([{ temp: 21.46 }]);
    const s = await status('sql');
    expect(s.queue.waiting).toBe(0);
    expect(s.deadLetters).toMatchObject({ count: 1, dropped: 0 });
    const [l] = await letters('sql');
    expect(l).toMatchObject({ code: 'target_gone', tries: 0, target: expect.stringContaining('not_there table before_t') });
    expect(l!.job.values).toEqual([-123456789]);
    // discard: gone for good, audited
    const d = await rig.admin.post('/config/dead_letters_discard', { service: 'sql', ids: [l!.id] });
    expect(d.body).toEqual({ discarded: 1 });
    expect((await status('sql')).deadLetters?.count).toBe(0);
    expect(await rig.d.ctx.audit.read()).toContain('dead_letters_discard');
  });

  it('a row whose columns no longer fit the table is a dead letter after 3 tries; the rows behind it go on; retried, it goes in', async () => {
    await pgRows('CREATE TABLE evolve (time_stamp timestamptz, row_key varchar(40) PRIMARY KEY, temp double precision)');
    const failures = () =>
      rig.d.ctx.log.recent().filter((e) => e.msg === 'sql: not delivered, kept in the queue' && e.fields?.code === 'table_mismatch').length;
    const before = failures();
    const deadBefore = (await status('sql')).deadLetters!.count;
    // the data points changed (the row read before the save has the old columns): same table, same target
    await saveSql({ tablename: 'evolve', datalist: [level] });
    expect(await block().insert({ waiting: true })).toMatchObject({ state: STATE.waiting, queue_waiting: 1 });
    await saveSql({ tablename: 'evolve', datalist: [temp] });
    await block()
      .insert({ waiting: true })
      .catch(() => undefined);
    await until(async () => Number((await pgRows('SELECT count(*) AS n FROM evolve'))[0]!.n) === 1, 40_000, 'the new row written behind the bad one');
    expect(await pgRows('SELECT temp FROM evolve')).toEqual([{ temp: 21.46 }]);
    const s = await status('sql');
    expect(s.queue.waiting).toBe(0);
    expect(s.deadLetters!.count).toBe(deadBefore + 1);
    expect(failures() - before).toBeGreaterThanOrEqual(3);
    const l = (await letters('sql')).at(-1)!;
    expect(l).toMatchObject({ code: 'table_mismatch', tries: 3, target: expect.stringContaining('table evolve') });
    const csv = (await rig.admin.get('/config/dead_letters/sql?format=csv')).text;
    expect(csv.split('\r\n')[0]).toBe('id,at,target,code,message,tries,values');
    expect(csv).toContain('level=-123456789');
    // the table fixed, the letter retried: it goes in, audited
    await pgRows('ALTER TABLE evolve ADD COLUMN level integer');
    expect((await rig.admin.post('/config/dead_letters_retry', { service: 'sql', ids: [l.id] })).body).toEqual({ retried: 1 });
    await until(async () => Number((await pgRows('SELECT count(*) AS n FROM evolve'))[0]!.n) === 2, 40_000, 'the retried row written');
    expect(await pgRows('SELECT level FROM evolve WHERE level IS NOT NULL')).toEqual([{ level: -123456789 }]);
    expect((await status('sql')).deadLetters!.count).toBe(deadBefore);
    expect(await rig.d.ctx.audit.read()).toContain('dead_letters_retry');
  });

  it('the database down: rows keep their order and wait however often they are tried, none is a dead letter', async () => {
    await saveSql({ tablename: 'down_t', datalist: [level] });
    expect(await block().insert()).toMatchObject({ state: STATE.done });
    const deadBefore = (await status('sql')).deadLetters!.count;
    const tries = () => rig.d.ctx.log.recent().filter((e) => e.msg === 'sql: not delivered, kept in the queue').length;
    await postgres.halt();
    try {
      await block().insert({ waiting: true });
      await block().insert({ waiting: true });
      const t0 = tries();
      await until(() => tries() - t0 >= 3, 30_000, 'three failed tries while the database is down');
      expect((await status('sql')).queue.waiting).toBe(2);
      expect((await status('sql')).deadLetters!.count).toBe(deadBefore);
    } finally {
      await postgres.resume();
    }
    await until(async () => (await status('sql')).queue.waiting === 0, 60_000, 'the waiting rows written');
    const rows = await pgRows('SELECT row_key FROM down_t ORDER BY ctid');
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => String(r.row_key))).toEqual(rows.map((r) => String(r.row_key)).sort());
    expect((await status('sql')).deadLetters!.count).toBe(deadBefore);
  }, 120_000);
});

describe('InfluxDB', () => {
  const block = () => dbBlock(rig.plc, NOSQL_BLOCK, 370);
  const server = () => `http://${influx.host}:${influx.port}`;
  const query = async (q: string) => {
    const r = await influxRequest({ base: server(), user: '', password: '', verify: true, ms: 5000 }, 'GET', '/query', { db: DB_NAME, q, epoch: 'ms' });
    return JSON.parse(r.body) as { results: { series?: { columns: string[]; values: unknown[][] }[] }[] };
  };
  async function saveNosql(over: Partial<Nosql>): Promise<void> {
    const r = await rig.admin.post('/config/pew_nosql', {
      ...defaultsOf(pew_nosql),
      enable_sql: true,
      db_type: 1,
      server: server(),
      instance_name: DB_NAME,
      use_encryption: false,
      plc_poll: 1,
      timeout: 5,
      interface: COM1,
      plc_addr: 0,
      ...over,
    } satisfies Nosql);
    expect(r.status, r.text).toBe(200);
    await rig.d.ctx.services.settled();
  }

  it('a row queued for another database and tag is not written into the new database under the new tag: a dead letter', async () => {
    await saveNosql({ instance_name: 'not_yet', measurement: 'm_old', tag_name: 'site', tag_value: 'old', datalist: [level] });
    expect(await block().insert({ waiting: true })).toMatchObject({ state: STATE.waiting, queue_waiting: 1 });
    await saveNosql({ measurement: 'm_new', tag_name: 'site', tag_value: 'new', datalist: [level] });
    expect(await block().insert()).toMatchObject({ state: STATE.done, error: 0, queue_waiting: 0 });
    const series = (await query('SELECT * FROM "m_new"')).results[0]!.series![0]!;
    expect(series.values).toHaveLength(1);
    expect((await query('SELECT * FROM "m_old"')).results[0]!.series).toBeUndefined();
    const s = await status('nosql');
    expect(s.deadLetters).toMatchObject({ count: 1 });
    const [l] = await letters('nosql');
    expect(l).toMatchObject({ code: 'target_gone', target: expect.stringContaining('database not_yet measurement m_old tag site=old') });
    // the same target saved again (disabled, then enabled): its rows are delivered, not dead letters
    await saveNosql({ enable_sql: false, measurement: 'm_new', tag_name: 'site', tag_value: 'new', datalist: [level] });
    await saveNosql({ measurement: 'm_new', tag_name: 'site', tag_value: 'new', datalist: [level] });
    expect(await block().insert()).toMatchObject({ state: STATE.done, error: 0 });
    expect((await query('SELECT * FROM "m_new"')).results[0]!.series![0]!.values).toHaveLength(2);
    expect((await status('nosql')).deadLetters!.count).toBe(1);
  });
});
