// One row of a database client's data points (spec §3 "SQL and NoSQL data points"; design/services.md
// SQL, NoSQL): the points read through the section's interface and station, decoded with the data
// logger's value code (the read planner, types, endianness, scaling, the CSV's rounding to the
// point's decimals: device/logger, one implementation), and kept as a job of the crash-safe queue
// with its time stamp and a unique row key, so a replay after a kill can never write it twice.
import { randomBytes } from 'node:crypto';
import { PlcError } from '../com/dialog.ts';
import { LinkError } from '../com/queue.ts';
import { formatNumber } from '../logger/csv-numbers.ts';
import { type LimitOf, planReads } from '../logger/planner.ts';
import type { LogWordArea, PointSource } from '../logger/types.ts';
import { pointValue } from '../logger/values.ts';
import type { ServiceErrorName } from '../model/blocks/convention.ts';
import type { DataFormat, DataPoint } from '../model/sections/datapoint.ts';
import { STRING_MAX, wordsOf } from '../model/sections/datapoint.ts';
import type { LogType } from '../model/sections/logfile.ts';
import { RequestFault } from './plc-text.ts';

/** How a column holds a point's value, whatever the database (the dialects map it to their types). */
export const COLUMN_KINDS = ['i16', 'u16', 'i32', 'u32', 'i64', 'u64', 'f64', 'bool', 'ascii', 'string', 'datetime'] as const;
export type ColumnKind = (typeof COLUMN_KINDS)[number];

/** A value of a row: 64-bit integers as decimal text (exact, and JSON holds them). */
export type RowValue = number | string | boolean;

export interface DbRow {
  /** unique per row: the time stamp in hex (so keys sort in time order) and 8 random hex digits */
  key: string;
  /** when the points were read (unit clock, ms since the epoch) */
  at: number;
  /** [point name, kind] in data point order */
  columns: [string, ColumnKind][];
  values: RowValue[];
  /** the target the row was read for (service-runtime/job-targets.ts) */
  target?: string;
}

export const isDbRow = (v: unknown): v is DbRow => {
  const r = v as Partial<DbRow> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.key === 'string' &&
    typeof r.at === 'number' &&
    Array.isArray(r.columns) &&
    Array.isArray(r.values) &&
    r.columns.length === r.values.length &&
    (r.target === undefined || typeof r.target === 'string') &&
    r.columns.every((c) => Array.isArray(c) && typeof c[0] === 'string' && (COLUMN_KINDS as readonly string[]).includes(c[1] as string))
  );
};

/** Rows with the same columns go into one statement: this is what they share. */
export const columnsSignature = (row: Pick<DbRow, 'columns'>): string => row.columns.map(([n, k]) => `${n}:${k}`).join(',');

/** The leading rows that share the first row's columns: one statement or write carries them (a batch is never empty). */
export const sameColumnsPrefix = (rows: readonly DbRow[]): DbRow[] => {
  const sig = columnsSignature(rows[0]!);
  const end = rows.findIndex((r) => columnsSignature(r) !== sig);
  return rows.slice(0, end < 0 ? rows.length : end);
};

/** A refusal that names the data point it stumbled on (index in the data point list). */
export class PointFault extends RequestFault {
  constructor(
    code: Exclude<ServiceErrorName, 'none'>,
    message: string,
    readonly point: number,
  ) {
    super(code, message);
  }
}

/** the logger's type code of each data point type (spec §3 log data types); BOOL is a bit */
const LOG_TYPE: Record<Exclude<DataFormat, 'BOOL'>, LogType> = {
  INT: 0,
  UINT: 1,
  HEX: 2,
  BIN: 3,
  DINT: 4,
  UDINT: 5,
  HEX32: 6,
  REAL: 7,
  REALEX: 8,
  INT64: 9,
  UINT64: 10,
  ASCII: 11,
  DT: 12,
  STRING: 13,
  LREAL: 14,
  LREALEX: 15,
};
const KIND: Record<DataFormat, ColumnKind> = {
  INT: 'i16',
  UINT: 'u16',
  HEX: 'u16',
  BIN: 'u16',
  DINT: 'i32',
  UDINT: 'u32',
  HEX32: 'u32',
  INT64: 'i64',
  UINT64: 'u64',
  REAL: 'f64',
  REALEX: 'f64',
  LREAL: 'f64',
  LREALEX: 'f64',
  BOOL: 'bool',
  ASCII: 'ascii',
  STRING: 'string',
  DT: 'datetime',
};
const EXP_TYPES: readonly DataFormat[] = ['REALEX', 'LREALEX'];
/** a bit point: the type and scaling do not apply */
const BIT_DECODING = { type: 1, endian: 'little', enable_scal: false, scal_plc_min: 0, scal_plc_max: 1, scal_log_min: 0, scal_log_max: 1 } as const;
const BIT_WORDS: Partial<Record<DataPoint['area'], LogWordArea>> = { X: 'WX', Y: 'WY', R: 'WR' };

/** The kind of a point's column: a scaled number is a double whatever its PLC type. */
export function columnKind(p: Pick<DataPoint, 'type' | 'enable_scal'>): ColumnKind {
  const k = KIND[p.type];
  return p.enable_scal && k !== 'bool' && k !== 'ascii' && k !== 'string' && k !== 'datetime' ? 'f64' : k;
}

/** The columns of a row of `points` ([name, kind] in data point order), known before anything is read. */
export const pointColumns = (points: readonly DataPoint[]): DbRow['columns'] => points.map((p) => [p.name, columnKind(p)]);

/** Where a point's words are: X, Y, R are read as WX, WY, WR words; a BOOL is one bit of its word. */
export function pointSource(p: DataPoint, index: number, interfaceId: number, station: number): PointSource {
  const area = BIT_WORDS[p.area] ?? (p.area as LogWordArea);
  const bool = p.type === 'BOOL';
  return { key: String(index), interfaceId, station, area, word: p.address, words: bool ? 1 : wordsOf(p.type), ...(bool ? { bit: p.bit } : {}) };
}

/** A unique, time-ordered row key. */
export function rowKey(at: number): string {
  return `${Math.max(0, Math.trunc(at)).toString(16).padStart(12, '0')}-${randomBytes(4).toString('hex')}`;
}

const swap = (w: number) => ((w & 0xff) << 8) | ((w >> 8) & 0xff);

/** The value of point `p` from its words: the logger's decoding and scaling, floats rounded as its CSV rounds them. */
export function rowValue(p: DataPoint, index: number, words: readonly number[]): RowValue {
  if (p.type === 'BOOL') return pointValue(BIT_DECODING, words, p.bit) === 1;
  if (p.type === 'STRING') {
    // the STRING header's current length (mewtocol.md §2.2); the logger caps it, a database row refuses it
    const current = (p.endian === 'big' || p.endian === 'mixed' ? swap(words[1] ?? 0) : (words[1] ?? 0)) & 0xffff;
    if (current > STRING_MAX) throw new PointFault('bad_string', `${p.name}: the PLC's STRING holds ${current} characters, at most ${STRING_MAX}`, index);
  }
  const value = pointValue(
    {
      type: LOG_TYPE[p.type],
      endian: p.endian,
      enable_scal: p.enable_scal,
      scal_plc_min: p.scale_plc_min,
      scal_plc_max: p.scale_plc_max,
      scal_log_min: p.scale_log_min,
      scal_log_max: p.scale_log_max,
    },
    words,
  );
  if (value === null) throw new PointFault('plc_area', `${p.name}: ${words.length} words do not hold a ${p.type}`, index);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return value;
  if (columnKind(p) !== 'f64' || !Number.isFinite(value)) return value;
  return Number(formatNumber(value, { decimals: p.decimal, notation: EXP_TYPES.includes(p.type) ? 'exp' : 'fixed' }, '.'));
}

export interface RowSource {
  points: readonly DataPoint[];
  interfaceId: number;
  station: number;
  limitOf: LimitOf;
  readWords(area: LogWordArea, start: number, count: number): Promise<number[]>;
}

function readFault(e: unknown, what: string, point: number): PointFault {
  const text = e instanceof Error ? e.message : String(e);
  if (e instanceof PlcError && e.reason === 'plc_error') return new PointFault('plc_area', `${what}: the PLC refused the read (${text})`, point);
  const timeout = (e instanceof PlcError && e.reason === 'no_answer') || (e instanceof LinkError && e.code === 'timeout');
  return new PointFault(timeout ? 'timeout' : 'other', `${what}: ${text}`, point);
}

/** Reads every point (the logger's fewest block reads) into one row stamped `at`; a read the PLC refuses is plc_area. */
export async function readRow(src: RowSource, at: number): Promise<DbRow> {
  const sources = src.points.map((p, i) => pointSource(p, i, src.interfaceId, src.station));
  const words = new Map<string, number[]>();
  for (const b of planReads(sources, src.limitOf)) {
    const first = Number(b.points[0]);
    let got: number[];
    try {
      got = await src.readWords(b.area, b.start, b.count);
    } catch (e) {
      throw readFault(e, `${src.points[first]!.name} (${b.area}${b.start} + ${b.count} words)`, first);
    }
    for (const key of b.points) {
      const s = sources[Number(key)]!;
      words.set(key, got.slice(s.word - b.start, s.word - b.start + s.words));
    }
  }
  return {
    key: rowKey(at),
    at,
    columns: pointColumns(src.points),
    values: src.points.map((p, i) => rowValue(p, i, words.get(String(i)) ?? [])),
  };
}
