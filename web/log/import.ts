// CSV import of variables (spec §2 /log "CSV import/export of variables", §5 "Log CSV import":
// filter text of at least 2 characters; column numbers for name (default 2), FP address (4), data
// type (5), comment (7); one header line by default, up to 30; up to 100 columns; §8 "No valid
// entries in csv file found"). The text is a global variable list as FPWIN Pro exports it:
//
//   Class;Identifier;IEC address;FP address;Type;Initial value;Comment
//   VAR_GLOBAL;Tank_Level;%MW5.100;DT100;INT;0;Level in mm
//
// Pure: text and options in, the variables and the reason for every row left out. Each variable is
// checked with the same record schema and rules the daemon uses (device/model/sections/logfile.ts),
// so a row is refused for the same reason the daemon would refuse the point.
//
// Decisions where the spec is silent:
// - The filter is optional: empty imports every row; otherwise a row is imported when its name or
//   its comment contains the filter text (case ignored). One character is refused (spec §5).
// - The comment is not stored: a record has no comment field, and `dim` is a 7-character unit
//   (spec §9), not a description. It is used by the filter and shown in the preview.
// - A name that appears twice (in the file, or already in the log file) is left out the second
//   time, compared without case: CSV column names must tell the columns apart.
// - The separator is found by itself unless one is chosen.
import * as v from 'valibot';
import type { ErrorCode, IssueParams } from '../../device/model/issues.ts';
import { toIssues, withDefaults } from '../../device/model/section.ts';
import { type LogArea, type LogFile, type LogRecord, type LogType, logFileRules, logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import { detectSeparator, parseCsv, type Separator } from './csv.ts';
import { parseTypeName } from './data-types.ts';
import { type AddressProblem, parseFpAddress } from './fp-address.ts';

export interface ImportOptions {
  filter: string;
  separator: 'auto' | Separator;
  headerLines: number;
  nameColumn: number;
  addressColumn: number;
  typeColumn: number;
  commentColumn: number;
}

export const IMPORT_DEFAULTS: ImportOptions = {
  filter: '',
  separator: 'auto',
  headerLines: 1,
  nameColumn: 2,
  addressColumn: 4,
  typeColumn: 5,
  commentColumn: 7,
};
export const FILTER_MIN = 2; // spec §5
export const HEADER_LINES_MAX = 30; // spec §5
export const COLUMNS_MAX = 100; // spec §5
export const COLUMN_OPTIONS = ['nameColumn', 'addressColumn', 'typeColumn', 'commentColumn'] as const;

export type OptionIssue =
  | { field: 'filter'; code: 'filter_short'; params: { min: number } }
  | { field: 'headerLines' | (typeof COLUMN_OPTIONS)[number]; code: 'out_of_range'; params: { min: number; max: number } };

/** What is wrong with the options (the import runs only without issues). */
export function optionIssues(o: ImportOptions): OptionIssue[] {
  const out: OptionIssue[] = [];
  if (o.filter.trim() !== '' && o.filter.trim().length < FILTER_MIN) out.push({ field: 'filter', code: 'filter_short', params: { min: FILTER_MIN } });
  const whole = (n: number, min: number, max: number) => Number.isInteger(n) && n >= min && n <= max;
  if (!whole(o.headerLines, 0, HEADER_LINES_MAX)) out.push({ field: 'headerLines', code: 'out_of_range', params: { min: 0, max: HEADER_LINES_MAX } });
  for (const c of COLUMN_OPTIONS) if (!whole(o[c], 1, COLUMNS_MAX)) out.push({ field: c, code: 'out_of_range', params: { min: 1, max: COLUMNS_MAX } });
  return out;
}

export interface ImportedVariable {
  line: number;
  name: string;
  comment: string;
  area: LogArea;
  reg_addr: string;
  type: LogType;
  /** STRING only: n of its STRING[n] */
  str_len?: number;
}

export type SkipReason = 'missing_field' | AddressProblem | 'unknown_type' | 'string_too_long' | 'bool_needs_bit' | ErrorCode;

export interface SkippedRow {
  line: number;
  /** the name column as read ('' when missing) */
  name: string;
  reason: SkipReason;
  /** the value the reason is about (an address, a type name) */
  value?: string;
  params?: IssueParams;
}

export interface ImportResult {
  variables: ImportedVariable[];
  skipped: SkippedRow[];
  /** rows the filter left out */
  filtered: number;
  separator: Separator;
}

const baseFile = withDefaults(logFileSchema, { name: 'import' }) as LogFile;

/** The first problem the daemon would report for this point, if any. */
function recordProblem(rec: Record<string, unknown>): { code: ErrorCode; params?: IssueParams } | undefined {
  const parsed = v.safeParse(recordSchema, rec);
  if (!parsed.success) return toIssues(parsed.issues)[0];
  return logFileRules({ ...baseFile, records: [parsed.output] }, 'f')[0];
}

/**
 * The variables of a variable list. `taken` are the names the log file has already (left out as
 * duplicates). The options must be free of optionIssues.
 */
export function parseVariables(text: string, o: ImportOptions, taken: Iterable<string> = []): ImportResult {
  const separator = o.separator === 'auto' ? detectSeparator(text) : o.separator;
  const rows = parseCsv(text, separator).slice(o.headerLines);
  const filter = o.filter.trim().toLowerCase();
  const seen = new Set([...taken].map((n) => n.toLowerCase()));
  const variables: ImportedVariable[] = [];
  const skipped: SkippedRow[] = [];
  let filtered = 0;
  for (const { line, fields } of rows) {
    if (fields.every((f) => f.trim() === '')) continue; // a blank line
    const cell = (col: number) => fields[col - 1]?.trim();
    const name = cell(o.nameColumn) ?? '';
    const comment = cell(o.commentColumn) ?? '';
    if (filter && !name.toLowerCase().includes(filter) && !comment.toLowerCase().includes(filter)) {
      filtered++;
      continue;
    }
    const skip = (reason: SkipReason, extra: Partial<SkippedRow> = {}) => skipped.push({ line, name, reason, ...extra });
    const address = cell(o.addressColumn);
    const typeText = cell(o.typeColumn);
    if (!name || !address || !typeText) {
      skip('missing_field');
      continue;
    }
    const at = parseFpAddress(address);
    if (!at.ok) {
      skip(at.reason, { value: address });
      continue;
    }
    const type = parseTypeName(typeText);
    if (!type.ok) {
      skip(type.reason, { value: typeText });
      continue;
    }
    if (type.bool && !at.bit) {
      skip('bool_needs_bit', { value: address });
      continue;
    }
    const strLen = type.strLen === undefined ? {} : { str_len: type.strLen };
    const problem = recordProblem({ ...(withDefaults(recordSchema, {}) as object), name, area: at.area, reg_addr: at.reg_addr, type: type.type, ...strLen });
    if (problem) {
      skip(problem.code, problem.params ? { params: problem.params } : {});
      continue;
    }
    if (seen.has(name.toLowerCase())) {
      skip('duplicate');
      continue;
    }
    seen.add(name.toLowerCase());
    variables.push({ line, name, comment, area: at.area, reg_addr: at.reg_addr, type: type.type, ...strLen });
  }
  return { variables, skipped, filtered, separator };
}

const REAL_TYPES: readonly number[] = [7, 8, 14, 15]; // real, realex, lreal, lrealex

/**
 * The data points for imported variables, appended to a log file: ids after its last one, read
 * through the log file's interface; floating-point values with 2 decimals, everything else as the
 * schema's defaults.
 */
export function importedRecords(vars: readonly ImportedVariable[], file: Pick<LogFile, 'interface' | 'records'>): LogRecord[] {
  return vars.map(
    (x, i) =>
      withDefaults(recordSchema, {
        id: file.records.length + i + 1,
        name: x.name,
        if: file.interface,
        area: x.area,
        reg_addr: x.reg_addr,
        type: x.type,
        ...(x.str_len === undefined ? {} : { str_len: x.str_len }),
        decimal: REAL_TYPES.includes(x.type) ? 2 : 0,
      }) as LogRecord,
  );
}
