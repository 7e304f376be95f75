// Data points the SQL and NoSQL clients read from the PLC and insert (spec §3 "SQL and NoSQL data
// points", enumerations; §9 limits), and the facts both database clients share.
import * as v from 'valibot';
import { certName } from '../common.ts';
import { bool, choice, int, list, num, obj, pattern, text } from '../fields.ts';
import { type Issue, issue, msg } from '../issues.ts';
import { AREA_MAX, DT_MAX, INTERFACE_IDS, INTERNAL_ID, STATION_MAX } from '../plc.ts';
import type { InterfaceUse } from '../section.ts';

export const MAX_DATAPOINTS = 100; // spec §9: datalist without PLC 100
export const COLUMN_NAME_MAX = 70; // spec §9: column name 70
export const UNIT_MAX = 7; // spec §9: unit 7
export const STRING_MAX = 48; // spec §3/§9: STRING max 48 characters
export const DB_NAME_MAX = 63; // database/table names: PostgreSQL keeps 63 characters (MySQL 64, MS SQL 128)

// spec §3 enumerations: data formats, endianness
export const DATA_FORMATS = [
  'INT',
  'UINT',
  'HEX',
  'BIN',
  'DINT',
  'UDINT',
  'HEX32',
  'REAL',
  'LREAL',
  'REALEX',
  'LREALEX',
  'INT64',
  'UINT64',
  'ASCII',
  'DT',
  'STRING',
  'BOOL',
] as const;
export type DataFormat = (typeof DATA_FORMATS)[number];
export const ENDIANS = ['little', 'big', 'middle', 'mixed'] as const;

// PLC words a value occupies: a STRING is its 2-word header plus 2 characters a word; DT is the
// 32-bit seconds count of the PLC clock; ASCII is the 2 characters of one word
const WORDS: Record<DataFormat, number> = {
  INT: 1,
  UINT: 1,
  HEX: 1,
  BIN: 1,
  BOOL: 1,
  ASCII: 1,
  DINT: 2,
  UDINT: 2,
  HEX32: 2,
  REAL: 2,
  REALEX: 2,
  DT: 2,
  LREAL: 4,
  LREALEX: 4,
  INT64: 4,
  UINT64: 4,
  STRING: 2 + STRING_MAX / 2,
};
export const wordsOf = (type: DataFormat) => WORDS[type];
export const is64Bit = (type: DataFormat) => WORDS[type] === 4;
// spec §9: decimals 9 (18 for 64-bit)
export const DECIMALS_MAX = 9;
export const DECIMALS_MAX_64 = 18;

// spec §3 log areas DT, FL, LD, X, Y, R; the relay areas are read as words (WX, WY, WR)
export const DATA_AREAS = ['DT', 'FL', 'LD', 'X', 'Y', 'R'] as const;
export const DATA_AREA_MAX: Record<(typeof DATA_AREAS)[number], number> = {
  DT: AREA_MAX.DT,
  FL: AREA_MAX.FL,
  LD: AREA_MAX.LD,
  X: AREA_MAX.WX,
  Y: AREA_MAX.WY,
  R: AREA_MAX.WR,
};

// a column (field) name: spec §5 starts with a letter; letters, digits and underscore need no quoting
const COLUMN_RE = /^[A-Za-z][A-Za-z0-9_]*$/;
const columnName = () =>
  text(
    COLUMN_NAME_MAX,
    '',
    v.check((s: string) => s === '' || /^[A-Za-z]/.test(s), msg('must_start_with_letter')),
    pattern(COLUMN_RE, 'invalid_characters'),
  );

// the scaling ends are whole or decimal numbers a double holds exactly
const scale = (def: number) => num(-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, def);

export const dataPointSchema = obj({
  name: columnName(),
  area: choice(DATA_AREAS, 'DT'),
  address: int(0, DT_MAX, 0), // first word; the end is checked against the area by the rules
  bit: int(0, 15, 0), // BOOL only: the bit in the word (R10A = word 10, bit 10)
  type: choice(DATA_FORMATS, 'INT'),
  decimal: int(0, DECIMALS_MAX_64, 0),
  endian: choice(ENDIANS, 'little'), // FP PLCs keep the low word first
  unit: text(UNIT_MAX),
  enable_scal: bool(false),
  scale_plc_min: scale(0),
  scale_plc_max: scale(100),
  scale_log_min: scale(0),
  scale_log_max: scale(100),
});
export type DataPoint = v.InferOutput<typeof dataPointSchema>;

export const datalist = () => list(dataPointSchema, MAX_DATAPOINTS);

function dataPointIssues(p: DataPoint, at: string): Issue[] {
  const out: Issue[] = [];
  if (p.name === '') out.push(issue(`${at}.name`, 'required'));
  const lastStart = DATA_AREA_MAX[p.area] - wordsOf(p.type) + 1;
  if (p.address > lastStart) out.push(issue(`${at}.address`, 'address_out_of_range', { min: 0, max: lastStart }));
  if (!is64Bit(p.type) && p.decimal > DECIMALS_MAX) out.push(issue(`${at}.decimal`, 'out_of_range', { min: 0, max: DECIMALS_MAX }));
  // scaling divides by the PLC span; a reversed scale is set with the log ends
  if (p.enable_scal && p.scale_plc_min >= p.scale_plc_max) out.push(issue(`${at}.scale_plc_min`, 'start_after_end'));
  return out;
}

/** The columns the unit writes beside the data points of an SQL row (docs/services.md "SQL rows"). */
export const DB_TIME_COLUMN = 'time_stamp';
export const DB_KEY_COLUMN = 'row_key';
export const SQL_OWN_COLUMNS: readonly string[] = [DB_TIME_COLUMN, DB_KEY_COLUMN];

/** Every data point valid on its own, column names unique and none named as a column the unit writes itself. */
export function datalistIssues(points: readonly DataPoint[], own: readonly string[]): Issue[] {
  const out: Issue[] = [];
  const seen = new Set<string>();
  points.forEach((p, i) => {
    out.push(...dataPointIssues(p, `datalist.${i}`));
    const key = p.name.toLowerCase(); // column names compare without case on MS SQL and MySQL
    if (p.name !== '' && seen.has(key)) out.push(issue(`datalist.${i}.name`, 'duplicate'));
    if (own.includes(key)) out.push(issue(`datalist.${i}.name`, 'name_reserved', { name: p.name }));
    seen.add(key);
  });
  return out;
}

interface DbClient {
  enable_sql: boolean;
  insertWithoutPLC: boolean;
  interface: number;
  datalist: DataPoint[];
}

/** Inserting without the PLC reads the data points itself, so it needs some (spec §5). */
export function insertIssues(d: DbClient): Issue[] {
  return d.enable_sql && d.insertWithoutPLC && d.datalist.length === 0 ? [issue('datalist', 'required')] : [];
}

/** spec §5: insert-without-PLC reads through `interface`, which then must not be transparent. */
export function insertInterfaces(d: DbClient): InterfaceUse[] {
  return d.enable_sql && d.insertWithoutPLC ? [{ path: 'interface', interfaceId: d.interface, purpose: 'insert' }] : [];
}

/**
 * Fields SQL and NoSQL share (spec §3: NoSQL is "like SQL"): certificates, encryption, and where
 * the data points come from.
 */
export const dbClientEntries = {
  timeout: int(3, 120, 10), // spec §9: SQL timeout 3-120 s
  ca: certName('ca'),
  client: certName('client'),
  key: certName('key'),
  use_encryption: bool(true), // spec §5 warns about unencrypted connections
  ca_verification: bool(true), // the server certificate must verify
  insertWithoutPLC: bool(false), // the unit inserts the data points every poll time by itself
};
export const dbSourceEntries = {
  interface: choice(INTERFACE_IDS, INTERNAL_ID), // the interface the data points are read through
  plc_addr: int(0, STATION_MAX, 0), // spec §9: station number 99
  datalist: datalist(),
};
