// The NoSQL engine (device/nosql; spec §3 pew_nosql, §9 NoSQL block of 10 words at DT370) with a
// virtual FP-XH on COM1: against Debian's InfluxDB 1.x started by the test, a point of every type
// (INT … LREAL, STRING, BOOL, scaled) arrives in the measurement with the tag and typed fields; an
// unsigned 64-bit value InfluxDB cannot hold is refused in the block with the point named. MongoDB
// has no server on these machines: the official driver writes to the wire-protocol stand-in of
// test/support/mongo-fake.ts, which refuses a second _id as a server does; an answer lost after
// the write is tried again and the row is not doubled.

import { BSON } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ERROR, STATE } from '../../device/model/blocks/convention.ts';
import { NOSQL_BLOCK } from '../../device/model/blocks/nosql.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { type Nosql, pew_nosql } from '../../device/model/sections/nosql.ts';
import type { ServiceStatus, ServicesStatus } from '../../device/model/service-status.ts';
import { influxRequest } from '../../device/services/influx.ts';
import { DB_NAME, type DbServer, startInflux } from '../support/db-servers.ts';
import { type MongoFake, startMongoFake } from '../support/mongo-fake.ts';
import { COM1, dbBlock, EVERY_TYPE, placeValues, point, sameValue } from './db-rig.ts';
import { until } from './logger-rig.ts';
import { type MqttRig, startMqttRig } from './mqtt-rig.ts';

const DT = 370;
let rig: MqttRig;
let influx: DbServer;
let mongo: MongoFake;

beforeAll(async () => {
  [rig, influx, mongo] = await Promise.all([startMqttRig(), startInflux(), startMongoFake()]);
  placeValues(rig.plc, EVERY_TYPE);
}, 120_000);

afterAll(async () => {
  await rig?.d.stop();
  await Promise.all([influx?.stop(), mongo?.close()]);
}, 60_000);

const block = () => dbBlock(rig.plc, NOSQL_BLOCK, DT);
const status = async (): Promise<ServiceStatus> =>
  ((await rig.admin.get('/config/service_status')).body as ServicesStatus).services.find((s) => s.service === 'nosql')!;

async function saveNosql(over: Partial<Nosql>): Promise<void> {
  const r = await rig.admin.post('/config/pew_nosql', {
    ...defaultsOf(pew_nosql),
    enable_sql: true,
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

const influxTarget = () => ({ base: `http://${influx.host}:${influx.port}`, user: '', password: '', verify: true, ms: 5000 });

describe('InfluxDB 1.x', () => {
  const influxable = EVERY_TYPE.filter((t) => t.p.type !== 'UINT64');

  it('a point of every type arrives in the measurement with the tag, fields typed, the time in ms', async () => {
    const server = `http://${influx.host}:${influx.port}`;
    await saveNosql({ db_type: 1, server, measurement: 'tank', tag_name: 'site', tag_value: 'north', datalist: influxable.map((t) => t.p) });
    const before = Date.now();
    const b = await block().insert();
    expect(b, JSON.stringify(b)).toMatchObject({
      state: STATE.done,
      error: 0,
      queue_waiting: 0,
      written_low: 1,
      written_high: 0,
      error_point: 0,
      oldest_wait: 0,
    });
    const r = await influxRequest(influxTarget(), 'GET', '/query', { db: DB_NAME, q: 'SELECT * FROM "tank"', epoch: 'ms' });
    const series = (JSON.parse(r.body) as { results: { series: { columns: string[]; values: unknown[][] }[] }[] }).results[0]!.series[0]!;
    expect(series.values).toHaveLength(1);
    const row = Object.fromEntries(series.columns.map((c, i) => [c, series.values[0]![i]]));
    expect(row.site).toBe('north');
    expect(Math.abs(Number(row.time) - before)).toBeLessThan(10_000);
    for (const t of influxable.filter((x) => x.p.type !== 'INT64')) {
      expect(sameValue(row[t.p.name], t.want), `${t.p.name}: ${String(row[t.p.name])}`).toBe(true);
    }
    expect(r.body).toContain('-9007199254740993'); // int64 exact in the answer's text
    const types = await influxRequest(influxTarget(), 'GET', '/query', { db: DB_NAME, q: 'SHOW FIELD KEYS FROM "tank"' });
    const keys = JSON.parse(types.body) as { results: { series: { values: [string, string][] }[] }[] };
    const fieldTypes = Object.fromEntries(keys.results[0]!.series[0]!.values);
    expect(fieldTypes).toMatchObject({
      i_int: 'integer',
      i_int64: 'integer',
      r_real: 'float',
      s_scaled: 'float',
      b_on: 'boolean',
      t_string: 'string',
      t_dt: 'string',
    });
  });

  it('an unsigned 64-bit value above 2^63-1 is bad_value with the point named; nothing written, the engine goes on', async () => {
    const list = [point({ name: 'ok_value', type: 'INT', address: 1000 }), ...EVERY_TYPE.filter((t) => t.p.type === 'UINT64').map((t) => t.p)];
    await saveNosql({ db_type: 1, server: `http://${influx.host}:${influx.port}`, measurement: 'refused', datalist: list });
    const b = await block().insert();
    expect(b).toMatchObject({ state: STATE.error, error: SERVICE_ERROR.bad_value, error_point: 2, queue_waiting: 0 });
    expect((await status()).lastError).toMatchObject({ code: 'bad_value', message: expect.stringContaining('i_uint64') });
    await saveNosql({ db_type: 1, server: `http://${influx.host}:${influx.port}`, measurement: 'refused', datalist: list.slice(0, 1) });
    expect(await block().insert()).toMatchObject({ state: STATE.done, error: 0, error_point: 0 });
    const r = await influxRequest(influxTarget(), 'GET', '/query', { db: DB_NAME, q: 'SELECT count(*) FROM "refused"' });
    expect(r.body).toContain('"count_ok_value"],"values":[["1970-01-01T00:00:00Z",1]]');
  });
});

describe('MongoDB (the driver against a wire-protocol stand-in)', () => {
  it('a document of every type with _id the row key; an answer lost after the write does not double it', async () => {
    await saveNosql({ db_type: 0, server: `mongodb://127.0.0.1:${mongo.port}`, collection: 'readings', datalist: EVERY_TYPE.map((t) => t.p) });
    const written = (await status()).counters.written!;
    expect(await block().insert()).toMatchObject({ state: STATE.done, error: 0 });
    const docs = mongo.collections.get(`${DB_NAME}.readings`)!;
    expect(docs).toHaveLength(1);
    const doc = docs[0]!;
    expect(String(doc._id)).toMatch(/^[0-9a-f]{12}-[0-9a-f]{8}$/);
    expect(doc.time_stamp).toBeInstanceOf(Date);
    for (const t of EVERY_TYPE) expect(sameValue(String(doc[t.p.name]), t.want), `${t.p.name}: ${String(doc[t.p.name])}`).toBe(true);
    mongo.loseInsertAnswers = 1;
    const b = await block().insert();
    expect(b).toMatchObject({ state: STATE.done, error: 0, queue_waiting: 0 });
    expect(docs).toHaveLength(2); // written once, answered (duplicate key) on the second try
    expect(mongo.commands.filter((c) => c === 'insert')).toHaveLength(3);
    expect(new Set(docs.map((d) => String(d._id))).size).toBe(2);
    await until(async () => (await status()).counters.written === written + 2, 5_000, 'two rows written');
    expect(BSON.EJSON.stringify(doc.i_uint64)).toContain('18446744073709551615');
  });
});
