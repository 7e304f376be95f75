// The script language of the unit (the default script documents it: device/system/default-script.ts;
// docs/script.md): sections, statements, areas, types, the limits and the error codes a parse
// reports. Pure: the console's editor and the daemon read the same definitions.
import { AREA_MAX, type WordArea } from '../plc.ts';

/** the unit's own memory (mewtocol.md §9 INTERN: holding registers 0–32767 are the user area) */
export const INTERN = 'INTERN';
export const INTERN_MAX = 32767;
export type ScriptArea = WordArea | typeof INTERN;
export const SCRIPT_AREAS: readonly ScriptArea[] = ['DT', 'LD', 'FL', 'WR', 'WL', 'WX', 'WY', INTERN];
/** highest address of each area (spec §9 word limits; INTERN its user area) */
export const SCRIPT_AREA_MAX: Readonly<Record<ScriptArea, number>> = { ...AREA_MAX, [INTERN]: INTERN_MAX };
/** areas the PLC only lets the unit read (inputs) */
export const READ_ONLY_AREAS: readonly ScriptArea[] = ['WX'];

export const SCRIPT_TYPES = ['INT', 'UINT', 'DINT', 'UDINT', 'REAL', 'BOOL'] as const;
export type ScriptType = (typeof SCRIPT_TYPES)[number];
/** words each type takes in PLC memory (32-bit values low word first, mewtocol.md §2.2) */
export const TYPE_WORDS: Readonly<Record<ScriptType, number>> = { INT: 1, UINT: 1, DINT: 2, UDINT: 2, REAL: 2, BOOL: 1 };

export const CYCLE_MIN = 1; // seconds; the default script: [cycle N] 1 - 86400
export const CYCLE_MAX = 86400;
export const LINES_MAX = 2000;
export const VARIABLES_MAX = 256;
export const NAME_MAX = 32;
export const APPEND_MAX = 64; // values in one append line
export const FILE_NAME_MAX = 30; // spec §9: file name 30
export const FLAG_WORD_MAX = 999; // spec §5: up to 3 decimal digits and one hex digit

export const SCRIPT_ERROR_CODES = [
  'unknown_statement', // a word that is no statement of the language
  'outside_section', // a statement before the first section
  'unknown_section', // [something] that is not init, cycle N or on FLAG
  'duplicate_section', // the same section twice
  'cycle_range', // [cycle N] with N outside 1 - 86400
  'bad_flag', // [on FLAG] with no relay address such as R10A
  'bad_area', // an area that is not DT, LD, FL, WR, WL, WX, WY or INTERN
  'bad_address', // an address that is no number or beyond the area
  'read_only_area', // a write into an input area
  'bad_type', // a type that is not INT, UINT, DINT, UDINT, REAL or BOOL
  'bad_name', // a name that does not start with a letter or holds other characters, or is too long
  'bad_value', // a value that is neither a number nor a name
  'value_range', // a number the type cannot hold
  'unknown_name', // a name no read statement of the script sets
  'bad_file_name', // a file name that is not NAME.csv
  'bad_file_placeholder', // a % in a file name that is no date or time placeholder (%Y %y %m %d %H %M %S %W)
  'no_file', // append in a script without a file statement
  'syntax', // the statement's parts are not in their order (an '=' missing, a word too many)
  'too_many_lines',
  'too_many_names',
  'too_many_values',
] as const;
export type ScriptErrorCode = (typeof SCRIPT_ERROR_CODES)[number];

export interface ScriptError {
  /** 1-based */
  line: number;
  /** 1-based, the first character of the part in error */
  column: number;
  code: ScriptErrorCode;
  params?: Record<string, string | number>;
}

export interface Operand {
  area: ScriptArea;
  address: number;
  type: ScriptType;
}

export type Value = { kind: 'number'; value: number } | { kind: 'name'; name: string };

export type Statement =
  | ({ op: 'read'; line: number; name: string } & Operand)
  | ({ op: 'write'; line: number; value: Value } & Operand)
  | { op: 'file'; line: number; name: string }
  | { op: 'append'; line: number; names: string[] }
  | { op: 'send'; line: number };

export type SectionHead =
  | { kind: 'init' }
  | { kind: 'cycle'; seconds: number }
  /** the relay R<word><bit>: word and bit of WR */
  | { kind: 'on'; flag: string; word: number; bit: number };

export type Section = SectionHead & { line: number; statements: Statement[] };

export interface Program {
  sections: Section[];
  /** every name a read statement sets, in order of first appearance */
  names: string[];
}

export interface ParseResult {
  program: Program;
  /** sorted by line and column; a program with errors must not run */
  errors: ScriptError[];
}

/** The section's label as the script writes it: init, cycle 60, on R10A. */
export const sectionLabel = (s: SectionHead): string => (s.kind === 'init' ? 'init' : s.kind === 'cycle' ? `cycle ${s.seconds}` : `on ${s.flag}`);

/** The range a type holds, for numbers written into the PLC. */
export const TYPE_RANGE: Readonly<Record<ScriptType, readonly [number, number]>> = {
  INT: [-32768, 32767],
  UINT: [0, 65535],
  DINT: [-2147483648, 2147483647],
  UDINT: [0, 4294967295],
  REAL: [-3.4028234663852886e38, 3.4028234663852886e38],
  BOOL: [0, 1],
};
