// `npm run bench -- "unit load"`: the whole unit busy on a quarter of one core. The bundled simulator
// runs in a process of its own (as the daemon runs on the unit), pinned with its threads to the last
// core beside three busy loops (slow-core.ts), with its virtual PLCs at 115200 baud, and all at once:
//   - the data logger at the spec §9 maxima: 16 files, 700 points, 1 s cycles, 4 files on each of
//     COM1 (MEWTOCOL, the service control interface), COM2 (Modbus RTU), COM3 (MEWTOCOL) and COM4
//     (MEWTOCOL over TCP);
//   - MQTT publishing to mosquitto and SQL inserting into PostgreSQL, each once a second, and IEC 104
//     events once a second to a connected control station, all three driven by the PLC on COM1
//     through their control blocks (unit-load-drivers.ts);
//   - two MEWTOCOL clients through a redirect thread to COM4 and a Modbus/TCP client through the
//     gateway to COM4, 10 requests a second each;
//   - the console's /info API calls once a second (a plain timed GET sequence).
// Figures: missed logger cycles (goal 0), each delivery's p99, the /info calls beside the load
// against the same daemon idle, the daemon's CPU share and RSS; then, the load going on, /#/info
// loaded cold in chromium at CPU 4× (unit-load-console.ts) against the same loads of the idle unit. Then the headroom: the rates of
// everything but the logger (already at its maxima) times 2, 4, 8, 16 until a logger cycle is missed.
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { defaultsOf } from '../../device/model/section.ts';
import { type DataPoint, dataPointSchema } from '../../device/model/sections/datapoint.ts';
import { type Iec, iecSchema } from '../../device/model/sections/iec.ts';
import type { Log } from '../../device/model/sections/log.ts';
import { type LogFile, type LogRecord, logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import { type Mqtt, pew_mqtt } from '../../device/model/sections/mqtt.ts';
import type { Pew } from '../../device/model/sections/pew.ts';
import { com1AsControlInterface } from '../support/control-interface.ts';
import { ADMIN, Client } from '../support/daemon.ts';
import { startPostgres } from '../support/db-servers.ts';
import { ControlStation, dtConnection } from '../support/iec104-control.ts';
import { startBroker } from '../support/mosquitto.ts';
import { freePorts } from '../support/ports.ts';
import { THROTTLE } from './console.ts';
import { cpuMs, HOST, rssMB, type Server, startServer } from './processes.ts';
import { Asker, thread } from './redirect.ts';
import { type QuarterCore, quarterCore } from './slow-core.ts';
import { sqlSettings } from './sql.ts';
import { median, type Row } from './stats.ts';
import { buildConsole, type ConsoleLoads, consoleLoads } from './unit-load-console.ts';
import { type Driver, fc3Frame, iecDriver, infoDriver, mqttDriver, PlcMemory, paced, pollDriver, rdFrame, sqlDriver } from './unit-load-drivers.ts';

const FRAMING = { baud: 115200, bits: 8, parity: 'odd', stopbits: 1 } as const;
const SCAN_MS = 5;
const FILES = 16;
const POINTS = 700;
/** the logger's interfaces: COM1, COM2, COM3, COM4 (ids of device/model/plc.ts) */
const LOG_IFS = [0, 3, 1, 5] as const;
const LOG_DT = 5000;
const MQTT_TEXT_DT = 3000;
const SQL_SEQ_DT = 3100;
const IEC = dtConnection(2000);
/** the services' plc_poll (ms) by the first word of their driver's name */
const POLL_MS: Record<string, number> = { MQTT: 200, SQL: 500, IEC: 100 };
const WARM_S = 10;
const MEASURE_S = 60;
const STEP_S = 15;
/** the rates of the services and clients (the logger stays at its maxima) */
const RATE_FACTORS = [2, 4, 8, 16, 32];
/** the daemon's CPU: its quarter core divided by these, at the rates of factor 1 */
const CPU_FACTORS = [2, 4, 8, 16];
const INFO_IDLE = 20;
/** cold loads of /#/info in chromium on the idle unit; beside the load, as many as CONSOLE_S allow */
const PAGE_IDLE = 10;
const CONSOLE_S = 30;
/**
 * BENCH_UNIT_PROF=DIR: the daemon writes a V8 CPU profile of the warm-up and the measured minute
 * into DIR (the headroom steps left out; the quota lifted at the end so that the profile is written
 * in time). The profiler changes the figures: use it to find where the time goes.
 */
const PROF = process.env.BENCH_UNIT_PROF;

const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : Number.NaN);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function logSettings(): Log['log_def'] {
  let next = LOG_DT;
  return Array.from({ length: FILES }, (_, f): LogFile => {
    const iface = LOG_IFS[f % LOG_IFS.length]!;
    const count = Math.floor(POINTS / FILES) + (f < POINTS % FILES ? 1 : 0);
    const records = Array.from(
      { length: count },
      (_, j): LogRecord => ({
        ...(v.getDefaults(recordSchema) as LogRecord),
        id: j + 1,
        name: `v${j}`,
        if: iface,
        plc_addr: 1,
        area: 1,
        reg_addr: String(next + j),
      }),
    );
    next += count + 10;
    return {
      ...(v.getDefaults(logFileSchema) as LogFile),
      id: f + 1,
      name: `load${f}`,
      interface: iface,
      plc_addr: 1,
      trigger: 1,
      cycle: 1,
      delay_store: 10,
      records,
    };
  });
}

interface LogCount {
  records: number;
  missed: number;
}
async function logCount(admin: Client): Promise<LogCount> {
  const st = (await admin.get('/config/log_status')).body as { files: { records: number; missed: number }[] };
  return st.files.reduce((a, f) => ({ records: a.records + f.records, missed: a.missed + f.missed }), { records: 0, missed: 0 });
}

async function save(admin: Client, path: string, body: unknown): Promise<void> {
  const r = await admin.post(path, body);
  if (r.status !== 200) throw new Error(`saving ${path} failed: ${r.status} ${r.text}`);
}

interface Phase {
  factor: number;
  seconds: number;
  log: LogCount;
  cpuShare: number;
  rss: number;
  /** the share of the quota's periods in which the daemon used up its quota */
  throttled: number | undefined;
  kinds: { name: string; lat: number[]; skipped: number; lost: number }[];
}

/** Every driver at `factor` for `seconds`; what the logger, the daemon and each driver did meanwhile. */
async function phase(admin: Client, pid: number, slowed: QuarterCore, drivers: Driver[], factor: number, seconds: number, failures: string[]): Promise<Phase> {
  for (const d of drivers) d.take();
  const th0 = await slowed.throttled?.();
  const log0 = await logCount(admin);
  const cpu0 = await cpuMs(pid);
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(drivers.map((d) => paced(d, factor, end, failures)));
  const wall = performance.now() - t0;
  const cpu = (await cpuMs(pid)) - cpu0;
  const log1 = await logCount(admin);
  const th1 = await slowed.throttled?.();
  return {
    throttled: th0 && th1 ? (th1.throttledPeriods - th0.throttledPeriods) / Math.max(1, th1.periods - th0.periods) : undefined,
    factor,
    seconds: wall / 1000,
    log: { records: log1.records - log0.records, missed: log1.missed - log0.missed },
    cpuShare: (cpu / wall) * 100,
    rss: await rssMB(pid),
    kinds: drivers.map((d) => ({ name: d.name, ...d.take() })),
  };
}

export async function measureUnitLoad(rows: Row[], daemon: string[]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-unitload-'));
  const [httpPort, mewPort, mbPort, brokerPort, iecPort, threadPort, gwPort] = (await freePorts(7)) as [number, number, number, number, number, number, number];
  const plcs = join(dir, 'plcs.json');
  const serial = (cpu: string, protocol: string) => ({ cpu, station: 1, protocol, ...FRAMING, scanMs: SCAN_MS, pty: false });
  await writeFile(
    plcs,
    JSON.stringify({
      COM1: serial('FP-XH', 'MEWTOCOL'),
      COM2: serial('FP0R', 'MODBUS'),
      COM3: serial('FP-XH', 'MEWTOCOL'),
      COM4: { cpu: 'FP-X', station: 1, host: HOST, mewtocolPort: mewPort, modbusPort: mbPort, scanMs: SCAN_MS },
    }),
  );
  const broker = await startBroker(brokerPort);
  const db = await startPostgres().catch(async (e) => {
    await broker.stop();
    throw e;
  });
  const owner = await db.owner();
  let server: Server | undefined;
  let slowed: QuarterCore | undefined;
  const drivers: Driver[] = [];
  let station: ControlStation | undefined;
  let pages: ConsoleLoads | undefined;
  const failures: string[] = [];
  try {
    await buildConsole();
    const profile = PROF ? ['--cpu-prof', '--cpu-prof-interval=200', `--cpu-prof-dir=${PROF}`] : [];
    server = await startServer(
      [...profile, ...daemon, '--port', String(httpPort), '--data', join(dir, 'data'), '--plcs', plcs],
      httpPort,
      '/rest/api/v1/authentication',
    );
    const pid = server.child.pid!;
    slowed = await quarterCore(pid);
    const base = `http://${HOST}:${httpPort}`;
    const admin = new Client(base);
    await admin.post('/rest/api/v1/authentication/setup', ADMIN);
    await admin.login(ADMIN);
    // the /info calls on the idle unit (nothing configured yet), the baseline of those beside the load
    const idleInfo = infoDriver(admin);
    for (let i = 0; i < INFO_IDLE; i++) {
      await idleInfo.tick();
      await sleep(200);
    }
    const infoIdle = idleInfo.take().lat;
    pages = await consoleLoads(base, admin.cookie);
    const pageIdle = await pages.loads(PAGE_IDLE);

    const pew = (await admin.get('/config/pew')).body as Pew;
    com1AsControlInterface(pew, FRAMING);
    const line = (id: number, protocol: string) =>
      Object.assign(pew.interfaces.find((i) => i.id === id)!, {
        enabled: true,
        mode: 1,
        protocol,
        baudrate: FRAMING.baud,
        bits: FRAMING.bits,
        parity: FRAMING.parity,
        stopbits: FRAMING.stopbits,
        timeout: 2000,
        autobaud: false,
      });
    line(3, 'MODBUS');
    line(1, 'MEWTOCOL');
    Object.assign(pew.interfaces.find((i) => i.id === 5)!, { enabled: true, ip_port: `${HOST}:${mewPort}`, timeout: 2000 });
    const threads = [thread(threadPort, 5), thread(gwPort, 5, { mb_translation: true })];
    await save(admin, '/config', { pew, pew_redirect: { threads } });

    const log = (await admin.get('/config/pew_log')).body as Log;
    await save(admin, '/config/pew_log', { ...log, enable_log: true, header: 1, log_def: logSettings() });
    const mqtt: Mqtt = { ...defaultsOf(pew_mqtt), enable_mqtt: true, plc_poll: POLL_MS.MQTT! / 1000, broker_addr: `mqtt://${HOST}:${brokerPort}`, qos: 1 };
    await save(admin, '/config/pew_mqtt', mqtt);
    const seq: DataPoint = { ...(v.getDefaults(dataPointSchema) as DataPoint), name: 'seq', type: 'DINT', address: SQL_SEQ_DT };
    const sql = sqlSettings(db, 'unitload', { plc_poll: POLL_MS.SQL! / 1000, interface: 0, datalist: [seq] });
    await save(admin, '/config/pew_sql', sql);
    const iec: Iec = { ...(v.getDefaults(iecSchema) as Iec), enable_60870: true, port: iecPort, plc_poll: POLL_MS.IEC!, connections: [IEC] };
    await save(admin, '/config/pew_60870', iec);

    const com1 = new PlcMemory(base, 'COM1');
    station = await ControlStation.open(iecPort);
    station.send({ format: 'U', fn: 'startdt_act' });
    const redirect = [new Asker(threadPort, HOST, false), new Asker(threadPort, HOST, false)];
    const gateway = new Asker(gwPort, HOST, true);
    await Promise.all([...redirect, gateway].map((a) => a.ready()));
    drivers.push(
      await mqttDriver(com1, brokerPort, MQTT_TEXT_DT),
      sqlDriver(com1, owner, 'unitload', SQL_SEQ_DT),
      iecDriver(com1, station, { ring: IEC.plc_buffer_m, depth: IEC.plc_buffer_m_depth }),
      ...redirect.map((a, i) => pollDriver(`redirect client ${i + 1}, RD 27 round trip`, 10, a, rdFrame())),
      pollDriver('Modbus gateway FC3 27 round trip', 10, gateway, fc3Frame()),
      infoDriver(admin),
    );
    // the first cycles, the services' connections and the table created, V8's compiling: unmeasured
    await phase(admin, pid, slowed, drivers, 1, WARM_S, failures);
    const one = await phase(admin, pid, slowed, drivers, 1, MEASURE_S, failures);
    if (failures.length) throw new Error(failures.join('; '));
    if (PROF) {
      report(rows, one, infoIdle, `${slowed.how}, profiled`);
      await slowed.slower(1 / 4);
      const exited = once(server.child, 'exit');
      server.child.kill('SIGTERM');
      await Promise.race([exited, sleep(120_000)]);
      return;
    }
    // the console beside the same load: cold loads of /#/info one after the other for CONSOLE_S
    const beside = phase(admin, pid, slowed, drivers, 1, CONSOLE_S, failures);
    const pageLoaded = await pages.loadsUntil(beside);
    const consoleBeside = { phase: await beside, loads: pageLoaded, idle: pageIdle };
    const rates: Phase[] = [];
    for (const f of RATE_FACTORS) {
      const p = await phase(admin, pid, slowed, drivers, f, STEP_S, failures);
      rates.push(p);
      if (p.log.missed > 0 || failures.length) break;
    }
    await phase(admin, pid, slowed, drivers, 1, 5, failures); // back to the rates of factor 1
    const cpu: Phase[] = [];
    for (const f of CPU_FACTORS) {
      await slowed.slower(f);
      const p = await phase(admin, pid, slowed, drivers, 1, STEP_S, failures);
      cpu.push({ ...p, factor: f });
      if (p.log.missed > 0 || failures.length) break;
    }
    report(rows, one, infoIdle, slowed.how);
    reportConsole(rows, consoleBeside.phase, consoleBeside.loads, consoleBeside.idle);
    headroom(rows, rates, cpu);
    if (failures.length) throw new Error(failures.join('; '));
  } catch (e) {
    const exited = server && (server.child.exitCode !== null || server.child.signalCode !== null);
    throw exited
      ? new Error(`${(e as Error).message}; the daemon exited (${server!.child.exitCode ?? server!.child.signalCode}): ${server!.output().slice(-400)}`)
      : e;
  } finally {
    for (const d of drivers) await d.close().catch(() => undefined);
    station?.close();
    await pages?.close();
    await server?.stop();
    await slowed?.release();
    await owner.end();
    await db.stop();
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function report(rows: Row[], one: Phase, infoIdle: number[], how: string): void {
  const expected = FILES * one.seconds;
  rows.push({
    figure: 'unit load: missed logger cycles',
    ours: one.log.missed,
    note: `${one.log.records} records in ${one.seconds.toFixed(0)} s (expected ${expected.toFixed(0)}); 16 files, 700 points, 1 s cycles on COM1-COM4 at 115200 baud; the daemon on a quarter core (${how}); goal 0`,
  });
  for (const k of one.kinds) {
    const info = k.name.startsWith('/info');
    const poll = POLL_MS[k.name.split(' ')[0]!];
    const why = info
      ? `; baseline: the same calls on the idle unit, ${infoIdle.length} times (p50 ${median(infoIdle).toFixed(1)} ms)`
      : poll
        ? `; baseline: the service's plc_poll, the longest a request waits to be seen (its reads on the line come on top)`
        : '';
    rows.push({
      figure: `unit load: ${k.name} p99 (ms)`,
      ours: pct(k.lat, 99),
      baseline: info ? pct(infoIdle, 99) : poll,
      note: `p50 ${median(k.lat).toFixed(1)} ms, ${k.lat.length} delivered, ${k.skipped} skipped (last one still outstanding), ${k.lost} lost${why}`,
    });
  }
  rows.push({
    figure: 'unit load: daemon CPU (% of one core)',
    ours: one.cpuShare,
    baseline: 25,
    note: `user + system over the measured minute; baseline: the quarter core it may have; ${one.throttled === undefined ? '' : `quota used up in ${(one.throttled * 100).toFixed(0)} % of the 100-ms periods; `}the virtual PLCs and their wire timing run in the simulator's process and count here`,
  });
  rows.push({ figure: 'unit load: daemon RSS (MB)', ours: one.rss, note: 'VmRSS at the end of the measured minute' });
}

function reportConsole(rows: Row[], p: Phase, loads: number[], idle: number[]): void {
  rows.push({
    figure: `unit load: /info showing data beside it, CPU ${THROTTLE}× (ms)`,
    ours: median(loads),
    baseline: median(idle),
    note: `median of ${loads.length} cold loads in chromium in ${p.seconds.toFixed(0)} s of the load (${p.log.missed} logger cycles missed meanwhile); baseline: ${idle.length} loads of the idle unit on the same quarter core`,
  });
}

const rate = (p: Phase, k: Phase['kinds'][number]) => k.lat.length / p.seconds;

/** The load factors of the first missed cycle: the rates scaled, then the CPU cut, with what each step did. */
function headroom(rows: Row[], rates: Phase[], cpu: Phase[]): void {
  const first = (ps: Phase[]) => {
    const at = ps.find((p) => p.log.missed > 0);
    return at ? at.factor : `> ${ps.at(-1)?.factor ?? 1}`;
  };
  const step = (p: Phase) =>
    `×${p.factor}: ${p.log.missed} missed, CPU ${p.cpuShare.toFixed(0)} %${p.throttled === undefined ? '' : ` (quota used up in ${(p.throttled * 100).toFixed(0)} % of periods)`}`;
  rows.push({
    figure: 'unit load: headroom, rates × factor (first missed cycle)',
    ours: first(rates),
    note: `the services' and clients' rates (MQTT and SQL at most one request a poll) on the quarter core; ${rates
      .map((p) => `${step(p)}, ${p.kinds.map((k) => `${k.name.split(' ')[0]} ${rate(p, k).toFixed(0)}/s p99 ${pct(k.lat, 99).toFixed(0)}`).join(', ')}`)
      .join('; ')}`,
  });
  rows.push({
    figure: 'unit load: headroom, CPU ÷ factor (first missed cycle)',
    ours: first(cpu),
    note: `the load of factor 1 on a quarter core ÷ factor; ${cpu
      .map((p) => `${step(p)}, p99 ${p.kinds.map((k) => `${k.name.split(' ')[0]} ${pct(k.lat, 99).toFixed(0)}`).join(', ')}`)
      .join('; ')}`,
  });
}
