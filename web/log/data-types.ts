// Data type names of a variable list (FPWIN Pro's elementary types and the data formats of spec §3)
// and the log data types coded 0–15 (spec §3 "Log data types"; device/model/sections/logfile.ts).
// mewtocol.md §9 pairs them the same way in the unit's format file: INT S16, UINT US16, WORD HEX4,
// BIN BITS, DINT S32, UDINT US32, DWORD HEX8, REAL FLT, ASCII CHAR2.
//
// Decisions where the spec is silent: BOOL (a bit of X, Y or R) is logged as the number 0/1 and
// becomes `uint`; LINT/ULINT and DATE_AND_TIME are FPWIN's names for int64/uint64 and dt; a STRING
// longer than the logger's 48 characters (spec §3) is refused, not cut; its length n of STRING[n]
// is kept in the data point (str_len), and a STRING without one has the logger's 48.
import { type LogType, STRING_LEN_MAX, STRING_TYPE } from '../../device/model/sections/logfile.ts';

export const BOOL_TYPE: LogType = 1; // uint: 0 or 1

const BY_NAME: Record<string, LogType> = {
  INT: 0,
  UINT: 1,
  WORD: 2,
  HEX: 2,
  BIN: 3,
  DINT: 4,
  UDINT: 5,
  DWORD: 6,
  HEX32: 6,
  REAL: 7,
  REALEX: 8,
  INT64: 9,
  LINT: 9,
  UINT64: 10,
  ULINT: 10,
  ASCII: 11,
  DT: 12,
  DATE_AND_TIME: 12,
  STRING: STRING_TYPE,
  LREAL: 14,
  LREALEX: 15,
};
// the name each code is written with (FPWIN's where it has one, else the spec §3 data format)
const NAMES = [
  'INT',
  'UINT',
  'WORD',
  'BIN',
  'DINT',
  'UDINT',
  'DWORD',
  'REAL',
  'REALEX',
  'INT64',
  'UINT64',
  'ASCII',
  'DT',
  'STRING',
  'LREAL',
  'LREALEX',
] as const;

/** strLen: n of a STRING[n] (48 for a STRING without a length); not given for other types */
export type ParsedType = { ok: true; type: LogType; bool: boolean; strLen?: number } | { ok: false; reason: 'unknown_type' | 'string_too_long' };

const STRING_RE = /^STRING\s*(?:\[\s*([1-9]\d*)\s*\])?$/;

/** A type name as a variable list writes it (case and blanks do not matter): INT, DWORD, STRING[32], BOOL … */
export function parseTypeName(text: string): ParsedType {
  const s = text.trim().toUpperCase();
  if (s === 'BOOL') return { ok: true, type: BOOL_TYPE, bool: true };
  const str = STRING_RE.exec(s);
  if (str) {
    const strLen = str[1] === undefined ? STRING_LEN_MAX : Number(str[1]);
    return strLen > STRING_LEN_MAX ? { ok: false, reason: 'string_too_long' } : { ok: true, type: STRING_TYPE, bool: false, strLen };
  }
  const type = BY_NAME[s];
  return type === undefined ? { ok: false, reason: 'unknown_type' } : { ok: true, type, bool: false };
}

/** The name a record's type is exported with; a bit point (X, Y, R) logged as 0/1 is a BOOL; a STRING with its length. */
export function typeName(type: number, bitArea: boolean, strLen: number = STRING_LEN_MAX): string {
  if (bitArea && type === BOOL_TYPE) return 'BOOL';
  if (type === STRING_TYPE) return `STRING[${strLen}]`;
  return NAMES[type] ?? String(type);
}
