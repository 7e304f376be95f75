import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PortStatus } from '../api/port.ts';
import { PORT_STATUS_TICK_MS, portStatus, portStatusFailed, watchPortStatus } from './port-status.ts';

const status = (requests: number): PortStatus => ({
  threads: [{ index: 0, port: 9094, listening: true, clients: 1, requests, refused: 0, errors: 0, bytesIn: 0, bytesOut: 0, faults: 0 }],
});

describe('port status updates', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks every update tick (spec §9: 1500 ms), marks a failed call quietly and recovers; stop ends it', async () => {
    expect(PORT_STATUS_TICK_MS).toBe(1500);
    let n = 0;
    let fail = false;
    const load = vi.fn(async () => {
      if (fail) throw new Error('down');
      return status(++n);
    });
    const stop = watchPortStatus(PORT_STATUS_TICK_MS, load);
    await vi.advanceTimersByTimeAsync(0);
    expect(portStatus.value?.threads[0]?.requests).toBe(1);
    expect(portStatusFailed.value).toBe(false);

    fail = true;
    await vi.advanceTimersByTimeAsync(1500);
    expect(portStatus.value).toBeNull();
    expect(portStatusFailed.value).toBe(true);

    fail = false;
    await vi.advanceTimersByTimeAsync(1500);
    expect(portStatus.value?.threads[0]?.requests).toBe(2);
    expect(portStatusFailed.value).toBe(false);

    stop();
    await vi.advanceTimersByTimeAsync(6000);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('a new page visit starts from nothing', async () => {
    portStatusFailed.value = true;
    const stop = watchPortStatus(1500, () => new Promise<PortStatus>(() => {}));
    expect(portStatus.value).toBeNull();
    expect(portStatusFailed.value).toBe(false);
    stop();
  });
});
