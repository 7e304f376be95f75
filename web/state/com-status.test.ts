import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ComStatus } from '../api/com.ts';
import { COM_STATUS_TICK_MS, comStatus, comStatusFailed, EARLY_WAIT_MS, earlyComStatus, poll, watchComStatus } from './com-status.ts';

const link = (state: 'up' | 'down'): ComStatus => ({
  links: [
    {
      id: 0,
      name: 'COM1',
      enabled: true,
      protocol: 'MEWTOCOL',
      transport: 'serial',
      state,
      stats: {
        requests: 1,
        errors: 0,
        timeouts: 0,
        retries: 0,
        lateAnswers: 0,
        mismatched: 0,
        checkErrors: 0,
        invalidFrames: 0,
        plcErrors: 0,
        reconnects: 0,
        bytesOut: 10,
        bytesIn: 12,
        busyShare: 0.1,
      },
    },
  ],
});

/** A load whose answers the test releases one by one. */
function pending<T>() {
  const waiting: { resolve(v: T): void; reject(e: unknown): void }[] = [];
  const load = vi.fn(
    () =>
      new Promise<T>((resolve, reject) => {
        waiting.push({ resolve, reject });
      }),
  );
  return { load, waiting };
}

describe('status polling', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks at once and then every tick (spec §9: 1500 ms)', async () => {
    expect(COM_STATUS_TICK_MS).toBe(1500);
    const load = vi.fn(async () => 1);
    const results: unknown[] = [];
    const p = poll(load, (r) => results.push(r), COM_STATUS_TICK_MS);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1499);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3000);
    expect(load).toHaveBeenCalledTimes(4);
    expect(results).toHaveLength(4);
    p.stop();
  });

  it('never has two requests out: a tick during a slow answer is skipped', async () => {
    const { load, waiting } = pending<number>();
    const results: unknown[] = [];
    const p = poll(load, (r) => results.push(r), 1500);
    await vi.advanceTimersByTimeAsync(4500);
    expect(load).toHaveBeenCalledTimes(1);
    waiting[0]!.resolve(7);
    await vi.advanceTimersByTimeAsync(0);
    expect(results).toEqual([{ ok: true, value: 7 }]);
    await vi.advanceTimersByTimeAsync(1500);
    expect(load).toHaveBeenCalledTimes(2);
    p.stop();
  });

  it('after stop nothing is asked and a late answer is dropped', async () => {
    const { load, waiting } = pending<number>();
    const results: unknown[] = [];
    const p = poll(load, (r) => results.push(r), 1500);
    p.stop();
    waiting[0]!.resolve(1);
    await vi.advanceTimersByTimeAsync(6000);
    expect(load).toHaveBeenCalledTimes(1);
    expect(results).toEqual([]);
  });

  it('a failed call marks the status unavailable; the next good answer clears it', async () => {
    const answers: (ComStatus | Error)[] = [link('up'), new Error('gone'), link('down')];
    const stop = watchComStatus(1500, async () => {
      const a = answers.shift()!;
      if (a instanceof Error) throw a;
      return a;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(comStatus.value?.links[0]?.state).toBe('up');
    expect(comStatusFailed.value).toBe(false);
    await vi.advanceTimersByTimeAsync(1500);
    expect(comStatus.value).toBeNull();
    expect(comStatusFailed.value).toBe(true);
    await vi.advanceTimersByTimeAsync(1500);
    expect(comStatus.value?.links[0]?.state).toBe('down');
    expect(comStatusFailed.value).toBe(false);
    stop();
  });

  it('an early answer shows before the page renders; a watch begun within a tick takes it as its first and asks one tick later', async () => {
    const early = vi.fn(async () => link('up'));
    await earlyComStatus(early);
    expect(comStatus.value?.links[0]?.state).toBe('up');
    await vi.advanceTimersByTimeAsync(1000);
    const load = vi.fn(async () => link('down'));
    const stop = watchComStatus(COM_STATUS_TICK_MS, load);
    // not cleared for the page's first render, and not asked again at once
    expect(comStatus.value?.links[0]?.state).toBe('up');
    expect(load).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(COM_STATUS_TICK_MS);
    expect(load).toHaveBeenCalledTimes(1);
    expect(comStatus.value?.links[0]?.state).toBe('down');
    stop();
    // taken once: a later watch starts from nothing and asks at once
    const again = vi.fn(async () => link('up'));
    const stop2 = watchComStatus(COM_STATUS_TICK_MS, again);
    expect(comStatus.value).toBeNull();
    expect(again).toHaveBeenCalledTimes(1);
    stop2();
    expect(early).toHaveBeenCalledTimes(1);
  });

  it('an early answer older than a tick is not taken: the watch starts from nothing and asks at once', async () => {
    await earlyComStatus(async () => link('up'));
    await vi.advanceTimersByTimeAsync(COM_STATUS_TICK_MS);
    const load = vi.fn(async () => link('down'));
    const stop = watchComStatus(COM_STATUS_TICK_MS, load);
    expect(comStatus.value).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
    stop();
  });

  it('a page waits for its early call one tick at most; a failed early call marks the status unavailable', async () => {
    const { load, waiting } = pending<ComStatus>();
    let done = false;
    void earlyComStatus(load).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(EARLY_WAIT_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    waiting[0]!.resolve(link('up'));
    await vi.advanceTimersByTimeAsync(0);
    expect(comStatus.value?.links[0]?.state).toBe('up');

    await earlyComStatus(async () => {
      throw new Error('gone');
    });
    expect(comStatus.value).toBeNull();
    expect(comStatusFailed.value).toBe(true);
  });
});
