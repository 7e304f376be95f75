// The target identity of queued jobs (job-targets.ts) and what a failure means for a job (job-fate.ts):
// a re-point changes the target, settings that do not say where a job goes keep it; down, timeout,
// refused and a refused login wait, a table that does not fit or a refused value is permanent.
import { describe, expect, it } from 'vitest';
import { defaultsOf } from '../model/section.ts';
import { type Nosql, pew_nosql } from '../model/sections/nosql.ts';
import { pew_sql, type Sql } from '../model/sections/sql.ts';
import { isPermanent } from './job-fate.ts';
import { nosqlTarget, sqlTarget } from './job-targets.ts';

const sql = (over: Partial<Sql>): Sql => ({ ...defaultsOf(pew_sql), db_type: 2, server: 'db', port: 5432, instance_name: 'plant', tablename: 't', ...over });
const influx = (over: Partial<Nosql>): Nosql => ({
  ...defaultsOf(pew_nosql),
  db_type: 1,
  server: 'http://influx:8086',
  instance_name: 'plant',
  measurement: 'm',
  tag_name: 'site',
  tag_value: 'a',
  ...over,
});

describe('job targets', () => {
  it('SQL: the server, port, database and table are the target; the poll time, password and data points are not', () => {
    const base = sqlTarget(sql({}));
    expect(base).toBe('postgresql://db:5432/plant table t');
    for (const o of [{ server: 'db2' }, { port: 5433 }, { instance_name: 'other' }, { tablename: 'u' }, { db_type: 1 as const }])
      expect(sqlTarget(sql(o))).not.toBe(base);
    expect(sqlTarget(sql({ plc_poll: 5, pass: 'x', enable_sql: false }))).toBe(base);
    expect(base).not.toContain('pass');
  });

  it('InfluxDB: the database, measurement and tag pair are the target', () => {
    const base = nosqlTarget(influx({}));
    expect(base).toBe('influxdb http://influx:8086 database plant measurement m tag site=a');
    for (const o of [{ instance_name: 'x' }, { measurement: 'n' }, { tag_value: 'b' }, { tag_name: '' }]) expect(nosqlTarget(influx(o))).not.toBe(base);
    expect(nosqlTarget(influx({ plc_poll: 9 }))).toBe(base);
  });
});

describe('job fate', () => {
  it('transient errors wait, the job’s own ones are permanent', () => {
    for (const code of ['refused', 'timeout', 'unknown_host', 'auth_failed', 'server_refused', 'other'] as const)
      expect(isPermanent('sql', code), code).toBe(false);
    for (const code of ['table_mismatch', 'bad_value', 'too_large'] as const) expect(isPermanent('nosql', code), code).toBe(true);
    expect(isPermanent('mqtt', 'refused')).toBe(false);
    expect(isPermanent('script', 'too_large')).toBe(false);
  });
});
