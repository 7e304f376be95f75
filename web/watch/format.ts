// How the register watch shows a value read (docs/monitor.md "Register watch"): as its type and
// decimals say, the way the data logger writes it (hex and bin types in hex and binary digits, the
// exponent types with an exponent, the others with the entry's decimals), numbers in the language's
// own way; or the words read in hex (0x…) or binary when the entry's display format asks. A failed
// read gives the reason code the console words for a failed PLC request (device/com/dialog.ts
// plcFailureReason), so the watch says it as the rest of the console does.
import type { StatusReason } from '../../device/model/reasons.ts';
import type { WatchEntry, WatchValues } from '../../device/model/watch.ts';

export type Reading = WatchValues['values'][number];
type Shown = Pick<WatchEntry, 'area' | 'type' | 'decimal' | 'format'>;

const TEXT_TYPES: readonly number[] = [11, 12, 13]; // ascii, dt, string
const EXP_TYPES: readonly number[] = [8, 15]; // realex, lrealex
const HEX_DIGITS: Readonly<Record<number, number>> = { 2: 4, 6: 8 }; // hex, hex32
const BIN_TYPE = 3;
const BIT_AREAS: readonly number[] = [4, 5, 6]; // X, Y, R: one bit, 0 or 1

/** The entry's value is a number (a bit, or any type but the text ones): it gets a trend. */
export const isNumeric = (e: Pick<WatchEntry, 'area' | 'type'>): boolean => BIT_AREAS.includes(e.area) || !TEXT_TYPES.includes(e.type);

const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale} ${JSON.stringify(opts)}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.NumberFormat(locale, opts)));
  return f;
}

/** A word in binary: 16 digits in groups of 4. */
const binary = (w: number) =>
  (w & 0xffff)
    .toString(2)
    .padStart(16, '0')
    .replace(/(\d{4})(?=\d)/g, '$1 ');
const hex = (n: number, digits: number) => `0x${n.toString(16).toUpperCase().padStart(digits, '0')}`;

/** The words read in hex or binary, first word first. */
export function wordsText(words: readonly number[], format: 'hex' | 'bin'): string {
  return format === 'hex' ? words.map((w) => hex(w & 0xffff, 4)).join(' ') : words.map(binary).join(' · ');
}

/** The value of a reading as the entry shows it, in `locale` (the dictionary's app.dateLocale); '' when there is none. */
export function valueText(e: Shown, r: Reading, locale: string): string {
  if (e.format !== 'value' && r.words) return wordsText(r.words, e.format);
  const v = r.value;
  if (v === undefined) return '';
  if (BIT_AREAS.includes(e.area) || TEXT_TYPES.includes(e.type)) return String(v);
  const digits = HEX_DIGITS[e.type];
  if (digits !== undefined && typeof v === 'number') return hex(digits === 4 ? v & 0xffff : v >>> 0, digits);
  if (e.type === BIN_TYPE && typeof v === 'number') return binary(v);
  // a 64-bit integer comes as decimal text, exact; anything else in text (a float that is no number) as it came
  const n = typeof v === 'string' ? (/^-?\d+$/.test(v) ? BigInt(v) : undefined) : v;
  if (n === undefined) return v as string;
  const d = e.decimal;
  const opts: Intl.NumberFormatOptions = EXP_TYPES.includes(e.type)
    ? { notation: 'scientific', minimumFractionDigits: d, maximumFractionDigits: d }
    : { minimumFractionDigits: d, maximumFractionDigits: d };
  return numberFormat(locale, opts).format(n);
}

/** The number a reading adds to the trend: null for a failed read or a value that is no finite number. */
export function trendValue(r: Reading): number | null {
  const n = typeof r.value === 'string' ? Number(r.value) : r.value;
  return n !== undefined && Number.isFinite(n) ? n : null;
}

/** Why a read or a write failed, as the console words a failed PLC request. */
export function failureReason(f: { reason: string; code?: number }): StatusReason {
  if (f.reason === 'no_answer') return { code: 'plc_no_answer' };
  if (f.reason === 'plc_error' && f.code !== undefined) return { code: 'plc_error', args: { code: f.code } };
  if (f.reason === 'plc_error' || f.reason === 'bad_reply') return { code: 'plc_bad_reply' };
  return { code: 'plc_link_down' };
}
