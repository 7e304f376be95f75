import { describe, expect, it } from 'vitest';
import { parseTrendText } from './csv-trend.ts';
import { seriesColour } from './palette.ts';
import { drawableColumns, drawing, firstFrom } from './series.ts';

const csv = (rows: string[]) => parseTrendText(['Date,Time,A,Name,B,C', ...rows].map((l) => `${l}\r\n`).join(''))!;
const t0 = Date.UTC(2026, 0, 2, 10, 0, 0);
const trend = csv(['2026/01/02,10:00:00,1,x,5,-1', '2026/01/02,10:00:01,2,y,,-2', '2026/01/02,10:00:02,3,z,7,4', '2026/01/02,10:00:03,4,w,8,-3']);
const all = { lo: t0, hi: t0 + 3000 };

describe('what a trend graph draws', () => {
  it('binary search of the rows in view', () => {
    const times = [1, 3, 3, 5];
    expect([0, 1, 2, 3, 4, 5, 6].map((t) => firstFrom(times, t))).toEqual([0, 0, 1, 1, 3, 3, 4]);
    expect([0, 1, 2, 3, 4, 5, 6].map((t) => firstFrom(times, t, true))).toEqual([0, 1, 1, 3, 3, 4, 4]);
  });

  it('line: every numeric column in file order, its colour, gaps for failed reads', () => {
    expect(drawableColumns(trend)).toEqual([0, 2, 3]);
    const d = drawing(trend, all, 0, new Set());
    expect(d.series.map((s) => [s.column, s.name, s.colour])).toEqual([
      [0, 'A', seriesColour(0)],
      [2, 'B', seriesColour(2)],
      [3, 'C', seriesColour(3)],
    ]);
    expect(d.series[1]!.data).toEqual([
      { x: t0, y: 5 },
      { x: t0 + 1000, y: undefined },
      { x: t0 + 2000, y: 7 },
      { x: t0 + 3000, y: 8 },
    ]);
    expect([d.low, d.high]).toEqual([-3, 8]);
  });

  it('a hidden column is left out and the others keep their colours', () => {
    const d = drawing(trend, all, 0, new Set([0, 3]));
    expect(d.series.map((s) => [s.name, s.colour])).toEqual([['B', seriesColour(2)]]);
    expect([d.low, d.high]).toEqual([0, 8]); // the y axis from zero
  });

  it('only the rows in view', () => {
    const d = drawing(trend, { lo: t0 + 1000, hi: t0 + 2000 }, 0, new Set());
    expect(d.series[0]!.data.map((p) => p.y)).toEqual([2, 3]);
  });

  it('stacked bars: the axis takes in every running sum of a stack', () => {
    const d = drawing(trend, all, 2, new Set());
    expect([d.low, d.high]).toEqual([0, 14]); // sums per row: 1 6 5 | 2 2 0 | 3 10 14 | 4 12 9
    expect(drawing(trend, all, 1, new Set()).high).toBe(8);
    const down = csv(['2026/01/02,10:00:00,-4,x,1,-2', '2026/01/02,10:00:01,2,x,3,-1']);
    expect(drawing(down, all, 2, new Set())).toMatchObject({ low: -5, high: 5 }); // -4 -3 -5 | 2 5 4
  });

  it('all zero or nothing shown still gives an axis from 0 to 1', () => {
    const zero = csv(['2026/01/02,10:00:00,0,a,0,0']);
    expect(drawing(zero, all, 0, new Set())).toMatchObject({ low: 0, high: 1 });
    expect(drawing(trend, all, 1, new Set([0, 2, 3]))).toEqual({ series: [], low: 0, high: 1 });
  });

  it('at most the drawing points per series; bars share their rows, lines pick their own', () => {
    const rows = Array.from({ length: 500 }, (_, i) => {
      const s = new Date(t0 + i * 1000);
      const hms = [s.getUTCHours(), s.getUTCMinutes(), s.getUTCSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
      return `2026/01/02,${hms},${i === 250 ? 1000 : i % 7},t,${i === 3 ? -50 : 1},${(i * 13) % 11}`;
    });
    const big = csv(rows);
    const view = { lo: t0, hi: t0 + 499_000 };
    const lines = drawing(big, view, 0, new Set(), 60);
    for (const s of lines.series) expect(s.data.length).toBeLessThanOrEqual(60);
    expect(lines.series[0]!.data.map((p) => p.y)).toContain(1000);
    expect(lines.series[1]!.data.map((p) => p.y)).toContain(-50);
    expect(lines.series[0]!.data.map((p) => p.x)).not.toEqual(lines.series[1]!.data.map((p) => p.x));
    const bars = drawing(big, view, 1, new Set(), 60);
    const xs = bars.series.map((s) => s.data.map((p) => p.x));
    expect(xs[0]!.length).toBeLessThanOrEqual(60);
    expect(xs[1]).toEqual(xs[0]);
    expect(xs[2]).toEqual(xs[0]);
    expect(bars.series[0]!.data.map((p) => p.y)).toContain(1000);
  });
});
