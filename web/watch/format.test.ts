import { describe, expect, it } from 'vitest';
import type { WatchEntry } from '../../device/model/watch.ts';
import { failureReason, isNumeric, type Reading, trendValue, valueText, wordsText } from './format.ts';

const shown = (o: Partial<WatchEntry>) => ({ area: 1, type: 0, decimal: 0, format: 'value' as const, ...o }) as WatchEntry;
const text = (o: Partial<WatchEntry>, r: Reading, locale = 'en-GB') => valueText(shown(o), r, locale);

describe('a watched value as its type and decimals show it', () => {
  it('whole numbers and fractions in the language of the console', () => {
    expect(text({}, { value: -1234 })).toBe('-1,234');
    expect(text({}, { value: 1234 }, 'de-DE')).toBe('1.234');
    expect(text({}, { value: 1234 }, 'fr-FR')).toBe('1\u202f234');
    expect(text({ type: 7, decimal: 2 }, { value: 12.5 })).toBe('12.50');
    expect(text({ type: 7, decimal: 2 }, { value: 12.5 }, 'de-DE')).toBe('12,50');
    expect(text({ type: 7, decimal: 0 }, { value: 2.5 })).toBe('3'); // rounded half away from zero, as the logger writes it
    expect(text({ type: 7, decimal: 1 }, { value: -0.25 })).toBe('-0.3');
    expect(text({ type: 1, decimal: 1 }, { value: 7 })).toBe('7.0');
  });

  it('64-bit integers exactly, from their decimal text', () => {
    expect(text({ type: 10 }, { value: '18446744073709551615' })).toBe('18,446,744,073,709,551,615');
    expect(text({ type: 9 }, { value: '-9223372036854775808' }, 'de-DE')).toBe('-9.223.372.036.854.775.808');
  });

  it('the exponent types with an exponent, hex and bin types in their digits, as the logger writes them', () => {
    expect(text({ type: 8, decimal: 2 }, { value: 12345.678 })).toBe('1.23E4');
    expect(text({ type: 2 }, { value: 0xbeef })).toBe('0xBEEF');
    expect(text({ type: 6 }, { value: 0x12ab })).toBe('0x000012AB');
    expect(text({ type: 6 }, { value: -1 })).toBe('0xFFFFFFFF');
    expect(text({ type: 3 }, { value: 0xf00f })).toBe('1111 0000 0000 1111');
  });

  it('texts as they came, a bit as 0 or 1 whatever the type, a float that is no number as its text', () => {
    expect(text({ type: 13 }, { value: 'Batch 7' })).toBe('Batch 7');
    expect(text({ type: 12 }, { value: '2026-12-03 15:00:00' })).toBe('2026-12-03 15:00:00');
    expect(text({ area: 6, type: 7, decimal: 2 }, { value: 1 })).toBe('1');
    expect(text({ type: 7 }, { value: 'NaN' })).toBe('NaN');
    expect(text({ type: 7 }, {})).toBe('');
  });

  it('the words read in hex or binary when the display asks', () => {
    expect(text({ type: 4, format: 'hex' }, { value: 1, words: [0x1234, 0x00f0] })).toBe('0x1234 0x00F0');
    expect(text({ format: 'bin' }, { value: 1, words: [0x00f0] })).toBe('0000 0000 1111 0000');
    expect(wordsText([1, 0x8000], 'bin')).toBe('0000 0000 0000 0001 · 1000 0000 0000 0000');
    expect(text({ format: 'hex' }, { failure: { reason: 'no_answer' } })).toBe('');
  });
});

describe('the trend and the failures', () => {
  it('the number a reading adds to the trend', () => {
    expect(trendValue({ value: 5 })).toBe(5);
    expect(trendValue({ value: '123' })).toBe(123);
    expect(trendValue({ value: 'NaN' })).toBe(null);
    expect(trendValue({ value: 'Infinity' })).toBe(null);
    expect(trendValue({})).toBe(null);
    expect(isNumeric({ area: 1, type: 13 })).toBe(false);
    expect(isNumeric({ area: 6, type: 13 })).toBe(true);
    expect(isNumeric({ area: 1, type: 9 })).toBe(true);
  });

  it('a failure as the console words a failed PLC request (device/com/dialog.ts plcFailureReason)', () => {
    expect(failureReason({ reason: 'no_answer' })).toEqual({ code: 'plc_no_answer' });
    expect(failureReason({ reason: 'plc_error', code: 61 })).toEqual({ code: 'plc_error', args: { code: 61 } });
    expect(failureReason({ reason: 'plc_error' })).toEqual({ code: 'plc_bad_reply' });
    expect(failureReason({ reason: 'bad_reply' })).toEqual({ code: 'plc_bad_reply' });
    expect(failureReason({ reason: 'link_down' })).toEqual({ code: 'plc_link_down' });
    expect(failureReason({ reason: 'anything else' })).toEqual({ code: 'plc_link_down' });
  });
});
