import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clockLabel, timeTicks } from './time-axis.ts';

const at = (h: number, m = 0, s = 0) => Date.UTC(2026, 10, 21, h, m, s);

describe('time axis', () => {
  it('a day gets marks on whole hours, shown without the date', () => {
    const { ticks, step } = timeTicks(at(0), at(23, 59, 59), 8);
    expect(step).toBe(3 * 3600_000);
    expect(ticks.map((t) => clockLabel(t, step))).toEqual(['00:00', '03:00', '06:00', '09:00', '12:00', '15:00', '18:00', '21:00']);
  });

  it('a zoomed minute gets second marks with seconds', () => {
    const { ticks, step } = timeTicks(at(8, 0, 3), at(8, 0, 58), 6);
    expect(step).toBe(10_000);
    expect(ticks.map((t) => clockLabel(t, step))).toEqual(['08:00:10', '08:00:20', '08:00:30', '08:00:40', '08:00:50']);
  });

  it('labels: HH:MM for whole-minute steps, HH:MM:SS below; the date only above the graph (formatDateTime)', () => {
    expect(clockLabel(at(7, 5, 9), 60_000)).toBe('07:05');
    expect(clockLabel(at(7, 5, 9), 5_000)).toBe('07:05:09');
  });

  it('spans of months still get few marks; an empty span none or one', () => {
    const { ticks, step } = timeTicks(at(0), at(0) + 400 * 86_400_000, 5);
    expect(ticks.length).toBeLessThanOrEqual(5);
    expect(step % 604_800_000).toBe(0);
    expect(timeTicks(at(8, 0, 0), at(8, 0, 0), 5).ticks).toEqual([at(8, 0, 0)]);
    expect(timeTicks(at(8, 0, 0) + 200, at(8, 0, 0) + 700, 5).ticks).toEqual([]);
  });

  it('property: marks inside the range, ascending, on the step, at most the number asked', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 0, max: 1e10 }), fc.integer({ min: 1, max: 20 }), (lo, span, most) => {
        const { ticks, step } = timeTicks(lo, lo + span, most);
        expect(ticks.length).toBeLessThanOrEqual(most + 1);
        for (const [i, t] of ticks.entries()) {
          expect(t).toBeGreaterThanOrEqual(lo);
          expect(t).toBeLessThanOrEqual(lo + span);
          expect(t % step).toBe(0);
          if (i > 0) expect(t - ticks[i - 1]!).toBe(step);
        }
      }),
    );
  });
});
