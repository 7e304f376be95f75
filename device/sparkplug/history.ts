// Store-and-forward of the edge node (docs/sparkplug.md "Store-and-forward"): the values a pass
// took while the node was not born, as one job of the crash-safe queue (service-runtime/queue.ts),
// and back into DDATA values with is_historical after the births. A job names its metrics by their
// stable key (`<log file id>/<record id>`), not by alias: the aliases of the run that replays it
// may differ. Values as JSON: a bigint as {"b": "<digits>"}, a number JSON has no form for (NaN,
// ±Infinity) as {"f": "NaN"}, a failed read as null.
import type { Metric } from './metrics.ts';
import type { MetricValue } from './payload.ts';
import { DATATYPES, type DataType, type SparkplugValue } from './types.ts';

type Stored = number | boolean | string | null | { b: string } | { f: string };

/** One pass's changes: t the time of the first read (ms since 1970 UTC); each metric [key, value] or [key, value, its own time]. */
export interface HistoryJob {
  t: number;
  m: ([string, Stored] | [string, Stored, number])[];
}

const toStored = (v: SparkplugValue | null): Stored => {
  if (typeof v === 'bigint') return { b: v.toString() };
  if (typeof v === 'number' && !Number.isFinite(v)) return { f: String(v) };
  return v;
};

const NON_FINITE = new Set(['NaN', 'Infinity', '-Infinity']);

function fromStored(s: unknown): { ok: true; value: SparkplugValue | null } | { ok: false } {
  if (s === null || typeof s === 'number' || typeof s === 'boolean' || typeof s === 'string') return { ok: true, value: s };
  if (typeof s !== 'object') return { ok: false };
  const o = s as Record<string, unknown>;
  if (typeof o.b === 'string' && /^-?\d+$/.test(o.b)) return { ok: true, value: BigInt(o.b) };
  if (typeof o.f === 'string' && NON_FINITE.has(o.f)) return { ok: true, value: Number(o.f) };
  return { ok: false };
}

/** The job of a pass's changed values (none: undefined). */
export function historyJob(values: readonly { metric: Pick<Metric, 'key'>; value: SparkplugValue | null; timestamp: number }[]): HistoryJob | undefined {
  if (values.length === 0) return undefined;
  const t = values[0]!.timestamp;
  return { t, m: values.map((v) => (v.timestamp === t ? [v.metric.key, toStored(v.value)] : [v.metric.key, toStored(v.value), v.timestamp])) };
}

/** Whether a value read back from storage is a job (the queue sets others aside). */
export function isHistoryJob(j: unknown): j is HistoryJob {
  if (typeof j !== 'object' || j === null) return false;
  const { t, m } = j as Record<string, unknown>;
  if (typeof t !== 'number' || !Number.isFinite(t) || !Array.isArray(m)) return false;
  return m.every(
    (e: unknown) =>
      Array.isArray(e) &&
      (e.length === 2 || (e.length === 3 && typeof e[2] === 'number' && Number.isFinite(e[2]))) &&
      typeof e[0] === 'string' &&
      fromStored(e[1]).ok,
  );
}

/**
 * The DDATA values of a job for the metrics of this run, in the job's order, each with its
 * original time and the historical flag; a key that is no metric now (the logger's list changed)
 * or a value that does not suit the metric's type now is left out.
 */
export function historyValues(job: HistoryJob, byKey: ReadonlyMap<string, Metric>): MetricValue[] {
  const out: MetricValue[] = [];
  for (const [key, stored, at] of job.m) {
    const metric = byKey.get(key);
    const v = fromStored(stored);
    if (!metric || !v.ok || !suits(metric, v.value)) continue;
    out.push({ metric, value: v.value, timestamp: at ?? job.t, historical: true });
  }
  return out;
}

/** Whether a stored value has the JS type the metric's datatype takes now (types.ts toSparkplug). */
function suits(m: Pick<Metric, 'datatype'>, v: SparkplugValue | null): boolean {
  return v === null || typeof v === typeof sampleOf(m.datatype);
}

/** A value of the JS type toSparkplug gives for `dt`. */
function sampleOf(dt: DataType): SparkplugValue {
  switch (dt) {
    case DATATYPES.Boolean:
      return false;
    case DATATYPES.String:
    case DATATYPES.Text:
    case DATATYPES.UUID:
      return '';
    case DATATYPES.Int64:
    case DATATYPES.UInt64:
    case DATATYPES.DateTime:
      return 0n;
    default:
      return 0;
  }
}
