import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServicesStatus } from '../../device/model/service-status.ts';
import { type TlsPartStatus, type TlsStatus, tlsStatusSchema } from '../../device/model/tls-status.ts';
import { TLS_STATUS_TICK_MS, tlsPartState, tlsStatus, tlsStatusFailed, watchTlsStatus } from './tls-status.ts';

/** the one status answer with only the tls entry carrying `detail` (web/state/service-status.ts) */
const answerOf = (detail: unknown): ServicesStatus => ({
  services: [{ service: 'tls', enabled: true, state: 'idle', since: 0, counters: {}, queue: { waiting: 0, dropped: 0, bound: 0 }, tls: detail as never }],
});

const part = (o: Partial<TlsPartStatus> = {}): TlsPartStatus => ({
  enabled: true,
  port: 1502,
  listening: true,
  stoppedByPlc: false,
  connections: 2,
  accepted: 7,
  refused: 1,
  tlsFailures: 0,
  errors: 0,
  faults: 0,
  bytesIn: 1200,
  bytesOut: 3400,
  ...o,
});
const status = (accepted: number): TlsStatus => ({ client: part({ accepted }), server: part({ enabled: false, listening: false, port: 802 }) });

describe('TLS bridge status updates', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks every update tick (spec §9: 1500 ms), one call at a time, marks a failed call quietly; stop ends it', async () => {
    expect(TLS_STATUS_TICK_MS).toBe(1500);
    let fail = false;
    let n = 0;
    const load = vi.fn(async () => {
      if (fail) throw new Error('down');
      return status(++n);
    });
    const stop = watchTlsStatus(TLS_STATUS_TICK_MS, async () => answerOf(await load()));
    await vi.advanceTimersByTimeAsync(0);
    expect(tlsStatus.value?.client.accepted).toBe(1);
    expect(tlsStatusFailed.value).toBe(false);

    await vi.advanceTimersByTimeAsync(1499);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(tlsStatus.value?.client.accepted).toBe(2);

    fail = true;
    await vi.advanceTimersByTimeAsync(1500);
    expect(tlsStatus.value).toBeNull();
    expect(tlsStatusFailed.value).toBe(true);

    fail = false;
    await vi.advanceTimersByTimeAsync(1500);
    expect(tlsStatus.value?.client.accepted).toBe(3);
    expect(tlsStatusFailed.value).toBe(false);

    stop();
    await vi.advanceTimersByTimeAsync(6000);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('skips a tick while the call before is still out', async () => {
    let release: (s: TlsStatus) => void = () => {};
    const load = vi.fn(
      () =>
        new Promise<TlsStatus>((r) => {
          release = r;
        }),
    );
    const stop = watchTlsStatus(TLS_STATUS_TICK_MS, async () => answerOf(await load()));
    await vi.advanceTimersByTimeAsync(4500);
    expect(load).toHaveBeenCalledTimes(1);
    release(status(9));
    await vi.advanceTimersByTimeAsync(1500);
    expect(load).toHaveBeenCalledTimes(2);
    expect(tlsStatus.value?.client.accepted).toBe(9);
    stop();
  });

  it('names the part state: switched off before stopped by the PLC before listening', () => {
    expect(tlsPartState(part())).toBe('listening');
    expect(tlsPartState(part({ listening: false, reason: { code: 'port_in_use', args: { port: 1502 } } }))).toBe('closed');
    expect(tlsPartState(part({ listening: false, stoppedByPlc: true }))).toBe('stopped');
    expect(tlsPartState(part({ enabled: false, listening: false }))).toBe('disabled');
  });

  it("the schema takes the daemon's answer and refuses one that does not fit", () => {
    expect(v.safeParse(tlsStatusSchema, status(1)).success).toBe(true);
    expect(v.safeParse(tlsStatusSchema, { client: part() }).success).toBe(false);
    expect(v.safeParse(tlsStatusSchema, { client: part(), server: { ...part(), accepted: '3' } }).success).toBe(false);
    expect(v.safeParse(tlsStatusSchema, { client: part(), server: part({ bytesIn: -1 }) }).success).toBe(false);
  });
});
