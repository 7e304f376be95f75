// The SQL test of the /sql page (spec §2 service layout, §3 "SQL (pew_sql)", §7 get_sqltest): the
// saved pew_sql settings tried against their server with the real client of its kind (PostgreSQL
// `pg`, MySQL/MariaDB `mysql2`, MS SQL `tedious`), step by step: connect (name and TCP) → tls (when
// encrypted) → login → database → table (what the SQL client will do with it, sql/table.ts: use it
// when its columns fit the data points, create it when it is missing; nothing is written). The
// server's errors keep their own words; their codes decide the failure reason. The section's
// timeout bounds every step.
import type mysql from 'mysql2/promise';
import type { Connection } from 'tedious';
import type { Sql } from '../model/sections/sql.ts';
import { type ServiceTestResult, type TestFailure, testNote } from '../model/servicetest.ts';
import { pointColumns } from '../service-runtime/db-row.ts';
import { DIALECT_OF, type SqlStatement, type TdsType } from '../sql/dialects.ts';
import { planTable, TableMismatch } from '../sql/table.ts';
import { drivers } from './drivers.ts';
import { trustNote } from './net-probe.ts';
import { reachTcp } from './reach.ts';
import { classify, runTest, StepFailure } from './test-run.ts';

/** An open session of a database client, as far as the test needs it. */
export interface SqlSession {
  /** the database the session is in and the server's version */
  info(): Promise<{ database: string; version: string }>;
  /** the TLS protocol of the session, if encrypted */
  tls(): string | undefined;
  /** one parameterised statement (the SQL engine's, device/sql/dialects.ts): its rows by column name */
  query(st: SqlStatement): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export interface SqlConnectOptions {
  host: string;
  port: number;
  user: string;
  password: string;
  /** empty: the login's default database */
  database: string;
  /** undefined: unencrypted */
  tls?: { ca?: Buffer; verify: boolean };
  ms: number;
}

export interface SqlDriver {
  name: string;
  open(o: SqlConnectOptions): Promise<SqlSession>;
  /** the failure reason of a server error (its code), else the system's */
  reason(e: unknown): StepFailure;
}

const message = (e: unknown) => (e instanceof Error && e.message ? e.message : String(e));
const fail = (reason: TestFailure, e: unknown) => new StepFailure(reason, message(e));

/** The login passed and the server then refused the database (MySQL: no rights on it). */
class DatabaseRefused extends StepFailure {}

function tlsProtocol(stream: unknown): string | undefined {
  const s = stream as { getProtocol?: () => string | null } | undefined;
  return typeof s?.getProtocol === 'function' ? (s.getProtocol() ?? undefined) : undefined;
}

const postgres: SqlDriver = {
  name: 'PostgreSQL',
  async open(o) {
    const pg = await drivers.pg();
    const client = new pg.Client({
      host: o.host,
      port: o.port,
      user: o.user,
      password: o.password,
      ...(o.database ? { database: o.database } : {}),
      ssl: o.tls ? { ca: o.tls.ca, rejectUnauthorized: o.tls.verify } : false,
      connectionTimeoutMillis: o.ms,
      query_timeout: o.ms,
    });
    client.on('error', () => {}); // a server gone after the test must not take the daemon with it
    try {
      await client.connect();
    } catch (e) {
      await client.end().catch(() => {});
      throw e;
    }
    return {
      async info() {
        const r = await client.query<{ db: string; v: string }>('SELECT current_database() AS db, version() AS v');
        return { database: r.rows[0]?.db ?? '', version: r.rows[0]?.v ?? '' };
      },
      tls: () => tlsProtocol((client as unknown as { connection?: { stream?: unknown } }).connection?.stream),
      query: async (st) => (await client.query<Record<string, unknown>>(st.sql, st.params)).rows,
      close: () => client.end(),
    };
  },
  reason(e) {
    const code = (e as { code?: unknown }).code;
    // SQLSTATE class 28: invalid authorization; 3D000: no such database; 42P01: no such table
    if (code === '28P01' || code === '28000') return fail('auth_failed', e);
    if (code === '3D000' || code === '42P01' || code === '3F000') return fail('not_found', e);
    if (/does not support SSL/i.test(message(e))) return fail('tls_version', e);
    return classify(e);
  },
};

const mariadb: SqlDriver = {
  name: 'MySQL/MariaDB',
  async open(o) {
    const conn = await (await drivers.mysql()).createConnection({
      host: o.host,
      port: o.port,
      user: o.user,
      password: o.password,
      ...(o.database ? { database: o.database } : {}),
      ...(o.tls ? { ssl: { ca: o.tls.ca, rejectUnauthorized: o.tls.verify } } : {}),
      connectTimeout: o.ms,
      timezone: 'Z', // DATETIME values are UTC, as the SQL rows' time stamps are documented
    });
    conn.on('error', () => {});
    return {
      async info() {
        const [rows] = await conn.query<mysql.RowDataPacket[]>('SELECT DATABASE() AS db, VERSION() AS v');
        return { database: String(rows[0]?.db ?? ''), version: String(rows[0]?.v ?? '') };
      },
      tls: () => tlsProtocol((conn as unknown as { connection?: { stream?: unknown } }).connection?.stream),
      query: async (st) => {
        const [rows] = await conn.query({ sql: st.sql, values: st.params, timeout: o.ms });
        return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
      },
      close: () => conn.end(),
    };
  },
  reason(e) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR') return fail('auth_failed', e);
    // a user without any right on a database is not told whether it exists
    if (code === 'ER_DBACCESS_DENIED_ERROR') return new DatabaseRefused('auth_failed', message(e));
    if (code === 'ER_BAD_DB_ERROR' || code === 'ER_NO_SUCH_TABLE' || code === 'ER_NO_DB_ERROR') return fail('not_found', e);
    if (code === 'HANDSHAKE_NO_SSL_SUPPORT') return fail('tls_version', e);
    return classify(e);
  },
};

/** One statement on a tedious connection, with typed parameters @p0, @p1, …; resolves with the columns and the rows' values. */
async function tdsQuery(
  conn: Connection,
  sql: string,
  params: readonly unknown[] = [],
  types: readonly TdsType[] = [],
): Promise<{ columns: string[]; rows: unknown[][] }> {
  const { Request, TYPES } = await drivers.tedious();
  return new Promise((resolve, reject) => {
    const columns: string[] = [];
    const rows: unknown[][] = [];
    const req = new Request(sql, (err) => (err ? reject(err) : resolve({ columns, rows })));
    params.forEach((value, i) => {
      const type = types[i] ?? 'NVarChar';
      req.addParameter(`p${i}`, TYPES[type], value, type === 'DateTime2' ? { scale: 3 } : {});
    });
    req.on('columnMetadata', (cols) => {
      const list = Array.isArray(cols) ? cols : Object.values(cols);
      columns.length = 0;
      columns.push(...list.map((c) => c.colName));
    });
    req.on('row', (row: { value: unknown }[]) => rows.push(row.map((c) => c.value)));
    conn.execSql(req);
  });
}

const mssql: SqlDriver = {
  name: 'MS SQL',
  async open(o) {
    const { Connection } = await drivers.tedious();
    const conn = new Connection({
      server: o.host,
      authentication: { type: 'default', options: { userName: o.user, password: o.password } },
      options: {
        port: o.port,
        ...(o.database ? { database: o.database } : {}),
        encrypt: o.tls !== undefined,
        trustServerCertificate: o.tls ? !o.tls.verify : true,
        ...(o.tls?.ca ? { cryptoCredentialsDetails: { ca: o.tls.ca } } : {}),
        connectTimeout: o.ms,
        requestTimeout: o.ms,
      },
    });
    return new Promise((resolve, reject) => {
      conn.on('error', () => {});
      conn.connect((err) => {
        if (err) {
          conn.close();
          reject(err);
          return;
        }
        resolve({
          async info() {
            const r = await tdsQuery(conn, 'SELECT DB_NAME(), @@VERSION');
            return { database: String(r.rows[0]?.[0] ?? ''), version: String(r.rows[0]?.[1] ?? '') };
          },
          tls: () => (o.tls ? 'TLS' : undefined),
          async query(st) {
            const r = await tdsQuery(conn, st.sql, st.params, st.types);
            return r.rows.map((row) => Object.fromEntries(r.columns.map((c, i) => [c, row[i]])));
          },
          close: async () => conn.close(),
        });
      });
    });
  },
  reason(e) {
    const err = e as { code?: unknown; number?: unknown; cause?: unknown };
    const text = message(e);
    if (err.code === 'ELOGIN') return fail(/Cannot open database/i.test(text) ? 'not_found' : 'auth_failed', e);
    if (err.number === 208) return fail('not_found', e); // Invalid object name
    if (err.code === 'ETIMEOUT') return fail('timeout', e);
    // tedious wraps the socket's error; its errno code says what happened
    const cause = err.cause as { code?: unknown } | undefined;
    if (cause && typeof cause.code === 'string') {
      const f = classify(cause);
      if (f.reason !== 'peer_error') return new StepFailure(f.reason, text);
    }
    const f = classify(e);
    return f.reason === 'peer_error' && err.code === 'ESOCKET' ? fail('bad_reply', e) : f;
  },
};

/** The client of each db_type of pew_sql (MS SQL 0, MySQL/MariaDB 1, PostgreSQL 2). */
export const SQL_DRIVERS: Record<Sql['db_type'], SqlDriver> = { 0: mssql, 1: mariadb, 2: postgres };

/** The connection options of saved settings; `ca` is the section's CA file, if any. */
export function sqlConnectOptions(s: Sql, ca: Buffer | undefined): SqlConnectOptions {
  return {
    host: s.server,
    port: s.port,
    user: s.user,
    password: s.pass,
    database: s.instance_name,
    ...(s.use_encryption ? { tls: { ca: s.ca_verification ? ca : undefined, verify: s.ca_verification } } : {}),
    ms: s.timeout * 1000,
  };
}

/** Runs the SQL test of the settings `s` (saved pew_sql), with the section's CA `ca`. */
export function runSqlTest(s: Sql, ca: Buffer | undefined): Promise<ServiceTestResult> {
  const driver = SQL_DRIVERS[s.db_type];
  const o = sqlConnectOptions(s, ca);
  return runTest(`${s.server}:${s.port}`, async (t) => {
    await t.step('connect', () => reachTcp(o.host, o.port), {
      ms: o.ms,
      note: (address) => testNote('server_reached', { server: driver.name, address }),
    });
    // TLS, login and the database are one handshake of the client: each step waits for it and
    // passes when the handshake got past it (a wrong password after TLS means TLS worked)
    const opening = driver.open(o).catch((e: unknown) => {
      throw driver.reason(e);
    });
    opening.catch(() => {});
    const past = (later: TestFailure[]) =>
      opening.then(
        (sess): SqlSession | undefined => sess,
        (f: StepFailure) => {
          if (later.includes(f.reason) || (f instanceof DatabaseRefused && later.includes('not_found'))) return undefined;
          throw f;
        },
      );
    try {
      if (o.tls) {
        await t.step('tls', () => past(['auth_failed', 'not_found']), {
          ms: o.ms,
          note: (sess) => trustNote(sess?.tls() ?? 'TLS', o.tls),
        });
      }
      await t.step('login', () => past(['not_found']), {
        ms: o.ms,
        note: () => (o.user ? testNote('login_as', { user: o.user }) : testNote('login_anonymous')),
      });
      const sess = await t.step(
        'database',
        async () => {
          const open = await opening;
          return {
            open,
            ...(await open.info().catch((e: unknown) => {
              throw driver.reason(e);
            })),
          };
        },
        { ms: o.ms, note: (r) => testNote('database', { database: r.database }, r.version.split('\n')[0]) },
      );
      if (s.tablename !== '') {
        // what the SQL client will do with the table (sql/table.ts): use it, or create it with the first row
        await t.step(
          'table',
          () =>
            planTable(sess.open, DIALECT_OF[s.db_type], s.tablename, { columns: pointColumns(s.datalist) }).catch((e: unknown) => {
              throw e instanceof TableMismatch ? new StepFailure('table_mismatch', e.message) : driver.reason(e);
            }),
          {
            ms: o.ms,
            note: (plan) => testNote(plan.exists ? 'table_exists' : 'table_missing', { table: s.tablename }, plan.columns.join(', ')),
          },
        );
      }
    } finally {
      // also when a step ran out of time: the session that opens later is closed then
      opening
        .then(
          (sess) => sess.close(),
          () => {},
        )
        .catch(() => {});
    }
  });
}
