// The x axis of a trend graph: time of day without the date (spec §2 graph page). Times are the
// file's wall clock read as UTC (csv-trend.ts), so they are shown in UTC and match the file's text.

const S = 1000;
// whole-clock steps, so the marks fall on round times
const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800].map((s) => s * S);

export interface TimeTicks {
  /** ms of every mark inside [lo, hi] */
  ticks: number[];
  /** ms between two marks */
  step: number;
}

/** Marks on round clock times: the smallest step that gives at most `most` of them. */
export function timeTicks(lo: number, hi: number, most: number): TimeTicks {
  const span = Math.max(0, hi - lo);
  const n = Math.max(1, most);
  const step = STEPS.find((s) => span / s <= n) ?? Math.ceil(span / n / STEPS[STEPS.length - 1]!) * STEPS[STEPS.length - 1]!;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi; t += step) ticks.push(t);
  return { ticks, step };
}

const two = (n: number) => String(n).padStart(2, '0');

/** `HH:MM`, or `HH:MM:SS` when the marks are closer than whole minutes. */
export function clockLabel(ms: number, step: number): string {
  const d = new Date(ms);
  const hm = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
  return step % (60 * S) === 0 ? hm : `${hm}:${two(d.getUTCSeconds())}`;
}
