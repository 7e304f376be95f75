// Whole numbers and local moments in the console's three languages without Intl: the first
// Intl.NumberFormat or Intl.DateTimeFormat a page makes costs tens of milliseconds on a slow CPU
// (the browser loads its locale data), most of the first render of /info. The output is what Intl
// writes (checked against it for every language in plain-format.test.ts); anything else (grouped
// fractions, other options, other locales, years outside 1000–9999) is left to Intl.

/** Per date locale of the dictionaries (app.dateLocale): grouping separator, date separator, day and month in two digits, date–time joint, decimal sign. */
const FORMS: Readonly<Record<string, readonly [string, string, boolean, string, string]>> = {
  'en-GB': [',', '/', true, ', ', '.'],
  'de-DE': ['.', '.', false, ', ', ','],
  'fr-FR': ['\u202f', '/', true, ' ', ','],
};

const digits = (n: number, two = true) => (two ? String(n).padStart(2, '0') : String(n));

/** Whole `n` as Intl.NumberFormat(locale) writes it (grouped), or undefined when Intl must do it. */
export function formatInteger(n: number, locale: string): string | undefined {
  const f = FORMS[locale];
  if (!f || !Number.isSafeInteger(n) || Object.is(n, -0)) return undefined;
  return (n < 0 ? '-' : '') + String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, f[0]);
}

/** A number as String writes it without an exponent: sign, whole digits and at most 10 decimals. */
const PLAIN = /^-?\d+(\.\d{1,10})?$/;

/**
 * `n` as Intl.NumberFormat(locale, { maximumFractionDigits: 10, useGrouping: false }) writes it (a
 * limit in a field's range, a value in a message: 0,2 · 10502), or undefined when Intl must do it:
 * both write the shortest decimal that reads back as `n`, so when that has at most 10 decimals and no
 * exponent only the decimal sign differs.
 */
export function formatUngrouped(n: number, locale: string): string | undefined {
  const f = FORMS[locale];
  const s = String(n);
  return f && PLAIN.test(s) && !Object.is(n, -0) ? s.replace('.', f[4]) : undefined;
}

/**
 * `d` as d.toLocaleString(locale) writes it (the browser's time zone; `utc`: as it writes it with
 * timeZone UTC, for a wall-clock time kept as UTC), or undefined when Intl must do it.
 */
export function formatLocalDateTime(d: Date, locale: string, utc = false): string | undefined {
  const f = FORMS[locale];
  const y = utc ? d.getUTCFullYear() : d.getFullYear();
  if (!f || !(y >= 1000 && y <= 9999)) return undefined;
  const [, sep, two, joint] = f;
  const [mo, day, h, mi, s] = utc
    ? [d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()]
    : [d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()];
  return `${digits(day, two)}${sep}${digits(mo + 1, two)}${sep}${y}${joint}${digits(h)}:${digits(mi)}:${digits(s)}`;
}
