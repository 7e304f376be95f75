// The data logger and the PLC end to end (spec §3 pew_log enable_plc_ctrl, enable_mem_ctrl,
// plc_rtc_dt; §4 "the write status can signal stop, error or low memory"; security.md LOG-1): the
// PLC starts and stops logging through DT plc_ctrl_wr, the logger reports stopped, error (the USB
// stick pulled while storage = USB) and ok in the PLC's status registers, nothing already recorded
// is lost, records can carry the PLC's clock, and GET /config/log_status shows the same.
// A daemon on a virtual FP-XH behind a socat pseudo-terminal, its clock a FakeClock.
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Log } from '../../device/model/sections/log.ts';
import type { LogFile } from '../../device/model/sections/logfile.ts';
import type { Rtc } from '../../device/model/sections/rtc.ts';
import { encodeFpClock, fpClockOf } from '../../device/protocol/fp-clock.ts';
import { FakeClock } from '../support/daemon.ts';
import {
  crlf,
  csvFiles,
  FAST_POLL_MS,
  fastSettleMs,
  fileIs,
  local,
  logFile,
  type PlcLine,
  pause,
  type Rig,
  record,
  saveLog,
  startLine,
  startRig,
  text,
  until,
} from './logger-rig.ts';

const clock = new FakeClock(local(2027, 2, 1, 10, 0, 0));
let line: PlcLine;
let rig: Rig;

beforeAll(async () => {
  line = await startLine([1]);
  rig = await startRig(line, { clock, pollMs: FAST_POLL_MS }); // a wake four times a second: each step waits for one
});
afterAll(async () => {
  await rig?.stop();
  await line?.close();
});

const H = 'Date,Time,n';
const points = [record({ id: 1, name: 'n', area: 1, reg_addr: '500', type: 1 })];
const dt = (address: number) => rig.plc.memory.readWords('DT', address, 1)[0];
const setDt = (address: number, value: number) => rig.plc.memory.writeWords('DT', address, [value]);
/** DT380–383: mem_write_stop, mem_write_error, mem_write_status, mem_notify (log.ts defaults) */
const registers = () => rig.plc.memory.readWords('DT', 380, 4);
const STOPPED = [1, 0, 1, 0];
const ERROR = [0, 1, 2, 0];
const OK = [0, 0, 0, 0];
const registersAre = (want: number[], what: string) => until(() => registers().join() === want.join(), 15_000, what);
const save = (file: Partial<LogFile>, log: Partial<Log> = {}) =>
  saveLog(rig, { header: 1, ...log, log_def: [logFile({ id: 1, records: points, trigger: 1, cycle: 10, ...file })] });
const status = async () => (await (await rig.admin()).get('/config/log_status')).body;
const n = (date: string, time: string, v: number) => `${date},${time},${v}`;

describe('the PLC starts and stops logging (enable_plc_ctrl) and reads the write state (enable_mem_ctrl)', () => {
  it('DT plc_ctrl_wr 0 stops, non-zero starts; the status registers follow; cached records are written at the stop', async () => {
    setDt(384, 0);
    setDt(500, 1);
    rig.plc.memory.writeWords('DT', 380, [9, 9, 9, 9]); // whatever the PLC held before
    await save({ name: 'ctl', delay_store: 2 }, { enable_plc_ctrl: true, enable_mem_ctrl: true });
    await registersAre(STOPPED, 'stopped registers');
    expect(await status()).toMatchObject({ enabled: true, running: false, write: { state: 'stopped', reasons: [{ code: 'stopped_by_plc' }] } });
    await pause(fastSettleMs);
    expect(await csvFiles(rig)).toEqual([]);

    setDt(384, 1); // the PLC asks for logging at 10:00:00
    await registersAre(OK, 'ok registers');
    expect(await status()).toMatchObject({ running: true, write: { state: 'ok' } });
    await until(async () => (await status()).files[0]?.records === 1, 15_000, 'record 1');
    clock.advance(10_000);
    setDt(500, 2);
    await fileIs(rig, 'ctl_20270201.csv', crlf([H, n('2027/02/01', '10:00:00', 1), n('2027/02/01', '10:00:10', 2)]));
    clock.advance(10_000); // 10:00:20 is cached (delay_store 2) …
    await until(async () => (await status()).files[0]?.records === 3, 15_000, 'record 3');
    setDt(384, 0); // … and written when the PLC stops logging
    await registersAre(STOPPED, 'stopped again');
    const before = [H, n('2027/02/01', '10:00:00', 1), n('2027/02/01', '10:00:10', 2), n('2027/02/01', '10:00:20', 2)];
    await fileIs(rig, 'ctl_20270201.csv', crlf(before));
    clock.advance(20_000); // 10:00:30 and :40 pass while stopped
    await pause(fastSettleMs);
    expect(await text(rig, 'ctl_20270201.csv')).toBe(crlf(before));

    setDt(500, 3);
    setDt(384, 1); // 10:00:40 again
    await registersAre(OK, 'ok again');
    clock.advance(10_000);
    await fileIs(rig, 'ctl_20270201.csv', crlf([...before, n('2027/02/01', '10:00:40', 3), n('2027/02/01', '10:00:50', 3)]));
    expect(dt(384)).toBe(1); // the logger never writes the PLC's own register
  });

  it('the USB stick pulled while logging: error in the registers and the status, the records kept and written once it is back', async () => {
    clock.t = local(2027, 2, 2, 9, 0, 0);
    setDt(500, 10);
    const usb = join(rig.dataDir, 'volumes', 'usb');
    await save({ name: 'stick' }, { storage: 1, enable_mem_ctrl: true });
    await fileIs(rig, 'stick_20270202.csv', crlf([H, n('2027/02/02', '09:00:00', 10)]), 'usb');
    await registersAre(OK, 'ok');

    // pulled: the mount point is no folder any more
    await rename(usb, `${usb}.away`);
    await writeFile(usb, '');
    clock.advance(10_000);
    setDt(500, 11);
    await registersAre(ERROR, 'error registers');
    const st = await status();
    expect(st).toMatchObject({
      running: true,
      write: { state: 'error', reasons: [{ code: 'usb_removed' }] },
      files: [{ name: 'stick', write: { state: 'error' } }],
    });
    clock.advance(10_000); // 09:00:10 and 09:00:20 wait in memory
    await until(async () => (await status()).files[0]?.records === 3, 15_000, 'record 3');
    await pause(fastSettleMs);
    expect(registers()).toEqual(ERROR);

    // plugged in again: the queued records land in order, after those written before
    await rm(usb);
    await rename(`${usb}.away`, usb);
    await registersAre(OK, 'ok after the stick is back');
    const all = [H, n('2027/02/02', '09:00:00', 10), n('2027/02/02', '09:00:10', 11), n('2027/02/02', '09:00:20', 11)];
    await fileIs(rig, 'stick_20270202.csv', crlf(all), 'usb');
    expect(await status()).toMatchObject({ write: { state: 'ok' } });
    clock.advance(10_000);
    await fileIs(rig, 'stick_20270202.csv', crlf([...all, n('2027/02/02', '09:00:30', 11)]), 'usb');
    expect(await csvFiles(rig, 'internal')).not.toContain('stick_20270202.csv');
  });

  it('no USB stick when logging starts: error until one is plugged in, then the first file with its header', async () => {
    clock.t = local(2027, 2, 2, 15, 0, 0);
    const usb = join(rig.dataDir, 'volumes', 'usb');
    await rename(usb, `${usb}.away`);
    await writeFile(usb, '');
    setDt(500, 20);
    await save({ name: 'late' }, { storage: 1, enable_mem_ctrl: true });
    await registersAre(ERROR, 'error registers');
    expect(await status()).toMatchObject({ write: { state: 'error', reasons: [{ code: 'usb_removed' }] } });
    await rm(usb);
    await rename(`${usb}.away`, usb);
    await registersAre(OK, 'ok once the stick is there');
    await fileIs(rig, 'late_20270202.csv', crlf([H, n('2027/02/02', '15:00:00', 20)]), 'usb');
    expect(await status()).toMatchObject({ write: { state: 'ok' }, files: [{ name: 'late', write: { state: 'ok', file: 'late_20270202.csv' } }] });
  });
});

describe('plc_rtc_dt', () => {
  it('records carry the PLC clock read from rtc_address_dt; an unreadable clock falls back to the unit time', async () => {
    clock.t = local(2027, 2, 3, 10, 0, 0);
    const a = await rig.admin();
    const rtc = (await a.get('/config/pew_rtc')).body as Rtc;
    expect((await a.post('/config/pew_rtc', { ...rtc, rtc_address_dt: 60054 })).status).toBe(200); // the FP-XH's DT ends at 65532
    rig.plc.memory.writeWords('DT', 60054, encodeFpClock(fpClockOf(local(2027, 3, 15, 8, 30, 45))));
    setDt(500, 5);
    await save({ name: 'rtc' }, { plc_rtc_dt: true });
    await fileIs(rig, 'rtc_20270315.csv', crlf([H, n('2027/03/15', '08:30:45', 5)]));
    rig.plc.memory.writeWords('DT', 60054, encodeFpClock(fpClockOf(local(2027, 3, 16, 0, 0, 5)))); // the PLC's next day
    clock.advance(10_000);
    await fileIs(rig, 'rtc_20270316.csv', crlf([H, n('2027/03/16', '00:00:05', 5)]));
    rig.plc.memory.writeWords('DT', 60054, [0xffff, 0xffff, 0xffff, 0]); // no BCD calendar
    clock.advance(10_000);
    await fileIs(rig, 'rtc_20270203.csv', crlf([H, n('2027/02/03', '10:00:20', 5)]));
  });
});

describe('GET /config/log_status', () => {
  it('answers a user with the logger state and the log files; nobody without a session', async () => {
    const user = await rig.d.user();
    const r = await user.get('/config/log_status');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      enabled: true,
      running: true,
      write: { state: 'ok' },
      files: [
        {
          name: 'rtc',
          records: 3,
          missed: 0,
          failedReads: 0,
          readsPerRecord: 1,
          lastTrigger: local(2027, 2, 3, 10, 0, 20) / 1000,
          write: { state: 'ok', file: 'rtc_20270203.csv' },
        },
      ],
    });
    expect((await rig.d.client().get('/config/log_status')).status).toBe(401);
    await saveLog(rig, { enable_log: false });
    expect((await user.get('/config/log_status')).body).toEqual({
      enabled: false,
      running: false,
      write: { state: 'ok', reasons: [] },
      files: [],
      notices: { deleted: [], deletedCount: 0, dropped: {}, droppedCount: 0 },
    });
  });
});
