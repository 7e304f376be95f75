// `npm run bench`: figures of the daemon measured side by side with a bare node:http baseline in
// one run, printed as one table. Not a test: a slow figure never fails it; only a step that could
// not run (or a crash-safety violation) makes the exit code non-zero. Loopback only, every load
// bounded in time; each part prints the time it took.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DAEMON_NODE_FLAGS } from '../../device/firmware/node-flags.ts';
import { runCrashLoop, saveLoopBundle } from '../support/crash-loop.ts';
import { type Bundle, bundleSim, bundleUnit } from './bundle.ts';
import { measureCodecs } from './codec.ts';
import { measureConsole } from './console.ts';
import { FETCH_REQUESTS, type FetchVariant, measureFetchClasses } from './fetch-classes.ts';
import { measureFtpSend } from './ftp-send.ts';
import { measureFuzz } from './fuzz.ts';
import { measureGraphs } from './graphs.ts';
import { measureIec104 } from './iec104.ts';
import { measureImage } from './image.ts';
import { measureLateAnswers } from './late-answers.ts';
import { CONNECTIONS, SECONDS } from './load.ts';
import { measureLogTable } from './log-table.ts';
import { measureLogger } from './logger.ts';
import { measureLoginFlood } from './login-flood.ts';
import { measureMetrics } from './metrics.ts';
import { measureMonitor } from './monitor.ts';
import { measureMqtt } from './mqtt.ts';
import { measurePages } from './pages.ts';
import { measurePageMoves } from './pages-moves.ts';
import { measureRedirect } from './redirect.ts';
import { measureSecurityListeners } from './security-listeners.ts';
import { measureServiceTests } from './service-tests.ts';
import { measureConnectionTests } from './service-tests-net.ts';
import { measureSparkplug } from './sparkplug.ts';
import { measureSql } from './sql.ts';
import { measureStarts } from './start.ts';
import { formatTable, median, type Row } from './stats.ts';
import { LOAD_ROUNDS, measureThroughput } from './throughput.ts';
import { measureTlsBridge } from './tls-bridge.ts';
import { measureUnitLoad } from './unit-load.ts';
import { measureWire } from './wire.ts';

const START_RUNS = 5;
const SECTIONS = ['pew_mqtt', 'pew'] as const;
const CRASH_ITERATIONS = 1000;

/** `npm run bench -- redirect codecs`: only the parts whose names contain one of the words (the bundle is always made) */
const ONLY = process.argv.slice(2);
const rows: Row[] = [];
const failures: string[] = [];

/** Runs one part of the bench; a failure is reported and the remaining parts still run. */
async function part(name: string, fn: () => Promise<void>): Promise<void> {
  if (ONLY.length && !name.startsWith('bundle') && !ONLY.some((o) => name.includes(o))) return;
  const t0 = performance.now();
  process.stderr.write(`bench: ${name}…`);
  try {
    await fn();
    process.stderr.write(` ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  } catch (e) {
    process.stderr.write(' failed\n');
    failures.push(`${name}: ${(e as Error).message}`);
    rows.push({ figure: name, ours: 'failed', note: (e as Error).message.slice(0, 80) });
  }
}

const kb = (n: number) => n / 1024;
const work = await mkdtemp(join(tmpdir(), 'bench-'));
let sim: Bundle | undefined;
let unit: Bundle | undefined;
try {
  await part('bundle sim/main.ts', async () => {
    sim = await bundleSim();
    const child = await stat(await saveLoopBundle());
    rows.push({
      figure: 'daemon bundle, read at start (KB)',
      ours: kb(sim.bytes),
      note: `gzip -9: ${kb(sim.gzipBytes).toFixed(1)} KB; esbuild, packages bundled; with the chunks of the services' client libraries, loaded when first used: ${kb(sim.totalBytes).toFixed(0)} KB`,
    });
    rows.push({ figure: 'crash-loop child bundle (KB)', ours: kb(child.size), note: 'store + model only' });
    unit = await bundleUnit();
    rows.push({
      figure: 'unit daemon bundle, read at start (KB)',
      ours: kb(unit.bytes),
      note: `device/unit.ts, the same build; with its lazy chunks: ${kb(unit.totalBytes).toFixed(0)} KB`,
    });
  });

  if (sim) {
    // the daemon as the unit runs it: with its V8 flags (device/firmware/node-flags.ts)
    const daemon = [...DAEMON_NODE_FLAGS, sim.file];
    // the unit's daemon over plain HTTP, as the simulator serves it (on the unit the console is on HTTPS)
    const daemons: Record<string, string[]> = { sim: daemon };
    if (unit) daemons.unit = [...DAEMON_NODE_FLAGS, unit.file, '--tls-port', 'off'];
    await part('start and memory', async () => {
      const s = await measureStarts(daemons, START_RUNS);
      const bare = s.bare ?? [];
      for (const [k, label] of [
        ['sim', ''],
        ['unit', ', unit daemon'],
      ] as const) {
        const ours = s[k];
        if (!ours) continue;
        rows.push({
          figure: `start → first answer${label} (ms)`,
          ours: median(ours.map((x) => x.startMs)),
          baseline: median(bare.map((x) => x.startMs)),
          note: `median of ${START_RUNS}; GET /rest/api/v1/authentication`,
        });
        rows.push({
          figure: `RSS idle after start${label} (MB)`,
          ours: median(ours.map((x) => x.rssMB)),
          baseline: median(bare.map((x) => x.rssMB)),
          note: `median of ${START_RUNS}; VmRSS after 1 s idle`,
        });
      }
    });

    await part('fetch classes', async () => {
      const f = await measureFetchClasses(START_RUNS);
      for (const [d, label] of [
        ['sim', ''],
        ['unit', ', unit daemon'],
      ] as const) {
        const ours = f[d];
        const rss = (v: FetchVariant) => median(ours[v].map((x) => x.rssMB));
        const start = (v: FetchVariant) => median(ours[v].map((x) => x.startMs));
        const range = (v: FetchVariant) => {
          const xs = ours[v].map((x) => x.rssMB);
          return `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
        };
        const how = `median of ${START_RUNS} by turns (ours ${range('ours')}, node-server ${range('nodeServer')}, own listener ${range('ourListener')}); start, sign in, the start requests, ${FETCH_REQUESTS} reads + ${FETCH_REQUESTS} saves, 1 s idle`;
        rows.push({
          figure: `RSS, own fetch classes vs @hono/node-server${label} (MB)`,
          ours: rss('ours'),
          baseline: rss('nodeServer'),
          note: `${how}; node-server − ours: ${(rss('nodeServer') - rss('ours')).toFixed(1)} MB (≤ 5: go back to it)`,
        });
        rows.push({
          figure: `RSS, own fetch classes vs own listener with node's classes${label} (MB)`,
          ours: rss('ours'),
          baseline: rss('ourListener'),
          note: `${how}; difference ${(rss('ourListener') - rss('ours')).toFixed(1)} MB`,
        });
        rows.push({
          figure: `start → first answer, own fetch classes vs @hono/node-server${label} (ms)`,
          ours: start('ours'),
          baseline: start('nodeServer'),
          note: `median of ${START_RUNS}; own listener with node's classes: ${start('ourListener').toFixed(0)} ms`,
        });
      }
    });

    await part('GET /config load', async () => {
      for (const [k, label] of [
        ['sim', ''],
        ['unit', ' (unit daemon)'],
      ] as const) {
        const daemon = daemons[k];
        if (!daemon) continue;
        for (const r of await measureThroughput(daemon, SECTIONS)) {
          const how = `${CONNECTIONS} conns, ${LOAD_ROUNDS} rounds of ${SECONDS} s a side by turns, ${r.bytes} B body`;
          rows.push({
            figure: `GET /config/${r.section}${label} (req/s)`,
            ours: r.ours.rps,
            baseline: r.bare.rps,
            note: `${how}; median of the rounds' medians of 1-s samples`,
          });
          rows.push({
            figure: `GET /config/${r.section}${label} p99 (ms)`,
            ours: r.ours.p99Ms,
            baseline: r.bare.p99Ms,
            note: `${how}; median of the rounds; autocannon rounds to 1 ms`,
          });
        }
      }
    });
    await part('redirect threads', () => measureRedirect(rows, daemon));
    await part('metrics scrape', () => measureMetrics(rows, daemon));
    await part('protocol fuzz', () => measureFuzz(rows, daemon));
    await part('tls bridge', () => measureTlsBridge(rows, daemon));
    await part('security: REST slots, dripping connections', () => measureSecurityListeners(rows, daemon));
    await part('unit load', () => measureUnitLoad(rows, daemon));
  }

  await part('protocol codecs', () => measureCodecs(rows));
  await part('link wire utilisation', () => measureWire(rows));
  await part('monitor', () => measureMonitor(rows));
  await part('late answers', async () => {
    failures.push(...(await measureLateAnswers(rows)));
  });
  await part('data logger', () => measureLogger(rows));
  await part('service tests', () => measureServiceTests(rows));
  await part('connection tests', () => measureConnectionTests(rows));
  await part('image', () => measureImage(rows));
  await part('ftp send', () => measureFtpSend(rows));
  await part('security: login flood', () => measureLoginFlood(rows));
  await part('mqtt', () => measureMqtt(rows));
  await part('sparkplug', () => measureSparkplug(rows));
  await part('sql', () => measureSql(rows));
  await part('iec 104', () => measureIec104(rows));

  await part('console in chromium', () => measureConsole(rows));
  await part('graphs in chromium', () => measureGraphs(rows));
  await part('log table in chromium', () => measureLogTable(rows));
  await part('pages in chromium', () => measurePages(rows));
  // the same moves alone, without the deep links: `npm run bench -- moves`
  if (ONLY.length) await part('page moves in chromium', () => measurePageMoves(rows));

  await part(`crash loop ×${CRASH_ITERATIONS}`, async () => {
    const dir = join(work, 'crash');
    const r = await runCrashLoop({ iterations: CRASH_ITERATIONS, dir });
    if (r.violations.length) failures.push(...r.violations);
    rows.push({
      figure: 'CFG-1 kill -9 violations',
      ours: r.violations.length,
      note: `${r.iterations} kills, ${r.killsDuringWrite} mid-write, ${r.recoveries} roll-forwards, generation ${r.generation}`,
    });
    rows.push({
      figure: 'CFG-1 kill -9 loop (s)',
      ours: r.ms / 1000,
      note: `${(r.ms / r.iterations).toFixed(0)} ms per kill and restart check; seed ${r.seed}`,
    });
  });
} finally {
  await rm(work, { recursive: true, force: true });
}

console.log(formatTable(rows));
if (failures.length) {
  console.error(`\nfailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
  process.exit(1);
}
