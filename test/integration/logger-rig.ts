// The data logger's test rig (used by test/integration/logger-*.test.ts): a daemon whose COM2
// (RS485) is a socat pseudo-terminal opened through `serialport` (serialMap), with one or more
// virtual FP-XH PLCs on that line, each at its own station (a multi-drop bus: every PLC hears every
// frame and answers its own station only). The daemon's clock is a FakeClock the tests set, so the
// CSV dates, times and file names are known exactly; the logger's timers follow that clock within
// its poll interval (device/logger/file-runner.ts), 1 s in the daemon.
//
// Time zone: the CSV text and the file names are local time; the rig pins Europe/Berlin.
process.env.TZ = 'Europe/Berlin';

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, expect } from 'vitest';
import { POLL_MS } from '../../device/logger/engine.ts';
import { LOG_FOLDER } from '../../device/logger/types.ts';
import type { Log } from '../../device/model/sections/log.ts';
import { logSchema } from '../../device/model/sections/log.ts';
import { type LogFile, type LogRecord, logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import type { Pew } from '../../device/model/sections/pew.ts';
import type { ByteChannel, VolumeId } from '../../hw/types.ts';
import { type PtyAttachable, type PtyPlc, startPtyPlc } from '../../sim/plc/pty.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import type { SerialFraming } from '../../sim/wire.ts';
import { type Client, type FakeClock, startTestDaemon, type TestDaemon } from '../support/daemon.ts';

export const COM2 = 3; // interface id of COM2 (RS485)
export const FRAMING: SerialFraming = { baud: 115200, bits: 8, parity: 'odd', stopbits: 1 };

/** Local wall time in the pinned zone, ms since the epoch; month 1–12. */
export const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number => new Date(y, mo - 1, d, h, mi, s).getTime();

/** Several PLCs on one serial line, as on an RS485 bus. */
class Bus implements PtyAttachable {
  constructor(private readonly drops: SerialPlcAttachment[]) {}
  get framing(): SerialFraming {
    return this.drops[0]!.framing;
  }
  connect(hostFraming: () => SerialFraming): ByteChannel {
    const ends = this.drops.map((d) => d.connect(hostFraming));
    return {
      write: (bytes) => ends.forEach((e) => e.write(bytes)),
      onData: (h) => ends.forEach((e) => e.onData(h)),
      onClose: (h) => ends[0]!.onClose(h),
      close: async () => {
        await Promise.all(ends.map((e) => e.close()));
      },
      get isOpen() {
        return ends[0]!.isOpen;
      },
    };
  }
}

export interface PlcLine {
  /** the PLCs by station; station 1 is the service control interface's own PLC */
  plcs: Map<number, VirtualPlc>;
  pty: PtyPlc;
  dir: string;
  close(): Promise<void>;
}

export async function startLine(stations: number[] = [1]): Promise<PlcLine> {
  const plcs = new Map(stations.map((s) => [s, new VirtualPlc({ model: 'FP-XH', station: s, scanMs: 1 })]));
  const bus = new Bus([...plcs.values()].map((p) => new SerialPlcAttachment(p, { protocol: 'MEWTOCOL', framing: FRAMING })));
  const dir = await mkdtemp(join(tmpdir(), 'logger-pty-'));
  const pty = await startPtyPlc(bus, { dir, name: 'COM2' });
  return {
    plcs,
    pty,
    dir,
    close: async () => {
      await pty.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Rig {
  d: TestDaemon;
  clock: FakeClock;
  line: PlcLine;
  /** the PLC at station 1 */
  plc: VirtualPlc;
  dataDir: string;
  /** a client signed in now (sessions follow the fake clock, so sign in after moving it) */
  admin(): Promise<Client>;
  stop(): Promise<void>;
}

/**
 * Wires COM2 to the virtual PLC on its line (MEWTOCOL at FRAMING) and makes it the unit's service
 * control interface (station 1); waits until the link is up. No test that uses it is about the
 * link's timeout: 2 s, long enough that the in-process virtual PLC's answers, late on a busy
 * machine, never fail a read (a failed read is an empty value, a control block not read).
 */
export async function wireCom2(d: TestDaemon, admin: Client): Promise<void> {
  const pew = (await admin.get('/config/pew')).body as Pew;
  Object.assign(pew.interfaces.find((i) => i.id === COM2)!, {
    enabled: true,
    mode: 5,
    protocol: 'MEWTOCOL',
    baudrate: FRAMING.baud,
    bits: FRAMING.bits,
    parity: FRAMING.parity,
    stopbits: FRAMING.stopbits,
    timeout: 2000,
    autobaud: false,
  });
  Object.assign(pew, { interface_plc: COM2, address_plc: 1 });
  const r = await admin.post('/config/pew', pew);
  expect(r.status, r.text).toBe(200);
  await d.ctx.com.settled();
  await until(() => d.ctx.com.links.get(COM2)?.status().state === 'up', 15_000, 'COM2 up');
}

/** A daemon on `line` with COM2 enabled (MEWTOCOL, 115200 8O1, station 1 as the service control interface). */
export async function startRig(line: PlcLine, opts: { clock: FakeClock; dataDir?: string; configure?: boolean; pollMs?: number }): Promise<Rig> {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'logger-data-')));
  const d = await startTestDaemon({
    dataDir,
    clock: opts.clock,
    serial: { serialMap: { COM2: line.pty.hostPath } },
    ...(opts.pollMs ? { loggerPollMs: opts.pollMs } : {}),
  });
  const admin = () => d.admin();
  if (opts.configure !== false) await wireCom2(d, await admin());
  else {
    await d.ctx.com.settled();
    await until(() => d.ctx.com.links.get(COM2)?.status().state === 'up', 10_000, 'COM2 up');
  }
  return {
    d,
    clock: opts.clock,
    line,
    plc: line.plcs.get(1)!,
    dataDir,
    admin,
    stop: async () => {
      await d.stop();
    },
  };
}

export const record = (over: Partial<LogRecord>): LogRecord => ({ ...(v.getDefaults(recordSchema) as LogRecord), if: COM2, ...over });
export const logFile = (over: Partial<LogFile>): LogFile => ({ ...(v.getDefaults(logFileSchema) as LogFile), interface: COM2, delay_store: 1, ...over });
export const logDefaults = (): Log => v.getDefaults(logSchema) as Log;

/** Saves pew_log (enabled, with these log files and settings) through the API and waits until the logger applied it. */
export async function saveLog(rig: Rig, over: Partial<Log>): Promise<void> {
  const a = await rig.admin();
  const r = await a.post('/config/pew_log', { ...logDefaults(), enable_log: true, ...over });
  expect(r.status, r.text).toBe(200);
  await rig.d.ctx.logger.settled();
}

/**
 * The one-point setup of the trigger tests: the PLC of station 1 holds DT500 = 7, logged as `v` by
 * log file 1 (header mode 1), so each record is `<date>,<time>,7` and shows when the trigger fired.
 */
export const ONE_POINT = {
  header: 'Date,Time,v',
  row: (date: string, time: string): string => `${date},${time},7`,
  /** puts the value into the PLC of a started line */
  seed: (line: PlcLine): void => line.plcs.get(1)!.memory.writeWords('DT', 500, [7]),
  /** saves pew_log with log file 1 logging the point, with these trigger settings */
  save: (rig: Rig, file: Partial<LogFile>): Promise<void> =>
    saveLog(rig, { header: 1, log_def: [logFile({ id: 1, records: [record({ id: 1, name: 'v', area: 1, reg_addr: '500', type: 1 })], ...file })] }),
};

/**
 * A test file's PLC line with one station and a daemon on `clock` whose PLC holds ONE_POINT's
 * value: started before the file's tests (handed over through `use`), stopped after them.
 */
export function onePointRig(clock: FakeClock, use: (line: PlcLine, rig: Rig) => void, opts: { pollMs?: number } = {}): void {
  let line: PlcLine | undefined;
  let rig: Rig | undefined;
  beforeAll(async () => {
    line = await startLine([1]);
    rig = await startRig(line, { clock, ...opts });
    ONE_POINT.seed(line);
    use(line, rig);
  }, 30_000);
  afterAll(async () => {
    await rig?.stop();
    await line?.close();
  });
}

export const logDir = (rig: Rig, volume: VolumeId = 'internal'): string => join(rig.dataDir, 'volumes', volume, LOG_FOLDER);

/** The CSV files of the log folder, sorted. */
export async function csvFiles(rig: Rig, volume: VolumeId = 'internal'): Promise<string[]> {
  return (await readdir(logDir(rig, volume)).catch(() => [] as string[])).filter((f) => f.endsWith('.csv')).sort();
}

/** A CSV file's text, '' when it does not exist. */
export async function text(rig: Rig, file: string, volume: VolumeId = 'internal'): Promise<string> {
  return readFile(join(logDir(rig, volume), file), 'utf8').catch(() => '');
}

export const crlf = (lines: string[]): string => lines.map((l) => `${l}\r\n`).join('');

/** Waits until `cond` holds (real time). */
export async function until(cond: () => Promise<boolean> | boolean, ms = 15_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what} not reached within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the file holds exactly `expected` (and fails with the difference otherwise). */
export async function fileIs(rig: Rig, file: string, expected: string, volume: VolumeId = 'internal'): Promise<void> {
  await until(async () => (await text(rig, file, volume)) === expected, 15_000, `${file} complete`).catch(() => undefined);
  expect(await text(rig, file, volume)).toBe(expected);
}

/** Long enough for every timer of the logger to have woken up and looked at the clock at least once more. */
export const settleMs = POLL_MS * 2 + 500;
/**
 * A rig whose logger wakes four times a second (`startRig(…, { pollMs: FAST_POLL_MS })`; the unit: POLL_MS,
 * 1 s), for files whose steps each wait for a wake: the rig's clock is a FakeClock the tests move, the
 * logger does per wake what it does on the unit, and the tests do not wait a real second per step.
 * Not for the average points (they sample once per wake) nor for tests that move the clock before a
 * save replaces a running file (a faster wake lets the old file record at the new time first).
 */
export const FAST_POLL_MS = POLL_MS / 4;
/** settleMs of a rig with FAST_POLL_MS */
export const fastSettleMs = FAST_POLL_MS * 2 + 500;
export const pause = (ms: number = settleMs): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits until the PLC at `station` answered `n` more requests than now (the logger polled it). */
export async function requestsAfter(line: PlcLine, n: number, station = 1): Promise<void> {
  const plc = line.plcs.get(station)!;
  const from = plc.requests;
  await until(() => plc.requests >= from + n, 15_000, `${n} requests to station ${station}`);
}
