// Sparkplug B payloads of the edge node (3.0 chapter 6): NBIRTH, DBIRTH, DDATA, NDEATH, DDEATH built
// from the metric table and encoded with protobufjs (proto.ts), and NCMD/DCMD decoded defensively.
// The protobuf code loads on first use: `await loadPayloads()`, then everything is synchronous.
//
// - Encoders take values the program chose; a value that does not suit its datatype, or a seq
//   outside 0..255, throws (Tahu would silently send 0: docs/sparkplug.md).
// - decodeCommand takes bytes from the network and never throws: a size limit before decoding, a
//   schema without message-typed metric fields (proto.ts), scalars only, 64-bit values as bigint.
import type { Metric } from './metrics.ts';
import { acceptedFields, DATATYPES, type DataType, intKind, isDataType, type SparkplugValue, type ValueField, valueField } from './types.ts';

/** Node metrics (operational-behavior-data-commands-ncmd-rebirth-name, payloads-ndeath-bdseq). */
export const BDSEQ = 'bdSeq';
export const REBIRTH = 'Node Control/Rebirth';
/** An NCMD/DCMD larger than this is refused before decoding. */
export const MAX_COMMAND_BYTES = 64 * 1024;
/** A command with more metrics than this is refused (the device has at most 700). */
export const MAX_COMMAND_METRICS = 1024;

/** One value for a DBIRTH or DDATA: the metric, its value (null: is_null) and when it was read (ms since 1970 UTC). */
export interface MetricValue {
  metric: Pick<Metric, 'name' | 'alias' | 'datatype' | 'unit'>;
  value: SparkplugValue | null;
  timestamp: number;
  /** DDATA only: a value kept while not birthed, sent after the births (is_historical) */
  historical?: boolean;
}

interface Head {
  /** the payload's timestamp: the publish time, ms since 1970 UTC (payloads-timestamp-in-UTC) */
  timestamp: number;
}
interface Sequenced extends Head {
  /** 0..255 (payloads-sequence-num-incrementing); session.ts owns it */
  seq: number;
}

type Message = Record<string, unknown>;
const MASK64 = (1n << 64n) - 1n;

/** A 64-bit value as protobufjs writes it, without depending on which long.js it has. */
function longBits(n: bigint): { low: number; high: number; unsigned: boolean } {
  const u = n & MASK64;
  return { low: Number(u & 0xffffffffn) | 0, high: Number(u >> 32n) | 0, unsigned: true };
}

function checkSeq(seq: number): void {
  if (!Number.isInteger(seq) || seq < 0 || seq > 255) throw new RangeError(`seq ${seq} is not 0..255`);
}

/** The value of `dt` in its field, checked: the wrong kind or a value out of the type's range throws. */
function wireValue(dt: DataType, v: SparkplugValue): unknown {
  const int = intKind(dt);
  if (int) {
    if (typeof v !== 'number' && typeof v !== 'bigint') throw new TypeError(`datatype ${dt} takes a number, not ${typeof v}`);
    if (typeof v === 'number' && !Number.isInteger(v)) throw new RangeError(`${v} is not a whole number`);
    const n = BigInt(v);
    const min = int.signed ? -(1n << BigInt(int.bits - 1)) : 0n;
    const max = (int.signed ? 1n << BigInt(int.bits - 1) : 1n << BigInt(int.bits)) - 1n;
    if (n < min || n > max) throw new RangeError(`${v} does not fit datatype ${dt}`);
    // Int8/16/32: sign-extended to 32 bits in the uint32 (what Tahu sends and reads); 64-bit: two's complement
    return valueField(dt) === 'int_value' ? Number(BigInt.asUintN(32, n)) : longBits(n);
  }
  switch (dt) {
    case DATATYPES.Float:
    case DATATYPES.Double:
      if (typeof v !== 'number') throw new TypeError(`datatype ${dt} takes a number, not ${typeof v}`);
      return v;
    case DATATYPES.Boolean:
      if (typeof v !== 'boolean') throw new TypeError(`Boolean takes a boolean, not ${typeof v}`);
      return v;
    case DATATYPES.DateTime:
      if (typeof v !== 'bigint' || v < 0n || v > MASK64) throw new TypeError(`DateTime takes ms since 1970 as a bigint, not ${String(v)}`);
      return longBits(v);
    default:
      if (typeof v !== 'string') throw new TypeError(`datatype ${dt} takes a string, not ${typeof v}`);
      return v;
  }
}

/** A metric with its datatype and value (or is_null) and the given other fields. */
function metricMessage(dt: DataType, value: SparkplugValue | null, fields: Message): Message {
  const m: Message = { ...fields, datatype: dt };
  if (value === null) m.is_null = true;
  else m[valueField(dt)] = wireValue(dt, value);
  return m;
}

/** A built payload, to be encoded by the codec loadPayloads gives. */
export interface PayloadMessage {
  timestamp?: number;
  seq?: number;
  metrics: Message[];
}

/**
 * NBIRTH: seq 0, bdSeq (Int64) of this connection's will, and Node Control/Rebirth (Boolean false, no
 * alias), each with a metric timestamp (topics-nbirth-seq-num, payloads-nbirth-bdseq,
 * topics-nbirth-bdseq-matching, operational-behavior-data-commands-ncmd-rebirth-name,
 * payloads-name-birth-data-requirement, payloads-nbirth-timestamp).
 */
export function nbirthMessage(p: Head & { bdSeq: number }): PayloadMessage {
  return {
    timestamp: p.timestamp,
    seq: 0,
    metrics: [
      metricMessage(DATATYPES.Int64, BigInt(p.bdSeq), { name: BDSEQ, timestamp: p.timestamp }),
      metricMessage(DATATYPES.Boolean, false, { name: REBIRTH, timestamp: p.timestamp }),
    ],
  };
}

/**
 * DBIRTH: every metric with name, alias, datatype, value (or is_null) and the time it was read, and
 * an engUnit property when it has a unit (payloads-alias-birth-requirement, topics-dbirth-metrics,
 * payloads-name-birth-data-requirement, payloads-metric-propertyvalue-type-req).
 */
export function dbirthMessage(p: Sequenced & { values: readonly MetricValue[] }): PayloadMessage {
  checkSeq(p.seq);
  const metrics = p.values.map(({ metric: m, value, timestamp }) => {
    const props = m.unit === '' ? {} : { properties: { keys: ['engUnit'], values: [{ type: DATATYPES.String, string_value: m.unit }] } };
    return metricMessage(m.datatype, value, { name: m.name, alias: longBits(BigInt(m.alias)), timestamp, ...props });
  });
  return { timestamp: p.timestamp, seq: p.seq, metrics };
}

/**
 * DDATA: the changed metrics by alias only, no name (payloads-alias-data-cmd-requirement), with their
 * datatype (a SHOULD NOT of payloads-metric-datatype-not-req, kept: Tahu's decoder reads a metric
 * without it as null), a metric timestamp each, is_historical for values kept while not birthed.
 */
export function ddataMessage(p: Sequenced & { values: readonly MetricValue[] }): PayloadMessage {
  checkSeq(p.seq);
  const metrics = p.values.map(({ metric: m, value, timestamp, historical }) =>
    metricMessage(m.datatype, value, { alias: longBits(BigInt(m.alias)), timestamp, ...(historical ? { is_historical: true } : {}) }),
  );
  return { timestamp: p.timestamp, seq: p.seq, metrics };
}

/** NDEATH (the will, or published before an intentional disconnect): bdSeq only, no seq (topics-ndeath-payload, topics-ndeath-seq, payloads-ndeath-bdseq). */
export function ndeathMessage(p: Head & { bdSeq: number }): PayloadMessage {
  return { timestamp: p.timestamp, metrics: [metricMessage(DATATYPES.Int64, BigInt(p.bdSeq), { name: BDSEQ })] };
}

/** DDEATH: seq and timestamp, no metrics (operational-behavior-device-ddeath, payloads-ddeath-seq). */
export function ddeathMessage(p: Sequenced): PayloadMessage {
  checkSeq(p.seq);
  return { timestamp: p.timestamp, seq: p.seq, metrics: [] };
}

// ---------------------------------------------------------------------------------------------
// Commands

/** A value field as it came: uint32 as a number, uint64 as an unsigned bigint. */
export interface RawValue {
  field: ValueField;
  value: number | bigint | boolean | string;
}

/** One metric of an NCMD/DCMD as decoded, not yet matched to a metric of ours. */
export interface CommandMetric {
  name?: string;
  alias?: bigint;
  timestamp?: bigint;
  datatype?: number;
  isNull: boolean;
  /** every value field present (one, normally) */
  values: RawValue[];
}

export interface Command {
  timestamp?: bigint;
  seq?: bigint;
  metrics: CommandMetric[];
}

/** Why a command payload was refused as a whole. */
export type CommandRefusal = 'too_large' | 'malformed' | 'too_many_metrics' | 'unsupported_datatype';
export type CommandResult = { ok: true; command: Command } | { ok: false; reason: CommandRefusal; message: string };

const VALUE_FIELDS: readonly ValueField[] = ['int_value', 'long_value', 'float_value', 'double_value', 'boolean_value', 'string_value'];

/** A uint64 as protobufjs decoded it (a Long, or a number when exact) as a bigint. */
function uint64(x: unknown): bigint {
  if (typeof x === 'number' && Number.isSafeInteger(x) && x >= 0) return BigInt(x);
  if (typeof x === 'object' && x !== null && 'low' in x && 'high' in x)
    return (BigInt((x as { high: number }).high >>> 0) << 32n) | BigInt((x as { low: number }).low >>> 0);
  throw new RangeError('a 64-bit field that is no Long');
}

function commandMetric(m: Message): CommandMetric {
  const has = (k: string) => Object.hasOwn(m, k);
  const out: CommandMetric = { isNull: has('is_null') && m.is_null === true, values: [] };
  if (has('name')) out.name = m.name as string;
  if (has('alias')) out.alias = uint64(m.alias);
  if (has('timestamp')) out.timestamp = uint64(m.timestamp);
  if (has('datatype')) out.datatype = m.datatype as number;
  for (const field of VALUE_FIELDS)
    if (has(field)) out.values.push({ field, value: field === 'long_value' ? uint64(m[field]) : (m[field] as number | boolean | string) });
  return out;
}

/** Decodes the body of an NCMD/DCMD: never throws, refuses what it cannot read safely. */
export function decodeCommandWith(decode: (bytes: Uint8Array) => Message, bytes: Uint8Array): CommandResult {
  if (bytes.length > MAX_COMMAND_BYTES) return { ok: false, reason: 'too_large', message: `${bytes.length} bytes, at most ${MAX_COMMAND_BYTES}` };
  try {
    const p = decode(bytes);
    const metrics = (Object.hasOwn(p, 'metrics') ? p.metrics : []) as Message[];
    if (metrics.length > MAX_COMMAND_METRICS)
      return { ok: false, reason: 'too_many_metrics', message: `${metrics.length} metrics, at most ${MAX_COMMAND_METRICS}` };
    const command: Command = { metrics: metrics.map(commandMetric) };
    const odd = command.metrics.find((c) => c.datatype !== undefined && !isDataType(c.datatype));
    if (odd) return { ok: false, reason: 'unsupported_datatype', message: `datatype ${odd.datatype} is no scalar` };
    if (Object.hasOwn(p, 'timestamp')) command.timestamp = uint64(p.timestamp);
    if (Object.hasOwn(p, 'seq')) command.seq = uint64(p.seq);
    return { ok: true, command };
  } catch (e) {
    return { ok: false, reason: 'malformed', message: e instanceof Error ? e.message : String(e) };
  }
}

/** Why a command metric's value is not taken for a metric of datatype dt. */
export type ValueRefusal = 'datatype' | 'field' | 'null' | 'range';

/**
 * The value a command metric carries for a metric of datatype `dt`: from a field that datatype travels
 * in (UInt32: int_value or long_value), exactly one, in range (operational-behavior-data-commands-dcmd-metric-value).
 * Int8/16/32 come sign-extended to 32 bits or in their own width's two's complement (both are sent).
 */
export function commandValue(dt: DataType, m: CommandMetric): { ok: true; value: SparkplugValue } | { ok: false; reason: ValueRefusal } {
  if (m.datatype !== undefined && m.datatype !== dt) return { ok: false, reason: 'datatype' };
  if (m.isNull) return { ok: false, reason: 'null' };
  const raw = m.values.length === 1 ? m.values[0]! : undefined;
  if (!raw || !acceptedFields(dt).includes(raw.field)) return { ok: false, reason: 'field' };
  const int = intKind(dt);
  if (int) {
    const u = BigInt(raw.value as number | bigint);
    if (!int.signed) return u < 1n << BigInt(int.bits) ? { ok: true, value: int.bits === 64 ? u : Number(u) } : { ok: false, reason: 'range' };
    if (int.bits === 64) return { ok: true, value: BigInt.asIntN(64, u) };
    const half = 1n << BigInt(int.bits - 1);
    const own = u < 2n * half; // the type's own width: 0..2^bits-1, two's complement
    const extended = u >= (1n << 32n) - half; // sign-extended to 32 bits: a negative
    if (u < half || own || extended) return { ok: true, value: Number(BigInt.asIntN(int.bits, u)) };
    return { ok: false, reason: 'range' };
  }
  return { ok: true, value: raw.value };
}

/** Whether an NCMD asks for a rebirth: Node Control/Rebirth as Boolean true (operational-behavior-data-commands-ncmd-rebirth-verb, -name, -value). */
export function asksRebirth(c: Command): boolean {
  return c.metrics.some((m) => {
    if (m.name !== REBIRTH) return false;
    const v = commandValue(DATATYPES.Boolean, m);
    return v.ok && v.value === true;
  });
}

// ---------------------------------------------------------------------------------------------
// The codec

export interface PayloadCodec {
  /** The protobuf bytes of a payload built above. */
  encode(p: PayloadMessage): Uint8Array;
  /** The body of an NCMD/DCMD: a command or a refusal; never throws. */
  decodeCommand(bytes: Uint8Array): CommandResult;
}

let codec: Promise<PayloadCodec> | undefined;

/** The codec, loading protobufjs and the schema on first use (a chunk of its own in the daemon bundle). */
export function loadPayloads(): Promise<PayloadCodec> {
  codec ??= import('./proto.ts').then(({ PayloadType, CommandPayloadType }) => ({
    encode: (p) => PayloadType.encode(p).finish(),
    decodeCommand: (bytes) => decodeCommandWith((b) => CommandPayloadType.decode(b) as unknown as Message, bytes),
  }));
  return codec;
}
