// CSV text as spreadsheets and FPWIN Pro write it (RFC 4180 quoting: a field in double quotes may
// hold the separator, line breaks and doubled quotes), for the variable list import and export.

export type Separator = ';' | ',' | '\t';
export const SEPARATORS: readonly Separator[] = [';', ',', '\t'];

export interface CsvRow {
  /** the line of the text the row starts on (1-based) */
  line: number;
  fields: string[];
}

/** Every row of `text`; line ends CRLF, LF or CR; a byte order mark is dropped; blank lines are kept as one empty field. */
export function parseCsv(text: string, sep: string): CsvRow[] {
  const rows: CsvRow[] = [];
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const endRow = () => {
    fields.push(field);
    rows.push({ line: start, fields });
    fields = [];
    field = '';
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      if (c === '"') {
        if (s[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n' || (c === '\r' && s[i + 1] !== '\n')) line++;
        field += c;
      }
    } else if (c === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (c === sep) {
      fields.push(field);
      field = '';
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && s[i + 1] === '\n') i++;
      endRow();
      line++;
      start = line;
    } else {
      field += c;
    }
  }
  if (field !== '' || fields.length > 0 || quoted) endRow();
  return rows;
}

/**
 * The separator of a variable list: the candidate that splits the most of the first rows into the
 * same number (> 1) of fields; semicolon, then comma, then tab when equal.
 */
export function detectSeparator(text: string): Separator {
  const sample = text
    .split(/\r\n|\n|\r/)
    .filter((l) => l.trim() !== '')
    .slice(0, 30)
    .join('\n');
  let best: Separator = ';';
  let bestScore = -1;
  for (const sep of SEPARATORS) {
    const counts = new Map<number, number>();
    for (const r of parseCsv(sample, sep)) if (r.fields.length > 1) counts.set(r.fields.length, (counts.get(r.fields.length) ?? 0) + 1);
    const score = Math.max(0, ...counts.values());
    if (score > bestScore) {
      best = sep;
      bestScore = score;
    }
  }
  return best;
}

/** A field, quoted when it holds the separator, a quote or a line break. */
export function csvField(value: string, sep: string): string {
  return value.includes(sep) || /["\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export const csvLine = (fields: readonly string[], sep: string): string => fields.map((f) => csvField(f, sep)).join(sep);
