import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clampView, dragZoom, fullView, isZoomed, MIN_SPAN_MS, timeAt, touchView, type View, wheelZoom } from './zoom.ts';

const full: View = { lo: 0, hi: 3_600_000 };

describe('zoom of a trend graph', () => {
  it("the full view is the rows' range; one row gets a minute", () => {
    expect(fullView(Float64Array.from([10, 20, 50]))).toEqual({ lo: 10, hi: 50 });
    expect(fullView([90_000])).toEqual({ lo: 60_000, hi: 120_000 });
    expect(fullView([])).toEqual({ lo: 0, hi: 60_000 });
  });

  it('CTRL+drag selects the x range under the rectangle, in either direction', () => {
    // plot area from 100 to 1100 px: one px is 3600 ms
    expect(dragZoom(350, 600, 100, 1100, full, full)).toEqual({ lo: 900_000, hi: 1_800_000 });
    expect(dragZoom(600, 350, 100, 1100, full, full)).toEqual({ lo: 900_000, hi: 1_800_000 });
    // outside the plot area it stops at the edge
    expect(dragZoom(0, 350, 100, 1100, full, full)).toEqual({ lo: 0, hi: 900_000 });
    expect(dragZoom(350, 352, 100, 1100, full, full)).toBeUndefined();
  });

  it('the wheel zooms in and out around the pointer and never past the file', () => {
    const inn = wheelZoom(full, full, 1_800_000, -100);
    expect(inn).toEqual({ lo: 360_000, hi: 3_240_000 });
    expect(isZoomed(inn, full)).toBe(true);
    expect(wheelZoom(inn, full, 1_800_000, 100)).toEqual(full);
    expect(wheelZoom(full, full, 0, 100)).toEqual(full);
    expect(wheelZoom(inn, full, 1_800_000, 0)).toBe(inn);
    expect(isZoomed(full, full)).toBe(false);
  });

  it('never narrower than a second, never outside the file', () => {
    expect(clampView({ lo: 1000, hi: 1200 }, full)).toEqual({ lo: 1000, hi: 1000 + MIN_SPAN_MS });
    expect(clampView({ lo: 3_599_900, hi: 3_599_950 }, full)).toEqual({ lo: 3_599_000, hi: 3_600_000 });
    expect(clampView({ lo: -500, hi: 9e9 }, full)).toEqual(full);
    expect(clampView({ lo: 0, hi: 10 }, { lo: 0, hi: 400 })).toEqual({ lo: 0, hi: 400 });
  });

  it('touch: two fingers spread apart zoom in around their centre, pinched together out; one finger drags the graph along', () => {
    // plot area from 100 to 1100 px: one px is 3600 ms; fingers around 600 px (30 min), 100 px apart, spread to 200
    const inn = touchView(full, full, { x: 600, dist: 100 }, { x: 600, dist: 200 }, 100, 1100);
    expect(inn).toEqual({ lo: 900_000, hi: 2_700_000 });
    // pinched back together: the whole file again, no further
    expect(touchView(inn, full, { x: 600, dist: 200 }, { x: 600, dist: 100 }, 100, 1100)).toEqual(full);
    expect(touchView(full, full, { x: 600, dist: 200 }, { x: 600, dist: 50 }, 100, 1100)).toEqual(full);
    // one finger 100 px to the right: the time under it follows, the view moves 1/10 of its span earlier
    expect(touchView(inn, full, { x: 600, dist: 0 }, { x: 700, dist: 0 }, 100, 1100)).toEqual({ lo: 720_000, hi: 2_520_000 });
    // not past the file's start
    expect(touchView(inn, full, { x: 200, dist: 0 }, { x: 1100, dist: 0 }, 100, 1100)).toEqual({ lo: 0, hi: 1_800_000 });
    // a full view does not move
    expect(touchView(full, full, { x: 600, dist: 0 }, { x: 900, dist: 0 }, 100, 1100)).toEqual(full);
  });

  it('pixels to time', () => {
    expect(timeAt(100, 100, 1100, full)).toBe(0);
    expect(timeAt(1100, 100, 1100, full)).toBe(3_600_000);
    expect(timeAt(5000, 100, 1100, full)).toBe(3_600_000);
    expect(timeAt(50, 100, 100, full)).toBe(0);
  });

  it('property: every wheel turn, drag and touch gesture leaves a view inside the file', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('wheel' as const), at: fc.double({ min: -1e6, max: 5e6, noNaN: true }), dy: fc.integer({ min: -500, max: 500 }) }),
      fc.record({ kind: fc.constant('drag' as const), a: fc.integer({ min: 0, max: 1200 }), b: fc.integer({ min: 0, max: 1200 }) }),
      fc.record({
        kind: fc.constant('touch' as const),
        from: fc.record({ x: fc.integer({ min: 0, max: 1200 }), dist: fc.integer({ min: 0, max: 800 }) }),
        to: fc.record({ x: fc.integer({ min: 0, max: 1200 }), dist: fc.integer({ min: 0, max: 800 }) }),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        let v = full;
        for (const o of ops) {
          if (o.kind === 'wheel') v = wheelZoom(v, full, o.at, o.dy);
          else if (o.kind === 'drag') v = dragZoom(o.a, o.b, 100, 1100, v, full) ?? v;
          else v = touchView(v, full, o.from, o.to, 100, 1100);
          expect(v.lo).toBeGreaterThanOrEqual(full.lo);
          expect(v.hi).toBeLessThanOrEqual(full.hi + 1e-6);
          expect(v.hi - v.lo).toBeGreaterThanOrEqual(MIN_SPAN_MS - 1e-6);
        }
      }),
    );
  });
});
