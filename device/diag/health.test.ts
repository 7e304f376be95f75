// The health history: rates from the counters' growth between samples, a counter reset or a new
// link counted from its start, the volumes' free space, the logger's record rate, the bound.
import { describe, expect, it } from 'vitest';
import type { Volume } from '../../hw/types.ts';
import type { InterfaceStatus } from '../com/links.ts';
import { HEALTH_SAMPLES, HealthHistory } from './health.ts';

function rig() {
  let t = 0;
  const stats = { requests: 0, errors: 0, timeouts: 0, retries: 0, busyMs: 0, waiting: 0, since: 0 };
  let records = 0;
  const vols: Volume[] = [
    { id: 'internal', path: '/x', mounted: true, totalBytes: 1000, freeBytes: 400 },
    { id: 'usb', path: '/u', mounted: false, totalBytes: 0, freeBytes: 0 },
  ];
  const link = () =>
    ({ id: 0, name: 'COM1', enabled: true, protocol: 'MEWTOCOL', transport: 'serial', state: 'up', stats: { ...stats } }) as unknown as InterfaceStatus;
  const h = new HealthHistory({ links: () => [link()], volumes: async () => vols, logRecords: () => records, now: () => t }, 10_000);
  return {
    h,
    stats,
    vols,
    advance(ms: number, requests: number, busyMs: number, errors = 0, rec = 0) {
      t += ms;
      stats.requests += requests;
      stats.busyMs += busyMs;
      stats.errors += errors;
      records += rec;
    },
    reset() {
      Object.assign(stats, { requests: 0, errors: 0, timeouts: 0, busyMs: 0, since: t });
    },
  };
}

describe('the health history', () => {
  it('turns the counters’ growth into rates and the busy share of the interval; reads the mounted volumes', async () => {
    const r = rig();
    r.h.start();
    r.h.stop(); // the test takes the samples itself
    r.advance(10_000, 50, 2_500, 5, 20);
    const s = await r.h.sample();
    expect(s.links.COM1).toEqual({ busy: 0.25, requests: 5, errors: 0.5, timeouts: 0 });
    expect(s.volumes).toEqual({ internal: { free: 400, total: 1000 } });
    expect(s.logRecords).toBe(2);
    expect(s.rss).toBeGreaterThan(0);
    expect(s.cpu).toBeGreaterThanOrEqual(0);
  });

  it('after a counter reset counts from the reset, never a negative rate', async () => {
    const r = rig();
    r.h.start();
    r.h.stop();
    r.advance(10_000, 100, 1_000);
    await r.h.sample();
    r.advance(5_000, 0, 0);
    r.reset(); // at t = 15 s
    r.advance(5_000, 10, 500); // 10 requests in the 5 s since the reset
    const s = await r.h.sample();
    expect(s.links.COM1).toEqual({ busy: 0.1, requests: 2, errors: 0, timeouts: 0 });
  });

  it(`keeps the last ${HEALTH_SAMPLES} samples`, async () => {
    const r = rig();
    r.h.start();
    r.h.stop();
    for (let i = 0; i < HEALTH_SAMPLES + 5; i++) {
      r.advance(10_000, i, 0);
      await r.h.sample();
    }
    const all = r.h.samples();
    expect(all).toHaveLength(HEALTH_SAMPLES);
    expect(all[0]!.links.COM1!.requests).toBeCloseTo(5 / 10);
  });
});
