// The x axis of a trend graph: time of day without the date (spec §2 graph page). Times are the
// file's wall clock read as UTC (csv-trend.ts), so they are shown in UTC and match the file's text.
// As many marks as their labels leave room for, on round clock times: a phone's narrow graph of a
// few minutes gets a mark every minute or two, not one for the whole range; and no label is cut off
// at the right edge.

const S = 1000;
// whole-clock steps, so the marks fall on round times
const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800].map((s) => s * S);
/** room between two labels (px) */
export const LABEL_GAP_PX = 12;

export interface TimeTicks {
  /** ms of every mark inside [lo, hi] */
  ticks: number[];
  /** ms between two marks */
  step: number;
}

/** The axis: `plotPx` wide for [lo, hi]; a label `labelPx(step)` wide starts at its mark and may reach `roomPx` past the right end. */
export interface AxisRoom {
  plotPx: number;
  labelPx(step: number): number;
  roomPx: number;
}

/** The smallest step of whole clock units at least `minGapMs(step)` long (beyond a week: whole weeks). */
function stepFor(minGapMs: (step: number) => number): number {
  const last = STEPS[STEPS.length - 1]!;
  return STEPS.find((s) => s >= minGapMs(s)) ?? Math.ceil(minGapMs(last) / last) * last;
}

/**
 * Marks on round clock times: the smallest step whose labels fit side by side (each as wide as its
 * text plus a gap); a mark whose label would run past the axis' right end by more than `roomPx`
 * is left out.
 */
export function axisTicks(lo: number, hi: number, room: AxisRoom): TimeTicks {
  const span = Math.max(0, hi - lo);
  const plot = Math.max(1, room.plotPx);
  const msPerPx = span / plot;
  const step = stepFor((s) => (room.labelPx(s) + LABEL_GAP_PX) * msPerPx);
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi; t += step) {
    const x = span > 0 ? ((t - lo) / span) * plot : 0;
    if (x + room.labelPx(step) <= plot + room.roomPx) ticks.push(t);
  }
  return { ticks, step };
}

const two = (n: number) => String(n).padStart(2, '0');

/** `HH:MM`, or `HH:MM:SS` when the marks are closer than whole minutes. */
export function clockLabel(ms: number, step: number): string {
  const d = new Date(ms);
  const hm = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
  return withSeconds(step) ? `${hm}:${two(d.getUTCSeconds())}` : hm;
}

/** whether the labels of marks `step` apart show seconds */
export const withSeconds = (step: number) => step % (60 * S) !== 0;
