import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DRAWING_POINTS, pickRows } from './downsample.ts';

const f64 = (xs: number[]) => Float64Array.from(xs);
const finiteMin = (col: ArrayLike<number>, rows: Iterable<number>) => Math.min(...[...rows].map((i) => col[i]!).filter((v) => !Number.isNaN(v)));
const finiteMax = (col: ArrayLike<number>, rows: Iterable<number>) => Math.max(...[...rows].map((i) => col[i]!).filter((v) => !Number.isNaN(v)));
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

describe('drawing points (spec §9: 2880)', () => {
  it('keeps every row when they fit', () => {
    expect(pickRows([f64([1, 2, 3, 4])], 0, 4)).toEqual([0, 1, 2, 3]);
    expect(pickRows([f64([1, 2, 3, 4])], 1, 3)).toEqual([1, 2]);
    expect(pickRows([f64(new Array(DRAWING_POINTS).fill(0))], 0, DRAWING_POINTS)).toHaveLength(DRAWING_POINTS);
    expect(pickRows([], 0, 4)).toEqual([]);
    expect(pickRows([f64([1, 2])], 2, 2)).toEqual([]);
  });

  it('a spike of one row in 100 000 survives', () => {
    const col = new Float64Array(100_000).fill(5);
    col[61_234] = 900;
    col[7] = -3;
    const rows = pickRows([col], 0, col.length);
    expect(rows.length).toBeLessThanOrEqual(DRAWING_POINTS);
    expect(rows).toContain(61_234);
    expect(rows).toContain(7);
  });

  it('a gap (failed reads) stays a gap', () => {
    const col = new Float64Array(50_000).fill(1);
    col.fill(NaN, 30_000, 30_010);
    const rows = pickRows([col], 0, col.length);
    expect(rows.some((i) => Number.isNaN(col[i]!))).toBe(true);
  });

  it('bars: every column keeps its peaks on shared rows', () => {
    const a = Float64Array.from({ length: 40_000 }, (_, i) => Math.sin(i / 50));
    const b = Float64Array.from({ length: 40_000 }, (_, i) => (i === 39_999 ? 99 : Math.cos(i / 70)));
    const rows = pickRows([a, b], 0, a.length);
    expect(rows.length).toBeLessThanOrEqual(DRAWING_POINTS);
    expect(rows).toContain(39_999);
    expect(finiteMin(a, rows)).toBe(finiteMin(a, range(0, a.length)));
  });

  it('a narrower range (zoom) gives more detail there', () => {
    const col = Float64Array.from({ length: 200_000 }, (_, i) => i % 97);
    const wide = pickRows([col], 0, col.length).filter((i) => i >= 100_000 && i < 101_000);
    const zoomed = pickRows([col], 100_000, 101_000);
    expect(zoomed).toEqual(range(100_000, 101_000));
    expect(zoomed.length).toBeGreaterThan(wide.length);
  });

  it('refuses more columns than the points can serve', () => {
    expect(() =>
      pickRows(
        Array.from({ length: 10 }, () => f64(new Array(100).fill(0))),
        0,
        100,
        20,
      ),
    ).toThrow(RangeError);
  });

  it("property: at most max rows, ascending inside the range, every column's min and max kept", () => {
    const value = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: -1000, max: 1000 }) }, { weight: 1, arbitrary: fc.constant(NaN) });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((cols) =>
          fc.record({
            columns: fc.array(fc.array(value, { minLength: 1, maxLength: 600 }), { minLength: cols, maxLength: cols }),
            max: fc.integer({ min: cols * 3, max: 120 }),
            cut: fc.tuple(fc.nat(), fc.nat()),
          }),
        ),
        ({ columns, max, cut }) => {
          const n = Math.min(...columns.map((c) => c.length));
          const cols = columns.map((c) => f64(c.slice(0, n)));
          const [p, q] = [cut[0] % (n + 1), cut[1] % (n + 1)].sort((x, y) => x - y) as [number, number];
          const rows = pickRows(cols, p, q, max);
          expect(rows.length).toBeLessThanOrEqual(max);
          for (let k = 0; k < rows.length; k++) {
            expect(rows[k]!).toBeGreaterThanOrEqual(p);
            expect(rows[k]!).toBeLessThan(q);
            if (k > 0) expect(rows[k]!).toBeGreaterThan(rows[k - 1]!);
          }
          for (const col of cols) {
            const all = range(p, q);
            if (!all.some((i) => !Number.isNaN(col[i]!))) continue;
            expect(finiteMin(col, rows)).toBe(finiteMin(col, all));
            expect(finiteMax(col, rows)).toBe(finiteMax(col, all));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
