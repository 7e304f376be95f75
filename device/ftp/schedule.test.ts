// The transmission cycle's times (device/ftp/schedule.ts; spec §3 Script, §9 FTP send).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pinTimeZone } from '../../test/support/time-zone.ts';
import { nextSend } from './schedule.ts';

pinTimeZone('Europe/Berlin');

const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number => new Date(y, mo - 1, d, h, mi, s).getTime();

describe('nextSend', () => {
  it('an hourly cycle from base time 0 sends on every full hour', () => {
    expect(nextSend(local(2026, 11, 21, 9, 0, 0), 0, 3600)).toBe(local(2026, 11, 21, 10));
    expect(nextSend(local(2026, 11, 21, 9, 59, 59), 0, 3600)).toBe(local(2026, 11, 21, 10));
    expect(nextSend(local(2026, 11, 21, 23, 30), 0, 3600)).toBe(local(2026, 11, 22, 0));
  });

  it('the base time sets the phase, also before it on the same day', () => {
    // base 00:15, cycle 1 h: 00:15, 01:15, … and 23:15
    expect(nextSend(local(2026, 11, 21, 0, 0), 900, 3600)).toBe(local(2026, 11, 21, 0, 15));
    expect(nextSend(local(2026, 11, 21, 7, 20), 900, 3600)).toBe(local(2026, 11, 21, 8, 15));
    // base 23:00, cycle 2 h: 01:00, 03:00 … 23:00 every day
    expect(nextSend(local(2026, 11, 21, 0, 10), 82800, 7200)).toBe(local(2026, 11, 21, 1));
  });

  it('a cycle that does not divide the day starts again from the base time each day', () => {
    // base 06:00, cycle 7 h: 06:00, 13:00, 20:00 each day (−01:00 and 27:00 are not in the day)
    expect(nextSend(local(2026, 11, 21, 5, 0), 21600, 25200)).toBe(local(2026, 11, 21, 6));
    expect(nextSend(local(2026, 11, 21, 13, 0), 21600, 25200)).toBe(local(2026, 11, 21, 20));
    expect(nextSend(local(2026, 11, 21, 20, 0), 21600, 25200)).toBe(local(2026, 11, 22, 6));
  });

  it('a once-a-day cycle counts from local midnight, also on the day summer time starts', () => {
    // 29 March 2026: 02:00 does not exist in Berlin; midnight + 2 h is 03:00 summer time
    expect(nextSend(local(2026, 3, 28, 12), 7200, 86400)).toBe(local(2026, 3, 29, 0) + 7200_000);
    expect(new Date(nextSend(local(2026, 3, 28, 12), 7200, 86400)).getHours()).toBe(3);
    expect(nextSend(local(2026, 3, 29, 5), 43200, 86400)).toBe(local(2026, 3, 29, 0) + 43200_000);
  });

  it('property: strictly after now, within a day, and on the day grid', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: local(2025, 1, 1), max: local(2027, 12, 31) }),
        fc.integer({ min: 0, max: 86400 }),
        fc.integer({ min: 60, max: 86400 }),
        (now, base, cycle) => {
          const t = nextSend(now, base, cycle);
          expect(t).toBeGreaterThan(now);
          expect(t - now).toBeLessThanOrEqual(2 * 86400_000 + 3600_000);
          const d = new Date(t);
          const midnight = new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
          expect((((t - midnight - base * 1000) % (cycle * 1000)) + cycle * 1000) % (cycle * 1000)).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
