// What the health plots of /health draw from the daemon's samples (docs/monitor.md "Health"): a
// series per running link, per mounted volume or per quantity of the daemon, the time axis over the
// last hour in the browser's time of day, and each series' current, lowest and highest value for
// the charts' text alternatives. Pure: the page words and formats them.

import type { HealthAnswer } from '../../device/model/health.ts';
import { seriesColour } from './palette.ts';
import type { Point } from './series.ts';
import type { View } from './zoom.ts';

type HealthSample = HealthAnswer['samples'][number];

export const HOUR_MS = 3_600_000;
/** below this share of free space a volume shows the low-space warning */
export const LOW_FREE_SHARE = 0.1;
const MB = 1024 * 1024;
const GB = 1024 * MB;

export interface HealthSeries {
  /** the link, volume or quantity: the legend and the text alternative name it */
  key: string;
  colour: string;
  /** drawn dashed (a link's timeouts beside its errors, in the same colour) */
  dashed?: boolean;
  data: Point[];
}

export interface SeriesFigures {
  /** the value of the last sample; undefined when the series has none there (a link stopped) */
  now: number | undefined;
  min: number | undefined;
  max: number | undefined;
}

/**
 * A moment as the x axis places it: the browser's wall clock read as UTC, so that the time axis
 * (web/graphs/time-axis.ts, which writes UTC) shows the browser's time of day on round marks.
 */
export const wallClock = (t: number) => t - new Date(t).getTimezoneOffset() * 60_000;

/** The last hour up to the newest sample, on the axis' clock. */
export function lastHour(samples: readonly HealthSample[]): View {
  const hi = wallClock(samples.at(-1)?.t ?? 0);
  return { lo: hi - HOUR_MS, hi };
}

/** One series: `pick` of every sample, undefined (a gap) where the sample has no such value. */
function series(samples: readonly HealthSample[], key: string, index: number, pick: (s: HealthSample) => number | undefined, dashed = false): HealthSeries {
  const data = samples.map((s) => ({ x: wallClock(s.t), y: pick(s) }));
  return { key, colour: seriesColour(index), ...(dashed ? { dashed } : {}), data };
}

/** The names of `part` (links or volumes) found in any sample, in the order they first appear (`order` first). */
function names(samples: readonly HealthSample[], part: 'links' | 'volumes', order: readonly string[] = []): string[] {
  const seen = new Set<string>();
  for (const s of samples) for (const n of Object.keys(s[part])) seen.add(n);
  return [...order.filter((n) => seen.has(n)), ...[...seen].filter((n) => !order.includes(n))];
}

export type LinkQuantity = 'busy' | 'requests' | 'errors' | 'timeouts';

/** A series per link that ran in the hour: `what` of each sample, the busy share in %. */
export function linkSeries(samples: readonly HealthSample[], what: LinkQuantity): HealthSeries[] {
  const scale = what === 'busy' ? 100 : 1;
  return names(samples, 'links').map((link, i) =>
    series(samples, link, i, (s) => {
      const l = s.links[link];
      return l ? l[what] * scale : undefined;
    }),
  );
}

/** Per link its errors and its timeouts per second, the timeouts dashed in the link's colour. */
export function faultSeries(samples: readonly HealthSample[]): { link: string; errors: HealthSeries; timeouts: HealthSeries }[] {
  const errors = linkSeries(samples, 'errors');
  const timeouts = linkSeries(samples, 'timeouts');
  return errors.map((e, i) => ({ link: e.key, errors: e, timeouts: { ...timeouts[i]!, dashed: true } }));
}

/** The unit a volume of `total` bytes is counted in: GB from a GB on, else MB. */
export const sizeUnit = (total: number): 'gb' | 'mb' => (total >= GB ? 'gb' : 'mb');

/** The unit the storage chart counts in: GB once a volume holds a GB or more, else MB. */
export const storageUnit = (samples: readonly HealthSample[]): 'gb' | 'mb' =>
  sizeUnit(Math.max(0, ...samples.flatMap((s) => Object.values(s.volumes).map((v) => v.total))));

export const inUnit = (bytes: number, unit: 'gb' | 'mb') => bytes / (unit === 'gb' ? GB : MB);

/** A series per volume mounted in the hour (internal, USB, temp): its free space in `unit`. */
export function volumeSeries(samples: readonly HealthSample[], unit: 'gb' | 'mb'): HealthSeries[] {
  return names(samples, 'volumes', ['internal', 'usb', 'temp']).map((id, i) =>
    series(samples, id, i, (s) => {
      const v = s.volumes[id];
      return v ? inUnit(v.free, unit) : undefined;
    }),
  );
}

/** The daemon's and the logger's series: CPU in % of one core, memory in MB, the logger's records per second. */
export function daemonSeries(samples: readonly HealthSample[]) {
  return {
    cpu: [series(samples, 'cpu', 0, (s) => s.cpu * 100)],
    memory: [series(samples, 'rss', 0, (s) => s.rss / MB), series(samples, 'heap', 1, (s) => s.heap / MB)],
    records: [series(samples, 'records', 0, (s) => s.logRecords)],
  };
}

/** The last sample's value and the lowest and highest of the hour. */
export function figures(s: HealthSeries): SeriesFigures {
  const ys = s.data.flatMap((p) => (p.y === undefined ? [] : [p.y]));
  return { now: s.data.at(-1)?.y, min: ys.length ? Math.min(...ys) : undefined, max: ys.length ? Math.max(...ys) : undefined };
}

/** The y axis from zero to the highest value (`high` at least, when given; above zero even when all are 0). */
export function yRange(all: readonly HealthSeries[], high = 0): { low: number; high: number } {
  let max = high;
  for (const s of all) for (const p of s.data) if (p.y !== undefined && p.y > max) max = p.y;
  return { low: 0, high: max > 0 ? max : 1 };
}

export interface VolumeFigures {
  id: string;
  free: number;
  total: number;
  /** free ÷ total (0 for a volume that reports no size) */
  share: number;
  low: boolean;
}

/** Each volume of the newest sample with its share free and whether it is low on space. */
export function volumeFigures(sample: HealthSample | undefined): VolumeFigures[] {
  if (!sample) return [];
  const ids = names([sample], 'volumes', ['internal', 'usb', 'temp']);
  return ids.map((id) => {
    const { free, total } = sample.volumes[id]!;
    const share = total > 0 ? free / total : 0;
    return { id, free, total, share, low: share < LOW_FREE_SHARE };
  });
}
