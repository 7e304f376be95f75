// A login flood against a daemon whose data logger records every second (security.md AUTH-6,
// DOS-1; issue 16 item 2), shared by test/integration/login-flood.test.ts (small, in `npm test`)
// and the bench's full-size part (test/bench/login-flood.ts).
//
// The daemon has a virtual FP-XH PLC on COM1 (in-process, 115200 baud) and one log file of three
// points on a 1 s cycle, each record written at once (delay_store 1). The flood: `concurrency`
// workers in a process of their own at the lowest CPU priority (flood-client.ts: an attacker is
// another machine), each sending wrong unauthenticated logins one after the other, every request
// from a new loopback address, so that neither the per-address nor the per-account limit stops
// it: only the hashing queue does. Meanwhile a logged-in admin asks the console's GETs (a section
// from memory, a folder listing from disk) every 200 ms, and the owner signs in again from its
// own address (ADMIN_FROM, signed in before the flood) once a second.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import type { Log } from '../../device/model/sections/log.ts';
import { type LogFile, type LogRecord, logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import type { Pew } from '../../device/model/sections/pew.ts';
import { hashLoad } from '../../device/system/hash-queue.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { ADMIN, Client, startTestDaemon, type TestDaemon } from './daemon.ts';

/** the owner's own address: it signed in before the flood */
export const ADMIN_FROM = '127.0.0.9';
const CLIENT = fileURLToPath(new URL('./flood-client.ts', import.meta.url));

export interface FloodRig {
  d: TestDaemon;
  admin: Client;
  /** records written and cycles missed by the log file so far */
  logged(): { records: number; missed: number };
  stop(): Promise<void>;
}

export async function startFloodRig(): Promise<FloodRig> {
  const framing = { baud: 115200, bits: 8 as const, parity: 'odd' as const, stopbits: 1 as const };
  const plc = new VirtualPlc({ model: 'FP-XH', scanMs: 1 });
  plc.memory.writeWords('DT', 100, [1, 2, 3]);
  const wire = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing });
  const d = await startTestDaemon({ serial: { virtualPorts: { COM1: (s) => wire.open(s) } } });
  try {
    const admin = await d.admin();
    await new Client(d.url, ADMIN_FROM).login(ADMIN);
    const pew = (await admin.get('/config/pew')).body as Pew;
    Object.assign(pew.interfaces[0]!, { enabled: true, baudrate: framing.baud, protocol: 'MEWTOCOL', timeout: 1000 });
    const savedPew = await admin.post('/config/pew', pew);
    if (savedPew.status !== 200) throw new Error(`saving pew failed: ${savedPew.text}`);
    await d.ctx.com.settled();
    const records = [0, 1, 2].map(
      (i): LogRecord => ({ ...(v.getDefaults(recordSchema) as LogRecord), id: i + 1, name: `v${i}`, if: 0, area: 1, reg_addr: String(100 + i) }),
    );
    const file: LogFile = { ...(v.getDefaults(logFileSchema) as LogFile), id: 1, name: 'flood', interface: 0, trigger: 1, cycle: 1, delay_store: 1, records };
    const log = (await admin.get('/config/pew_log')).body as Log;
    const savedLog = await admin.post('/config/pew_log', { ...log, enable_log: true, header: 1, log_def: [file] });
    if (savedLog.status !== 200) throw new Error(`saving pew_log failed: ${savedLog.text}`);
    await d.ctx.logger.settled();
    const logged = () => {
      const f = d.ctx.logger.status().files.find((x) => x.name === 'flood');
      return { records: f?.records ?? 0, missed: f?.missed ?? 0 };
    };
    const t0 = Date.now();
    while (logged().records < 2) {
      if (Date.now() - t0 > 15_000) throw new Error('the logger wrote no record within 15 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    return { d, admin, logged, stop: () => d.stop() };
  } catch (e) {
    await d.stop();
    throw e;
  }
}

export interface FloodResult {
  seconds: number;
  /** answers of the flood's logins by status (0: the connection failed) */
  logins: Record<number, number>;
  /** latencies of the console's GETs during the flood, ms */
  gets: number[];
  /** GETs that did not answer 200 */
  failedGets: number;
  records: number;
  missed: number;
  /** the most hashes seen running at once */
  maxHashing: number;
  /** the owner's sign-ins from ADMIN_FROM during the flood: status and ms */
  adminLogins: { status: number; ms: number }[];
  /**
   * the longest delay of the daemon's event loop during the flood, ms (the daemon runs in this
   * process): a missed cycle beside a stall of a cycle or more tells a starved thread, else look at the PLC's reads
   */
  loopDelayMaxMs: number;
}

/**
 * Runs the flood client for `ms` after it started, and on until `enough()` holds (what a test needs
 * to have happened during the flood: on a busy machine that takes longer); resolves with its answers by status.
 */
function floodClient(url: string, concurrency: number, ms: number, started: () => void, enough: () => boolean): Promise<Record<number, number>> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLIENT, url, String(concurrency)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let timer: NodeJS.Timeout | undefined;
  child.stdout.on('data', (b: Buffer) => {
    if (!out.includes('ready') && (out + b.toString()).includes('ready')) {
      // an attacker's CPU is not the unit's: on a shared test machine the flood takes only what is
      // left over (it starts at the normal priority, so that loading it does not take minutes)
      if (child.pid) setPriority(child.pid, 19);
      started();
      const stopWhenEnough = () => {
        if (enough()) child.kill('SIGKILL');
        else timer = setTimeout(stopWhenEnough, 100);
      };
      timer = setTimeout(stopWhenEnough, ms);
    }
    out += b.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', () => {
      clearTimeout(timer);
      const last = out
        .trim()
        .split('\n')
        .findLast((l) => l.startsWith('{'));
      if (!timer || !last) reject(new Error(`the flood client ended before its time: ${out}`));
      else resolve(JSON.parse(last) as Record<number, number>);
    });
  });
}

/** Floods `rig` for `ms` with `concurrency` workers; returns what happened meanwhile. */
export async function runFlood(rig: FloodRig, opts: { concurrency: number; ms: number; ownerLogins?: number; gets?: number }): Promise<FloodResult> {
  const url = `${rig.d.url}/rest/api/v1/authentication`;
  const gets: number[] = [];
  const adminLogins: { status: number; ms: number }[] = [];
  let failedGets = 0;
  let maxHashing = 0;
  let flooding = true;
  let began!: () => void;
  const started = new Promise<void>((r) => (began = r));
  // the flood lasts `ms` at least, and until the owner's sign-ins and the console's GETs a test asks for were made during it
  const enough = () => adminLogins.length >= (opts.ownerLogins ?? 0) && gets.length >= (opts.gets ?? 0);
  const client = floodClient(url, opts.concurrency, opts.ms, () => began(), enough);
  client.catch(() => began());
  await started;
  const before = rig.logged();
  const t0 = performance.now();
  const pause = (ms: number) => new Promise((res) => setTimeout(res, ms));

  const probe = async () => {
    const paths = ['/config/pew', '/config/get_scripts', '/config/pew_log'];
    for (let i = 0; flooding; i++) {
      const s = performance.now();
      const r = await rig.admin.get(paths[i % paths.length]!);
      gets.push(performance.now() - s);
      if (r.status !== 200) failedGets++;
      await pause(200);
    }
  };
  // every sign-in the owner starts while the flood runs counts, also one that ends after it: it
  // competed with the flood (on a busy machine a hash alone can take a second or more)
  const owner = async () => {
    await pause(1000); // the flood is under way
    while (flooding) {
      const s = performance.now();
      const r = await new Client(rig.d.url, ADMIN_FROM).post('/rest/api/v1/authentication', ADMIN);
      adminLogins.push({ status: r.status, ms: performance.now() - s });
      await pause(500);
    }
  };
  const watch = setInterval(() => (maxHashing = Math.max(maxHashing, hashLoad().active)), 5);
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  let logins: Record<number, number>;
  try {
    const loops = [probe(), owner()];
    try {
      logins = await client;
    } finally {
      flooding = false;
      await Promise.all(loops);
    }
  } finally {
    clearInterval(watch);
    loop.disable();
  }
  const seconds = (performance.now() - t0) / 1000;
  const after = rig.logged();
  return {
    seconds,
    logins,
    gets,
    failedGets,
    records: after.records - before.records,
    missed: after.missed - before.missed,
    maxHashing,
    adminLogins,
    loopDelayMaxMs: loop.max / 1e6,
  };
}

/** the p-th percentile (0-100) of `xs` */
export function percentile(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}
