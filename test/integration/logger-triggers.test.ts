// The data logger's time triggers end to end (spec §3 trigger types fixed cycle 1, specified time 2;
// repeat_count, delay_store; last_trig kept across restarts; condition and PLC flag are in
// logger-conditions.test.ts): a daemon on a virtual FP-XH behind a socat pseudo-terminal, its clock a FakeClock the
// test moves. Each record carries the slot's time, so the CSV shows exactly when a trigger fired;
// "only then" is checked by waiting until every timer of the logger looked at the clock again.
import { describe, expect, it } from 'vitest';
import type { LogFile } from '../../device/model/sections/logfile.ts';
import { FakeClock } from '../support/daemon.ts';
import { crlf, csvFiles, fileIs, local, ONE_POINT, onePointRig, type PlcLine, pause, type Rig, saveLog, startRig, text, until } from './logger-rig.ts';

const clock = new FakeClock(local(2026, 5, 4, 10, 0, 30));
let line: PlcLine;
let rig: Rig;

onePointRig(clock, (l, r) => {
  line = l;
  rig = r;
});

const { header: HEADER, row } = ONE_POINT;
const save = (file: Partial<LogFile>) => ONE_POINT.save(rig, file);
const stats = () => rig.d.ctx.logger.status().files[0]!;

describe('fixed cycle (1)', () => {
  it('records on the cycle grid only, and a late wake records the latest slot once and counts the missed', async () => {
    await save({ name: 'fixed', trigger: 1, cycle: 60 });
    await pause();
    expect(await csvFiles(rig)).toEqual([]); // 10:00:30 is between slots
    clock.t = local(2026, 5, 4, 10, 0, 59);
    await pause();
    expect(await csvFiles(rig)).toEqual([]);
    clock.t = local(2026, 5, 4, 10, 1, 0);
    await fileIs(rig, 'fixed_20260504.csv', crlf([HEADER, row('2026/05/04', '10:01:00')]));
    clock.t = local(2026, 5, 4, 10, 3, 30); // 10:02 and 10:03 passed: 10:03 is written, 10:02 missed
    await fileIs(rig, 'fixed_20260504.csv', crlf([HEADER, row('2026/05/04', '10:01:00'), row('2026/05/04', '10:03:00')]));
    expect(stats()).toMatchObject({ records: 2, missed: 1 });
  });
});

describe('specified time (2)', () => {
  it('first record at time_start, then every cycle, repeat_count records a day', async () => {
    // the previous test's file stops before the clock moves: else, on a loaded machine, it could wake
    // at the new time before the save below replaced it and begin a file of that day
    await saveLog(rig, { enable_log: false });
    clock.t = local(2026, 5, 5, 7, 59, 0);
    await save({ name: 'daily', trigger: 2, time_start: 8 * 3600 + 30, cycle: 60, repeat_count: 2 });
    await pause();
    expect(await csvFiles(rig)).toEqual(['fixed_20260504.csv']);
    clock.t = local(2026, 5, 5, 8, 0, 30);
    await fileIs(rig, 'daily_20260505.csv', crlf([HEADER, row('2026/05/05', '08:00:30')]));
    clock.t = local(2026, 5, 5, 8, 1, 30);
    await fileIs(rig, 'daily_20260505.csv', crlf([HEADER, row('2026/05/05', '08:00:30'), row('2026/05/05', '08:01:30')]));
    clock.t = local(2026, 5, 5, 8, 2, 30); // a third would pass repeat_count
    await pause();
    clock.t = local(2026, 5, 5, 20, 0, 0);
    await pause();
    expect(await text(rig, 'daily_20260505.csv')).toBe(crlf([HEADER, row('2026/05/05', '08:00:30'), row('2026/05/05', '08:01:30')]));
    clock.t = local(2026, 5, 6, 8, 0, 30); // the next day starts again
    await fileIs(rig, 'daily_20260506.csv', crlf([HEADER, row('2026/05/06', '08:00:30')]));
    expect(stats()).toMatchObject({ records: 3, missed: 0 });
  });
});

describe('delay_store', () => {
  it('nothing is in the file until delay_store records are cached, then all of them at once', async () => {
    clock.t = local(2026, 5, 9, 6, 0, 0);
    await save({ name: 'batch', trigger: 1, cycle: 10, delay_store: 3 });
    await until(() => stats().records === 1, 15_000, 'record 1');
    clock.advance(10_000);
    await until(() => stats().records === 2, 15_000, 'record 2');
    expect(await csvFiles(rig)).not.toContain('batch_20260509.csv');
    clock.advance(10_000);
    await fileIs(rig, 'batch_20260509.csv', crlf([HEADER, row('2026/05/09', '06:00:00'), row('2026/05/09', '06:00:10'), row('2026/05/09', '06:00:20')]));
    clock.advance(10_000);
    await until(() => stats().records === 4, 15_000, 'record 4');
    expect((await text(rig, 'batch_20260509.csv')).split('\r\n').length - 1).toBe(4);
  });
});

describe('last_trig across a restart', () => {
  it('a restart neither records the last slot again nor back-fills; the slots missed while down are counted', async () => {
    clock.t = local(2026, 5, 10, 7, 0, 0);
    await save({ name: 'keep', trigger: 1, cycle: 10 });
    await fileIs(rig, 'keep_20260510.csv', crlf([HEADER, row('2026/05/10', '07:00:00')]));
    clock.advance(10_000);
    const two = [HEADER, row('2026/05/10', '07:00:00'), row('2026/05/10', '07:00:10')];
    await fileIs(rig, 'keep_20260510.csv', crlf(two));
    // stopped and started again at the same moment: 07:00:10 is not recorded twice
    await rig.d.stop();
    rig = await startRig(line, { clock, dataDir: rig.dataDir, configure: false });
    expect(rig.d.ctx.logger.status().files).toMatchObject([{ name: 'keep', lastTrigger: clock.now() / 1000, missed: 0 }]);
    await pause();
    expect(await text(rig, 'keep_20260510.csv')).toBe(crlf(two));
    clock.advance(10_000);
    const three = [...two, row('2026/05/10', '07:00:20')];
    await fileIs(rig, 'keep_20260510.csv', crlf(three));
    // down for 35 s: 07:00:30, :40 and :50 are missed, 07:01:00 is the next record
    await rig.d.stop();
    clock.advance(35_000);
    rig = await startRig(line, { clock, dataDir: rig.dataDir, configure: false });
    expect(stats()).toMatchObject({ missed: 3, records: 0 });
    await pause();
    expect(await text(rig, 'keep_20260510.csv')).toBe(crlf(three));
    clock.advance(5_000);
    await fileIs(rig, 'keep_20260510.csv', crlf([...three, row('2026/05/10', '07:01:00')]));
  });
});
