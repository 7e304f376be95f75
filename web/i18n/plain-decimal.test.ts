import { describe, expect, it } from 'vitest';
import { formatOneDecimal, formatWholePercent } from './plain-decimal.ts';

describe('whole percents without Intl', () => {
  it.each(['en-GB', 'de-DE', 'fr-FR'])('are written as Intl writes them in %s', (locale) => {
    // as formatNumber asks Intl for it (web/i18n/translate.ts: its default fraction digits, then the call's)
    const intl = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
    const values = [0, 0.001, 0.004, 0.005, 0.015, 0.125, 0.285, 0.5, 0.995, 1, 1.005, 12.5, 123.456];
    for (let i = 0; i < 1000; i++)
      values.push(Math.random(), Math.round(Math.random() * 1000) / 1000, Math.round(Math.random() * 100_000) / 100_000, Math.random() * 50);
    for (const v of values) expect(formatWholePercent(v, locale), `${v}`).toBe(intl.format(v));
  });

  it('leaves negative shares, NaN and other locales to Intl', () => {
    expect(formatWholePercent(-0.5, 'en-GB')).toBeUndefined();
    expect(formatWholePercent(Number.NaN, 'de-DE')).toBeUndefined();
    expect(formatWholePercent(0.5, 'es-ES')).toBeUndefined();
  });

  it.each(['en-GB', 'de-DE', 'fr-FR'])('sizes with one decimal are written as Intl writes them in %s', (locale) => {
    const intl = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
    const values = [0, 0.04, 0.05, 0.15, 0.25, 1, 1.05, 9.95, 99.95, 999.95, 1234.56, 10_240, 1_048_575.9];
    for (let i = 0; i < 2000; i++)
      values.push(Math.random() * 10 ** (i % 8), Math.round(Math.random() * 100_000) / 100, Math.floor(Math.random() * 1e7) / 1024);
    for (const v of values) expect(formatOneDecimal(v, locale), `${v}`).toBe(intl.format(v));
    expect(formatOneDecimal(-1, locale)).toBeUndefined();
  });
});
