// The PLC clock sync end to end (spec §3 pew_rtc, §9): a daemon with a fake clock and a virtual
// FP-XH at station 1 on COM2 (the service control interface, logger-rig.ts; the zone is pinned to
// Europe/Berlin). The clock registers are read back from the PLC's memory and decoded; the
// request/acknowledge words of the control block are set and checked in that memory.

import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RtcStatus, rtcStatusSchema } from '../../device/model/rtc-status.ts';
import { type Rtc, rtcSchema } from '../../device/model/sections/rtc.ts';
import { decodeFpClock, FP_CLOCK_WORDS } from '../../device/protocol/fp-clock.ts';
import { FakeClock } from '../support/daemon.ts';
import { statusDetail } from '../support/service-status.ts';
import { type PlcLine, pause, type Rig, startLine, startRig, until } from './logger-rig.ts';

const CLOCK_DT = 1000; // the FP-XH's DT area ends at 65532: the calendar block goes where it fits
const CONTROL = 300;
// 13:04:05 UTC, a Saturday: 14:04:05 in Berlin (CET, UTC+1)
const T0 = Date.UTC(2026, 10, 21, 13, 4, 5);

let line: PlcLine;
let rig: Rig;
const clock = new FakeClock(T0);

const dt = (start: number, n: number) => rig.plc.memory.readWords('DT', start, n);
const clear = () => {
  rig.plc.memory.writeWords('DT', CLOCK_DT - 1, Array(FP_CLOCK_WORDS + 2).fill(0));
  rig.plc.memory.writeWords('DT', CONTROL, Array(5).fill(0));
};

async function saveRtc(over: Partial<Rtc>): Promise<void> {
  const r = await (await rig.admin()).post('/config/pew_rtc', {
    ...(v.getDefaults(rtcSchema) as Rtc),
    rtc_address_dt: CLOCK_DT,
    rtc_control_rtc_r: CONTROL,
    rtc_polling: 1,
    ...over,
  });
  expect(r.status, r.text).toBe(200);
  await rig.d.ctx.rtc.settled();
}

// a new run on a cleared block: the old run is stopped first, so a write it has due (the clock
// jumps) cannot land after the clear and be taken for the new run's
async function restartAt(at: number, over: Partial<Rtc>): Promise<void> {
  await saveRtc({ rtc_by_plc: false });
  clock.t = at;
  clear();
  await saveRtc(over);
}

async function status(): Promise<RtcStatus> {
  return v.parse(rtcStatusSchema, await statusDetail(await rig.d.user(), 'rtc'));
}

const written = () => decodeFpClock(dt(CLOCK_DT, FP_CLOCK_WORDS));

beforeAll(async () => {
  line = await startLine([1]);
  rig = await startRig(line, { clock });
});

afterAll(async () => {
  await rig?.stop();
  await line?.close();
});

describe('PLC clock sync', () => {
  it('by time: at start and after each interval, exactly the clock and report registers, local time', async () => {
    clock.t = T0;
    clear();
    await saveRtc({ rtc_by_plc: true, rtc_update_by_time: 10 });
    await until(() => dt(CLOCK_DT, 1)[0] !== 0, 10_000, 'clock written');
    // BCD: minute|second, day|hour, year|month, weekday (6 Saturday)
    expect(dt(CLOCK_DT, FP_CLOCK_WORDS)).toEqual([0x0405, 0x2114, 0x2611, 6]);
    expect(written()).toEqual({ year: 2026, month: 11, day: 21, hour: 14, minute: 4, second: 5, weekday: 6 });
    await until(() => dt(CONTROL + 1, 1)[0] === 1, 5_000, 'report written');
    // result ok, 1 sync, by time, UTC+60 min; the request word untouched; nothing around the block
    expect(dt(CONTROL, 5)).toEqual([0, 1, 1, 1, 60]);
    expect(dt(CLOCK_DT - 1, 1)[0]).toBe(0);
    expect(dt(CLOCK_DT + FP_CLOCK_WORDS, 1)[0]).toBe(0);
    expect((await status()).lastSync).toEqual({ at: T0, trigger: 'time', ok: true, written: '2026-11-21 14:04:05' });

    // 9 minutes later: not due yet
    rig.plc.memory.writeWords('DT', CLOCK_DT, [0, 0, 0, 0]);
    clock.advance(9 * 60_000);
    await pause(2500);
    expect(dt(CLOCK_DT, FP_CLOCK_WORDS)).toEqual([0, 0, 0, 0]);
    // the 10th minute: written again with the new time
    clock.advance(60_000);
    await until(() => dt(CLOCK_DT, 1)[0] !== 0, 10_000, 'second write');
    expect(written()).toMatchObject({ hour: 14, minute: 14, second: 5 });
    await until(() => dt(CONTROL + 2, 1)[0] === 2, 5_000, 'count 2');
  });

  it('as UTC: the same instant written as UTC wall time, offset word 0', async () => {
    await restartAt(T0, { rtc_by_plc: true, rtc_update_by_time: 10, rtc_sync_as_utc: true });
    await until(() => dt(CLOCK_DT, 1)[0] !== 0, 10_000, 'clock written');
    expect(written()).toEqual({ year: 2026, month: 11, day: 21, hour: 13, minute: 4, second: 5, weekday: 6 });
    await until(() => dt(CONTROL + 1, 1)[0] === 1, 5_000, 'report written');
    expect(dt(CONTROL + 3, 2)).toEqual([1, 0]);
    // across midnight UTC vs local: 23:30 UTC on Saturday is 00:30 on Sunday in Berlin
    await restartAt(Date.UTC(2026, 10, 21, 23, 30, 0), { rtc_by_plc: true, rtc_update_by_time: 10, rtc_sync_as_utc: false });
    await until(() => dt(CLOCK_DT, 1)[0] !== 0, 10_000, 'local written');
    expect(written()).toEqual({ year: 2026, month: 11, day: 22, hour: 0, minute: 30, second: 0, weekday: 0 });
  });

  it("on the PLC's request: the relay word set → clock written → request acknowledged with 0", async () => {
    clock.t = T0;
    await saveRtc({ rtc_by_plc: true, rtc_update_by_time: 0 }); // only on request
    clear();
    clock.advance(2000);
    await pause(2500);
    expect(dt(CLOCK_DT, FP_CLOCK_WORDS)).toEqual([0, 0, 0, 0]); // no request, no write
    rig.plc.memory.writeWords('DT', CONTROL, [1]);
    clock.advance(1000); // the next poll is due
    await until(() => dt(CONTROL, 1)[0] === 0, 10_000, 'request acknowledged');
    expect(written()).toEqual({ year: 2026, month: 11, day: 21, hour: 14, minute: 4, second: 8, weekday: 6 });
    expect(dt(CONTROL + 1, 1)[0]).toBe(1); // ok
    expect(dt(CONTROL + 3, 1)[0]).toBe(2); // by the PLC
    expect((await status()).lastSync).toMatchObject({ trigger: 'plc', ok: true, written: '2026-11-21 14:04:08' });
  });

  it('the rtc entry of service_status: unit time from the clock, zone, NTP of the unit, running', async () => {
    clock.t = T0;
    const s = await status();
    expect(s).toMatchObject({ unitTime: T0, timezone: 'Europe/Berlin', running: true });
    expect(s.ntp).toEqual((await rig.d.ctx.hw.systemInfo()).datetime.ntp);
    const u = await rig.d.user();
    expect((await u.post('/config/rtc_sync', {})).status).toBe(403);
    await saveRtc({ rtc_by_plc: false });
    expect((await status()).running).toBe(false);
    const off = await (await rig.admin()).post('/config/rtc_sync', {});
    expect(off.status).toBe(409);
    expect(off.body.error.code).toBe('interface_not_ready');
  });

  it('a sync from the console to a PLC that does not answer: lastSync failure no_answer', async () => {
    clock.t = T0;
    await saveRtc({ rtc_by_plc: true, rtc_update_by_time: 0 });
    clear();
    const ok = await (await rig.admin()).post('/config/rtc_sync', {});
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ trigger: 'request', ok: true, written: '2026-11-21 14:04:05' });
    expect(dt(CONTROL + 3, 1)[0]).toBe(3);
    rig.plc.setFault({ kind: 'silent' });
    try {
      const r = await (await rig.admin()).post('/config/rtc_sync', {});
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ trigger: 'request', ok: false, failure: { reason: 'no_answer' } });
      expect((await status()).lastSync).toMatchObject({ ok: false, failure: { reason: 'no_answer' } });
    } finally {
      rig.plc.setFault({ kind: 'none' });
    }
  });
});
