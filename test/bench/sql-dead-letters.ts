// SQL figure of `npm run bench` (part "sql", docs/services.md "Dead letters"): 10,000 rows waiting
// in the queue for table bench_a (stamped with their target, as the engine stores them) go out
// through two PostgreSQL outages (halted 3 s each) and a re-point of the settings to table bench_b
// halfway: the rows still queued for bench_a become dead letters (target_gone), never rows of
// bench_b; the admin then retries them into bench_b. Counted at the end: rows delivered (distinct
// keys in both tables), dead-lettered at the re-point, lost (neither delivered nor still a letter)
// and duplicates.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import type { Sql } from '../../device/model/sections/sql.ts';
import { sqlTarget } from '../../device/service-runtime/job-targets.ts';
import { jobFileName } from '../../device/service-runtime/queue.ts';
import { startTestDaemon } from '../support/daemon.ts';
import { seqRow } from '../support/db-queue.ts';
import type { PostgresServer } from '../support/db-servers.ts';
import { waitFor } from '../support/mosquitto.ts';
import type { Row } from './stats.ts';

const N = 10_000;
const OUTAGE_MS = 3000;

/** A query on a client of its own: the outages end every open connection. */
async function query(db: PostgresServer, sql: string): Promise<Record<string, unknown>[]> {
  const k = await db.owner();
  k.on('error', () => undefined);
  try {
    return (await k.query(sql)).rows;
  } finally {
    await k.end().catch(() => undefined);
  }
}

async function count(db: PostgresServer, table: string): Promise<number> {
  return Number((await query(db, `SELECT count(*) AS n FROM ${table}`).catch(() => [{ n: 0 }]))[0]!.n);
}

/** Rows 1…N for `target`, written into the queue folder as the engine stores them. */
async function fillTargeted(dataDir: string, target: string): Promise<void> {
  const dir = join(dataDir, 'queues', 'sql');
  await mkdir(dir, { recursive: true });
  const base = Date.now() - N;
  for (let i = 1; i <= N; i += 500) {
    const seqs = Array.from({ length: Math.min(500, N - i + 1) }, (_, j) => i + j);
    await Promise.all(seqs.map((seq) => writeFile(join(dir, jobFileName(seq)), JSON.stringify({ ...seqRow(seq, base), target }))));
  }
}

async function outage(db: PostgresServer): Promise<void> {
  await db.halt();
  await new Promise((r) => setTimeout(r, OUTAGE_MS));
  await db.resume();
}

export async function deadLetterFigures(rows: Row[], db: PostgresServer, c: pg.Client, work: string, settings: (table: string) => Sql): Promise<void> {
  const dir = join(work, 'dead-letters');
  c.on('error', () => undefined); // the caller's client dies with the first outage
  const a = settings('bench_a');
  const t0 = performance.now();
  const d = await startTestDaemon({ dataDir: dir });
  try {
    const admin = await d.admin();
    // saved with the service off, the rows filled in, then on: the queue is read at the engine's start
    if ((await admin.post('/config/pew_sql', { ...a, enable_sql: false })).status !== 200) throw new Error('pew_sql not saved');
    await d.stop();
    await fillTargeted(dir, sqlTarget(a));
  } catch (e) {
    await d.stop();
    throw e;
  }
  const d2 = await startTestDaemon({ dataDir: dir });
  try {
    const admin = await d2.admin();
    if ((await admin.post('/config/pew_sql', a)).status !== 200) throw new Error('pew_sql not saved');
    await waitFor(async () => (await count(db, 'bench_a')) >= N / 5, 300_000, 'a fifth of the rows', 50);
    await outage(db); // outage 1
    await waitFor(async () => (await count(db, 'bench_a')) >= N / 2, 300_000, 'half of the rows', 50);
    // the re-point: what is still queued for bench_a must not go into bench_b
    if ((await admin.post('/config/pew_sql', settings('bench_b'))).status !== 200) throw new Error('pew_sql not re-pointed');
    await d2.ctx.services.settled();
    const sql = d2.ctx.services.sql;
    await waitFor(async () => sql.status().queue.waiting === 0, 300_000, 'the queue empty after the re-point', 50);
    const inB = await count(db, 'bench_b');
    const dead = sql.dead!.list().length;
    // the admin retries the letters into bench_b; outage 2 while they go
    await sql.dead!.retry();
    await outage(db);
    await waitFor(async () => sql.status().queue.waiting === 0, 300_000, 'the retried rows written', 50);
    const ms = performance.now() - t0;
    const r = (await query(db, 'SELECT count(*) AS n, count(DISTINCT seq) AS d FROM (SELECT seq FROM bench_a UNION ALL SELECT seq FROM bench_b) x'))[0] as {
      n: string;
      d: string;
    };
    const delivered = Number(r.d);
    const left = sql.dead!.list().length;
    const lost = N - delivered - left;
    rows.push({
      figure: `SQL: ${N.toLocaleString('en')} rows, a re-point, two outages: delivered`,
      ours: delivered,
      note: `bench_a ${await count(db, 'bench_a')}, bench_b ${await count(db, 'bench_b')} (after the retry); ${(ms / 1000).toFixed(1)} s in all; outages ${OUTAGE_MS / 1000} s each`,
    });
    rows.push({
      figure: 'SQL: the same, dead-lettered at the re-point',
      ours: dead,
      note: `target_gone; rows of bench_b before the retry: ${inB} (must be 0); letters left after the retry: ${left}`,
    });
    rows.push({ figure: 'SQL: the same, lost', ours: lost, baseline: 0, note: `duplicates ${Number(r.n) - delivered}` });
  } finally {
    await d2.stop();
  }
}
