// The SQL test (POST /config/get_sqltest, spec §3 SQL, §7) against a real PostgreSQL 15 (with
// ssl=on and a certificate made at test time) and a real MariaDB: success with the table's columns,
// wrong password, refused port, unknown database, missing table and unknown host, each with its
// reason and the server's own words; TLS trusted through the section's CA and untrusted with another
// one. No MS SQL server exists here: the tedious path is tried against what does (nothing listening,
// no such host, a silent port, a server that speaks another protocol).
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../device/model/sections/sql.ts';
import type { ServiceTestResult } from '../../device/model/servicetest.ts';
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
const detailOf = (r: ServiceTestResult, step: string) => r.steps.find((s) => s.step === step)?.detail ?? '';

const servers = [
  {
    name: 'PostgreSQL',
    db_type: 2 as const,
    server: () => postgres,
    version: /PostgreSQL 15/,
    wrongPassword: `password authentication failed for user "${DB_USER}"`,
    unknownDb: 'database "nosuchdb" does not exist',
    missingTable: 'relation "nosuchtable" does not exist',
  },
  {
    name: 'MariaDB',
    db_type: 1 as const,
    server: () => mariadb,
    version: /MariaDB/,
    wrongPassword: `Access denied for user '${DB_USER}'@'127.0.0.1' (using password: YES)`,
    unknownDb: "Unknown database 'nosuchdb'",
    missingTable: `Table '${DB_NAME}.nosuchtable' doesn't exist`,
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
    tablename: DB_TABLE,
    use_encryption: false,
    ca_verification: true,
    ca: '',
    timeout: 10,
  });

  it('the saved settings pass every step; the table step lists the columns', async () => {
    const r = await sqlTest(good());
    expect(r.failure).toBeUndefined();
    expect(r.ok).toBe(true);
    expect(r.peer).toBe(`127.0.0.1:${srv.server().port}`);
    expect(stepNames(r)).toEqual(['connect:ok', 'login:ok', 'database:ok', 'table:ok']);
    expect(detailOf(r, 'database')).toMatch(new RegExp(`^${DB_NAME}: `));
    expect(detailOf(r, 'database')).toMatch(srv.version);
    expect(detailOf(r, 'table')).toBe(`${DB_TABLE}: ${DB_COLUMNS.join(', ')}`);
    expect(r.ms).toBeGreaterThanOrEqual(0);
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

  it('a missing table fails the table step with not_found', async () => {
    const r = await sqlTest({ ...good(), tablename: 'nosuchtable' });
    expect(r.failure?.reason).toBe('not_found');
    expect(r.failure?.message).toContain(srv.missingTable);
    expect(stepNames(r)).toEqual(['connect:ok', 'login:ok', 'database:ok', 'table:failed']);
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
    tablename: DB_TABLE,
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
    expect(detailOf(r, 'tls')).toMatch(/^TLSv1\.[23], certificate verified with the uploaded CA$/);
  });

  it('a certificate the CA did not sign fails the tls step with tls_untrusted', async () => {
    await putCa(certs.otherCa);
    const r = await sqlTest(tls());
    expect(r.failure?.reason).toBe('tls_untrusted');
    expect(r.failure?.message).toMatch(/unable to verify|self[- ]signed|certificate/i);
    expect(stepNames(r)).toEqual(['connect:ok', 'tls:failed']);
  });

  it('without verification the same server passes, and the detail says it was not verified', async () => {
    const r = await sqlTest({ ...tls(), ca_verification: false });
    expect(r.ok).toBe(true);
    expect(detailOf(r, 'tls')).toMatch(/certificate not verified$/);
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
