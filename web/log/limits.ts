// The data point limits of spec §9 ("data points 700 (STRING 60, difference 400); add at once 50")
// as the /log page applies them before it adds points, so that it can say 'Max. number of data
// points reached' (spec §8) instead of adding points the daemon would refuse. The schema
// (device/model/sections/log.ts) checks the same limits on every save.
import { MAX_DIFFERENCE_POINTS, MAX_STRING_POINTS } from '../../device/model/sections/log.ts';
import { MAX_POINTS, STRING_TYPE } from '../../device/model/sections/logfile.ts';

export const ADD_AT_ONCE_MAX = 50; // spec §9: add at once 50

export interface PointCounts {
  total: number;
  strings: number;
  differences: number;
}

interface Kind {
  type: number;
  format: string;
}

/** The points of every log file counted against the limits (they are shared by all log files). */
export function pointCounts(files: readonly { records: readonly Kind[] }[]): PointCounts {
  const c: PointCounts = { total: 0, strings: 0, differences: 0 };
  for (const f of files) {
    for (const r of f.records) {
      c.total++;
      if (r.type === STRING_TYPE) c.strings++;
      if (r.format === 'difference') c.differences++;
    }
  }
  return c;
}

/** How many more points of this kind fit under every limit (never below 0). */
export function room(c: PointCounts, kind: Kind): number {
  let n = MAX_POINTS - c.total;
  if (kind.type === STRING_TYPE) n = Math.min(n, MAX_STRING_POINTS - c.strings);
  if (kind.format === 'difference') n = Math.min(n, MAX_DIFFERENCE_POINTS - c.differences);
  return Math.max(0, n);
}

/**
 * How many of `wanted` points of the kinds given fit, taken in order: each is counted as it is
 * accepted, so a list mixing kinds stops at the first point past any limit.
 */
export function fitting(c: PointCounts, kinds: readonly Kind[]): number {
  const at = { ...c };
  let n = 0;
  for (const k of kinds) {
    if (room(at, k) === 0) break;
    at.total++;
    if (k.type === STRING_TYPE) at.strings++;
    if (k.format === 'difference') at.differences++;
    n++;
  }
  return n;
}
