// Service-test figures of `npm run bench` (part `service tests`): how long the SQL test takes against
// local PostgreSQL and MariaDB, and the NoSQL test against local InfluxDB, each the median of 5 runs
// after one warm-up, against the bare client's connect + one query + close in the same run (the
// least any test of that server can cost). The test adds its TCP probe, the table/measurement
// checks and, for InfluxDB, a written, read and deleted point.

import mysql from 'mysql2/promise';
import pg from 'pg';
import { defaultsOf } from '../../device/model/section.ts';
import { type Nosql, pew_nosql } from '../../device/model/sections/nosql.ts';
import { pew_sql, type Sql } from '../../device/model/sections/sql.ts';
import type { ServiceTestResult } from '../../device/model/servicetest.ts';
import { runNosqlTest } from '../../device/services/nosql-test.ts';
import { runSqlTest } from '../../device/services/sql-test.ts';
import { DB_NAME, DB_PASSWORD, DB_TABLE, DB_USER, type DbServer, startInflux, startMariadb, startPostgres } from '../support/db-servers.ts';
import { median, type Row } from './stats.ts';

const RUNS = 5;

async function timeMs(fn: () => Promise<unknown>): Promise<number[]> {
  await fn(); // warm-up: module loading, first connection
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

const mustPass = (r: ServiceTestResult) => {
  if (!r.ok) throw new Error(`the test failed: ${r.failure?.reason} ${r.failure?.message}`);
};

export async function measureServiceTests(rows: Row[]): Promise<void> {
  const started: DbServer[] = [];
  try {
    const [postgres, mariadb, influx] = await Promise.all([startPostgres(), startMariadb(), startInflux()]);
    started.push(postgres, mariadb, influx);
    const sql = (db_type: Sql['db_type'], s: DbServer): Sql => ({
      ...defaultsOf(pew_sql),
      db_type,
      server: s.host,
      port: s.port,
      user: DB_USER,
      pass: DB_PASSWORD,
      instance_name: DB_NAME,
      tablename: DB_TABLE,
      use_encryption: false,
    });

    const pgTest = await timeMs(async () => mustPass(await runSqlTest(sql(2, postgres), undefined)));
    const pgBare = await timeMs(async () => {
      const c = new pg.Client({ host: postgres.host, port: postgres.port, user: DB_USER, password: DB_PASSWORD, database: DB_NAME });
      await c.connect();
      await c.query('SELECT 1');
      await c.end();
    });
    rows.push({
      figure: 'SQL test, PostgreSQL 15 (ms)',
      ours: median(pgTest),
      baseline: median(pgBare),
      note: `median of ${RUNS}; baseline pg connect + SELECT 1 + end (scram-sha-256)`,
    });

    const myTest = await timeMs(async () => mustPass(await runSqlTest(sql(1, mariadb), undefined)));
    const myBare = await timeMs(async () => {
      const c = await mysql.createConnection({ host: mariadb.host, port: mariadb.port, user: DB_USER, password: DB_PASSWORD, database: DB_NAME });
      await c.query('SELECT 1');
      await c.end();
    });
    rows.push({
      figure: 'SQL test, MariaDB (ms)',
      ours: median(myTest),
      baseline: median(myBare),
      note: `median of ${RUNS}; baseline mysql2 connect + SELECT 1 + end`,
    });

    const nosql: Nosql = {
      ...defaultsOf(pew_nosql),
      db_type: 1,
      server: `http://${influx.host}:${influx.port}`,
      instance_name: DB_NAME,
      measurement: 'bench',
      tag_name: 'line',
      tag_value: 'b',
      use_encryption: false,
    };
    const inTest = await timeMs(async () => mustPass(await runNosqlTest(nosql, undefined)));
    const inBare = await timeMs(async () => {
      const r = await fetch(`http://${influx.host}:${influx.port}/query?q=SHOW%20DATABASES`);
      await r.text();
    });
    rows.push({
      figure: 'NoSQL test, InfluxDB 1.6 (ms)',
      ours: median(inTest),
      baseline: median(inBare),
      note: `median of ${RUNS}; test = ping, databases, measurements, write, read, delete; baseline one fetch of SHOW DATABASES`,
    });
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
}
