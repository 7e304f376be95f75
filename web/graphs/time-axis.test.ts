import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AxisRoom, axisTicks, clockLabel, LABEL_GAP_PX, withSeconds } from './time-axis.ts';

const at = (h: number, m = 0, s = 0) => Date.UTC(2026, 10, 21, h, m, s);
/** labels as wide as a small font writes them: HH:MM 34 px, HH:MM:SS 54 px */
const room = (plotPx: number, roomPx = 36): AxisRoom => ({ plotPx, labelPx: (s) => (withSeconds(s) ? 54 : 34), roomPx });
const labels = ({ ticks, step }: { ticks: number[]; step: number }) => ticks.map((t) => clockLabel(t, step));

describe('time axis', () => {
  it('a day on a wide graph gets marks on whole hours, shown without the date', () => {
    const axis = axisTicks(at(0), at(23, 59, 59), room(560));
    expect(axis.step).toBe(2 * 3600_000);
    expect(labels(axis)).toEqual(['00:00', '02:00', '04:00', '06:00', '08:00', '10:00', '12:00', '14:00', '16:00', '18:00', '20:00', '22:00']);
  });

  it('seven minutes on a phone (a plot 250 px wide) get a mark every two minutes, not one for the whole range', () => {
    const axis = axisTicks(at(8, 0, 30), at(8, 7, 30), room(250));
    expect(axis.step).toBe(120_000);
    expect(labels(axis)).toEqual(['08:02', '08:04', '08:06']);
  });

  it('a zoomed minute gets second marks with seconds', () => {
    const axis = axisTicks(at(8, 0, 3), at(8, 0, 58), room(600));
    expect(axis.step).toBe(10_000);
    expect(labels(axis)).toEqual(['08:00:10', '08:00:20', '08:00:30', '08:00:40', '08:00:50']);
  });

  it('a mark whose label would run past the right edge is left out', () => {
    // 08:00 to 08:10 on 300 px: marks every 2 minutes, 08:10 sits at the right end; its label
    // (34 px) fits the 36 px of padding, with 20 px it does not
    expect(labels(axisTicks(at(8), at(8, 10), room(300)))).toEqual(['08:00', '08:02', '08:04', '08:06', '08:08', '08:10']);
    expect(labels(axisTicks(at(8), at(8, 10), room(300, 20)))).toEqual(['08:00', '08:02', '08:04', '08:06', '08:08']);
  });

  it('labels: HH:MM for whole-minute steps, HH:MM:SS below; the date only above the graph (formatDateTime)', () => {
    expect(clockLabel(at(7, 5, 9), 60_000)).toBe('07:05');
    expect(clockLabel(at(7, 5, 9), 5_000)).toBe('07:05:09');
  });

  it('spans of months get whole weeks; an empty span one mark or none', () => {
    const axis = axisTicks(at(0), at(0) + 400 * 86_400_000, room(300));
    expect(axis.step % 604_800_000).toBe(0);
    expect(axis.ticks.length).toBeLessThanOrEqual(300 / (34 + LABEL_GAP_PX) + 1);
    expect(axisTicks(at(8, 0, 0), at(8, 0, 0), room(300)).ticks).toEqual([at(8, 0, 0)]);
    expect(axisTicks(at(8, 0, 0) + 200, at(8, 0, 0) + 700, room(300)).ticks).toEqual([]);
  });

  it('property: marks inside the range, ascending, on the step, their labels apart and inside the room', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 1, max: 1e10 }), fc.integer({ min: 60, max: 2000 }), (lo, span, plotPx) => {
        const r = room(plotPx);
        const { ticks, step } = axisTicks(lo, lo + span, r);
        const px = (t: number) => ((t - lo) / span) * plotPx;
        for (const [i, t] of ticks.entries()) {
          expect(t).toBeGreaterThanOrEqual(lo);
          expect(t).toBeLessThanOrEqual(lo + span);
          expect(t % step).toBe(0);
          expect(px(t) + r.labelPx(step)).toBeLessThanOrEqual(plotPx + r.roomPx + 1e-6);
          if (i > 0) {
            expect(t - ticks[i - 1]!).toBe(step);
            expect(px(t) - px(ticks[i - 1]!)).toBeGreaterThanOrEqual(r.labelPx(step) + LABEL_GAP_PX - 1e-6);
          }
        }
      }),
    );
  });
});
