// SQL figures of `npm run bench` (part "sql"), against PostgreSQL 15 started on 127.0.0.1:
//   - rows per second from a queue replay (20,000 rows stored as after an outage, written when the
//     daemon starts) against a bare `pg` loop inserting the same rows with the same statements in
//     the same batch size (100) into a table of its own;
//   - PLC request → row visible, p50/p99 over 40 requests at random moments (after one that creates
//     the table), plc_poll 0.5 s, with a virtual FP-XH on COM1 (MEWTOCOL, 115200 8O1); the limit is
//     the poll time plus the wire;
//   - 100,000 waiting rows replayed by a daemon in a child process: time, its peak memory (VmHWM),
//     rows in the table and duplicates;
//   - 10,000 rows through a re-point and two outages: delivered, dead-lettered, lost
//     (sql-dead-letters.ts).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import * as v from 'valibot';
import { SQL_BLOCK } from '../../device/model/blocks/sql.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { type DataPoint, dataPointSchema } from '../../device/model/sections/datapoint.ts';
import { pew_sql, type Sql } from '../../device/model/sections/sql.ts';
import { DB_BATCH } from '../../device/service-runtime/db-run.ts';
import { createTable, insertRows } from '../../device/sql/dialects.ts';
import { setBlock } from '../../sim/plc/blocks.ts';
import { startTestDaemon } from '../support/daemon.ts';
import { fillRowQueue, seqRow } from '../support/db-queue.ts';
import { DB_NAME, DB_PASSWORD, DB_USER, type PostgresServer, startPostgres } from '../support/db-servers.ts';
import { waitFor } from '../support/mosquitto.ts';
import { COM1, daemonWithPlcOnCom1, FRAMING } from './plc-daemon.ts';
import { deadLetterFigures } from './sql-dead-letters.ts';
import type { Row } from './stats.ts';

const DT = 350;
const REPLAY = 20_000;
const BIG = 100_000;
const REQUESTS = 40;
const POLL_S = 0.5;

const seqPoint = (): DataPoint => ({ ...(v.getDefaults(dataPointSchema) as DataPoint), name: 'seq', type: 'DINT', address: 1200 });
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

/** pew_sql writing the `seq` point into `table` of the bench's PostgreSQL, polled every POLL_S */
export function sqlSettings(db: PostgresServer, table: string, over: Partial<Sql> = {}): Sql {
  return {
    ...defaultsOf(pew_sql),
    enable_sql: true,
    db_type: 2,
    server: db.host,
    port: db.port,
    user: DB_USER,
    pass: DB_PASSWORD,
    instance_name: DB_NAME,
    use_encryption: false,
    tablename: table,
    timeout: 10,
    plc_poll: POLL_S,
    datalist: [seqPoint()],
    ...over,
  };
}

async function saveSettings(dataDir: string, s: Sql): Promise<void> {
  const d = await startTestDaemon({ dataDir });
  const r = await (await d.admin()).post('/config/pew_sql', s);
  await d.stop();
  if (r.status !== 200) throw new Error(`pew_sql not saved: ${r.text}`);
}

async function count(c: pg.Client, table: string): Promise<number> {
  return Number((await c.query(`SELECT count(*) AS n FROM ${table}`).catch(() => ({ rows: [{ n: 0 }] }))).rows[0]!.n);
}

/** ms until `table` holds `n` rows, polled every 50 ms */
async function until(c: pg.Client, table: string, n: number, ms: number): Promise<void> {
  await waitFor(async () => (await count(c, table)) >= n, ms, `${n} rows in ${table}`, 50);
}

async function replayFigures(rows: Row[], db: PostgresServer, c: pg.Client, work: string): Promise<void> {
  const dir = join(work, 'replay');
  await saveSettings(dir, sqlSettings(db, 'replay_ours'));
  await fillRowQueue(dir, 'sql', REPLAY);
  const t0 = performance.now();
  const d = await startTestDaemon({ dataDir: dir });
  await until(c, 'replay_ours', 1, 300_000);
  const t1 = performance.now();
  const first = await count(c, 'replay_ours');
  await until(c, 'replay_ours', REPLAY, 300_000);
  const t2 = performance.now();
  const oursMs = t2 - t0;
  await d.stop();
  // the bare loop: the same rows, statements and batch size, one client, nothing queued
  const base = Date.now();
  const all = Array.from({ length: REPLAY }, (_, i) => seqRow(i + 1, base));
  await c.query(createTable('postgres', 'replay_bare', all[0]!).sql);
  const b0 = performance.now();
  for (let i = 0; i < all.length; i += DB_BATCH) {
    const st = insertRows('postgres', 'replay_bare', all.slice(i, i + DB_BATCH));
    await c.query(st.sql, st.params);
  }
  const bareMs = performance.now() - b0;
  rows.push({
    figure: 'SQL: rows/s from the queue into PostgreSQL',
    ours: REPLAY / (oursMs / 1000),
    baseline: REPLAY / (bareMs / 1000),
    note: `${REPLAY} rows, batches of ${DB_BATCH}; baseline: a bare pg loop, same statements; ours includes the daemon start and the queue's files`,
  });
  rows.push({
    figure: 'SQL: the same, from the first row to the last',
    ours: (REPLAY - first) / ((t2 - t1) / 1000),
    baseline: REPLAY / (bareMs / 1000),
    note: `the replay once it writes (daemon start and reading the ${REPLAY} queued files left out)`,
  });
}

async function latencyFigures(rows: Row[], db: PostgresServer, c: pg.Client, work: string): Promise<void> {
  const { d, plc, admin } = await daemonWithPlcOnCom1(join(work, 'latency'));
  try {
    if ((await admin.post('/config/pew_sql', sqlSettings(db, 'latency', { interface: COM1 }))).status !== 200) throw new Error('pew_sql not saved');
    await d.ctx.services.settled();
    // one row first: the table is created then, not inside a measured request
    setBlock(plc.memory, SQL_BLOCK, DT, { request: 1 });
    await waitFor(async () => (await count(c, 'latency')) > 0, 20_000, 'the first row', 20);
    const lat: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const n = await count(c, 'latency');
      await new Promise((r) => setTimeout(r, Math.random() * POLL_S * 1000)); // requests at random moments of the poll
      const t0 = performance.now();
      setBlock(plc.memory, SQL_BLOCK, DT, { request: 1 });
      await waitFor(async () => (await count(c, 'latency')) > n, 10_000, 'row visible', 2);
      lat.push(performance.now() - t0);
    }
    // MEWTOCOL at 115200 8O1 (11 bits a character): the block (6 words), the point (2 words), clearing the request, the result words
    const wireMs = ((13 + 6 * 4 + 9 + (13 + 2 * 4 + 9) + (25 + 4 + 9) + (25 + 3 * 4 + 9)) * 11 * 1000) / FRAMING.baud;
    rows.push({
      figure: 'SQL: PLC request → row visible p50 (ms)',
      ours: pct(lat, 50),
      baseline: (POLL_S * 1000) / 2 + wireMs,
      note: `baseline: half the poll (${POLL_S} s) + wire ${wireMs.toFixed(1)} ms; ${REQUESTS} requests`,
    });
    rows.push({
      figure: 'SQL: PLC request → row visible p99 (ms)',
      ours: pct(lat, 99),
      baseline: POLL_S * 1000 + wireMs,
      note: 'baseline: a whole poll + wire time',
    });
  } finally {
    await d.stop();
  }
}

const CHILD = fileURLToPath(new URL('../fixtures/daemon-child.ts', import.meta.url));
const peakMB = async (pid: number | undefined) => Number(/VmHWM:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** The peak memory of the same child daemon with the SQL client on and nothing queued, after `ms`. */
async function idlePeakMB(db: PostgresServer, work: string, ms: number): Promise<number> {
  const dir = join(work, 'idle');
  await saveSettings(dir, sqlSettings(db, 'replay_idle'));
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve) =>
      child.stdout!.on('data', (b: Buffer) => {
        if (b.toString().includes('listening')) resolve();
      }),
    );
    await new Promise((r) => setTimeout(r, ms));
    return await peakMB(child.pid);
  } finally {
    child.kill('SIGKILL');
    await once(child, 'exit').catch(() => undefined);
  }
}

async function bigReplayFigures(rows: Row[], db: PostgresServer, c: pg.Client, work: string): Promise<void> {
  const dir = join(work, 'big');
  await saveSettings(dir, sqlSettings(db, 'replay_big'));
  await fillRowQueue(dir, 'sql', BIG);
  const fixture = CHILD;
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await until(c, 'replay_big', BIG, 900_000);
    const ms = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 1000));
    const peak = await peakMB(child.pid);
    const r = (await c.query('SELECT count(*) AS n, count(DISTINCT seq) AS d FROM replay_big')).rows[0] as { n: string; d: string };
    rows.push({
      figure: `SQL: ${BIG.toLocaleString('en')} waiting rows replayed (s)`,
      ours: ms / 1000,
      note: `child daemon, start included; rows ${r.n}, duplicates ${Number(r.n) - Number(r.d)}`,
    });
    child.kill('SIGKILL');
    await once(child, 'exit').catch(() => undefined);
    rows.push({
      figure: 'SQL: peak memory of that replay (MB)',
      ours: peak,
      baseline: await idlePeakMB(db, work, 3000),
      note: 'VmHWM of the daemon process (tsx, unbundled); baseline: the same daemon with nothing queued',
    });
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

export async function measureSql(rows: Row[], only?: 'dead letters'): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-sql-'));
  const db = await startPostgres();
  const c = await db.owner();
  try {
    if (!only) {
      await replayFigures(rows, db, c, work);
      await latencyFigures(rows, db, c, work);
      await bigReplayFigures(rows, db, c, work);
    }
    await deadLetterFigures(rows, db, c, work, (table) => sqlSettings(db, table));
  } finally {
    await c.end();
    await db.stop();
    await rm(work, { recursive: true, force: true });
  }
}
