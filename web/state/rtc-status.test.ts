import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RtcStatus } from '../../device/model/rtc-status.ts';
import type { ServicesStatus } from '../../device/model/service-status.ts';
import { RTC_STATUS_TICK_MS, rtcStatus, rtcStatusFailed, unitTimeNow, watchRtcStatus } from './rtc-status.ts';

/** the one status answer with only the rtc entry carrying `detail` (web/state/service-status.ts) */
const answerOf = (detail: unknown): ServicesStatus => ({
  services: [{ service: 'rtc', enabled: true, state: 'idle', since: 0, counters: {}, queue: { waiting: 0, dropped: 0, bound: 0 }, rtc: detail as never }],
});

const UNIT = Date.UTC(2026, 2, 1, 10, 0, 0);
const status = (unitTime: number): RtcStatus => ({
  unitTime,
  timezone: 'Europe/Berlin',
  ntp: { enabled: true, synchronized: true, servers: ['pool.ntp.org'] },
  running: true,
});

describe('clock status updates', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2030, 0, 1) });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks every update tick (spec §9: 1500 ms), keeps when each answer came, marks a failed call quietly; stop ends it', async () => {
    expect(RTC_STATUS_TICK_MS).toBe(1500);
    let fail = false;
    const load = vi.fn(async () => {
      if (fail) throw new Error('down');
      return status(UNIT);
    });
    const stop = watchRtcStatus(RTC_STATUS_TICK_MS, async () => answerOf(await load()));
    await vi.advanceTimersByTimeAsync(0);
    expect(rtcStatus.value?.status.timezone).toBe('Europe/Berlin');
    expect(rtcStatus.value?.receivedAt).toBe(Date.UTC(2030, 0, 1));
    expect(rtcStatusFailed.value).toBe(false);

    fail = true;
    await vi.advanceTimersByTimeAsync(1500);
    expect(rtcStatus.value).toBeNull();
    expect(rtcStatusFailed.value).toBe(true);

    fail = false;
    await vi.advanceTimersByTimeAsync(1500);
    expect(rtcStatus.value?.receivedAt).toBe(Date.UTC(2030, 0, 1) + 3000);
    expect(rtcStatusFailed.value).toBe(false);

    stop();
    await vi.advanceTimersByTimeAsync(6000);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('lets the unit time run on from the last answer, never back before it', () => {
    const seen = { status: status(UNIT), receivedAt: 5_000 };
    expect(unitTimeNow(seen, 5_000)).toBe(UNIT);
    expect(unitTimeNow(seen, 6_250)).toBe(UNIT + 1_250);
    expect(unitTimeNow(seen, 4_000)).toBe(UNIT);
  });
});
