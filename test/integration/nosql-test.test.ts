// The NoSQL test (POST /config/get_nosqltest) and the InfluxDB listing (POST /config/pew_getinflux),
// spec §3 NoSQL, §7: against a real influxd 1.6 (all its ports on 127.0.0.1, temp folders, reporting
// off): success without writing anything into the server (the right to write checked with an empty
// write, the measurement's field keys unchanged afterwards), a measurement that does not exist yet,
// a field type the data points would conflict with, unknown database, refused port, the listing,
// logins (right and wrong password, a user who may only read), HTTPS trusted by the section's CA or not. MongoDB with the official driver against the wire-protocol fake of
// test/support/mongo-fake.ts (no MongoDB server exists in our registries): success with an insert
// and delete, a collection created by the test, an authentication failure, a refused port.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDefaults } from '../../device/model/section.ts';
import { dataPointSchema } from '../../device/model/sections/datapoint.ts';
import type { Nosql } from '../../device/model/sections/nosql.ts';
import type { ServiceTestResult } from '../../device/model/servicetest.ts';
import { influxRequest } from '../../device/services/influx.ts';
import { certPath } from '../../device/system/cert-files.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { DB_NAME, DB_PASSWORD, DB_USER, type DbServer, startInflux } from '../support/db-servers.ts';
import { type MongoFake, startMongoFake } from '../support/mongo-fake.ts';
import { makeCertificates } from '../support/openssl.ts';
import { freePort } from '../support/ports.ts';

let d: TestDaemon;
let admin: Client;
let influx: DbServer;
let mongo: MongoFake;
const MEASUREMENT = 'machine1';

const influxUrl = () => `http://127.0.0.1:${influx.port}`;
async function influxQuery(q: string): Promise<any> {
  const r = await fetch(`${influxUrl()}/query?db=${DB_NAME}&epoch=ms&q=${encodeURIComponent(q)}`);
  return r.json();
}
/** the first column of every row of the answer's series (field keys, measurements) */
const firstOf = (answer: any): string[] => (answer.results[0].series ?? []).flatMap((s: any) => s.values.map((v: unknown[]) => v[0]));
/** the data points of the tests' settings: `temp` as a REAL, the float the measurement holds */
const point = (name: string, type: string) => withDefaults(dataPointSchema, { name, type, address: 100 }) as Nosql['datalist'][number];
const TEMP = [point('temp', 'REAL')];

beforeAll(async () => {
  [d, influx, mongo] = await Promise.all([startTestDaemon(), startInflux(), startMongoFake({ collections: ['plant.readings'] })]);
  admin = await d.admin();
  // a measurement with a point of its own, as the NoSQL service would have written it
  const w = await fetch(`${influxUrl()}/write?db=${DB_NAME}&precision=ms`, {
    method: 'POST',
    body: `${MEASUREMENT},line=L1 temp=21.5 ${Date.now() - 60_000}\n`,
  });
  expect(w.status).toBe(204);
}, 180_000);

afterAll(async () => {
  await Promise.all([d?.stop(), influx?.stop(), mongo?.close()]);
}, 60_000);

async function saveNosql(edit: Partial<Nosql>): Promise<void> {
  const stored = (await admin.get('/config/pew_nosql')).body as Nosql;
  const r = await admin.post('/config/pew_nosql', { ...stored, ...edit });
  expect(r.status, r.text).toBe(200);
}

async function nosqlTest(edit: Partial<Nosql>): Promise<ServiceTestResult> {
  await saveNosql(edit);
  const r = await admin.post('/config/get_nosqltest');
  expect(r.status, r.text).toBe(200);
  return r.body as ServiceTestResult;
}

const stepNames = (r: ServiceTestResult) => r.steps.map((s) => `${s.step}:${s.ok ? 'ok' : 'failed'}`);
const noteOf = (r: ServiceTestResult, step: string) => r.steps.find((s) => s.step === step)?.note;

describe('InfluxDB 1.x', () => {
  const good = (): Partial<Nosql> => ({
    enable_sql: false,
    db_type: 1,
    server: influxUrl(),
    instance_name: DB_NAME,
    user: '',
    pass: '',
    measurement: MEASUREMENT,
    tag_name: 'line',
    tag_value: 'test',
    datalist: TEMP,
    use_encryption: false,
    timeout: 10,
  });

  it('pings, finds the database, checks the right to write and the measurement’s fields: nothing is written into the server', async () => {
    const r = await nosqlTest(good());
    expect(r.failure).toBeUndefined();
    expect(r.peer).toBe(influxUrl());
    expect(stepNames(r)).toEqual(['connect:ok', 'request:ok', 'database:ok', 'write:ok', 'table:ok']);
    expect(noteOf(r, 'request')).toEqual({ code: 'influx_ping', args: { version: expect.stringMatching(/^1\.6\.\d+\S*$/) } });
    expect(noteOf(r, 'database')).toEqual({ code: 'measurements', args: { database: DB_NAME, count: 1 }, words: MEASUREMENT });
    expect(noteOf(r, 'write')).toEqual({ code: 'influx_write', args: { database: DB_NAME } });
    expect(noteOf(r, 'table')).toEqual({ code: 'table_exists', args: { table: MEASUREMENT }, words: 'temp (float)' });
    // the measurement holds the service's own field and point only: no test field, no test point
    expect(firstOf(await influxQuery(`SHOW FIELD KEYS FROM ${MEASUREMENT}`))).toEqual(['temp']);
    const left = await influxQuery(`SELECT * FROM ${MEASUREMENT}`);
    expect(left.results[0].series[0].values).toHaveLength(1);
    expect(firstOf(await influxQuery('SHOW MEASUREMENTS'))).toEqual([MEASUREMENT]);
  });

  it('a measurement that does not exist yet passes: the first point creates it, the test does not', async () => {
    const r = await nosqlTest({ ...good(), measurement: 'machine2' });
    expect(r.ok).toBe(true);
    expect(noteOf(r, 'table')).toEqual({ code: 'table_missing', args: { table: 'machine2' } });
    expect(firstOf(await influxQuery('SHOW MEASUREMENTS'))).toEqual([MEASUREMENT]);
  });

  it('a data point whose field type the measurement holds as another fails the table step with table_mismatch', async () => {
    const r = await nosqlTest({ ...good(), datalist: [point('temp', 'INT'), point('count', 'DINT')] });
    expect(r.failure).toEqual({ reason: 'table_mismatch', message: `measurement ${MEASUREMENT}: field temp is float, the data point writes integer` });
    expect(stepNames(r)).toEqual(['connect:ok', 'request:ok', 'database:ok', 'write:ok', 'table:failed']);
  });

  it('an unknown database fails the database step with not_found, naming the databases there are', async () => {
    const r = await nosqlTest({ ...good(), instance_name: 'nosuchdb' });
    expect(r.failure).toEqual({
      reason: 'not_found',
      message: `database not found: "nosuchdb" (the server has ${DB_NAME})`,
      note: { code: 'database_missing', args: { database: 'nosuchdb' }, words: DB_NAME },
    });
    expect(stepNames(r)).toEqual(['connect:ok', 'request:ok', 'database:failed']);
  });

  it('a port nobody listens on is refused at connect', async () => {
    const port = await freePort();
    const r = await nosqlTest({ ...good(), server: `http://127.0.0.1:${port}` });
    expect(r.failure?.reason).toBe('refused');
    expect(r.failure?.message).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    expect(stepNames(r)).toEqual(['connect:failed']);
  });

  it('pew_getinflux lists the databases and the measurements of the configured one', async () => {
    await saveNosql(good());
    const r = await admin.post('/config/pew_getinflux');
    expect(r.status, r.text).toBe(200);
    expect(r.body.databases).toContain(DB_NAME);
    expect(r.body.measurements).toEqual([MEASUREMENT]);
    await saveNosql({ ...good(), instance_name: 'nosuchdb' });
    const none = await admin.post('/config/pew_getinflux');
    expect(none.body).toEqual({ databases: r.body.databases, measurements: [] });
  });

  it('pew_getinflux: 502 db_peer_failed when the server cannot be reached, 409 for MongoDB settings', async () => {
    const port = await freePort();
    await saveNosql({ ...good(), server: `http://127.0.0.1:${port}` });
    const r = await admin.post('/config/pew_getinflux');
    expect(r.status).toBe(502);
    expect(r.body.error.code).toBe('db_peer_failed');
    expect(r.body.error.params.reason).toBe('refused');
    await saveNosql({ ...good(), db_type: 0, server: `mongodb://127.0.0.1:${mongo.port}` });
    const wrongType = await admin.post('/config/pew_getinflux');
    expect(wrongType.status).toBe(409);
    expect(wrongType.body.error.code).toBe('db_not_influx');
  });
});

describe('InfluxDB 1.x with logins required', () => {
  let secured: DbServer;
  beforeAll(async () => {
    secured = await startInflux({ auth: true });
  }, 120_000);
  afterAll(async () => {
    await secured?.stop();
  });
  const withLogin = (pass: string): Partial<Nosql> => ({
    enable_sql: false,
    db_type: 1,
    server: `http://127.0.0.1:${secured.port}`,
    instance_name: DB_NAME,
    user: DB_USER,
    pass,
    measurement: MEASUREMENT,
    tag_name: '',
    tag_value: '',
    datalist: TEMP,
    use_encryption: false,
    timeout: 10,
  });

  it('the right password passes the login step and the empty write; nothing is written', async () => {
    const r = await nosqlTest(withLogin(DB_PASSWORD));
    expect(r.failure).toBeUndefined();
    expect(stepNames(r)).toEqual(['connect:ok', 'request:ok', 'login:ok', 'database:ok', 'write:ok', 'table:ok']);
    expect(noteOf(r, 'login')).toEqual({ code: 'login_as', args: { user: DB_USER } });
    expect(noteOf(r, 'write')).toEqual({ code: 'influx_write_user', args: { database: DB_NAME, user: DB_USER } });
    expect(noteOf(r, 'table')).toEqual({ code: 'table_missing', args: { table: MEASUREMENT } });
  });

  it('a user who may only read fails the write step with auth_failed and the server’s words', async () => {
    const target = { base: `http://127.0.0.1:${secured.port}`, user: DB_USER, password: DB_PASSWORD, verify: true, ms: 10_000 };
    for (const q of [`CREATE USER reader WITH PASSWORD '${DB_PASSWORD}'`, `GRANT READ ON ${DB_NAME} TO reader`]) {
      const created = await influxRequest(target, 'POST', '/query', { q });
      expect(created.status, created.body).toBe(200);
    }
    const r = await nosqlTest({ ...withLogin(DB_PASSWORD), user: 'reader' });
    expect(r.failure).toEqual({ reason: 'auth_failed', message: `HTTP 403: "reader" user is not authorized to write to database "${DB_NAME}"` });
    expect(stepNames(r)).toEqual(['connect:ok', 'request:ok', 'login:ok', 'database:ok', 'write:failed']);
  });

  it('a wrong password fails the login with auth_failed and the server’s words; the listing says so too', async () => {
    const r = await nosqlTest(withLogin('Wrong-Passw0rd'));
    expect(r.failure).toEqual({ reason: 'auth_failed', message: 'HTTP 401: authorization failed' });
    expect(stepNames(r)).toEqual(['connect:ok', 'request:ok', 'login:failed']);
    const list = await admin.post('/config/pew_getinflux');
    expect(list.status).toBe(502);
    expect(list.body.error.params).toEqual({ reason: 'auth_failed', message: 'HTTP 401: authorization failed' });
  });
});

describe('InfluxDB 1.x over HTTPS', () => {
  let secure: DbServer;
  let certs: Awaited<ReturnType<typeof makeCertificates>>;
  beforeAll(async () => {
    certs = await makeCertificates();
    secure = await startInflux({ tls: certs });
  }, 120_000);
  afterAll(async () => {
    await secure?.stop();
  });
  const https = (): Partial<Nosql> => ({
    enable_sql: false,
    db_type: 1,
    server: `https://127.0.0.1:${secure.port}`,
    instance_name: DB_NAME,
    user: '',
    pass: '',
    measurement: MEASUREMENT,
    tag_name: '',
    tag_value: '',
    use_encryption: true,
    ca_verification: true,
    ca: 'ca.pem',
    timeout: 10,
  });
  const putCa = async (pem: string) => {
    const file = certPath(d.dataDir, 'pew_nosql', 'ca.pem');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, pem);
  };

  it('trusted through the section’s CA: the tls step passes and names the protocol and subject', async () => {
    await putCa(certs.ca);
    const r = await nosqlTest(https());
    expect(r.failure).toBeUndefined();
    expect(stepNames(r)).toEqual(['connect:ok', 'tls:ok', 'request:ok', 'database:ok', 'write:ok', 'table:ok']);
    expect(noteOf(r, 'tls')).toEqual({ code: 'tls_verified_ca', args: { handshake: expect.stringMatching(/^TLSv1\.[23], \S+, CN=localhost$/) } });
  });

  it('a CA that did not sign the certificate: tls_untrusted at the tls step', async () => {
    await putCa(certs.otherCa);
    const r = await nosqlTest(https());
    expect(r.failure?.reason).toBe('tls_untrusted');
    expect(stepNames(r)).toEqual(['connect:ok', 'tls:failed']);
  });
});

describe('MongoDB (official driver against the wire-protocol fake)', () => {
  const good = (): Partial<Nosql> => ({
    enable_sql: false,
    db_type: 0,
    server: `mongodb://127.0.0.1:${mongo.port}`,
    instance_name: 'plant',
    user: '',
    pass: '',
    collection: 'readings',
    use_encryption: false,
    timeout: 10,
  });

  it('connects, pings the database, finds the collection, inserts and deletes one document', async () => {
    mongo.commands.length = 0;
    const r = await nosqlTest(good());
    expect(r.failure).toBeUndefined();
    expect(stepNames(r)).toEqual(['connect:ok', 'login:ok', 'database:ok', 'table:ok', 'write:ok']);
    expect(noteOf(r, 'table')).toEqual({ code: 'table_exists', args: { table: 'readings' } });
    expect(mongo.commands).toEqual(expect.arrayContaining(['ping', 'listCollections', 'insert', 'delete']));
    expect(mongo.collections.get('plant.readings')).toEqual([]);
  });

  it('a collection that does not exist yet is created by the test write', async () => {
    const r = await nosqlTest({ ...good(), collection: 'fresh' });
    expect(r.ok).toBe(true);
    expect(noteOf(r, 'table')).toEqual({ code: 'table_missing', args: { table: 'fresh' } });
    expect(mongo.collections.has('plant.fresh')).toBe(true);
  });

  it('credentials the server refuses fail the login with auth_failed', async () => {
    const r = await nosqlTest({ ...good(), user: 'writer', pass: 'Wrong-Passw0rd' });
    expect(r.failure).toEqual({ reason: 'auth_failed', message: 'Authentication failed.' });
    expect(stepNames(r)).toEqual(['connect:ok', 'login:failed']);
  });

  it('a port nobody listens on is refused at connect', async () => {
    const r = await nosqlTest({ ...good(), server: `mongodb://127.0.0.1:${await freePort()}` });
    expect(r.failure?.reason).toBe('refused');
    expect(stepNames(r)).toEqual(['connect:failed']);
  });

  it('no server saved: 409 db_server_missing', async () => {
    await saveNosql({ ...good(), server: '' });
    const r = await admin.post('/config/get_nosqltest');
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('db_server_missing');
  });
});
