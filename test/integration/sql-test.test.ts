// The SQL test (POST /config/get_sqltest, spec §3 SQL, §7) against a real PostgreSQL 15 (with
// ssl=on and a certificate made at test time) and a real MariaDB: the table step says what the SQL
// client will do (a table that fits the data points is used, a missing one will be created: both
// pass and nothing is written; one with other columns fails with table_mismatch), wrong password,
// refused port, unknown database and unknown host, each with its reason and the server's own words;
// TLS trusted through the section's CA and untrusted with another one. No MS SQL server exists here: the tedious path is tried against what does (nothing listening,
// no such host, a silent port, a server that speaks another protocol).
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDefaults } from '../../device/model/section.ts';
import { dataPointSchema } from '../../device/model/sections/datapoint.ts';
import type { Sql } from '../../device/model/sections/sql.ts';
import type { ServiceTestResult } from '../../device/model/servicetest.ts';
import { pointColumns } from '../../device/service-runtime/db-row.ts';
import { createTable, DIALECT_OF } from '../../device/sql/dialects.ts';
import { certPath } from '../../device/system/cert-files.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { DB_COLUMNS, DB_NAME, DB_PASSWORD, DB_TABLE, DB_USER, type DbServer, startMariadb, startPostgres } from '../support/db-servers.ts';
import { makeCertificates } from '../support/openssl.ts';
import { freePort } from '../support/ports.ts';

let d: TestDaemon;
let admin: Client;
let postgres: DbServer;
let mariadb: DbServer;
let certs: Awaited<ReturnType<typeof makeCertificates>>;

beforeAll(async () => {
  certs = await makeCertificates();
  [d, postgres, mariadb] = await Promise.all([startTestDaemon(), startPostgres({ tls: certs }), startMariadb()]);
  admin = await d.admin();
}, 180_000);

afterAll(async () => {
  await Promise.all([d?.stop(), postgres?.stop(), mariadb?.stop()]);
}, 60_000);

/** Saves pew_sql with `edit` applied to the stored settings (the password field keeps its mask). */
async function saveSql(edit: Partial<Sql>): Promise<void> {
  const stored = (await admin.get('/config/pew_sql')).body as Sql;
  const r = await admin.post('/config/pew_sql', { ...stored, ...edit });
  expect(r.status, r.text).toBe(200);
}

async function sqlTest(edit: Partial<Sql>): Promise<ServiceTestResult> {
  await saveSql(edit);
  const r = await admin.post('/config/get_sqltest');
  expect(r.status, r.text).toBe(200);
  return r.body as ServiceTestResult;
}

const stepNames = (r: ServiceTestResult) => r.steps.map((s) => `${s.step}:${s.ok ? 'ok' : 'failed'}`);
/** the data points of the tests' settings: one REAL level */
const LEVEL = [withDefaults(dataPointSchema, { name: 'level', type: 'REAL', address: 100 })] as Sql['datalist'];

/** One statement as the test user, straight to the server (not through the unit); the rows. */
async function asTester(db_type: 1 | 2, server: DbServer, sql: string): Promise<unknown[]> {
  if (db_type === 2) {
    const c = new pg.Client({ host: server.host, port: server.port, user: DB_USER, password: DB_PASSWORD, database: DB_NAME });
    await c.connect();
    try {
      return (await c.query(sql)).rows;
    } finally {
      await c.end();
    }
  }
  const c = await mysql.createConnection({ host: server.host, port: server.port, user: DB_USER, password: DB_PASSWORD, database: DB_NAME });
  try {
    const [rows] = await c.query(sql);
    return rows as unknown[];
  } finally {
    await c.end();
  }
}
const tableExists = async (db_type: 1 | 2, server: DbServer, table: string) =>
  (await asTester(db_type, server, `SELECT table_name FROM information_schema.tables WHERE table_name = '${table}'`)).length > 0;
const noteOf = (r: ServiceTestResult, step: string) => r.steps.find((s) => s.step === step)?.note;

const servers = [
  {
    name: 'PostgreSQL',
    db_type: 2 as const,
    server: () => postgres,
    version: /PostgreSQL 15/,
    wrongPassword: `password authentication failed for user "${DB_USER}"`,
    unknownDb: 'database "nosuchdb" does not exist',
  },
  {
    name: 'MariaDB',
    db_type: 1 as const,
    server: () => mariadb,
    version: /MariaDB/,
    wrongPassword: `Access denied for user '${DB_USER}'@'127.0.0.1' (using password: YES)`,
    unknownDb: "Unknown database 'nosuchdb'",
  },
];

describe.each(servers)('$name', (srv) => {
  const good = (): Partial<Sql> => ({
    enable_sql: false,
    db_type: srv.db_type,
    server: srv.server().host,
    port: srv.server().port,
    user: DB_USER,
    pass: DB_PASSWORD,
    instance_name: DB_NAME,
    tablename: 'tank_log',
    datalist: LEVEL,
    use_encryption: false,
    ca_verification: true,
    ca: '',
    timeout: 10,
  });

  it('a table that does not exist yet passes: the table step says the unit creates it, and the test creates nothing', async () => {
    const r = await sqlTest({ ...good(), tablename: 'fresh_log' });
    expect(r.failure).toBeUndefined();
    expect(r.ok).toBe(true);
    expect(r.peer).toBe(`127.0.0.1:${srv.server().port}`);
    expect(stepNames(r)).toEqual(['connect:ok', 'login:ok', 'database:ok', 'table:ok']);
    expect(noteOf(r, 'database')).toEqual({ code: 'database', args: { database: DB_NAME }, words: expect.stringMatching(srv.version) });
    expect(noteOf(r, 'table')).toEqual({ code: 'table_missing', args: { table: 'fresh_log' }, words: 'time_stamp, row_key, level' });
    expect(await tableExists(srv.db_type, srv.server(), 'fresh_log')).toBe(false);
    expect(r.ms).toBeGreaterThanOrEqual(0);
  });

  it('a table made as the SQL client makes it passes and lists its columns', async () => {
    const made = createTable(DIALECT_OF[srv.db_type], 'tank_log', { columns: pointColumns(LEVEL) });
    await asTester(srv.db_type, srv.server(), made.sql);
    const r = await sqlTest(good());
    expect(r.failure).toBeUndefined();
    expect(stepNames(r)).toEqual(['connect:ok', 'login:ok', 'database:ok', 'table:ok']);
    expect(noteOf(r, 'table')).toEqual({ code: 'table_exists', args: { table: 'tank_log' }, words: 'time_stamp, row_key, level' });
  });

  it('a table with the SQL client’s own columns and others passes without data points, listing them', async () => {
    const r = await sqlTest({ ...good(), tablename: DB_TABLE, datalist: [] });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(noteOf(r, 'table')).toEqual({ code: 'table_exists', args: { table: DB_TABLE }, words: DB_COLUMNS.join(', ') });
  });

  it('a table with other columns than the data points need fails the table step with table_mismatch', async () => {
    await asTester(srv.db_type, srv.server(), 'CREATE TABLE legacy (id int, taken varchar(20))');
    const r = await sqlTest({ ...good(), tablename: 'legacy' });
    expect(r.ok).toBe(false);
    expect(r.failure).toEqual({
      reason: 'table_mismatch',
      message: 'table legacy does not fit the data points: no column time_stamp; no column row_key; no column level',
    });
    expect(stepNames(r)).toEqual(['connect:ok', 'login:ok', 'database:ok', 'table:failed']);
    expect((await sqlTest({ ...good(), tablename: DB_TABLE })).failure).toEqual({
      reason: 'table_mismatch',
      message: `table ${DB_TABLE} does not fit the data points: no column level`,
    });
    // a data point the table made for other points lacks
    const more = [...LEVEL, withDefaults(dataPointSchema, { name: 'pump', type: 'BOOL', address: 110 })] as Sql['datalist'];
    const other = await sqlTest({ ...good(), datalist: more });
    expect(other.failure).toEqual({ reason: 'table_mismatch', message: 'table tank_log does not fit the data points: no column pump' });
  });

  it('a wrong password fails the login with auth_failed and the server’s message', async () => {
    const r = await sqlTest({ ...good(), pass: 'Wrong-Passw0rd' });
    expect(r.ok).toBe(false);
    expect(r.failure?.reason).toBe('auth_failed');
    expect(r.failure?.message).toContain(srv.wrongPassword);
    expect(stepNames(r)).toEqual(['connect:ok', 'login:failed']);
  });

  it('a port nobody listens on is refused at connect', async () => {
    const port = await freePort();
    const r = await sqlTest({ ...good(), pass: DB_PASSWORD, port });
    expect(r.failure?.reason).toBe('refused');
    expect(r.failure?.message).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    expect(stepNames(r)).toEqual(['connect:failed']);
  });

  it('an unknown database fails the database step with not_found', async () => {
    const r = await sqlTest({ ...good(), instance_name: 'nosuchdb' });
    expect(r.failure?.reason).toBe('not_found');
    expect(r.failure?.message).toContain(srv.unknownDb);
    expect(stepNames(r)).toEqual(['connect:ok', 'login:ok', 'database:failed']);
  });

  it('an unknown host fails at connect with unknown_host', async () => {
    const r = await sqlTest({ ...good(), server: 'no-such-host.invalid' });
    expect(r.failure?.reason).toBe('unknown_host');
    expect(r.failure?.message).toMatch(/(ENOTFOUND|EAI_AGAIN) no-such-host\.invalid/);
    expect(r.peer).toBe(`no-such-host.invalid:${srv.server().port}`);
    expect(stepNames(r)).toEqual(['connect:failed']);
  });
});

describe('MariaDB: a user without rights on the database', () => {
  it('passes the login and fails the database step with the server’s "Access denied … to database"', async () => {
    const root = await mysql.createConnection({ socketPath: join(mariadb.dir, 's.sock'), user: 'root' });
    await root.query(`CREATE USER IF NOT EXISTS 'outsider'@'%' IDENTIFIED BY '${DB_PASSWORD}'`);
    await root.end();
    const r = await sqlTest({
      enable_sql: false,
      db_type: 1,
      server: mariadb.host,
      port: mariadb.port,
      user: 'outsider',
      pass: DB_PASSWORD,
      instance_name: DB_NAME,
      tablename: DB_TABLE,
      use_encryption: false,
      timeout: 10,
    });
    expect(r.failure).toEqual({ reason: 'auth_failed', message: `Access denied for user 'outsider'@'%' to database '${DB_NAME}'` });
    expect(stepNames(r)).toEqual(['connect:ok', 'login:ok', 'database:failed']);
  });
});

describe('PostgreSQL over TLS', () => {
  const tls = (): Partial<Sql> => ({
    enable_sql: false,
    db_type: 2,
    server: postgres.host,
    port: postgres.port,
    user: DB_USER,
    pass: DB_PASSWORD,
    instance_name: DB_NAME,
    tablename: 'tls_log', // not there: the table step passes, saying the unit creates it
    use_encryption: true,
    ca_verification: true,
    ca: 'ca.pem',
    timeout: 10,
  });
  const putCa = async (pem: string) => {
    const file = certPath(d.dataDir, 'pew_sql', 'ca.pem');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, pem);
  };

  it('trusted through the section’s CA: every step passes and the tls step names the protocol', async () => {
    await putCa(certs.ca);
    const r = await sqlTest(tls());
    expect(r.failure).toBeUndefined();
    expect(stepNames(r)).toEqual(['connect:ok', 'tls:ok', 'login:ok', 'database:ok', 'table:ok']);
    expect(noteOf(r, 'tls')).toEqual({ code: 'tls_verified_ca', args: { handshake: expect.stringMatching(/^TLSv1\.[23]$/) } });
  });

  it('a certificate the CA did not sign fails the tls step with tls_untrusted', async () => {
    await putCa(certs.otherCa);
    const r = await sqlTest(tls());
    expect(r.failure?.reason).toBe('tls_untrusted');
    expect(r.failure?.message).toMatch(/unable to verify|self[- ]signed|certificate/i);
    expect(stepNames(r)).toEqual(['connect:ok', 'tls:failed']);
  });

  it('without verification the same server passes, and the tls step says it was not verified', async () => {
    const r = await sqlTest({ ...tls(), ca_verification: false });
    expect(r.ok).toBe(true);
    expect(noteOf(r, 'tls')).toMatchObject({ code: 'tls_unverified' });
  });

  it('encryption asked of a server without TLS (MariaDB here) fails the tls step', async () => {
    const r = await sqlTest({ ...tls(), db_type: 1, port: mariadb.port });
    expect(r.ok).toBe(false);
    expect(r.failure?.reason).toBe('tls_version');
    expect(r.failure?.message).toBe('Server does not support secure connection');
    expect(stepNames(r)).toEqual(['connect:ok', 'tls:failed']);
  });
});

describe('MS SQL (tedious; no server exists here: its failure paths only)', () => {
  const mssql = (port: number, server = '127.0.0.1'): Partial<Sql> => ({
    enable_sql: false,
    db_type: 0,
    server,
    port,
    user: 'sa',
    pass: DB_PASSWORD,
    instance_name: '',
    tablename: '',
    use_encryption: false,
    timeout: 3,
  });
  let silent: Server;
  const held: Socket[] = [];
  beforeAll(async () => {
    silent = createServer((s) => held.push(s)); // accepts and never answers
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    for (const s of held) s.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
  });

  it('nothing listening: refused', async () => {
    const r = await sqlTest(mssql(await freePort()));
    expect(r.failure?.reason).toBe('refused');
    expect(stepNames(r)).toEqual(['connect:failed']);
  });

  it('no such host: unknown_host', async () => {
    const r = await sqlTest(mssql(1433, 'no-such-host.invalid'));
    expect(r.failure?.reason).toBe('unknown_host');
  });

  it('a port that accepts and never answers: the login step times out within the section’s timeout', async () => {
    const port = (silent.address() as { port: number }).port;
    const t0 = Date.now();
    const r = await sqlTest(mssql(port));
    expect(r.failure?.reason).toBe('timeout');
    expect(stepNames(r)).toEqual(['connect:ok', 'login:failed']);
    // it waited the section's 3 s; and gave up before tedious's own connect timeout (15 s) would
    // have, which is what tells the two apart (a busy machine stretches 3 s, not five times over)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(3000);
    expect(Date.now() - t0).toBeLessThan(15_000);
  });

  it('a server of another kind (PostgreSQL’s port): tedious’s own failure, not a success', async () => {
    const r = await sqlTest(mssql(postgres.port));
    expect(r.ok).toBe(false);
    // PostgreSQL drops a connection that opens with a TDS pre-login packet
    expect(r.failure).toEqual({ reason: 'refused', message: 'Connection lost - socket hang up' });
    expect(stepNames(r)).toEqual(['connect:ok', 'login:failed']);
  });
});

describe('refusals', () => {
  it('no server saved: 409 db_server_missing; the user role may not run it', async () => {
    await saveSql({ server: '', enable_sql: false });
    const r = await admin.post('/config/get_sqltest');
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('db_server_missing');
    const user = await d.user();
    expect((await user.post('/config/get_sqltest')).status).toBe(403);
  });
});
