import { describe, expect, it } from 'vitest';
import { formatInteger, formatLocalDateTime, formatUngrouped } from './plain-format.ts';

const LOCALES = ['en-GB', 'de-DE', 'fr-FR'];
const SAMPLES = [0, 1, 9, 10, 99, 100, 999, 1000, 1234, 9999, 10_000, 65_535, 100_000, 999_999, 1_000_000, 1_234_567, 2 ** 31, Number.MAX_SAFE_INTEGER];

describe('whole numbers without Intl', () => {
  it.each(LOCALES)('are written as Intl writes them in %s, grouped and not, negative too', (locale) => {
    const values = [...SAMPLES, ...SAMPLES.map((n) => -n).filter((n) => n !== 0)];
    for (let i = 0; i < 2000; i++) values.push(Math.round((Math.random() - 0.5) * 10 ** (1 + (i % 15))) || 0); // no -0: Intl writes it, see below
    const grouped = new Intl.NumberFormat(locale, { maximumFractionDigits: 10 });
    const ungrouped = new Intl.NumberFormat(locale, { maximumFractionDigits: 10, useGrouping: false });
    for (const n of values) {
      expect(formatInteger(n, locale), `${n}`).toBe(grouped.format(n));
      expect(formatUngrouped(n, locale), `${n}`).toBe(ungrouped.format(n));
    }
  });

  it('leaves fractions, -0, unsafe integers and other locales to Intl', () => {
    expect(formatInteger(1.5, 'en-GB')).toBeUndefined();
    expect(formatInteger(-0, 'de-DE')).toBeUndefined();
    expect(formatInteger(2 ** 60, 'en-GB')).toBeUndefined();
    expect(formatInteger(Number.NaN, 'en-GB')).toBeUndefined();
    expect(formatInteger(1234, 'es-ES')).toBeUndefined();
  });
});

describe('numbers without grouping without Intl (ranges and values in messages)', () => {
  it.each(LOCALES)('are written as Intl writes them in %s, fractions and negatives too', (locale) => {
    const values = [0, 0.1, 0.2, 0.5, 1.5, 0.001, 12.25, 3600, 65_535, 4_294_967_295, 2 ** 53, 2 ** 53 + 2, 1e20, 123_456.789_012_345_6, 0.123_456_789_1];
    for (let i = 0; i < 3000; i++) {
      const scale = 10 ** ((i % 12) - 4);
      values.push(Number(((Math.random() - 0.5) * scale).toFixed(i % 11)) || 0);
    }
    const intl = new Intl.NumberFormat(locale, { maximumFractionDigits: 10, useGrouping: false });
    let plain = 0;
    for (const n of [...values, ...values.map((v) => -v).filter((v) => v !== 0)]) {
      const ours = formatUngrouped(n, locale);
      if (ours !== undefined) plain++;
      expect(ours ?? intl.format(n), `${n}`).toBe(intl.format(n));
    }
    // the test is about the numbers written without Intl: nearly all of them are
    expect(plain).toBeGreaterThan(values.length * 1.8);
  });

  it('leaves exponents, more than 10 decimals, -0, non-numbers and other locales to Intl', () => {
    expect(formatUngrouped(1e21, 'en-GB')).toBeUndefined();
    expect(formatUngrouped(3.4028234663852886e38, 'de-DE')).toBeUndefined();
    expect(formatUngrouped(1e-7, 'en-GB')).toBeUndefined();
    expect(formatUngrouped(0.1 + 0.2, 'en-GB')).toBeUndefined();
    expect(formatUngrouped(-0, 'fr-FR')).toBeUndefined();
    expect(formatUngrouped(Number.NaN, 'en-GB')).toBeUndefined();
    expect(formatUngrouped(Number.POSITIVE_INFINITY, 'en-GB')).toBeUndefined();
    expect(formatUngrouped(0.2, 'es-ES')).toBeUndefined();
    expect(formatUngrouped(0.2, 'de-DE')).toBe('0,2');
    expect(formatUngrouped(-10_502.5, 'fr-FR')).toBe('-10502,5');
  });
});

describe('local dates without Intl', () => {
  it.each(LOCALES.flatMap((l) => ['UTC', 'Europe/Berlin', 'America/New_York'].map((tz) => [l, tz])))(
    'are written as toLocaleString writes them in %s, time zone %s',
    (locale, tz) => {
      const before = process.env.TZ;
      process.env.TZ = tz;
      try {
        const dates = [new Date(2026, 0, 5, 4, 3, 9), new Date(2026, 11, 31, 23, 59, 59), new Date(1000, 0, 1, 0, 0, 0), new Date(9999, 11, 31, 12, 0, 0)];
        for (let i = 0; i < 2000; i++) dates.push(new Date(Date.UTC(1990, 0, 1) + Math.floor(Math.random() * 80 * 365.25 * 86_400_000)));
        for (const d of dates) {
          expect(formatLocalDateTime(d, locale), d.toISOString()).toBe(d.toLocaleString(locale));
          // a wall-clock time kept as UTC (a log file's time on the graphs) reads the same in every zone
          // (a UTC year outside 1000–9999 is left to Intl, as a local one is)
          const inRange = d.getUTCFullYear() >= 1000 && d.getUTCFullYear() <= 9999;
          expect(formatLocalDateTime(d, locale, true), d.toISOString()).toBe(inRange ? d.toLocaleString(locale, { timeZone: 'UTC' }) : undefined);
        }
      } finally {
        // an unset TZ stays unset (assigning undefined would set the string "undefined")
        if (before === undefined) delete process.env.TZ;
        else process.env.TZ = before;
      }
    },
  );

  it('leaves invalid dates, years outside 1000–9999 and other locales to Intl', () => {
    expect(formatLocalDateTime(new Date(Number.NaN), 'en-GB')).toBeUndefined();
    expect(formatLocalDateTime(new Date(999, 0, 1), 'de-DE')).toBeUndefined();
    expect(formatLocalDateTime(new Date(2026, 0, 1), 'es-ES')).toBeUndefined();
  });
});
