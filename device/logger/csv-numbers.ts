// Numbers and fields of a CSV line (the CSV format contract: `decimal` digits after the decimal
// separator, rounded half away from zero; RFC-4180 quoting).
//
// Rounding works on the number's shortest decimal form (what JavaScript prints, the form that
// reads back as the same double), so 1.005 with 2 decimals is 1.01 and 2.5 with none is 3, as a
// reader of the value expects; bigint values (int64, uint64) are exact at any size.

/**
 * How a column writes its numbers: fixed with `decimals` digits; exp the same digits after the
 * first in the mantissa and an exponent (realex, lrealex: `1.23E+04`); hex4, hex8, bin16 the
 * unsigned value in 4 or 8 upper-case hex digits or 16 binary digits (hex, hex32, bin).
 */
export type Notation = 'fixed' | 'exp' | 'hex4' | 'hex8' | 'bin16';

export interface ColumnFormat {
  decimals: number;
  notation: Notation;
}

export type DecimalSeparator = '.' | ',';

/** The decimal digits of |v| without trailing zeros and the power of ten of the first: v = d.ddd × 10^exp. */
function digitsOf(v: number | bigint): { neg: boolean; digits: string; exp: number } {
  if (typeof v === 'bigint') {
    const s = (v < 0n ? -v : v).toString();
    return { neg: v < 0n, digits: s.replace(/0+$/, '') || '0', exp: s.length - 1 };
  }
  if (v === 0) return { neg: false, digits: '0', exp: 0 };
  const [mantissa, exp] = Math.abs(v).toExponential().split('e') as [string, string];
  return { neg: v < 0, digits: mantissa.replace('.', ''), exp: Number(exp) };
}

/** The first `keep` digits as an integer, rounded half away from zero by the digit after them. */
function roundDigits(digits: string, keep: number): bigint {
  if (keep < 0) return 0n;
  const n = BigInt(digits.slice(0, keep).padEnd(keep, '0') || '0');
  return keep < digits.length && digits[keep]! >= '5' ? n + 1n : n;
}

function fixed(v: number | bigint, decimals: number, sep: DecimalSeparator): string {
  const { neg, digits, exp } = digitsOf(v);
  const n = roundDigits(digits, exp + 1 + decimals); // n × 10^-decimals
  const s = n.toString().padStart(decimals + 1, '0');
  const whole = s.slice(0, s.length - decimals);
  return (neg && n !== 0n ? '-' : '') + (decimals > 0 ? `${whole}${sep}${s.slice(s.length - decimals)}` : whole);
}

function exponential(v: number | bigint, decimals: number, sep: DecimalSeparator): string {
  const { neg, digits, exp } = digitsOf(v);
  let s = roundDigits(digits, decimals + 1).toString();
  let e = digits === '0' ? 0 : exp;
  if (s.length > decimals + 1) {
    s = s.slice(0, decimals + 1); // 9.99 rounded up to 10.0: one more power of ten
    e += 1;
  }
  s = s.padEnd(decimals + 1, '0');
  const mantissa = decimals > 0 ? `${s[0]}${sep}${s.slice(1)}` : s;
  return `${neg ? '-' : ''}${mantissa}E${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

const RADIX: Partial<Record<Notation, { radix: number; width: number; bits: number }>> = {
  hex4: { radix: 16, width: 4, bits: 16 },
  hex8: { radix: 16, width: 8, bits: 32 },
  bin16: { radix: 2, width: 16, bits: 16 },
};

/**
 * A number as its column writes it. Hex and binary take whole values in their unsigned range and
 * write anything else (a difference, an average) as fixed. NaN and the infinities are written as
 * `NaN`, `Infinity`, `-Infinity`.
 */
export function formatNumber(v: number | bigint, col: ColumnFormat, sep: DecimalSeparator): string {
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  const r = RADIX[col.notation];
  if (r) {
    const n = typeof v === 'bigint' ? v : Number.isInteger(v) ? BigInt(v) : -1n;
    if (n >= 0n && n < 2n ** BigInt(r.bits)) return n.toString(r.radix).toUpperCase().padStart(r.width, '0');
  }
  return col.notation === 'exp' ? exponential(v, col.decimals, sep) : fixed(v, col.decimals, sep);
}

/** A field as RFC 4180 writes it: quoted, with quotes doubled, only when it holds the separator, a quote, CR or LF. */
export function quoteField(text: string, sep: string): string {
  return text.includes(sep) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
