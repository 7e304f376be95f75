// Zoom of a trend graph's x range (spec §2 graph page: CTRL+drag or mouse wheel, reset zoom; on a
// touch screen two fingers pinch and one drags the zoomed graph along).
// Pure: views in ms, pixels of the plot area from the chart.

export interface View {
  lo: number;
  hi: number;
}

/** The narrowest view: one second, the resolution of the log files' time stamps. */
export const MIN_SPAN_MS = 1000;
/** One wheel notch shows this share of the range (in) or its inverse (out). */
export const WHEEL_FACTOR = 0.8;
/** A CTRL+drag narrower than this (px) is taken as a click, not a zoom. */
export const MIN_DRAG_PX = 4;

/** The whole range of a file's rows; a single time gets a minute around it. */
export function fullView(times: ArrayLike<number>): View {
  if (times.length === 0) return { lo: 0, hi: 60_000 };
  const lo = times[0]!;
  const hi = times[times.length - 1]!;
  return hi > lo ? { lo, hi } : { lo: lo - 30_000, hi: hi + 30_000 };
}

/** `v` moved and cut to lie inside `full`, at least MIN_SPAN_MS wide (or all of `full` if narrower). */
export function clampView(v: View, full: View): View {
  const fullSpan = full.hi - full.lo;
  const span = Math.min(fullSpan, Math.max(MIN_SPAN_MS, v.hi - v.lo));
  const lo = Math.min(Math.max(v.lo, full.lo), full.hi - span);
  return { lo, hi: lo + span };
}

export const isZoomed = (v: View, full: View) => v.lo > full.lo || v.hi < full.hi;

/** The time at pixel `px` of a plot area from `x1` to `x2`. */
export function timeAt(px: number, x1: number, x2: number, v: View): number {
  const f = x2 > x1 ? (px - x1) / (x2 - x1) : 0;
  return v.lo + Math.min(1, Math.max(0, f)) * (v.hi - v.lo);
}

/** A wheel turn over time `at`: deltaY < 0 zooms in, > 0 out, keeping `at` under the pointer. */
export function wheelZoom(v: View, full: View, at: number, deltaY: number): View {
  if (deltaY === 0) return v;
  const f = deltaY < 0 ? WHEEL_FACTOR : 1 / WHEEL_FACTOR;
  return clampView({ lo: at - (at - v.lo) * f, hi: at + (v.hi - at) * f }, full);
}

/** The view a CTRL+drag from pixel `a` to `b` selects; undefined when it is too narrow to be meant. */
export function dragZoom(a: number, b: number, x1: number, x2: number, v: View, full: View): View | undefined {
  if (Math.abs(b - a) < MIN_DRAG_PX) return undefined;
  const [p, q] = a < b ? [a, b] : [b, a];
  return clampView({ lo: timeAt(p, x1, x2, v), hi: timeAt(q, x1, x2, v) }, full);
}

/** Where the fingers on a touch screen are: their centre (px of the plot) and their distance (px; 0 for one finger). */
export interface Touches {
  x: number;
  dist: number;
}

/**
 * The view after a touch gesture that began at `from` on view `start` and is now at `to`: the time
 * that was under the fingers' centre stays under it (one finger drags the graph along), and two
 * fingers spread apart zoom in by the ratio of their distances (pinched together, out).
 */
export function touchView(start: View, full: View, from: Touches, to: Touches, x1: number, x2: number): View {
  if (x2 <= x1) return start;
  const at = start.lo + ((from.x - x1) / (x2 - x1)) * (start.hi - start.lo);
  const scale = from.dist > 0 && to.dist > 0 ? from.dist / to.dist : 1;
  const span = (start.hi - start.lo) * scale;
  const lo = at - ((to.x - x1) / (x2 - x1)) * span;
  return clampView({ lo, hi: lo + span }, full);
}
