// What a DCMD may write into the PLC (docs/sparkplug.md "Commands"): each metric of the command is
// matched to a metric of ours by alias or name, and taken only when the admin marked it writable
// (sparkplug_writable), its value came in a field its datatype travels in and lies in the logger
// type's range (payload.ts commandValue, types.ts fromSparkplug), and its area can be written (not
// the X inputs). The answer is the words or the bit to write, or why not. Pure: run.ts writes
// through the link queue and audits.
import { BIT_WORD_AREAS } from '../logger/points.ts';
import type { LogWordArea } from '../logger/types.ts';
import { encodeValue } from '../logger/values.ts';
import { LOG_AREAS } from '../model/sections/logfile.ts';
import type { Metric, MetricTable } from './metrics.ts';
import { type CommandMetric, commandValue } from './payload.ts';
import { fromSparkplug, type SparkplugValue } from './types.ts';

/** Why a metric of a DCMD is not written. */
export type WriteRefusal = 'unknown_metric' | 'read_only' | 'input' | 'datatype' | 'field' | 'null' | 'range' | 'type' | 'scaled';

export type PlcWrite = { kind: 'words'; area: LogWordArea; word: number; words: number[] } | { kind: 'bit'; area: 'Y' | 'R'; index: number; value: boolean };

export type WritePlan = { ok: true; metric: Metric; value: SparkplugValue; write: PlcWrite } | { ok: false; metric?: Metric; reason: WriteRefusal };

/** The metric a command names: by alias when it has one (payloads-alias-data-cmd-requirement), else by name. */
export function commandTarget(table: Pick<MetricTable, 'byAlias' | 'byName'>, c: CommandMetric): Metric | undefined {
  if (c.alias !== undefined) return c.alias <= BigInt(Number.MAX_SAFE_INTEGER) ? table.byAlias.get(Number(c.alias)) : undefined;
  return c.name === undefined ? undefined : table.byName.get(c.name);
}

/** The write a DCMD metric asks for, or why it is refused. */
export function planWrite(table: Pick<MetricTable, 'byAlias' | 'byName'>, c: CommandMetric): WritePlan {
  const metric = commandTarget(table, c);
  if (!metric) return { ok: false, reason: 'unknown_metric' };
  if (!metric.writable) return { ok: false, metric, reason: 'read_only' };
  const area = LOG_AREAS[metric.record.area];
  if (area === 'X') return { ok: false, metric, reason: 'input' };
  const got = commandValue(metric.datatype, c);
  if (!got.ok) return { ok: false, metric, reason: got.reason };
  const value = fromSparkplug(metric.record, got.value);
  if (!value.ok) return { ok: false, metric, reason: value.reason };
  const s = metric.source;
  if (area === 'Y' || area === 'R') {
    if (BIT_WORD_AREAS[area] !== s.area || s.bit === undefined) return { ok: false, metric, reason: 'type' };
    return { ok: true, metric, value: got.value, write: { kind: 'bit', area, index: s.word * 16 + s.bit, value: value.value === 1 } };
  }
  try {
    const words = encodeValue(metric.record.type, value.value, metric.record.endian, metric.record.str_len);
    return { ok: true, metric, value: got.value, write: { kind: 'words', area: s.area, word: s.word, words } };
  } catch {
    return { ok: false, metric, reason: 'range' }; // a text too long or with characters the PLC cannot hold
  }
}
