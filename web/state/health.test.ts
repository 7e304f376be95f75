import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type HealthAnswer, healthAnswerSchema } from '../../device/model/health.ts';
import { HEALTH_TICK_MS, health, healthFailed, watchHealth } from './health.ts';

const answer = (intervalMs: number, n: number): HealthAnswer => ({
  intervalMs,
  samples: Array.from({ length: n }, (_, i) => ({
    t: i * intervalMs,
    links: { COM1: { busy: 0.2, requests: 4, errors: 0, timeouts: 0 } },
    volumes: { internal: { free: 1, total: 2 } },
    logRecords: 1,
    cpu: 0.1,
    rss: 5e7,
    heap: 2e7,
  })),
});

describe('health updates', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks at once and then every 10 s, the sample interval; a failed call keeps the last answer; stop ends it', async () => {
    expect(HEALTH_TICK_MS).toBe(10_000);
    const answers: (HealthAnswer | Error)[] = [answer(10_000, 1), new Error('down'), answer(10_000, 2)];
    const load = vi.fn(async () => {
      const a = answers.shift();
      if (!a || a instanceof Error) throw a ?? new Error('no more');
      return a;
    });
    const stop = watchHealth(HEALTH_TICK_MS, load);
    await vi.advanceTimersByTimeAsync(0);
    expect(health.value?.samples).toHaveLength(1);
    expect(healthFailed.value).toBeNull();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
    expect(healthFailed.value).toBeInstanceOf(Error);
    expect(health.value?.samples).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(health.value?.samples).toHaveLength(2);
    expect(healthFailed.value).toBeNull();
    stop();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('follows the interval the answer names, one request at a time', async () => {
    let out = 0;
    let most = 0;
    const load = vi.fn(async () => {
      most = Math.max(most, ++out);
      await new Promise((r) => setTimeout(r, 100));
      out--;
      return answer(500, 3);
    });
    const stop = watchHealth(HEALTH_TICK_MS, load);
    await vi.advanceTimersByTimeAsync(100);
    // the first answer names 500 ms: asked again at once, then every 500 ms
    await vi.advanceTimersByTimeAsync(2_000);
    expect(load.mock.calls.length).toBeGreaterThanOrEqual(5);
    expect(load.mock.calls.length).toBeLessThanOrEqual(6);
    expect(most).toBe(1);
    stop();
    const calls = load.mock.calls.length;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(load).toHaveBeenCalledTimes(calls);
  });

  it("the schema takes the daemon's answer and refuses one that does not fit", () => {
    expect(v.is(healthAnswerSchema, answer(10_000, 2))).toBe(true);
    const bad = answer(10_000, 1);
    bad.samples[0]!.links.COM1!.busy = 1.5;
    expect(v.is(healthAnswerSchema, bad)).toBe(false);
    expect(v.is(healthAnswerSchema, { intervalMs: 10_000 })).toBe(false);
  });
});
