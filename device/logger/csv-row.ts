// One row of a CSV file described as parts: literal text, a field separator, or a variable that
// stands for one field (a date, a time) or one field per data point (names, values …). Header modes
// 1–3, data lines and the rows of a user format file (format-file.ts, mewtocol.md §9) all render
// through here, so quoting and separators follow one rule.
import { quoteField } from './csv-numbers.ts';

/**
 * Variables of a row (mewtocol.md §9 format file keys): per data point COLUMNS (1, 2 …), NAMES,
 * UNITS, COMS (interface, with the station as `[Unit no.N]` when set), REGISTERS (DT100, R10A),
 * TYPES (data type: INT, REAL …), KINDS (momentary, difference, average), DATAFORMATS (the format
 * file's text per type), SOURCES (interface and register: `COM1 DT100`, header mode 3) and VALUES;
 * DATE and TIME are one field each.
 */
export const ROW_VARS = ['COLUMNS', 'NAMES', 'UNITS', 'COMS', 'REGISTERS', 'TYPES', 'KINDS', 'DATAFORMATS', 'SOURCES', 'DATE', 'TIME', 'VALUES'] as const;
export type RowVar = (typeof ROW_VARS)[number];

export type RowPart = { kind: 'text'; text: string } | { kind: 'sep' } | { kind: 'var'; name: RowVar };

export const text = (t: string): RowPart => ({ kind: 'text', text: t });
export const SEP: RowPart = { kind: 'sep' };
export const variable = (name: RowVar): RowPart => ({ kind: 'var', name });

/**
 * The row as one line (without its line end). Text and a variable's first field go on in the
 * current field, a separator starts the next one, and each further field of a variable is a field
 * of its own; each field is then quoted as RFC 4180 needs (csv-numbers.ts quoteField).
 */
export function renderRow(parts: readonly RowPart[], expand: (name: RowVar) => readonly string[], sep: string): string {
  const fields = [''];
  const append = (t: string) => (fields[fields.length - 1] += t);
  for (const p of parts) {
    if (p.kind === 'sep') fields.push('');
    else if (p.kind === 'text') append(p.text);
    else expand(p.name).forEach((t, i) => (i === 0 ? append(t) : fields.push(t)));
  }
  return fields.map((f) => quoteField(f, sep)).join(sep);
}
