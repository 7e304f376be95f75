// The record level of a log file (the logger's CSV format: every line ends with "\r\n", a record is
// complete only with its "\n", texts are quoted RFC-4180 style when they hold the separator, a
// quote, CR or LF). Lines without a quote, nearly all of a log file, are split directly; only a line
// with a quote goes through the character loop, which may run on over the line ends it quotes.

export interface Records {
  records: string[][];
  /** the text ended inside a record (a torn last line, e.g. after a power cut): that record is left out */
  torn: boolean;
}

/** Splits `text` into records of fields at `sep`; CRLF and LF both end a record. */
export function splitRecords(text: string, sep: string): Records {
  const records: string[][] = [];
  const n = text.length;
  let pos = 0;
  let quote = text.indexOf('"');
  while (pos < n) {
    const nl = text.indexOf('\n', pos);
    if (nl < 0) return { records, torn: true };
    if (quote >= 0 && quote < pos) quote = text.indexOf('"', pos);
    if (quote < 0 || quote > nl) {
      const end = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      records.push(text.slice(pos, end).split(sep));
      pos = nl + 1;
      continue;
    }
    const r = quotedRecord(text, pos, sep);
    if (!r) return { records, torn: true };
    records.push(r.fields);
    pos = r.next;
  }
  return { records, torn: false };
}

/** One record read character by character from `pos`; undefined when the text ends before its "\n". */
function quotedRecord(text: string, pos: number, sep: string): { fields: string[]; next: number } | undefined {
  const fields: string[] = [];
  let field = '';
  let i = pos;
  let quoted = false;
  let fieldStart = true;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i++;
      continue;
    }
    if (c === '"' && fieldStart) {
      quoted = true;
      fieldStart = false;
      i++;
      continue;
    }
    if (text.startsWith(sep, i)) {
      fields.push(field);
      field = '';
      fieldStart = true;
      i += sep.length;
      continue;
    }
    if (c === '\n') {
      fields.push(field.endsWith('\r') ? field.slice(0, -1) : field);
      return { fields, next: i + 1 };
    }
    // a stray quote inside an unquoted text is kept as it is (lenient, as most CSV readers)
    field += c;
    fieldStart = false;
    i++;
  }
  return undefined;
}
