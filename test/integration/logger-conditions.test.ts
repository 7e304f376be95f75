// The data logger's flag triggers end to end (spec §3 trigger types condition 3 and PLC flag 4;
// cond_trig, cond_end, repeat_count, conditional store): R flags set in the WR words of a virtual
// FP-XH behind a socat pseudo-terminal, the daemon's clock a FakeClock the test moves. Each record
// carries its time, so the CSV shows exactly when a trigger fired. The logger polls the flags every
// second; the PLC's request counter tells when a poll has seen a new level ("a poll of n reads has
// completed after the change" = n + 1 more requests), and "only then" is checked after the logger
// looked at the flags and the clock again.
import { describe, expect, it } from 'vitest';
import type { LogFile } from '../../device/model/sections/logfile.ts';
import { FakeClock } from '../support/daemon.ts';
import {
  crlf,
  csvFiles,
  FAST_POLL_MS,
  fastSettleMs,
  fileIs,
  local,
  ONE_POINT,
  onePointRig,
  type PlcLine,
  pause,
  type Rig,
  requestsAfter,
  text,
  until,
} from './logger-rig.ts';

const clock = new FakeClock(local(2026, 5, 7, 9, 0, 0));
let line: PlcLine;
let rig: Rig;

// the logger wakes four times a second here: each step of these tests waits for a wake
onePointRig(
  clock,
  (l, r) => {
    line = l;
    rig = r;
  },
  { pollMs: FAST_POLL_MS },
);

const { header: HEADER, row } = ONE_POINT;
const save = (file: Partial<LogFile>) => ONE_POINT.save(rig, file);
/** R flag `word`/`bit` of the PLC on or off. */
const flag = (word: number, bit: number, on: boolean) => line.plcs.get(1)!.memory.writeBits('R', word * 16 + bit, [on]);
const stats = () => rig.d.ctx.logger.status().files[0]!;

describe('condition (3)', () => {
  it('a run starts at the rising cond_trig, records every cycle and ends at the rising cond_end', async () => {
    flag(20, 0, false);
    flag(20, 1, false);
    await save({ name: 'cond', trigger: 3, cond_trig: '200', cond_end: '201', cycle: 10 });
    clock.advance(25_000);
    await pause(fastSettleMs);
    expect(await csvFiles(rig)).toEqual([]); // no run without cond_trig
    flag(20, 0, true); // R200 rises at 09:00:25
    await fileIs(rig, 'cond_20260507.csv', crlf([HEADER, row('2026/05/07', '09:00:25')]));
    clock.advance(10_000);
    await fileIs(rig, 'cond_20260507.csv', crlf([HEADER, row('2026/05/07', '09:00:25'), row('2026/05/07', '09:00:35')]));
    flag(20, 1, true); // R201 ends the run
    await requestsAfter(line, 3);
    clock.advance(30_000);
    await pause(fastSettleMs);
    const run1 = [HEADER, row('2026/05/07', '09:00:25'), row('2026/05/07', '09:00:35')];
    expect(await text(rig, 'cond_20260507.csv')).toBe(crlf(run1));
    // a new rising edge with cond_end low starts the next run
    flag(20, 0, false);
    flag(20, 1, false);
    await requestsAfter(line, 3);
    flag(20, 0, true); // 09:01:05
    await fileIs(rig, 'cond_20260507.csv', crlf([...run1, row('2026/05/07', '09:01:05')]));
  });

  it('repeat_count ends a run after that many records; without cond_end a falling cond_trig ends it', async () => {
    clock.t = local(2026, 5, 7, 11, 0, 0);
    flag(21, 0, false);
    await save({ name: 'rep', trigger: 3, cond_trig: '210', cycle: 5, repeat_count: 2 });
    flag(21, 0, true);
    await fileIs(rig, 'rep_20260507.csv', crlf([HEADER, row('2026/05/07', '11:00:00')]));
    clock.advance(5_000);
    await fileIs(rig, 'rep_20260507.csv', crlf([HEADER, row('2026/05/07', '11:00:00'), row('2026/05/07', '11:00:05')]));
    clock.advance(5_000); // cond_trig still on, but the run had its 2 records
    await pause(fastSettleMs);
    const run1 = [HEADER, row('2026/05/07', '11:00:00'), row('2026/05/07', '11:00:05')];
    expect(await text(rig, 'rep_20260507.csv')).toBe(crlf(run1));
    flag(21, 0, false);
    await requestsAfter(line, 2);
    flag(21, 0, true); // 11:00:10: a new run
    await fileIs(rig, 'rep_20260507.csv', crlf([...run1, row('2026/05/07', '11:00:10')]));
    flag(21, 0, false); // falls before the next cycle: the run ends
    await requestsAfter(line, 2);
    clock.advance(5_000);
    await pause(fastSettleMs);
    expect(await text(rig, 'rep_20260507.csv')).toBe(crlf([...run1, row('2026/05/07', '11:00:10')]));
    expect(stats().records).toBe(3);
  });
});

describe('PLC flag (4)', () => {
  it('one record per rising edge; with conditional store the cache is written when cond_store rises', async () => {
    clock.t = local(2026, 5, 8, 12, 0, 0);
    flag(30, 0, false);
    flag(30, 1, false);
    await save({ name: 'flag', trigger: 4, cond_trig: '300', enable_cond_store: true, cond_store: '301', delay_store: 20 });
    await requestsAfter(line, 3); // the first poll: levels, not edges
    const edge = async () => {
      flag(30, 0, true);
      const n = stats().records;
      await until(() => stats().records === n + 1, 15_000, 'a record');
      clock.advance(1000);
      await requestsAfter(line, 5); // the flag stays on for two more polls: no second record
      expect(stats().records).toBe(n + 1);
      flag(30, 0, false);
      await requestsAfter(line, 3);
      clock.advance(1000);
    };
    await edge(); // 12:00:00
    await edge(); // 12:00:02
    expect(await csvFiles(rig)).not.toContain('flag_20260508.csv'); // cached: delay_store 20
    flag(30, 1, true); // R301: store now
    await fileIs(rig, 'flag_20260508.csv', crlf([HEADER, row('2026/05/08', '12:00:00'), row('2026/05/08', '12:00:02')]));
    // the file's state is reported once its write has ended, a moment after its bytes are there
    await until(() => stats().write?.state === 'ok', 15_000, 'the write reported');
    expect(stats()).toMatchObject({ records: 2, write: { state: 'ok' } });
  });
});
