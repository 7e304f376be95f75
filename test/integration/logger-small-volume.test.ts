// The data logger on a small volume (a 3 MiB tmpfs as the temp volume, its limit 1 MiB free):
// - delete_old_files deletes history only when that can reach the limit, only as many of the oldest
//   files as are needed, and every deletion shows in the status (until acknowledged), the daemon
//   log, the audit log with the names and the PLC's status registers;
// - records dropped from a full write queue show in the top-level status and the PLC's registers
//   until the technician acknowledged them (spec §4: the write status signals error).

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logStatusSchema } from '../../device/model/log-status.ts';
import { FakeClock } from '../support/daemon.ts';
import { mountSmallVolume, type SmallVolume } from '../support/tmpfs.ts';
import { local, logFile, ONE_POINT, type PlcLine, type Rig, record, saveLog, startLine, startRig, until } from './logger-rig.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const clock = new FakeClock(local(2026, 3, 2, 10, 0, 0));
let line: PlcLine;
let rig: Rig;
let vol: SmallVolume;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'logger-small-'));
  vol = await mountSmallVolume(join(dataDir, 'volumes', 'temp'), 3 * MiB);
  line = await startLine([1]);
  ONE_POINT.seed(line);
  rig = await startRig(line, { clock, dataDir });
});
afterAll(async () => {
  await rig?.stop();
  await line?.close();
  await vol?.unmount();
  await rm(dataDir, { recursive: true, force: true });
});

const logDir = () => join(vol.dir, 'log');
const names = async () => (await readdir(logDir())).sort();
/** GET /config/log_status, checked against the schema the console checks it with */
const status = async () => v.parse(logStatusSchema, (await (await rig.admin()).get('/config/log_status')).body);
/** DT380–383: mem_write_stop, mem_write_error, mem_write_status, mem_notify */
const registers = () => rig.plc.memory.readWords('DT', 380, 4).join();
const OK = '0,0,0,0';
const LOW_MEMORY = '0,0,3,1';
const ERROR = '0,1,2,0';
const STOPPED = '1,0,1,0';

async function oldFile(name: string, bytes: number, year: number): Promise<void> {
  await mkdir(logDir(), { recursive: true });
  await writeFile(join(logDir(), name), Buffer.alloc(bytes, 0x41));
  const t = new Date(year, 0, 1);
  await utimes(join(logDir(), name), t, t);
}

/** Moves the clock a second at a time until `cond` holds (each second a record is due). */
async function stepUntil(cond: () => Promise<boolean>, what: string, maxSteps = 60): Promise<void> {
  for (let i = 0; i < maxSteps; i++) {
    if (await cond()) return;
    clock.advance(1000);
    await until(
      async () => (await cond()) || ((await status()).files[0]?.lastTrigger ?? 0) * 1000 >= clock.now(),
      10_000,
      `a record at ${new Date(clock.now()).toISOString()}`,
    );
  }
  expect(await cond(), what).toBe(true);
}

const save = (over: Parameters<typeof saveLog>[1]) =>
  saveLog(rig, {
    storage: 2,
    header: 1,
    enable_mem_ctrl: true,
    ...over,
    log_def: [logFile({ id: 1, name: 'tank', trigger: 1, cycle: 1, records: [record({ id: 1, name: 'v', area: 1, reg_addr: '500', type: 1 })] })],
  });

describe('delete_old_files on a small volume', () => {
  it('deletes nothing when the old files cannot free enough: logging stops and says why', async () => {
    await oldFile('old_a.csv', 128 * KiB, 2020);
    await oldFile('old_b.csv', 128 * KiB, 2021);
    await vol.leaveFree(300 * KiB); // the space is taken by a file that is no log file
    await save({ delete_old_files: true });
    await stepUntil(async () => (await status()).files[0]?.write?.state === 'stopped', 'stopped for space');
    const s = await status();
    expect(s.files[0]?.write?.reasons).toMatchObject([
      { code: 'low_memory_stopped', args: { needed: 1048576 } },
      { code: 'low_memory_too_few', args: { bytes: 262144 } },
    ]);
    expect(s.write.state).toBe('stopped');
    expect(s.notices).toMatchObject({ deleted: [], deletedCount: 0 });
    expect(await names()).toEqual(['old_a.csv', 'old_b.csv']);
    await until(() => registers() === STOPPED, 10_000, 'stopped registers');
    expect(rig.d.ctx.log.recent().filter((e) => e.msg === 'log files deleted for space')).toEqual([]);
  });

  it('deletes only as many of the oldest files as are needed and reports each by name until acknowledged', async () => {
    await oldFile('old_c.csv', 128 * KiB, 2022);
    await vol.leaveFree(MiB - 200 * KiB); // 200 KiB short: old_a and old_b (128 KiB each) are enough
    await stepUntil(async () => (await status()).notices.deletedCount > 0, 'files deleted');
    await stepUntil(async () => (await status()).files[0]?.write?.state === 'ok', 'writing again');
    const files = await names();
    expect(files.filter((f) => f.startsWith('old_'))).toEqual(['old_c.csv']);
    expect(files.filter((f) => f.startsWith('tank_'))).toEqual(['tank_20260302.csv']);

    // the file's own status is ok again; the top level keeps the deletions, with their names
    const s = await status();
    expect(s.notices.deleted.map((d: { name: string; volume: string }) => [d.name, d.volume])).toEqual([
      ['old_a.csv', 'temp'],
      ['old_b.csv', 'temp'],
    ]);
    expect(s.notices.deletedCount).toBe(2);
    expect(s.write).toMatchObject({ state: 'low_memory', reasons: [{ code: 'low_memory_deleted', args: { count: 2, names: 'old_a.csv, old_b.csv' } }] });
    await until(() => registers() === LOW_MEMORY, 10_000, 'low memory registers');

    const logged = rig.d.ctx.log.recent().filter((e) => e.msg === 'log files deleted for space');
    expect(logged.map((e) => e.fields)).toEqual([{ volume: 'temp', files: ['old_a.csv', 'old_b.csv'] }]);
    const audit = (await rig.d.ctx.audit.readAll())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((e) => e.action === 'logfile_delete');
    expect(audit).toMatchObject([
      { action: 'logfile_delete', user: 'logger', detail: { storage: 2, volume: 'temp', names: ['old_a.csv', 'old_b.csv'], reason: 'low_memory' } },
    ]);

    // more good batches do not clear it; the technician's acknowledgement does
    await stepUntil(async () => ((await status()).files[0]?.records ?? 0) >= (s.files[0]?.records ?? 0) + 2, 'two more records');
    expect((await status()).write.state).toBe('low_memory');

    // a restart keeps them (<data>/logger/notices.json), and the PLC's registers are written again
    await rig.stop();
    rig.plc.memory.writeWords('DT', 380, [0, 0, 0, 0]);
    rig = await startRig(line, { clock, dataDir, configure: false });
    expect((await status()).notices).toMatchObject({ deletedCount: 2, deleted: [{ name: 'old_a.csv' }, { name: 'old_b.csv' }] });
    expect((await status()).write).toMatchObject({
      state: 'low_memory',
      reasons: [{ code: 'low_memory_deleted', args: { count: 2, names: 'old_a.csv, old_b.csv' } }],
    });
    await until(() => registers() === LOW_MEMORY, 10_000, 'low memory registers after the restart');

    const a = await rig.admin();
    const ack = await a.post('/config/log_status/ack', {});
    expect(ack.status, ack.text).toBe(200);
    expect(ack.body).toMatchObject({ write: { state: 'ok', reasons: [] }, notices: { deleted: [], deletedCount: 0, droppedCount: 0 } });
    await until(() => registers() === OK, 10_000, 'ok registers');
    expect(
      (await rig.d.ctx.audit.readAll())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .filter((e) => e.action === 'log_notices_ack'),
    ).toMatchObject([{ user: 'admin', detail: { deleted: 2, dropped: 0 } }]);
    expect((await (await rig.d.user()).post('/config/log_status/ack', {})).status).toBe(403);
  }, 120_000);
});

describe('records dropped from a full write queue', () => {
  it('show in the top-level status and the PLC registers until acknowledged, also after writing works again', async () => {
    await save({ delete_old_files: false });
    await vol.leaveFree(500 * KiB); // under the limit: logging stops, the records wait in the queue (20 batches)
    await stepUntil(async () => (await status()).notices.droppedCount >= 3, 'records dropped', 90);
    const dropped = (await status()).notices.droppedCount;
    expect((await status()).notices.dropped).toEqual({ tank: dropped });
    await vol.leaveFree(2 * MiB); // space is back
    await stepUntil(async () => (await status()).files[0]?.write?.state === 'ok', 'writing again');
    await stepUntil(async () => (await status()).files[0]?.write?.reasons.length === 0, 'a plain good batch');

    const s = await status();
    expect(s.write.state).toBe('error');
    expect(s.write.reasons).toEqual([{ code: 'records_dropped', args: { count: s.notices.droppedCount } }]);
    expect(s.notices.droppedCount).toBeGreaterThanOrEqual(dropped);
    await until(() => registers() === ERROR, 10_000, 'error registers');
    expect(
      rig.d.ctx.log
        .recent()
        .filter((e) => e.msg === 'log records dropped')
        .reduce((n, e) => n + (e.fields as { records: number }).records, 0),
    ).toBe(s.notices.droppedCount);

    const ack = await (await rig.admin()).post('/config/log_status/ack', {});
    expect(ack.status, ack.text).toBe(200);
    expect(ack.body.write).toMatchObject({ state: 'ok', reasons: [] });
    await until(() => registers() === OK, 10_000, 'ok registers');
    expect(existsSync(join(logDir(), 'tank_20260302.csv'))).toBe(true);
  }, 180_000);
});
