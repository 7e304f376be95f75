// The user-defined CSV format file (pew_log.header 4, pew_log.formatfile: a `.cfg` in
// `<dataDir>/logcfg/`; mewtocol.md §9 "CSV format file"). The syntax of the original unit:
//
//   - one statement a line, `%KEY=value`; `#` starts a comment (outside quotation marks);
//   - user text in quotation marks (`""` inside for a quotation mark itself);
//   - outside quotation marks `,` and `;` stand for the field separator, spaces are ignored;
//   - %DEF_TITLE="…" (required), %DEF_SEPARATOR (one character, `\t` for a tab; overrides
//     pew_log.csv_separator), %DEF_DATE and %DEF_TIME (formatWall designators %Y %y %m %d %H %M
//     %S %W), %DEF_INVALID (text of a failed read, at most 16 characters; default empty),
//     %DEF_FILENAME (accepted and kept, but files are named by the log file's split so that
//     retention and listings find them), %DEF_INT … %DEF_LREALEXP (the %DATAFORMATS text per type);
//   - %HEADER=<row> starts the header, each %HEADER+=<row> adds a row; a row is text, separators
//     and %COLUMNS %NAMES %COMS %REGISTERS %TYPES %KINDS %DATAFORMATS %UNITS (csv-row.ts);
//   - %LOGDATA=<row> the data line from %DATE %TIME %VALUES (default %DATE,%TIME,%VALUES).
//
// %TYPES gives the data type (INT, REAL …) as the original's example output shows; %KINDS, added
// here, gives the value kind. Keys of the original this unit does not implement are refused by
// name, so a file written for another unit reports what would differ instead of logging otherwise.
import type { LogType } from '../model/sections/logfile.ts';
import { fail, ok, type ProtocolError, type Result } from '../protocol/result.ts';
import { WALL_DESIGNATORS } from './csv-calendar.ts';
import { type RowPart, type RowVar, SEP, text, variable } from './csv-row.ts';

export interface UserFormat {
  title: string;
  separator?: string;
  fileName?: string;
  date?: string;
  time?: string;
  invalid?: string;
  /** the %DATAFORMATS text per log data type code */
  dataFormats: Readonly<Record<LogType, string>>;
  header: RowPart[][];
  line: RowPart[];
}

export interface FormatFileIssue {
  /** 1-based; 0 for the file as a whole */
  line: number;
  reason: string;
}

export interface FormatFileError extends ProtocolError {
  code: 'format_file';
  issues: FormatFileIssue[];
}

// mewtocol.md §9: INT S16, UINT US16, WORD HEX4, BIN BITS, DINT S32, UDINT US32, DWORD HEX8, REAL
// FLT, ASCII CHAR2; the types the original has no default for follow the same pattern
export const DEFAULT_DATA_FORMATS: Readonly<Record<LogType, string>> = {
  0: 'S16',
  1: 'US16',
  2: 'HEX4',
  3: 'BITS',
  4: 'S32',
  5: 'US32',
  6: 'HEX8',
  7: 'FLT',
  8: 'FLT',
  9: 'S64',
  10: 'US64',
  11: 'CHAR2',
  12: 'DT',
  13: 'STRING',
  14: 'DBL',
  15: 'DBL',
};
// the original's names, and the spec §3 type names for the same codes
const TYPE_KEYS: Record<string, LogType> = {
  DEF_INT: 0,
  DEF_UINT: 1,
  DEF_WORD: 2,
  DEF_HEX: 2,
  DEF_BIN: 3,
  DEF_DINT: 4,
  DEF_UDINT: 5,
  DEF_DWORD: 6,
  DEF_HEX32: 6,
  DEF_REAL: 7,
  DEF_REALEXP: 8,
  DEF_REALEX: 8,
  DEF_INT64: 9,
  DEF_UINT64: 10,
  DEF_ASCII: 11,
  DEF_DT: 12,
  DEF_STRING: 13,
  DEF_LREAL: 14,
  DEF_LREALEXP: 15,
  DEF_LREALEX: 15,
};
type Setting = 'title' | 'separator' | 'fileName' | 'date' | 'time' | 'invalid';
const SETTINGS: Record<string, Setting> = {
  DEF_TITLE: 'title',
  DEF_SEPARATOR: 'separator',
  DEF_FILENAME: 'fileName',
  DEF_DATE: 'date',
  DEF_TIME: 'time',
  DEF_INVALID: 'invalid',
};
const UNSUPPORTED: Record<string, string> = {
  DEF_DATETIME: 'use %DEF_DATE and %DEF_TIME',
  DEF_SPLIT_MINUTES: 'the file split is set per log file',
  DEF_DATA_TIMESTAMP: 'records carry the time of the unit or of the PLC clock (pew_log.plc_rtc_dt)',
  DEF_DATA_FILEEXT: 'file names follow the log file’s split',
};
const HEADER_VARS: readonly RowVar[] = ['COLUMNS', 'NAMES', 'COMS', 'REGISTERS', 'TYPES', 'KINDS', 'DATAFORMATS', 'UNITS'];
const LINE_VARS: readonly RowVar[] = ['DATE', 'TIME', 'VALUES'];
const INVALID_MAX = 16; // the original: error string max. 16 characters
const FILENAME_DESIGNATORS = 'yYmdWjHMSFxX%';

type Token = { t: 'key'; name: string } | { t: 'assign'; add: boolean } | { t: 'text'; value: string } | { t: 'sep' };

/** The tokens of one line up to its comment, or the reason it has none. */
function tokenize(line: string): Token[] | string {
  const out: Token[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '#') break;
    if (c === ' ' || c === '\t') i++;
    else if (c === ',' || c === ';') out.push({ t: 'sep' }), i++;
    else if (c === '=') out.push({ t: 'assign', add: false }), i++;
    else if (c === '+' && line[i + 1] === '=') out.push({ t: 'assign', add: true }), (i += 2);
    else if (c === '%') {
      const m = /^%([A-Za-z_][A-Za-z0-9_]*)/.exec(line.slice(i));
      if (!m) return `"%" at column ${i + 1} is not followed by a name`;
      out.push({ t: 'key', name: m[1]!.toUpperCase() });
      i += m[0].length;
    } else if (c === '"') {
      let value = '';
      let j = i + 1;
      for (;;) {
        if (j >= line.length) return `the quotation mark at column ${i + 1} is not closed`;
        if (line[j] === '"' && line[j + 1] === '"') (value += '"'), (j += 2);
        else if (line[j] === '"') break;
        else value += line[j++];
      }
      out.push({ t: 'text', value });
      i = j + 1;
    } else return `unexpected "${c}" at column ${i + 1} (text belongs in quotation marks)`;
  }
  return out;
}

function row(tokens: Token[], key: string, allowed: readonly RowVar[]): RowPart[] | string {
  if (tokens.length === 0) return `%${key} needs a value`;
  const parts: RowPart[] = [];
  for (const tk of tokens) {
    if (tk.t === 'text') parts.push(text(tk.value));
    else if (tk.t === 'sep') parts.push(SEP);
    else if (tk.t === 'assign') return `unexpected "${tk.add ? '+=' : '='}" in %${key}`;
    else if ((allowed as readonly string[]).includes(tk.name)) parts.push(variable(tk.name as RowVar));
    else return `%${tk.name} cannot be used in %${key} (allowed: ${allowed.map((v) => `%${v}`).join(' ')})`;
  }
  return parts;
}

const designators = (s: string, allowed: string) => [...s.matchAll(/%(.?)/g)].every((m) => m[1] !== '' && allowed.includes(m[1]!));

/** The value of a setting, or why it is not one. */
function settingValue(key: Setting, v: string): string | { error: string } {
  switch (key) {
    case 'title':
      return v.trim() === '' ? { error: 'the title must not be empty' } : v;
    case 'separator': {
      const sep = v === '\\t' ? '\t' : v;
      return sep.length === 1 && !/["\r\n%A-Za-z0-9]/.test(sep)
        ? sep
        : { error: 'the separator must be one character other than a letter, digit, quotation mark or %' };
    }
    case 'fileName':
      return v !== '' && designators(v, FILENAME_DESIGNATORS) ? v : { error: `the file name may use %${[...FILENAME_DESIGNATORS].join(' %')}` };
    case 'date':
    case 'time':
      return v !== '' && designators(v, WALL_DESIGNATORS) ? v : { error: `the ${key} format may use %${[...WALL_DESIGNATORS].join(' %')}` };
    case 'invalid':
      return v.length <= INVALID_MAX ? v : { error: `the invalid text has at most ${INVALID_MAX} characters` };
  }
}

/** Parses a format file; the error lists every problem with its line (the engine reports it as the write error). */
export function parseFormatFile(source: string): Result<UserFormat, FormatFileError> {
  const issues: FormatFileIssue[] = [];
  const settings: Partial<Record<Setting, string>> = {};
  const dataFormats: Record<LogType, string> = { ...DEFAULT_DATA_FORMATS };
  const seen = new Map<string, number>(); // key (or type code) → line
  const header: RowPart[][] = [];
  let line: RowPart[] | undefined;
  source
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .forEach((content, i) => {
      const n = i + 1;
      const problem = (reason: string) => void issues.push({ line: n, reason });
      const tokens = tokenize(content);
      if (typeof tokens === 'string') return problem(tokens);
      if (tokens.length === 0) return;
      const [head, op, ...rest] = tokens;
      if (head!.t !== 'key') return problem('a line starts with a %KEY');
      const key = head!.name;
      if (op?.t !== 'assign') return problem(`%${key} needs "=" and a value`);
      const once = (id: string) => {
        const first = seen.get(id);
        if (first !== undefined) problem(`%${key} is set twice (first on line ${first})`);
        else seen.set(id, n);
        return first === undefined;
      };
      if (key === 'HEADER') {
        const parts = row(rest, key, HEADER_VARS);
        if (typeof parts === 'string') return problem(parts);
        if (!op.add) header.length = 0;
        header.push(parts);
        return;
      }
      if (op.add) return problem(`"+=" only adds rows to %HEADER`);
      if (key === 'LOGDATA') {
        const parts = row(rest, key, LINE_VARS);
        if (typeof parts === 'string') return problem(parts);
        if (parts.filter((p) => p.kind === 'var' && p.name === 'VALUES').length !== 1) return problem('%LOGDATA needs %VALUES once');
        if (once(key)) line = parts;
        return;
      }
      const setting = SETTINGS[key];
      const type = TYPE_KEYS[key];
      if (setting === undefined && type === undefined) {
        const why = UNSUPPORTED[key];
        return problem(why ? `%${key} is not supported here: ${why}` : `unknown key %${key}`);
      }
      const value = rest.length === 1 && rest[0]!.t === 'text' ? rest[0]!.value : undefined;
      if (value === undefined) return problem(`%${key} takes one text in quotation marks`);
      if (type !== undefined) {
        if (once(`type ${type}`)) dataFormats[type] = value;
        return;
      }
      const v = settingValue(setting!, value);
      if (typeof v !== 'string') return problem(v.error);
      if (once(key)) settings[setting!] = v;
    });
  if (settings.title === undefined) issues.push({ line: 0, reason: '%DEF_TITLE is missing (it is required)' });
  if (issues.length > 0) {
    const message = issues.map((i) => (i.line > 0 ? `line ${i.line}: ${i.reason}` : i.reason)).join('; ');
    return fail<FormatFileError>('format_file', `format file: ${message}`, { issues });
  }
  const fmt: UserFormat = {
    ...settings,
    title: settings.title!,
    dataFormats,
    header,
    line: line ?? [variable('DATE'), SEP, variable('TIME'), SEP, variable('VALUES')],
  };
  return ok(fmt);
}
