// A row of the data points as the NoSQL databases take it (design/services.md NoSQL; docs/services.md
// "NoSQL rows"). Pure: the engine sends these, the unit tests read them.
//
// - InfluxDB 1.x: one line of the line protocol per row in `measurement`, with the section's tag
//   when tag name and value are both given (spec §5), one field per data point typed from its kind
//   (integers with `i`, doubles, booleans, strings quoted), the time stamp in milliseconds (the
//   write goes with precision=ms). The point's key (measurement, tag, time) is the row's identity: a
//   replayed row overwrites itself. InfluxDB 1.x integers are signed 64-bit: an unsigned 64-bit
//   value above 2^63-1, NaN and the infinities are refused before the row is queued.
// - MongoDB: one document per row, _id the row key (a replay is a duplicate key, left out), the
//   time stamp a BSON date, 64-bit and unsigned 32-bit integers as Long (an unsigned 64-bit value
//   above 2^63-1 as Decimal128), doubles as Double even when whole, the PLC's DT values as their
//   text (a calendar time of the PLC without a zone).
import type { Decimal128, Double, Long } from 'mongodb';
import type { DbRow, RowValue } from '../service-runtime/db-row.ts';
import { TIME_COLUMN } from '../sql/dialects.ts';

export const INT64_MAX = 2n ** 63n - 1n;

/** Measurement names: commas and spaces escaped (line protocol). */
const measurementEscape = (s: string) => s.replace(/[, ]/g, (c) => `\\${c}`);
/** Tag keys, tag values and field keys: commas, equals signs and spaces escaped. */
const keyEscape = (s: string) => s.replace(/[,= ]/g, (c) => `\\${c}`);
const stringField = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** Why a value cannot be an InfluxDB 1.x field ('' when it can). */
export function influxRefusal(kind: DbRow['columns'][number][1], v: RowValue): string {
  if (kind === 'u64' && BigInt(String(v)) > INT64_MAX) return `${String(v)} is above InfluxDB's largest integer (2^63-1)`;
  if (typeof v === 'number' && !Number.isFinite(v)) return `${v} is no InfluxDB field value`;
  return '';
}

/** The InfluxDB 1.x field type a point of `kind` is written as (what SHOW FIELD KEYS calls it). */
export function influxFieldType(kind: DbRow['columns'][number][1]): 'float' | 'boolean' | 'string' | 'integer' {
  if (kind === 'f64') return 'float';
  if (kind === 'bool') return 'boolean';
  return kind === 'ascii' || kind === 'string' || kind === 'datetime' ? 'string' : 'integer';
}

/**
 * Why a measurement holding `existing` fields ([key, type] as SHOW FIELD KEYS answers) refuses rows
 * of `columns` ('' when it takes them): a field of another type is a field type conflict, the rows'
 * table_mismatch. A field the measurement does not have yet is added by the first point.
 */
export function influxFieldConflicts(columns: DbRow['columns'], existing: readonly (readonly [string, string])[]): string {
  return columns
    .flatMap(([name, kind]) => {
      const want = influxFieldType(kind);
      const other = existing.filter(([key, type]) => key === name && type !== want).map(([, type]) => type);
      return other.length ? [`field ${name} is ${other.join(' and ')}, the data point writes ${want}`] : [];
    })
    .join('; ');
}

function fieldValue(kind: DbRow['columns'][number][1], v: RowValue): string {
  switch (kind) {
    case 'f64':
      return String(v);
    case 'bool':
      return v ? 'true' : 'false';
    case 'ascii':
    case 'string':
    case 'datetime':
      return stringField(String(v));
    default:
      return `${String(v)}i`;
  }
}

/** The row as one line of the line protocol (time in ms). */
export function influxLine(measurement: string, tag: { name: string; value: string } | undefined, row: DbRow): string {
  const fields = row.columns.map(([name, kind], i) => `${keyEscape(name)}=${fieldValue(kind, row.values[i]!)}`).join(',');
  const tags = tag ? `,${keyEscape(tag.name)}=${keyEscape(tag.value)}` : '';
  return `${measurementEscape(measurement)}${tags} ${fields} ${Math.trunc(row.at)}`;
}

export interface BsonTypes {
  Long: typeof Long;
  Double: typeof Double;
  Decimal128: typeof Decimal128;
}

function bsonValue(b: BsonTypes, kind: DbRow['columns'][number][1], v: RowValue): unknown {
  switch (kind) {
    case 'u32':
    case 'i64':
      return b.Long.fromString(String(v));
    case 'u64':
      return BigInt(String(v)) > INT64_MAX ? b.Decimal128.fromString(String(v)) : b.Long.fromString(String(v));
    case 'f64':
      return new b.Double(Number(v));
    default:
      return v;
  }
}

/** The row as a MongoDB document. */
export function mongoDocument(b: BsonTypes, row: DbRow): Record<string, unknown> {
  const doc: Record<string, unknown> = { _id: row.key, [TIME_COLUMN]: new Date(row.at) };
  row.columns.forEach(([name, kind], i) => {
    doc[name] = bsonValue(b, kind, row.values[i]!);
  });
  return doc;
}
