// The edge node's device metrics (docs/sparkplug.md): the data logger's points read on the PLC's
// interface (model/sparkplug.ts), each with its metric name `<log file>/<variable>`, an alias, its
// datatype (types.ts), where it is read (logger/points.ts), its scaling, unit, writability and
// deadband, and a key that outlives a reorder of the lists (for values kept while offline).
import { pointSource } from '../logger/points.ts';
import type { Log, LogRecord, PointSource } from '../logger/types.ts';
import type { Pew } from '../model/sections/pew.ts';
import { sparkplugPoints } from '../model/sparkplug.ts';
import { DATATYPES, type DataType, pointDataType, type SparkplugValue } from './types.ts';

export interface Metric {
  /** `<log file id>/<record id>`: stays when lists are reordered or renamed, unlike the alias */
  key: string;
  /** `<log file>/<variable>` (model/sparkplug.ts sparkplugMetricName) */
  name: string;
  /** 1.. in birth order (log file, then record); unique among the node's metrics (payloads-alias-uniqueness) */
  alias: number;
  datatype: DataType;
  /** where the value is read: interface, station, word area, word, words, bit */
  source: PointSource;
  /** the logger point: type, endian, str_len, scaling, area and reg_addr as entered */
  record: LogRecord;
  /** the unit (dim), '' when none: the engUnit property of the births */
  unit: string;
  writable: boolean;
  /** a number is reported when it moved more than this; 0: any change */
  deadband: number;
}

/** A point of the device's interface that is not a metric, and why: `duplicate` name but for case, or the address code of points.ts. */
export interface SkippedPoint {
  key: string;
  name: string;
  reason: string;
}

export interface MetricTable {
  metrics: Metric[];
  skipped: SkippedPoint[];
  byAlias: Map<number, Metric>;
  byName: Map<string, Metric>;
}

/** The metrics of the device on the PLC's interface (pew.interface_plc), aliases 1.. in log_def order. */
export function metricTable(log: Pick<Log, 'log_def'>, pew: Pick<Pew, 'interface_plc'>): MetricTable {
  const metrics: Metric[] = [];
  const skipped: SkippedPoint[] = [];
  for (const p of sparkplugPoints(log, pew.interface_plc)) {
    const key = `${p.file.id}/${p.record.id}`;
    if (p.duplicate) {
      skipped.push({ key, name: p.name, reason: 'duplicate' });
      continue;
    }
    const source = pointSource(p.file, p.record, `${p.fileIndex}.${p.recordIndex}`);
    if (!source.ok) {
      skipped.push({ key, name: p.name, reason: source.error.code });
      continue;
    }
    const r = p.record;
    metrics.push({
      key,
      name: p.name,
      alias: metrics.length + 1,
      datatype: pointDataType(r),
      source: source.value,
      record: r,
      unit: r.dim,
      writable: r.sparkplug_writable,
      deadband: r.sparkplug_deadband,
    });
  }
  return { metrics, skipped, byAlias: new Map(metrics.map((m) => [m.alias, m])), byName: new Map(metrics.map((m) => [m.name, m])) };
}

/**
 * Report by exception: whether `next` is to be published after `last` was. Numbers when they moved
 * more than the deadband (bigint compared as bigint), anything else on any change; null ↔ value
 * always counts, and so does NaN ↔ a number.
 */
export function changed(m: Pick<Metric, 'deadband' | 'datatype'>, last: SparkplugValue | null, next: SparkplugValue | null): boolean {
  if (last === null || next === null) return last !== next;
  if (typeof last === 'bigint' && typeof next === 'bigint' && m.datatype !== DATATYPES.DateTime) {
    const d = next > last ? next - last : last - next;
    return m.deadband === 0 ? d !== 0n : Number(d) > m.deadband;
  }
  if (typeof last === 'number' && typeof next === 'number') {
    if (Number.isNaN(last) || Number.isNaN(next)) return Number.isNaN(last) !== Number.isNaN(next);
    return m.deadband === 0 ? last !== next : Math.abs(next - last) > m.deadband;
  }
  return last !== next;
}
