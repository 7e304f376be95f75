// One value column of a log file as numbers (the logger's CSV format, device/logger/csv-numbers.ts):
// fixed or exponent notation with the file's decimal separator; hex and bin points as unsigned
// upper-case hex (4 or 8 digits) or 16 binary digits; a failed read as an empty field, or as the
// one text without digits that a format file's %DEF_INVALID sets (mewtocol.md §9); NaN and
// ±Infinity as the logger writes them. Gaps are NaN. A column with other texts (ascii, string, dt
// points) is not numeric.

export type Decimal = '.' | ',';

export interface Column {
  numeric: boolean;
  values: Float64Array;
}

const NOT_FINITE = new Set(['NaN', 'Infinity', '-Infinity', '+Infinity']);
const RADIX_CODES = [
  { re: /^[01]{16}$/, radix: 2 },
  { re: /^[0-9A-F]{4}$/, radix: 16 },
  { re: /^[0-9A-F]{8}$/, radix: 16 },
];
// a fixed number never starts with a zero before more digits, nor has a letter: a sure sign of hex or bin
const RADIX_MARK = /^0.|[A-F]/;

const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k); // exact doubles up to 1e22

/**
 * A field in fixed or exponent notation as a number; undefined when it is not one. Read without
 * making strings (a 10 MB file has a million fields): up to 15 digits the mantissa is an exact
 * integer and one division by an exact power of ten rounds exactly as Number() does; longer
 * mantissas and exponents go through Number().
 */
export function decimalNumber(field: string, decimal: Decimal): number | undefined {
  const n = field.length;
  const sep = decimal === ',' ? 44 : 46;
  let i = 0;
  let c = field.charCodeAt(0);
  const neg = c === 45;
  if (c === 43 || c === 45) i++; // + -
  let mantissa = 0;
  let digits = 0;
  let frac = -1;
  for (; i < n; i++) {
    c = field.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
      if (frac >= 0) frac++;
    } else if (c === sep && frac < 0) frac = 0;
    else break;
  }
  if (digits === 0) return undefined;
  if (i < n) {
    // only an exponent may follow: e or E, a sign, digits to the end
    if (c !== 69 && c !== 101) return undefined;
    let j = i + 1;
    if (field.charCodeAt(j) === 43 || field.charCodeAt(j) === 45) j++;
    if (j === n) return undefined;
    for (; j < n; j++) if (field.charCodeAt(j) < 48 || field.charCodeAt(j) > 57) return undefined;
  } else if (digits <= 15) {
    const v = frac > 0 ? mantissa / POW10[frac]! : mantissa;
    return neg ? -v : v;
  }
  return Number(decimal === ',' ? field.replace(',', '.') : field);
}

/** The radix every non-empty field is written in, when they all are hex or bin digits of one width and one shows it. */
function radixOf(fields: readonly string[]): number | undefined {
  let code: (typeof RADIX_CODES)[number] | undefined;
  let marked = false;
  for (const f of fields) {
    if (f === '') continue;
    code ??= RADIX_CODES.find((c) => c.re.test(f));
    if (!code?.re.test(f)) return undefined;
    marked ||= RADIX_MARK.test(f);
  }
  return code && marked ? code.radix : undefined;
}

export function readColumn(fields: readonly string[], decimal: Decimal): Column {
  const values = new Float64Array(fields.length).fill(NaN);
  const radix = radixOf(fields);
  if (radix !== undefined) {
    fields.forEach((f, i) => {
      if (f !== '') values[i] = parseInt(f, radix);
    });
    return { numeric: true, values };
  }
  let numbers = 0;
  let other: string | undefined;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (f === '' || NOT_FINITE.has(f)) continue;
    const v = decimalNumber(f, decimal);
    if (v !== undefined) {
      values[i] = v;
      numbers++;
    } else if (other === undefined && !/\d/.test(f)) other = f;
    else if (f !== other) return { numeric: false, values: values.fill(NaN) };
  }
  // one repeated text without digits beside numbers is the failed-read mark ("ERR"); only texts is a text column
  if (other !== undefined && numbers === 0) return { numeric: false, values: values.fill(NaN) };
  return { numeric: true, values };
}
