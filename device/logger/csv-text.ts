// The text of a log file's CSV files (THE CSV FORMAT contract; spec §3 Data logger: header modes,
// separators; mewtocol.md §9 format file). Pure: the writer puts these strings into files.
//
// - Every line ends with "\r\n"; a data line is the date, the time, then one field per data point.
// - Date `YYYY/MM/DD`, but `YYYY-MM-DD` with the slash separator; time `HH:MM:SS`; local time of
//   the calendar (csv-calendar.ts).
// - Numbers: csv-numbers.ts (decimals, decimal separator, hex/binary/exponent per type); a failed
//   read is an empty field; texts are quoted only when they need it.
// - Header by pew_log.header: 0 none; 1 `Date,Time,<names>`; 2 adds `,,<units>`; 3 adds
//   `,,<sources>` (`COM1 DT100`); 4 the rows of the format file (format-file.ts).

import { INTERFACE_NAMES } from '../model/plc.ts';
import { LOG_AREAS, LOG_TYPES, type LogRecord, type LogType } from '../model/sections/logfile.ts';
import { formatBitOffset, parseBitOffset } from '../protocol/areas.ts';
import { type Calendar, formatWall, localCalendar } from './csv-calendar.ts';
import { type ColumnFormat, type DecimalSeparator, formatNumber } from './csv-numbers.ts';
import { type RowPart, type RowVar, renderRow, SEP, text, variable } from './csv-row.ts';
import { DEFAULT_DATA_FORMATS, type UserFormat } from './format-file.ts';
import type { Log, LogLine, LogValue } from './types.ts';

export { type Calendar, localCalendar, offsetCalendar, type WallTime } from './csv-calendar.ts';
export { type CsvFileInfo, csvFileName, filingTime, parseCsvFileName, periodStamp, type Split } from './csv-names.ts';
export { type ColumnFormat, formatNumber, type Notation, quoteField } from './csv-numbers.ts';

export const CRLF = '\r\n';
export const FIELD_SEPARATORS = { comma: ',', semicolon: ';', slash: '/', tab: '\t' } as const satisfies Record<Log['csv_separator'], string>;
export const DECIMAL_SEPARATORS = { point: '.', comma: ',' } as const satisfies Record<Log['dec_separator'], DecimalSeparator>;
export const TIME_PATTERN = '%H:%M:%S';
/** The date pattern of header modes 0–3: dashes when the slash separates the fields. */
export const datePattern = (separator: string): string => (separator === '/' ? '%Y-%m-%d' : '%Y/%m/%d');

export interface CsvFormat {
  separator: string;
  decimal: DecimalSeparator;
  /** formatWall patterns of the date and time fields */
  date: string;
  time: string;
  /** the field of a failed read: empty, or a format file's %DEF_INVALID */
  invalid: string;
  /** rows of the header, written once when a file is created */
  header: readonly (readonly RowPart[])[];
  /** the layout of a data line */
  line: readonly RowPart[];
  /** one per data point, in record order */
  columns: readonly ColumnFormat[];
  /** %DATAFORMATS text per log data type */
  dataFormats: Readonly<Record<LogType, string>>;
  calendar: Calendar;
}

const HEX = 2;
const BIN = 3;
const HEX32 = 6;
const EXP_TYPES: readonly number[] = [8, 15]; // realex, lrealex
const BIT_AREAS: readonly number[] = [4, 5, 6]; // X, Y, R

/**
 * How a data point's column writes numbers: hex and hex32 in hex digits, bin in binary digits
 * while the value is the word as read (momentary, not scaled); realex and lrealex with an
 * exponent; everything else, bits of X, Y, R included, fixed with the point's decimals.
 */
export function columnFormat(rec: Pick<LogRecord, 'type' | 'format' | 'enable_scal' | 'decimal' | 'area'>): ColumnFormat {
  const raw = rec.format === 'momentary' && !rec.enable_scal && !BIT_AREAS.includes(rec.area);
  const notation = EXP_TYPES.includes(rec.type)
    ? 'exp'
    : raw && rec.type === HEX
      ? 'hex4'
      : raw && rec.type === HEX32
        ? 'hex8'
        : raw && rec.type === BIN
          ? 'bin16'
          : 'fixed';
  return { decimals: rec.decimal, notation };
}

const STANDARD_LINE: readonly RowPart[] = [variable('DATE'), SEP, variable('TIME'), SEP, variable('VALUES')];
const STANDARD_HEADER: readonly (readonly RowPart[])[] = [
  [text('Date'), SEP, text('Time'), SEP, variable('NAMES')],
  [SEP, SEP, variable('UNITS')],
  [SEP, SEP, variable('SOURCES')],
];

export interface CsvFormatOptions {
  /** the parsed format file; required for header mode 4 */
  user?: UserFormat;
  calendar?: Calendar;
}

/** The format of one log file's CSV files from the logger settings and the log file's records. */
export function csvFormat(log: Pick<Log, 'header' | 'csv_separator' | 'dec_separator'>, records: readonly LogRecord[], opts: CsvFormatOptions = {}): CsvFormat {
  const columns = records.map(columnFormat);
  const decimal = DECIMAL_SEPARATORS[log.dec_separator];
  const calendar = opts.calendar ?? localCalendar;
  if (log.header === 4) {
    const u = opts.user;
    if (!u) throw new Error('header mode 4 needs the format file (pew_log.formatfile)');
    const separator = u.separator ?? FIELD_SEPARATORS[log.csv_separator];
    return {
      separator,
      decimal,
      columns,
      calendar,
      date: u.date ?? datePattern(separator),
      time: u.time ?? TIME_PATTERN,
      invalid: u.invalid ?? '',
      header: u.header,
      line: u.line,
      dataFormats: u.dataFormats,
    };
  }
  const separator = FIELD_SEPARATORS[log.csv_separator];
  return {
    separator,
    decimal,
    columns,
    calendar,
    date: datePattern(separator),
    time: TIME_PATTERN,
    invalid: '',
    header: STANDARD_HEADER.slice(0, log.header),
    line: STANDARD_LINE,
    dataFormats: DEFAULT_DATA_FORMATS,
  };
}

/** The first characters a spreadsheet takes for the start of a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A text that is a plain number (sign, digits, one decimal point or comma, exponent): a spreadsheet reads it as that number. */
const NUMBER_TEXT = /^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A PLC text as a CSV cell that a spreadsheet never runs as a formula (security.md CSV-1, OWASP
 * CSV injection): a text beginning with `=`, `+`, `-`, `@`, tab or CR gets a leading `'`, which
 * spreadsheets show as text and do not evaluate. A text that is a plain number (`-12.5`, `+3`,
 * `-1,5E3`) stays as it is: it cannot hold a formula and a spreadsheet reads it as the number.
 * Numbers of numeric data types never pass through here (formatNumber writes them).
 */
export function neutraliseText(text: string): string {
  return FORMULA_START.test(text) && !NUMBER_TEXT.test(text) ? `'${text}` : text;
}

/** A value's field text (before quoting). */
export function formatValue(v: LogValue, col: ColumnFormat, fmt: Pick<CsvFormat, 'decimal' | 'invalid'>): string {
  if (v === null) return fmt.invalid;
  // a record is one line: a text's own line breaks would let the tail repair keep half a record
  // (a leading CR is neutralised first, so the cell keeps its mark that it began with one)
  return typeof v === 'string' ? neutraliseText(v).replace(/[\r\n]/g, ' ') : formatNumber(v, col, fmt.decimal);
}

/** One data line with its "\r\n"; `line.values` has one value per column. */
export function formatLine(line: LogLine, fmt: CsvFormat): string {
  if (line.values.length !== fmt.columns.length) throw new RangeError(`${line.values.length} values for ${fmt.columns.length} columns`);
  const wall = fmt.calendar.wall(line.at);
  const expand = (name: RowVar): string[] => {
    if (name === 'DATE') return [formatWall(fmt.date, wall)];
    if (name === 'TIME') return [formatWall(fmt.time, wall)];
    return name === 'VALUES' ? line.values.map((v, i) => formatValue(v, fmt.columns[i]!, fmt)) : [];
  };
  return renderRow(fmt.line, expand, fmt.separator) + CRLF;
}

/** Where a point is read: `DT100`, `FL5`, `LD3`, `X1A`, `R10A`. */
export function registerText(rec: Pick<LogRecord, 'area' | 'reg_addr'>): string {
  const area = LOG_AREAS[rec.area];
  if (area === 'X' || area === 'Y' || area === 'R') {
    const bit = parseBitOffset(rec.reg_addr);
    return area + (bit.ok ? formatBitOffset(bit.value.word, bit.value.bit) : rec.reg_addr);
  }
  return area + (/^\d+$/.test(rec.reg_addr) ? String(Number(rec.reg_addr)) : rec.reg_addr);
}

/** The header texts of each data point for a row variable. */
export function pointTexts(name: RowVar, points: readonly LogRecord[], fmt: Pick<CsvFormat, 'dataFormats'>): string[] {
  return points.map((p, i) => {
    const iface = INTERFACE_NAMES[p.if];
    switch (name) {
      case 'COLUMNS':
        return String(i + 1);
      case 'NAMES':
        return p.name;
      case 'UNITS':
        return p.dim;
      case 'COMS':
        return p.plc_addr > 0 ? `${iface} [Unit no.${p.plc_addr}]` : iface;
      case 'REGISTERS':
        return registerText(p);
      case 'SOURCES':
        return `${iface} ${registerText(p)}`;
      case 'TYPES':
        return LOG_TYPES[p.type].toUpperCase();
      case 'KINDS':
        return p.format;
      case 'DATAFORMATS':
        return fmt.dataFormats[p.type];
      default:
        return '';
    }
  });
}

/** The header of a new file: one string per row, each with its "\r\n" (none for header mode 0). */
export function headerLines(points: readonly LogRecord[], fmt: CsvFormat): string[] {
  return fmt.header.map((parts) => renderRow(parts, (name) => pointTexts(name, points, fmt), fmt.separator) + CRLF);
}
