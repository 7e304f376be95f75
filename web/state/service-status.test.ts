import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SERVICE_RUN_STATES, type ServicesStatus } from '../../device/model/service-status.ts';
import { RUN_STATE_TONE, SERVICE_STATUS_TICK_MS, serviceStatusOf, servicesStatus, servicesStatusFailed, watchServicesStatus } from './service-status.ts';

const answer = (published: number): ServicesStatus => ({
  services: [
    {
      service: 'mqtt',
      enabled: true,
      state: 'connected',
      since: 1,
      counters: { published },
      queue: { waiting: 0, dropped: 0, bound: 10 },
    },
  ],
});

describe('the one status answer in the console', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks once per update tick (spec §9: 1500 ms) however many blocks watch, and stops with the last one', async () => {
    expect(SERVICE_STATUS_TICK_MS).toBe(1500);
    let n = 0;
    const load = vi.fn(async () => answer(++n));
    const stopPage = watchServicesStatus(SERVICE_STATUS_TICK_MS, load);
    const stopInfo = watchServicesStatus(SERVICE_STATUS_TICK_MS, load);
    await vi.advanceTimersByTimeAsync(0);
    expect(serviceStatusOf('mqtt')?.counters.published).toBe(1);
    expect(serviceStatusOf('httpc')).toBeNull();
    await vi.advanceTimersByTimeAsync(3000);
    expect(load).toHaveBeenCalledTimes(3);
    stopPage();
    stopPage(); // a second stop of the same block changes nothing
    await vi.advanceTimersByTimeAsync(1500);
    expect(load).toHaveBeenCalledTimes(4);
    stopInfo();
    await vi.advanceTimersByTimeAsync(6000);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('marks a failed call quietly and recovers', async () => {
    const answers: (ServicesStatus | Error)[] = [answer(1), new Error('down'), answer(2)];
    const stop = watchServicesStatus(SERVICE_STATUS_TICK_MS, async () => {
      const a = answers.shift();
      if (!a || a instanceof Error) throw a ?? new Error('no more');
      return a;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(servicesStatusFailed.value).toBe(false);
    await vi.advanceTimersByTimeAsync(1500);
    expect(servicesStatus.value).toBeNull();
    expect(servicesStatusFailed.value).toBe(true);
    await vi.advanceTimersByTimeAsync(1500);
    expect(servicesStatusFailed.value).toBe(false);
    expect(serviceStatusOf('mqtt')?.counters.published).toBe(2);
    stop();
  });

  it('has a badge tone for every run state', () => {
    expect(Object.keys(RUN_STATE_TONE).sort()).toEqual([...SERVICE_RUN_STATES].sort());
  });
});
