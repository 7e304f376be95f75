import { describe, expect, it } from 'vitest';
import { numbersIn, TREND_MS, Trends, trendKey } from './trends.ts';

describe('the trends of the watched entries', () => {
  it('keeps the reads of the last 5 minutes, a failed read as a gap', () => {
    const t = new Trends();
    for (let i = 0; i <= 300; i++) t.add('a', i * 1500, i % 10 === 0 ? null : i);
    const a = t.get('a')!;
    expect(a.at[0]).toBe(300 * 1500 - TREND_MS);
    expect(a.at.at(-1)).toBe(300 * 1500);
    expect(a.at).toHaveLength(201);
    expect(a.values).toHaveLength(201);
    expect(numbersIn(a)).toBe(201 - 21);
    expect(numbersIn(undefined)).toBe(0);
  });

  it('one read per moment: an address listed twice adds it once', () => {
    const t = new Trends();
    t.add('a', 1, 5);
    t.add('a', 1, 5);
    t.add('a', 2, 6);
    expect(t.get('a')).toEqual({ at: [1, 2], values: [5, 6] });
  });

  it('a list saved again keeps the trends of the entries that stayed', () => {
    const t = new Trends();
    t.add('a', 1, 1);
    t.add('b', 1, 2);
    t.keep(['b', 'c']);
    expect(t.get('a')).toBeUndefined();
    expect(t.get('b')?.values).toEqual([2]);
  });

  it('an entry is its address and decoding, not its name or display', () => {
    const e = { if: 0, plc_addr: 0, area: 1, reg_addr: '10', type: 0, str_len: 48, endian: 'little' } as const;
    expect(trendKey(e)).toBe(trendKey({ ...e }));
    expect(trendKey(e)).not.toBe(trendKey({ ...e, type: 1 }));
    expect(trendKey(e)).not.toBe(trendKey({ ...e, plc_addr: 2 }));
  });
});
