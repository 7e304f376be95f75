// What one trend graph draws for a view (spec §2 graph page, §3 graph types, §9 drawing points):
// the numeric columns not hidden by their legend entry, each with at most 2880 points of the rows
// in view, and the y axis from zero.

import type { Trend } from './csv-trend.ts';
import { DRAWING_POINTS, pickRows } from './downsample.ts';
import { seriesColour } from './palette.ts';
import type { View } from './zoom.ts';

export const CHART_TYPES = [0, 1, 2] as const; // spec §3: line 0, bar 1, stacked 2
export type ChartType = (typeof CHART_TYPES)[number];

export interface Point {
  x: number;
  /** undefined: a failed read (a gap in a line, no bar) */
  y: number | undefined;
}

export interface DrawSeries {
  /** the column's position in the file: its colour and its legend entry */
  column: number;
  name: string;
  colour: string;
  data: Point[];
}

export interface Drawing {
  series: DrawSeries[];
  /** the y axis takes in zero (spec §2: y axis from zero): the lowest value when negative, else 0 */
  low: number;
  /** the highest value (a stack's positive sum for stacked bars), else 0; above `low` even when all values are 0 */
  high: number;
}

/** First row at or after `t` (or after it, when `strictly`) in ascending `times`. */
export function firstFrom(times: ArrayLike<number>, t: number, strictly = false): number {
  let a = 0;
  let b = times.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if (times[m]! < t || (strictly && times[m] === t)) a = m + 1;
    else b = m;
  }
  return a;
}

/** The columns a graph can draw: numeric ones (text columns stay in the file only). */
export const drawableColumns = (trend: Trend): number[] => trend.columns.flatMap((c, i) => (c.numeric ? [i] : []));

/** The series of one graph for `view`; bars share their rows so that a stack stands on one x. */
export function drawing(trend: Trend, view: View, type: ChartType, hidden: ReadonlySet<number>, max = DRAWING_POINTS): Drawing {
  const from = firstFrom(trend.times, view.lo);
  const to = firstFrom(trend.times, view.hi, true);
  const shown = drawableColumns(trend).filter((i) => !hidden.has(i));
  const values = shown.map((i) => trend.columns[i]!.values);
  const shared = type === 0 ? undefined : pickRows(values, from, to, max);
  let low = 0;
  let high = 0;
  const series = shown.map((column, k) => {
    const col = values[k]!;
    const rows = shared ?? pickRows([col], from, to, max);
    const data = rows.map((r) => {
      const y = col[r]!;
      if (y < low) low = y;
      if (y > high) high = y;
      return { x: trend.times[r]!, y: Number.isNaN(y) ? undefined : y };
    });
    return { column, name: trend.columns[column]!.name, colour: seriesColour(column), data };
  });
  if (type === 2) ({ low, high } = stackedRange(series));
  return { series, low, high: high > low ? high : low + 1 };
}

/** Stacked bars (each bar starts where the one below ended): the lowest and highest running sums. */
function stackedRange(series: readonly DrawSeries[]): { low: number; high: number } {
  let low = 0;
  let high = 0;
  const n = series[0]?.data.length ?? 0;
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (const s of series) {
      sum += s.data[i]!.y ?? 0;
      low = Math.min(low, sum);
      high = Math.max(high, sum);
    }
  }
  return { low, high };
}
