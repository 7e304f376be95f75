// Logger figures of `npm run bench`, measured in one run:
//   - the read planner: requests per cycle for 700 points spread over areas and interfaces, against
//     the theoretical minimum for the frame limits (goal: equal);
//   - full load: 16 log files, 700 points, 1 s cycle, a virtual PLC at 115200 baud: the wire time
//     a cycle takes against the wire limit of its frames, missed cycles (goal 0), the process's CPU
//     share (daemon and virtual PLC share the process);
//   - CSV append throughput with the documented sync policy (a batch of delay_store records, one
//     write and one fdatasync) against the same bytes written and synced by a bare loop.
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { CsvStore } from '../../device/logger/csv-store.ts';
import { minimumReads, planReads, readLimit } from '../../device/logger/planner.ts';
import { logPoints } from '../../device/logger/points.ts';
import type { Log } from '../../device/model/sections/log.ts';
import { type LogFile, type LogRecord, logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import type { Pew } from '../../device/model/sections/pew.ts';
import { mewCommandFrames, mewReplyFrames } from '../../device/protocol/index.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { wireMs } from '../../sim/wire.ts';
import { startTestDaemon } from '../support/daemon.ts';
import { median, type Row } from './stats.ts';

const FILES = 16;
const POINTS = 700;
const SCAN_MS = 1;
const LOAD_SECONDS = 20;

/** A deterministic spread: points in DT, LD, FL and WR over 3 interfaces, in clusters with gaps. */
function spreadLog(): Pick<Log, 'log_def'> {
  let seed = 42;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const areas = [1, 1, 1, 3, 2, 6] as const; // DT weighted
  const files: LogFile[] = [];
  for (let f = 0; f < FILES; f++) {
    const records: LogRecord[] = [];
    const count = Math.floor(POINTS / FILES) + (f < POINTS % FILES ? 1 : 0);
    for (let j = 0; j < count; j++) {
      const area = areas[rnd(areas.length)]!;
      const base = rnd(40) * 50 + rnd(30);
      const type = rnd(4) === 0 ? 4 : 0;
      records.push({
        ...(v.getDefaults(recordSchema) as LogRecord),
        id: j + 1,
        name: `p${f}_${j}`,
        if: ([0, 3, 5] as const)[rnd(3)]!,
        area,
        reg_addr: area === 6 ? `${base}${rnd(16).toString(16).toUpperCase()}` : String(base),
        type,
      });
    }
    files.push({ ...(v.getDefaults(logFileSchema) as LogFile), id: f + 1, name: `file${f}`, records });
  }
  return { log_def: files };
}

function measurePlanner(rows: Row[]): void {
  const { points } = logPoints(spreadLog());
  const protocols: Record<number, 'MEWTOCOL' | 'MODBUS' | 'MEWTOCOL7'> = { 0: 'MEWTOCOL', 3: 'MODBUS', 5: 'MEWTOCOL7' };
  const limitOf = (id: number, area: Parameters<typeof readLimit>[1]) => readLimit(protocols[id] ?? 'MEWTOCOL', area);
  const t0 = performance.now();
  const plan = planReads(points, limitOf);
  const ms = performance.now() - t0;
  rows.push({
    figure: 'planner: requests per cycle, 700 points',
    ours: plan.length,
    baseline: minimumReads(points, limitOf),
    note: `baseline: the theoretical minimum; MEWTOCOL, Modbus and MEWTOCOL7 interfaces, DT/LD/FL/R; planned in ${ms.toFixed(0)} ms`,
  });
}

async function measureFullLoad(rows: Row[]): Promise<void> {
  const framing = { baud: 115200, bits: 8 as const, parity: 'odd' as const, stopbits: 1 as const };
  const plc = new VirtualPlc({ model: 'FP-XH', scanMs: SCAN_MS });
  const wire = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing });
  const d = await startTestDaemon({ serial: { virtualPorts: { COM1: (s) => wire.open(s) } } });
  try {
    const admin = await d.admin();
    const pew = (await admin.get('/config/pew')).body as Pew;
    Object.assign(pew.interfaces[0]!, { enabled: true, baudrate: 115200, protocol: 'MEWTOCOL', timeout: 1000 });
    await admin.post('/config/pew', pew);
    await d.ctx.com.settled();
    // 700 INT points in DT, 16 files of consecutive words with a gap between files
    const log = (await admin.get('/config/pew_log')).body as Log;
    Object.assign(log, { enable_log: true, header: 1 });
    let next = 0;
    log.log_def = Array.from({ length: FILES }, (_, f) => {
      const count = Math.floor(POINTS / FILES) + (f < POINTS % FILES ? 1 : 0);
      const records = Array.from(
        { length: count },
        (_, j): LogRecord => ({ ...(v.getDefaults(recordSchema) as LogRecord), id: j + 1, name: `v${j}`, if: 0, area: 1, reg_addr: String(next + j) }),
      );
      next += count + 10;
      const file: LogFile = {
        ...(v.getDefaults(logFileSchema) as LogFile),
        id: f + 1,
        name: `load${f}`,
        interface: 0,
        trigger: 1,
        cycle: 1,
        delay_store: 10,
        records,
      };
      return file;
    });
    const saved = await admin.post('/config/pew_log', log);
    if (saved.status !== 200) throw new Error(`saving the load settings failed: ${saved.text}`);
    await d.ctx.logger.settled();
    const link = d.ctx.com.links.get(0)!;
    await new Promise((r) => setTimeout(r, 1500)); // first cycle done
    const before = {
      ...link.status().stats,
      records: d.ctx.logger.status().files.reduce((a, f) => a + f.records, 0),
      missed: d.ctx.logger.status().files.reduce((a, f) => a + f.missed, 0),
    };
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, LOAD_SECONDS * 1000));
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const st = d.ctx.logger.status();
    const after = link.status().stats;
    const records = st.files.reduce((a, f) => a + f.records, 0) - before.records;
    const missed = st.files.reduce((a, f) => a + f.missed, 0) - before.missed;
    const reads = st.files.reduce((a, f) => a + f.readsPerRecord, 0);
    // the wire limit of the reads the planner makes: each request and answer frame at the line's
    // speed plus the PLC's scan, for the block sizes of the plan (not a full frame each)
    const plan = planReads(logPoints(log).points, () => readLimit('MEWTOCOL', 'DT'));
    const limit = plan.reduce((ms, r) => {
      const req = { cmd: 'RD' as const, area: 'DT' as const, start: r.start, count: r.count };
      const bytes = mewCommandFrames('EE', req)[0]!.length + mewReplyFrames('%', 'EE', req, { kind: 'words', words: Array(r.count).fill(0) })[0]!.length;
      return ms + wireMs(bytes, framing) + SCAN_MS;
    }, 0);
    const cycles = records / FILES;
    const busyPerCycle = (after.busyMs - before.busyMs) / Math.max(1, cycles);
    rows.push({
      figure: 'logger full load: wire time per 1 s cycle (ms)',
      ours: busyPerCycle,
      baseline: limit,
      note: `16 files, 700 points, ${reads} reads per cycle (planned: ${plan.length}) at 115200 baud; baseline: the plan's frame bits ÷ baud + ${SCAN_MS} ms scan per read`,
    });
    rows.push({
      figure: 'logger full load: missed cycles',
      ours: missed,
      note: `${records} records in ${seconds.toFixed(0)} s (${(records / seconds).toFixed(1)}/s, expected ${FILES}/s); goal 0`,
    });
    rows.push({
      figure: 'logger full load: CPU share (%)',
      ours: ((cpu.user + cpu.system) / 1000 / (seconds * 1000)) * 100,
      note: 'daemon and virtual PLC in one process, share of one core',
    });
  } finally {
    await d.stop();
  }
}

async function measureAppend(rows: Row[]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-csv-'));
  try {
    const line = `2026/11/21,12:00:00,${Array.from({ length: 20 }, (_, i) => (i * 1.25).toFixed(2)).join(',')}`;
    const batch = Array(10).fill(line) as string[];
    await mkdir(join(dir, 'log'), { recursive: true });
    const store = new CsvStore({ volumes: async () => [{ id: 'internal', path: dir, mounted: true, totalBytes: 1e12, freeBytes: 1e12 }] });
    const appender = store.appender('internal');
    const fh = await open(join(dir, 'bare.csv'), 'a');
    const bytes = Buffer.from(batch.map((l) => `${l}\r\n`).join(''));
    // alternating rounds, so both see the same machine load
    const round = async (step: () => Promise<unknown>) => {
      let n = 0;
      const t0 = performance.now();
      while (performance.now() - t0 < 500) {
        await step();
        n += batch.length;
      }
      return n / ((performance.now() - t0) / 1000);
    };
    const ours: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < 6; i++) {
      ours.push(await round(() => appender.append('bench_20261121.csv', ['Date,Time'], batch)));
      bare.push(
        await round(async () => {
          await fh.write(bytes);
          await fh.datasync();
        }),
      );
    }
    await fh.close();
    await store.close();
    const oursRate = median(ours);
    const bareRate = median(bare);
    await writeFile(join(dir, 'done'), '');
    rows.push({
      figure: 'CSV append (records/s)',
      ours: oursRate,
      baseline: bareRate,
      note: 'batches of 10 records of 20 values, one write + fdatasync each; baseline: a bare write + fdatasync loop; median of 6 alternating rounds',
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function measureLogger(rows: Row[]): Promise<void> {
  measurePlanner(rows);
  await measureAppend(rows);
  await measureFullLoad(rows);
}
