// The database example zips as shipped, end to end (issue 33 item 6): each zip is downloaded from
// the daemon, its peer file applied to a real server the test starts (create_table.sql to MariaDB
// with the mariadb client, create_table_postgresql.sql to PostgreSQL 15 with psql, sample.lp and the
// README's CREATE DATABASE to InfluxDB 1.x with curl), its settings.json saved through
// POST /config/<section> after the edits the README asks of the technician (server, port,
// password, the uploaded CA, the interface the PLC is on), the connection test passes, and one
// request set in the virtual PLC's control block, at the register of the library's register plan,
// puts a row with the example values into the server. Every server speaks TLS with a certificate of
// a test CA, as the examples ask for encryption.
// MongoDB cannot be installed on these machines: the mongo zip is not run here (docs/services.md).
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeValue } from '../../device/logger/values-words.ts';
import { STATE } from '../../device/model/blocks/convention.ts';
import { NOSQL_BLOCK } from '../../device/model/blocks/nosql.ts';
import { SQL_BLOCK } from '../../device/model/blocks/sql.ts';
import type { DataPoint } from '../../device/model/sections/datapoint.ts';
import type { LogType } from '../../device/model/sections/logfile.ts';
import type { ServiceTestResult } from '../../device/model/servicetest.ts';
import { influxRequest } from '../../device/services/influx.ts';
import { EXAMPLE_SAMPLES } from '../../device/system/examples.ts';
import { type DbServer, type MariadbServer, type PostgresServer, startInflux, startMariadb, startPostgres } from '../support/db-servers.ts';
import { makeCertificates } from '../support/openssl.ts';
import { unzipText } from '../support/unzip.ts';
import { COM1, dbBlock } from './db-rig.ts';
import { type MqttRig, startMqttRig } from './mqtt-rig.ts';
import { serviceTestCalls } from './service-test-calls.ts';

/** the password the technician chooses for the unit's login (the scripts' placeholder) */
const PASSWORD = 'choose-a-password';
const LOG_TYPE: Partial<Record<DataPoint['type'], LogType>> = { REAL: 7, UDINT: 5 };

let rig: MqttRig;
let certs: Awaited<ReturnType<typeof makeCertificates>>;
let mariadb: MariadbServer;
let postgres: PostgresServer;
let influx: DbServer;
const calls = serviceTestCalls(() => ({ d: rig.d, admin: rig.admin }));

beforeAll(async () => {
  certs = await makeCertificates();
  [rig, mariadb, postgres, influx] = await Promise.all([
    startMqttRig(),
    startMariadb({ tls: certs }),
    startPostgres({ tls: certs }),
    startInflux({ tls: { cert: certs.cert, key: certs.key, ca: certs.ca } }),
  ]);
}, 180_000);

afterAll(async () => {
  await rig?.d.stop();
  await Promise.all([mariadb?.stop(), postgres?.stop(), influx?.stop()]);
}, 60_000);

/** The files of an example zip, downloaded as the console does. */
async function exampleZip(kind: string): Promise<Record<string, string>> {
  const res = await fetch(`${rig.admin.base}/download/examples/${kind}.zip`, { headers: { cookie: rig.admin.cookie ?? '' } });
  expect(res.status).toBe(200);
  return unzipText(new Uint8Array(await res.arrayBuffer()));
}

/** Runs a command line tool with `input` on its standard input (as `user` when we are root); its output. */
function runTool(cmd: string, args: string[], input: string, user?: string): Promise<string> {
  const [file, argv] = user && userInfo().uid === 0 ? ['runuser', ['-u', user, '--', cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} exited with ${code}: ${out}`))));
    child.stdin.end(input);
  });
}

/** The example values in the PLC, where the data points of settings.json read them (the register plan's first part). */
function placeExampleValues(points: readonly DataPoint[]): void {
  points.forEach((p, i) => rig.plc.memory.writeWords('DT', p.address, encodeValue(LOG_TYPE[p.type]!, EXAMPLE_SAMPLES[i]!, 'little')));
}

/** settings.json with the technician's edits, saved as the README's curl line does; the CA uploaded under the name it gets. */
async function saveExample(section: string, settings: Record<string, unknown>, edits: Record<string, unknown>): Promise<void> {
  await calls.putCert(section, 'ca.pem', certs.ca);
  await calls.save(section, { ...settings, ...edits, ca: 'ca.pem', interface: COM1 });
  await rig.d.ctx.services.settled();
}

async function connectionTest(path: string): Promise<ServiceTestResult> {
  const r = await rig.admin.post(path, {});
  expect(r.status, r.text).toBe(200);
  return r.body as ServiceTestResult;
}

const near = (got: unknown, want: number) => Math.abs(Number(got) - want) <= Math.abs(want) * 1e-9;

describe('the sql example', () => {
  it('MariaDB: create_table.sql applied with the mariadb client; the connection test passes and a PLC request writes the example row', async () => {
    const zip = await exampleZip('sql');
    const settings = JSON.parse(zip['settings.json']!);
    expect(settings.db_type).toBe(1); // the example is MySQL/MariaDB
    await runTool('mariadb', ['--no-defaults', `--socket=${mariadb.socket}`, '-u', 'root'], zip['create_table.sql']!);
    await saveExample('pew_sql', settings, { server: mariadb.host, port: mariadb.port, pass: PASSWORD });
    const test = await connectionTest('/config/get_sqltest');
    expect(test.ok, JSON.stringify(test)).toBe(true);
    placeExampleValues(settings.datalist);
    const b = await dbBlock(rig.plc, SQL_BLOCK, settings.plc_control_dt).insert();
    expect(b, JSON.stringify(b)).toMatchObject({ state: STATE.done, error: 0 });
    const root = await mysql.createConnection({ socketPath: mariadb.socket, user: 'root', database: settings.instance_name });
    try {
      const [rows] = (await root.query(`SELECT * FROM ${settings.tablename}`)) as unknown as [Record<string, unknown>[]];
      expect(rows).toHaveLength(1);
      settings.datalist.forEach((p: DataPoint, i: number) => expect(near(rows[0]![p.name], EXAMPLE_SAMPLES[i]!), p.name).toBe(true));
    } finally {
      await root.end();
    }
  }, 120_000);

  it('PostgreSQL: create_table_postgresql.sql applied with psql; with db_type 2 and its port the same holds', async () => {
    const zip = await exampleZip('sql');
    const settings = JSON.parse(zip['settings.json']!);
    const out = await runTool(
      'psql',
      ['-h', postgres.dir, '-p', String(postgres.port), '-U', 'postgres', '-d', 'postgres', '-f', '-'],
      zip['create_table_postgresql.sql']!,
      'postgres',
    );
    expect(out).not.toMatch(/ERROR/);
    await saveExample('pew_sql', settings, { server: postgres.host, port: postgres.port, db_type: 2, pass: PASSWORD });
    const test = await connectionTest('/config/get_sqltest');
    expect(test.ok, JSON.stringify(test)).toBe(true);
    placeExampleValues(settings.datalist);
    const b = await dbBlock(rig.plc, SQL_BLOCK, settings.plc_control_dt).insert();
    expect(b, JSON.stringify(b)).toMatchObject({ state: STATE.done, error: 0 });
    const admin = new pg.Client({ host: postgres.dir, port: postgres.port, user: 'postgres', database: settings.instance_name });
    await admin.connect();
    try {
      const { rows } = await admin.query(`SELECT * FROM ${settings.tablename}`);
      expect(rows).toHaveLength(1);
      settings.datalist.forEach((p: DataPoint, i: number) => expect(near(rows[0]![p.name], EXAMPLE_SAMPLES[i]!), p.name).toBe(true));
    } finally {
      await admin.end();
    }
  }, 120_000);
});

describe('the influx example', () => {
  it("the README's database and sample.lp applied with curl; the connection test passes and a PLC request writes a point of the same field types", async () => {
    const zip = await exampleZip('influx');
    const settings = JSON.parse(zip['settings.json']!);
    const server = `https://${influx.host}:${influx.port}`;
    const caFile = `${rig.d.dataDir}/test-ca.pem`;
    await writeFile(caFile, certs.ca);
    // the README's two curl lines, on this server (with its CA)
    expect(zip['README.txt']).toContain(`curl -XPOST '${settings.server}/write?db=${settings.instance_name}&precision=ms' --data-binary @sample.lp`);
    await runTool('curl', ['-fsS', '--cacert', caFile, '-XPOST', `${server}/query`, '--data-urlencode', `q=CREATE DATABASE ${settings.instance_name}`], '');
    await runTool(
      'curl',
      ['-fsS', '--cacert', caFile, '-XPOST', `${server}/write?db=${settings.instance_name}&precision=ms`, '--data-binary', '@-'],
      zip['sample.lp']!,
    );
    await saveExample('pew_nosql', settings, { server });
    const test = await connectionTest('/config/get_nosqltest');
    expect(test.ok, JSON.stringify(test)).toBe(true);
    placeExampleValues(settings.datalist);
    const b = await dbBlock(rig.plc, NOSQL_BLOCK, settings.plc_control_dt).insert();
    expect(b, JSON.stringify(b)).toMatchObject({ state: STATE.done, error: 0 });
    const target = { base: server, user: '', password: '', ca: Buffer.from(certs.ca), verify: true, ms: 5000 };
    const r = await influxRequest(target, 'GET', '/query', { db: settings.instance_name, q: `SELECT * FROM ${settings.measurement}`, epoch: 'ms' });
    const series = JSON.parse(r.body).results[0].series[0] as { columns: string[]; values: unknown[][] };
    expect(series.values).toHaveLength(2); // the sample's point and the unit's
    const col = (name: string) => series.columns.indexOf(name);
    for (const row of series.values)
      settings.datalist.forEach((p: DataPoint, i: number) => expect(near(row[col(p.name)], EXAMPLE_SAMPLES[i]!), p.name).toBe(true));
  }, 120_000);
});
