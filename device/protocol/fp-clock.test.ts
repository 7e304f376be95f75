import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pinTimeZone } from '../../test/support/time-zone.ts';
import { decodeFpClock, encodeFpClock, fpClockMs, fpClockOf } from './fp-clock.ts';

// The registers hold the wall clock without a daylight-saving flag: in a zone with daylight saving the
// hour that repeats in autumn cannot go through unchanged, so the round trip is a property in UTC.
pinTimeZone('UTC');

describe('FP calendar registers', () => {
  it('decodes BCD minute|second, day|hour, year|month, weekday', () => {
    // 2024-02-29 13:45:07, a Thursday
    expect(decodeFpClock([0x4507, 0x2913, 0x2402, 4])).toEqual({ year: 2024, month: 2, day: 29, hour: 13, minute: 45, second: 7, weekday: 4 });
    expect(encodeFpClock({ year: 2024, month: 2, day: 29, hour: 13, minute: 45, second: 7, weekday: 4 })).toEqual([0x4507, 0x2913, 0x2402, 4]);
  });

  it('refuses what is not a calendar: non-BCD digits, month 13, 30 February, hour 24', () => {
    expect(decodeFpClock([0x4a07, 0x2913, 0x2402, 4])).toBeUndefined();
    expect(decodeFpClock([0x4507, 0x2913, 0x2413, 4])).toBeUndefined();
    expect(decodeFpClock([0x4507, 0x3013, 0x2402, 4])).toBeUndefined();
    expect(decodeFpClock([0x4507, 0x2924, 0x2402, 4])).toBeUndefined();
    expect(decodeFpClock([0x4507, 0x2913])).toBeUndefined();
  });

  it('property: any second of 2000–2099 goes through the registers unchanged', () => {
    fc.assert(
      fc.property(fc.integer({ min: new Date(2000, 0, 1).getTime() / 1000, max: new Date(2099, 11, 31).getTime() / 1000 }), (s) => {
        const ms = s * 1000;
        expect(fpClockMs(encodeFpClock(fpClockOf(ms)))).toBe(ms);
      }),
    );
  });
});
