// The data logger in the daemon against a virtual PLC on an in-process serial wire: a log file with
// data points of several types, its CSV appearing on the internal volume with the PLC's values (on
// the real clock); then, on a second daemon with a FakeClock, log files side by side and a save of
// the settings while records are cached. The values, triggers, files and PLC control are proven
// over a pseudo-terminal in the other logger-*.test.ts files.
process.env.TZ = 'Europe/Berlin';

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Log } from '../../device/model/sections/log.ts';
import { logSchema } from '../../device/model/sections/log.ts';
import { type LogRecord, logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import type { Pew } from '../../device/model/sections/pew.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { type Client, FakeClock, startTestDaemon, type TestDaemon } from '../support/daemon.ts';

const FRAMING = { baud: 115200, bits: 8 as const, parity: 'odd' as const, stopbits: 1 as const };
const plc = new VirtualPlc({ model: 'FP-XH', scanMs: 1 });
const wire = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: FRAMING });
let d: TestDaemon;
let admin: Client;

const rec = (over: Partial<LogRecord>): LogRecord => ({ ...(v.getDefaults(recordSchema) as LogRecord), if: 0, ...over });
const logDir = () => join(d.dataDir, 'volumes', 'internal', 'log');
// links below have a 2 s timeout: long enough that the in-process virtual PLC's answers, late on a
// busy machine, never fail a read (no test here is about the link's timeout)
const until = async (cond: () => Promise<boolean>, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 100));
  }
};
const lines = async (name: string) => (await readFile(join(logDir(), name), 'utf8')).split('\r\n').filter(Boolean);
const csvFiles = async () => (await readdir(logDir()).catch(() => [] as string[])).filter((f) => f.endsWith('.csv'));

beforeAll(async () => {
  d = await startTestDaemon({ serial: { virtualPorts: { COM1: (s) => wire.open(s) } } });
  admin = await d.admin();
  const pew = (await admin.get('/config/pew')).body as Pew;
  Object.assign(pew.interfaces[0]!, { enabled: true, baudrate: 115200, protocol: 'MEWTOCOL', timeout: 2000 });
  pew.interface_plc = 0;
  expect((await admin.post('/config/pew', pew)).status).toBe(200);
  await d.ctx.com.settled();
});
afterAll(async () => {
  await d?.stop();
});

describe('the logger writes what the PLC holds', () => {
  it('a fixed 1 s cycle writes whole records with the decoded values', async () => {
    plc.memory.writeWords('DT', 100, [0xfff6]); // INT -10
    plc.memory.writeWords('DT', 102, [0x0000, 0x4049]); // REAL 3.140625
    plc.memory.writeWords('DT', 200, [7]);
    plc.memory.writeWords('WR', 10, [1 << 10]); // R10A on
    const log = (await admin.get('/config/pew_log')).body as Log;
    Object.assign(log, { enable_log: true, header: 1 });
    log.log_def = [
      {
        ...(v.getDefaults(logFileSchema) as Log['log_def'][number]),
        id: 1,
        name: 'tank',
        interface: 0,
        trigger: 1,
        cycle: 1,
        delay_store: 1,
        records: [
          rec({ id: 1, name: 'level', reg_addr: '100', area: 1, type: 0 }),
          rec({ id: 2, name: 'temp', reg_addr: '102', area: 1, type: 7, decimal: 2 }),
          rec({ id: 3, name: 'count', reg_addr: '200', area: 1, type: 1, format: 'difference' }),
          rec({ id: 4, name: 'pump', reg_addr: '10A', area: 6, type: 0 }),
        ],
      },
    ];
    const r = await admin.post('/config/pew_log', log);
    expect(r.status, r.text).toBe(200);
    await d.ctx.logger.settled();
    await until(async () => (await csvFiles()).length > 0 && (await lines((await csvFiles())[0]!)).length >= 3);
    plc.memory.writeWords('DT', 200, [12]);
    const file = (await csvFiles())[0]!;
    expect(file).toMatch(/^tank_\d{8}\.csv$/);
    const n = (await lines(file)).length;
    await until(async () => (await lines(file)).length >= n + 2);
    const all = await lines(file);
    expect(all[0]).toBe('Date,Time,level,temp,count,pump');
    const rows = all.slice(1).map((l) => l.split(','));
    for (const row of rows) {
      expect(row[0]).toMatch(/^\d{4}\/\d{2}\/\d{2}$/);
      expect(row[1]).toMatch(/^\d{2}:\d{2}:\d{2}$/);
      expect(row.slice(2, 4)).toEqual(['-10', '3.14']);
      expect(row[5]).toBe('1');
    }
    expect(rows[0]![4]).toBe(''); // a difference needs a previous read
    const diffs = rows.slice(1).map((r) => r[4]);
    expect(diffs).toContain('5');
    expect(diffs.every((x) => x === '0' || x === '5')).toBe(true);
    expect(d.ctx.logger.status()).toMatchObject({ enabled: true, running: true, write: { state: 'ok' } });
  });
});

describe('the engine on a fake clock', () => {
  const plc2 = new VirtualPlc({ model: 'FP-XH', scanMs: 1 });
  const wire2 = new SerialPlcAttachment(plc2, { protocol: 'MEWTOCOL', framing: FRAMING });
  const clock = new FakeClock(new Date(2026, 6, 1, 12, 0, 0).getTime());
  let d2: TestDaemon;
  const dir2 = () => join(d2.dataDir, 'volumes', 'internal', 'log');
  const read = (name: string) => readFile(join(dir2(), name), 'utf8').catch(() => '');
  const names = async () => (await readdir(dir2()).catch(() => [] as string[])).filter((f) => f.endsWith('.csv')).sort();
  const crlf = (l: string[]) => l.map((x) => `${x}\r\n`).join('');
  const point = rec({ id: 1, name: 'v', reg_addr: '300', area: 1, type: 0 });
  const file = (over: Partial<Log['log_def'][number]>): Log['log_def'][number] => ({
    ...(v.getDefaults(logFileSchema) as Log['log_def'][number]),
    interface: 0,
    trigger: 1,
    records: [point],
    ...over,
  });
  const saveLog = async (over: Partial<Log>) => {
    const a = await d2.admin();
    const r = await a.post('/config/pew_log', { ...(v.getDefaults(logSchema) as Log), enable_log: true, ...over });
    expect(r.status, r.text).toBe(200);
    await d2.ctx.logger.settled();
  };
  const records = (name: string) => d2.ctx.logger.status().files.find((f) => f.name === name)?.records ?? -1;

  beforeAll(async () => {
    d2 = await startTestDaemon({ clock, serial: { virtualPorts: { COM1: (s) => wire2.open(s) } } });
    const a = await d2.admin();
    const pew = (await a.get('/config/pew')).body as Pew;
    Object.assign(pew.interfaces[0]!, { enabled: true, baudrate: 115200, protocol: 'MEWTOCOL', timeout: 2000 });
    pew.interface_plc = 0;
    expect((await a.post('/config/pew', pew)).status).toBe(200);
    await d2.ctx.com.settled();
    plc2.memory.writeWords('DT', 300, [5]);
  });
  afterAll(async () => {
    await d2?.stop();
  });

  it('two log files on one interface keep their own files, cycles and headers', async () => {
    await saveLog({ header: 1, log_def: [file({ id: 1, name: 'fast', cycle: 10, delay_store: 1 }), file({ id: 2, name: 'slow', cycle: 20, delay_store: 1 })] });
    for (let i = 0; i < 4; i++) {
      await until(async () => records('fast') === i + 1);
      clock.advance(10_000);
    }
    await until(async () => records('fast') === 5 && records('slow') === 3);
    await until(async () => (await read('fast_20260701.csv')).split('\r\n').length === 7 && (await read('slow_20260701.csv')).split('\r\n').length === 5);
    const at = (t: string) => `2026/07/01,${t},5`;
    expect(await read('fast_20260701.csv')).toBe(crlf(['Date,Time,v', at('12:00:00'), at('12:00:10'), at('12:00:20'), at('12:00:30'), at('12:00:40')]));
    expect(await read('slow_20260701.csv')).toBe(crlf(['Date,Time,v', at('12:00:00'), at('12:00:20'), at('12:00:40')]));
    expect(d2.ctx.logger.status().files.map((f) => f.readsPerRecord)).toEqual([1, 1]);
  });

  it('a save while records are cached writes them first; the new settings go on without a duplicate', async () => {
    clock.t = new Date(2026, 6, 2, 8, 0, 0).getTime();
    await saveLog({ header: 1, log_def: [file({ id: 1, name: 'cached', cycle: 10, delay_store: 5 })] });
    for (let i = 0; i < 3; i++) {
      await until(async () => records('cached') === i + 1);
      if (i < 2) clock.advance(10_000);
    }
    expect(await names()).not.toContain('cached_20260702.csv'); // 3 of 5 cached
    const at = (t: string) => `2026/07/02,${t},5`;
    const cached = ['Date,Time,v', at('08:00:00'), at('08:00:10'), at('08:00:20')];
    // the unit is renamed in the settings: the run ends, the cache goes to the file
    await saveLog({ header: 2, log_def: [file({ id: 1, name: 'cached', cycle: 10, delay_store: 1, records: [{ ...point, dim: 'bar' }] })] });
    expect(await read('cached_20260702.csv')).toBe(crlf(cached));
    clock.advance(10_000);
    // 08:00:20 is not written again; the header of an existing file stays as it was
    await until(async () => (await read('cached_20260702.csv')).includes('08:00:30'));
    expect(await read('cached_20260702.csv')).toBe(crlf([...cached, at('08:00:30')]));
  });
});
