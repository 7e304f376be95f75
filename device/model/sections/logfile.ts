// Data logger: one log file (entry of log_def) and its data points (spec §3 "Data logger", §5, §9 Logger).
import * as v from 'valibot';
import { BIT_ADDRESS_RE, bitAddress, bool, choice, FILE_NAME_RE, int, list, NAME_RE, num, obj, pattern, text } from '../fields.ts';
import { type Issue, issue, msg } from '../issues.ts';
import { AREA_MAX, INTERFACE_IDS, INTERNAL_ID, STATION_MAX } from '../plc.ts';

export const MAX_LOG_FILES = 16; // spec §9: log files 16
export const MAX_POINTS = 700; // spec §9: data points 700 (across all log files)

// spec §3: log areas DT1, FL2, LD3, X4, Y5, R6; X/Y/R are bit areas addressed as in spec §5
export const LOG_AREAS = { 1: 'DT', 2: 'FL', 3: 'LD', 4: 'X', 5: 'Y', 6: 'R' } as const;
export const LOG_AREA_CODES = [1, 2, 3, 4, 5, 6] as const;
export type LogArea = (typeof LOG_AREA_CODES)[number];
const BIT_AREAS: readonly number[] = [4, 5, 6];
// spec §9 word limits; for bit areas the limit applies to the word part of the bit address
const AREA_LIMIT: Record<LogArea, number> = { 1: AREA_MAX.DT, 2: AREA_MAX.FL, 3: AREA_MAX.LD, 4: AREA_MAX.WX, 5: AREA_MAX.WY, 6: AREA_MAX.WR };

// spec §3: log data types coded 0-15 (the index is the code)
export const LOG_TYPES = [
  'int',
  'uint',
  'hex',
  'bin',
  'dint',
  'udint',
  'hex32',
  'real',
  'realex',
  'int64',
  'uint64',
  'ascii',
  'dt',
  'string',
  'lreal',
  'lrealex',
] as const;
export const LOG_TYPE_CODES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] as const;
export type LogType = (typeof LOG_TYPE_CODES)[number];
export const STRING_TYPE = 13;
export const STRING_LEN_MAX = 48; // spec §3/§9: STRING max 48 chars
const TEXT_TYPES: readonly number[] = [11, 13]; // ascii, string
const WIDE_TYPES: readonly number[] = [9, 10, 14, 15]; // 64-bit: int64, uint64, lreal, lrealex
/**
 * Registers a value occupies: 16-bit 1, 32-bit and DT (seconds since 2001) 2, 64-bit 4, a STRING[n]
 * its 2-word header and 2 characters a word (n = the record's str_len, 48 at most).
 */
export function typeWords(type: number, strLen: number = STRING_LEN_MAX): number {
  if (type === STRING_TYPE) return 2 + Math.ceil(strLen / 2);
  if (WIDE_TYPES.includes(type)) return 4;
  return (type >= 4 && type <= 8) || type === 12 ? 2 : 1;
}

export const TRIGGERS = [0, 1, 2, 3, 4] as const; // spec §3: disabled, fixed cycle, specified time, condition, PLC flag
export const CONDITION = 3;
export const PLC_FLAG = 4;
export const SPLITS = ['minute', 'hour', 'day', 'week', 'month', 'year'] as const; // spec §3
export const VALUE_KINDS = ['momentary', 'difference', 'average'] as const; // spec §3
export const ENDIANS = ['little', 'big', 'middle', 'mixed'] as const; // spec §3

const SCALE = 1e300; // any finite value
const required = (max: number, ...checks: Parameters<typeof text>[2][]) => text(max, '', v.nonEmpty<string, string>(msg('required')), ...checks);

export const recordSchema = obj({
  id: int(1, MAX_POINTS, 1),
  name: required(
    70,
    v.check((s: string) => s === '' || /^[A-Za-z]/.test(s), msg('must_start_with_letter')), // empty: 'required' alone
    pattern(NAME_RE, 'invalid_characters'),
  ), // spec §9: column name 70
  dim: text(7, ''), // spec §9: unit 7
  if: choice(INTERFACE_IDS, INTERNAL_ID),
  plc_addr: int(0, STATION_MAX, 0), // spec §9: station number 99
  reg_addr: text(6, '0', v.nonEmpty<string, string>(msg('required'))), // decimal word address, or a bit address for X/Y/R; checked per area
  area: choice(LOG_AREA_CODES, 1),
  type: choice(LOG_TYPE_CODES, 0),
  // STRING only: n of the PLC variable's STRING[n], the characters it holds; settings stored without it have 48
  str_len: int(1, STRING_LEN_MAX, STRING_LEN_MAX),
  format: choice(VALUE_KINDS, 'momentary'),
  endian: choice(ENDIANS, 'little'), // FP PLCs keep the low word first
  decimal: int(0, 18, 0), // spec §9: decimals 9 (18 for 64-bit)
  enable_scal: bool(false),
  scal_plc_max: num(-SCALE, SCALE, 100),
  scal_plc_min: num(-SCALE, SCALE, 0),
  scal_log_max: num(-SCALE, SCALE, 100),
  scal_log_min: num(-SCALE, SCALE, 0),
  // Sparkplug B (docs/sparkplug.md): a host may write the point (DCMD); off, settings stored without it are read-only
  sparkplug_writable: bool(false),
  // Sparkplug B report by exception: a number is published when it moved more than this (0: any change)
  sparkplug_deadband: num(0, SCALE, 0),
});
export type LogRecord = v.InferOutput<typeof recordSchema>;

export const logFileSchema = obj({
  id: int(1, MAX_LOG_FILES, 1),
  name: required(30, pattern(FILE_NAME_RE, 'invalid_file_name')), // spec §5 file names, §9 file name 30
  interface: choice(INTERFACE_IDS, INTERNAL_ID),
  trigger: choice(TRIGGERS, 1),
  plc_addr: int(0, STATION_MAX, 0), // spec §9: station number 99
  split: choice(SPLITS, 'day'), // spec §9: split per day
  cycle: int(1, 86500, 900), // spec §9: log cycle 1-86500 s, default 900
  last_trig: int(0, 0xffffffff, 0), // Unix seconds of the last trigger (kept across restarts), 0 = never
  cond_trig: bitAddress(''), // R flag starting condition logging (3) or requesting a record (4)
  cond_end: bitAddress(''), // R flag ending condition logging; empty: ends when cond_trig falls
  enable_cond_store: bool(false),
  cond_store: bitAddress(''), // R flag that writes the cached records at once
  repeat_count: int(0, 65535, 0), // spec §9: number of logs 65535; records per trigger, 0 = no limit
  time_start: int(0, 86399, 0), // specified-time trigger (2): first record of the day, seconds after midnight
  delay_store: int(1, 20, 10), // spec §9: cache 20, delay store 10: records kept before one write (§5 storage wear)
  file_max: int(0, 100, 0), // spec §4/§9: files kept before auto delete, 0 = never delete
  records: list(recordSchema, MAX_POINTS),
});
export type LogFile = v.InferOutput<typeof logFileSchema>;

/** A point's address against its area's range (spec §9), the words its type takes included; `at` the path of the point. */
export function addressRules(r: Pick<LogRecord, 'area' | 'reg_addr' | 'type' | 'str_len'>, at: string): Issue[] {
  const limit = AREA_LIMIT[r.area];
  if (BIT_AREAS.includes(r.area)) {
    if (!BIT_ADDRESS_RE.test(r.reg_addr)) return [issue(`${at}.reg_addr`, 'invalid_bit_address')];
    const word = r.reg_addr.length > 1 ? Number(r.reg_addr.slice(0, -1)) : 0; // last digit is the bit (hex)
    return word > limit ? [issue(`${at}.reg_addr`, 'address_out_of_range', { min: 0, max: limit })] : [];
  }
  if (!/^\d+$/.test(r.reg_addr)) return [issue(`${at}.reg_addr`, 'invalid_characters')];
  const max = limit - typeWords(r.type, r.str_len) + 1;
  return Number(r.reg_addr) > max ? [issue(`${at}.reg_addr`, 'address_out_of_range', { min: 0, max })] : [];
}

function recordRules(r: LogRecord, at: string): Issue[] {
  const out = addressRules(r, at);
  if (!WIDE_TYPES.includes(r.type) && r.decimal > 9) out.push(issue(`${at}.decimal`, 'out_of_range', { min: 0, max: 9 }));
  if (TEXT_TYPES.includes(r.type) && r.format !== 'momentary') out.push(issue(`${at}.format`, 'invalid_value', { allowed: ['momentary'] }));
  // a linear scale needs two distinct PLC values
  if (r.enable_scal && r.scal_plc_min >= r.scal_plc_max) out.push(issue(`${at}.scal_plc_min`, 'start_after_end'));
  return out;
}

/** Rules inside one log file; `at` is its path, e.g. `log_def.0`. */
export function logFileRules(f: LogFile, at: string): Issue[] {
  const out: Issue[] = [];
  if ((f.trigger === CONDITION || f.trigger === PLC_FLAG) && f.cond_trig === '') out.push(issue(`${at}.cond_trig`, 'required'));
  if (f.enable_cond_store && f.cond_store === '') out.push(issue(`${at}.cond_store`, 'required'));
  const ids = new Set<number>();
  f.records.forEach((r, j) => {
    const rat = `${at}.records.${j}`;
    if (ids.has(r.id)) out.push(issue(`${rat}.id`, 'duplicate'));
    ids.add(r.id);
    out.push(...recordRules(r, rat));
  });
  return out;
}
