// A share as a whole percent and a size with one decimal in the console's three languages without
// Intl (plain-format.ts says why: the first Intl.NumberFormat of a page loads the browser's number
// data; on /com, the first page to need a percent, that was 80-90 ms of its render at CPU 4×).
// What Intl writes for { style: 'percent', maximumFractionDigits: 0 } and { maximumFractionDigits: 1 },
// checked against it in plain-decimal.test.ts; anything else is left to Intl. Not part of
// plain-format.ts: only the pages that show these load it (/com, /graphs).
import { formatInteger, formatUngrouped } from './plain-format.ts';

/** The percent sign after the number, per date locale of the dictionaries (app.dateLocale), with its space. */
const SIGN: Readonly<Record<string, string>> = { 'en-GB': '%', 'de-DE': '\u00a0%', 'fr-FR': '\u00a0%' };

/** `share` (0.5 for 50 %) as a whole percent as Intl writes it in `locale`, or undefined when Intl must do it. */
export function formatWholePercent(share: number, locale: string): string | undefined {
  const sign = SIGN[locale];
  if (sign === undefined || !(share >= 0)) return undefined;
  // Intl rounds the decimal the number is written as (0.285 → 28.5 → 29), half away from zero;
  // 0.285 * 100 is 28.499999999999996 in binary, so the product is read back at 15 digits first
  const whole = formatInteger(Math.round(Number((share * 100).toPrecision(15))), locale);
  return whole === undefined ? undefined : whole + sign;
}

/** `n` ≥ 0 with at most one decimal as Intl writes it in `locale` (grouped, no trailing 0), or undefined when Intl must do it. */
export function formatOneDecimal(n: number, locale: string): string | undefined {
  if (!(n >= 0)) return undefined;
  // rounded as Intl rounds the decimal the number is written as (see formatWholePercent)
  const tenths = Math.round(Number((n * 10).toPrecision(15)));
  const whole = formatInteger(Math.floor(tenths / 10), locale);
  // the tenth with the language's decimal sign: ",3" from "0,3"
  const tenth = tenths % 10 ? formatUngrouped((tenths % 10) / 10, locale)?.slice(1) : '';
  return whole === undefined || tenth === undefined ? undefined : whole + tenth;
}
