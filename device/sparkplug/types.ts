// Sparkplug B datatypes (3.0 chapter 6, payloads-metric-datatype-value-type) and how the data
// logger's types and areas map onto them (docs/sparkplug.md): the datatype a point is announced
// with, the protobuf value field it travels in, its value as Sparkplug carries it, and back.
import type { LogValue } from '../logger/types.ts';
import { dtText, intRange, SECONDS_1970_TO_2001 } from '../logger/values.ts';
import { dtSeconds } from '../logger/values-text.ts';
import type { LogRecord, LogType } from '../model/sections/logfile.ts';

/** The scalar datatypes (payloads-metric-datatype-value); DataSet, Bytes, File, Template and the arrays are not used. */
export const DATATYPES = {
  Int8: 1,
  Int16: 2,
  Int32: 3,
  Int64: 4,
  UInt8: 5,
  UInt16: 6,
  UInt32: 7,
  UInt64: 8,
  Float: 9,
  Double: 10,
  Boolean: 11,
  String: 12,
  DateTime: 13,
  Text: 14,
  UUID: 15,
} as const;
export type DataTypeName = keyof typeof DATATYPES;
export type DataType = (typeof DATATYPES)[DataTypeName];

/** The Metric value fields a scalar travels in (sparkplug_b.proto, oneof value). */
export type ValueField = 'int_value' | 'long_value' | 'float_value' | 'double_value' | 'boolean_value' | 'string_value';

const FIELD: Record<DataType, ValueField> = {
  1: 'int_value',
  2: 'int_value',
  3: 'int_value',
  4: 'long_value',
  5: 'int_value',
  6: 'int_value',
  // the specification's table says uint32; Tahu (Java, JS, C) and Ignition send and read long_value
  // (sparkplug#102, tahu#397): we send long_value and take either
  7: 'long_value',
  8: 'long_value',
  9: 'float_value',
  10: 'double_value',
  11: 'boolean_value',
  12: 'string_value',
  13: 'long_value',
  14: 'string_value',
  15: 'string_value',
};

/** The field a value of `dt` is sent in. */
export const valueField = (dt: DataType): ValueField => FIELD[dt];

/** The fields a value of `dt` is taken from in a command: the one it is sent in, and int_value for UInt32 as the specification's table has it. */
export const acceptedFields = (dt: DataType): readonly ValueField[] => (dt === DATATYPES.UInt32 ? ['int_value', 'long_value'] : [FIELD[dt]]);

export const isDataType = (n: number): n is DataType => Number.isInteger(n) && n >= 1 && n <= 15;

/** Integer datatypes: bits and signedness (Int8..UInt64). */
const INTS: Partial<Record<DataType, { bits: number; signed: boolean }>> = {
  1: { bits: 8, signed: true },
  2: { bits: 16, signed: true },
  3: { bits: 32, signed: true },
  4: { bits: 64, signed: true },
  5: { bits: 8, signed: false },
  6: { bits: 16, signed: false },
  7: { bits: 32, signed: false },
  8: { bits: 64, signed: false },
};

/** An integer datatype's bits and signedness; undefined for the others. */
export const intKind = (dt: DataType): { bits: number; signed: boolean } | undefined => INTS[dt];

// logger type code → datatype (logfile.ts LOG_TYPES): hex and bin are unsigned words, realex and
// lrealex the same IEEE values, dt the PLC clock's seconds since 2001, ascii two characters
const BY_LOG_TYPE: Record<LogType, DataType> = {
  0: DATATYPES.Int16,
  1: DATATYPES.UInt16,
  2: DATATYPES.UInt16,
  3: DATATYPES.UInt16,
  4: DATATYPES.Int32,
  5: DATATYPES.UInt32,
  6: DATATYPES.UInt32,
  7: DATATYPES.Float,
  8: DATATYPES.Float,
  9: DATATYPES.Int64,
  10: DATATYPES.UInt64,
  11: DATATYPES.String,
  12: DATATYPES.DateTime,
  13: DATATYPES.String,
  14: DATATYPES.Double,
  15: DATATYPES.Double,
};
const BIT_AREAS: readonly number[] = [4, 5, 6]; // X, Y, R (logfile.ts LOG_AREAS)

/** A point's datatype: Boolean for a bit (X, Y, R), Double when scaled (the logger's scaled value is a number), else by its type. */
export function pointDataType(r: Pick<LogRecord, 'type' | 'area' | 'enable_scal'>): DataType {
  if (BIT_AREAS.includes(r.area)) return DATATYPES.Boolean;
  if (r.enable_scal && BY_LOG_TYPE[r.type] !== DATATYPES.String && BY_LOG_TYPE[r.type] !== DATATYPES.DateTime) return DATATYPES.Double;
  return BY_LOG_TYPE[r.type];
}

/** A scalar as Sparkplug carries it: 64-bit integers and DateTime (ms since 1970 UTC) as bigint. */
export type SparkplugValue = number | bigint | boolean | string;

/**
 * The Sparkplug value of a point's logged value (null: the read failed, sent as is_null). dt's
 * `YYYY-MM-DD HH:MM:SS` is the PLC clock read as UTC (as the logger writes it), in ms since 1970.
 * A value that does not suit the datatype (settings changed under a running read) is null too.
 */
export function toSparkplug(dt: DataType, v: LogValue): SparkplugValue | null {
  if (v === null) return null;
  switch (dt) {
    case DATATYPES.Boolean:
      return v === 1 || v === 1n;
    case DATATYPES.DateTime:
      try {
        return BigInt(SECONDS_1970_TO_2001 + dtSeconds(v)) * 1000n;
      } catch {
        return null;
      }
    case DATATYPES.String:
    case DATATYPES.Text:
    case DATATYPES.UUID:
      return typeof v === 'string' ? v : null;
    case DATATYPES.Float:
    case DATATYPES.Double:
      return typeof v === 'string' ? null : Number(v);
    case DATATYPES.Int64:
    case DATATYPES.UInt64:
      return typeof v === 'string' ? null : BigInt(v);
    default:
      return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null;
  }
}

/**
 * The value a host asks to write to a point of log type `type` (a DCMD), as encodeValue takes it,
 * or why it cannot be: `type` when the value's kind does not suit, `range` when outside the type's
 * range (intRange), not finite, or a DateTime outside the PLC clock (2001..2137), `scaled` for a
 * scaled point (not written in this version: the inverse scale would round).
 * Texts are checked by encodeValue itself (length, characters).
 */
export function fromSparkplug(
  r: Pick<LogRecord, 'type' | 'area' | 'enable_scal'>,
  v: SparkplugValue,
): { ok: true; value: number | bigint | string } | { ok: false; reason: 'type' | 'range' | 'scaled' } {
  const dt = pointDataType(r);
  // the inverse of a scale rounds: writes to scaled points are refused (docs/sparkplug.md)
  if (r.enable_scal && dt === DATATYPES.Double) return { ok: false, reason: 'scaled' };
  if (dt === DATATYPES.Boolean) return typeof v === 'boolean' ? { ok: true, value: v ? 1 : 0 } : { ok: false, reason: 'type' };
  if (dt === DATATYPES.String) return typeof v === 'string' ? { ok: true, value: v } : { ok: false, reason: 'type' };
  if (dt === DATATYPES.DateTime) {
    if (typeof v !== 'bigint' || v % 1000n !== 0n) return { ok: false, reason: typeof v === 'bigint' ? 'range' : 'type' };
    const seconds = v / 1000n - BigInt(SECONDS_1970_TO_2001);
    try {
      return { ok: true, value: dtText(dtSeconds(seconds)) };
    } catch {
      return { ok: false, reason: 'range' };
    }
  }
  if (typeof v !== 'number' && typeof v !== 'bigint') return { ok: false, reason: 'type' };
  const range = intRange(r.type);
  if (range === undefined || dt === DATATYPES.Double) {
    const n = Number(v);
    if (!Number.isFinite(n)) return { ok: false, reason: 'range' };
    if (dt === DATATYPES.Float && Math.abs(n) > 3.4028234663852886e38) return { ok: false, reason: 'range' };
    return { ok: true, value: n };
  }
  if (typeof v === 'number' && !Number.isInteger(v)) return { ok: false, reason: 'range' };
  const n = BigInt(v);
  if (n < range[0] || n > range[1]) return { ok: false, reason: 'range' };
  return { ok: true, value: range[1] > BigInt(Number.MAX_SAFE_INTEGER) ? n : Number(n) };
}
