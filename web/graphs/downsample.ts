// At most 2880 drawing points per series (spec §9 "Drawing points 2880"), chosen so that peaks
// survive: the rows are cut into consecutive buckets and every bucket keeps, for every column, the
// row of its smallest and of its largest value, and its first empty row (a failed read), so a gap
// in a line stays a gap. Zooming calls this again on the rows in view, so detail appears.
export const DRAWING_POINTS = 2880; // spec §9

/** One kept row per reason and column in the bucket [a, b). */
function bucketRows(columns: readonly ArrayLike<number>[], a: number, b: number, out: number[]): void {
  const kept: number[] = [];
  for (const col of columns) {
    let lo = -1;
    let hi = -1;
    let gap = -1;
    for (let i = a; i < b; i++) {
      const v = col[i]!;
      if (Number.isNaN(v)) {
        if (gap < 0) gap = i;
      } else {
        if (lo < 0 || v < col[lo]!) lo = i;
        if (hi < 0 || v > col[hi]!) hi = i;
      }
    }
    for (const i of [lo, hi, gap]) if (i >= 0) kept.push(i);
  }
  kept.sort((x, y) => x - y);
  for (let k = 0; k < kept.length; k++) if (k === 0 || kept[k] !== kept[k - 1]) out.push(kept[k]!);
}

function pick(columns: readonly ArrayLike<number>[], from: number, to: number, buckets: number): number[] {
  const out: number[] = [];
  const n = to - from;
  for (let k = 0; k < buckets; k++) bucketRows(columns, from + Math.floor((k * n) / buckets), from + Math.floor(((k + 1) * n) / buckets), out);
  return out;
}

/**
 * The rows of [from, to) to draw for `columns` (NaN = empty), ascending, at most `max`. All rows when
 * they fit; a line chart passes one column per series, bar charts all columns at once so that
 * every series keeps the same rows (the bars of a stack must stand on the same x).
 */
export function pickRows(columns: readonly ArrayLike<number>[], from: number, to: number, max = DRAWING_POINTS): number[] {
  const n = to - from;
  if (n <= 0 || columns.length === 0) return [];
  if (n <= max) return Array.from({ length: n }, (_, i) => from + i);
  // one bucket keeps at most three rows per column: with more columns than that allows no choice is faithful
  if (columns.length * 3 > max) throw new RangeError(`${columns.length} columns cannot share ${max} drawing points`);
  let buckets = Math.min(n, Math.floor(max / 2));
  for (;;) {
    const rows = pick(columns, from, to, buckets);
    if (rows.length <= max) return rows;
    // fewer buckets in proportion; strictly fewer each time, and one bucket always fits
    buckets = Math.max(1, Math.min(buckets - 1, Math.floor((buckets * max) / rows.length)));
  }
}
