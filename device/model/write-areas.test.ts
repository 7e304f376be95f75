import { describe, expect, it } from 'vitest';
import { mayWrite, writeAreasOf, writeAreasProblem } from './write-areas.ts';

describe('write_areas (security.md REST-2)', () => {
  it('reads entries separated by commas or spaces, any case, a single word or a range', () => {
    expect(writeAreasOf('DT100-199, wr0-3  WY5')).toEqual([
      { area: 'DT', start: 100, end: 199 },
      { area: 'WR', start: 0, end: 3 },
      { area: 'WY', start: 5, end: 5 },
    ]);
    expect(writeAreasOf('')).toEqual([]);
  });

  it('names the first bad entry with a code', () => {
    expect(writeAreasProblem('DT100-199, WR0-3')).toBeUndefined();
    expect(writeAreasProblem('')).toBeUndefined();
    expect(writeAreasProblem('DT100-199, D5')).toEqual({ code: 'invalid_write_area', params: { entry: 'D5' } });
    expect(writeAreasProblem('DT1-2-3')).toEqual({ code: 'invalid_write_area', params: { entry: 'DT1-2-3' } });
    expect(writeAreasProblem('WX0-3')).toEqual({ code: 'invalid_value', params: { allowed: ['DT', 'FL', 'LD', 'WR', 'WL', 'WY'] } });
    expect(writeAreasProblem('XY0')).toMatchObject({ code: 'invalid_value' });
    expect(writeAreasProblem('WR0-2049')).toEqual({ code: 'address_out_of_range', params: { min: 0, max: 2048 } });
    expect(writeAreasProblem('WR2048')).toBeUndefined();
    expect(writeAreasProblem('DT200-100')).toEqual({ code: 'start_after_end' });
  });

  it('a write passes only when every word lies in the list, also across adjoining entries', () => {
    const areas = writeAreasOf('DT100-199 DT200-209 WR0');
    expect(mayWrite(areas, 'DT', 100, 100)).toBe(true);
    expect(mayWrite(areas, 'DT', 150, 209)).toBe(true);
    expect(mayWrite(areas, 'DT', 99, 100)).toBe(false);
    expect(mayWrite(areas, 'DT', 209, 210)).toBe(false);
    expect(mayWrite(areas, 'WR', 0, 0)).toBe(true);
    expect(mayWrite(areas, 'WR', 0, 1)).toBe(false);
    expect(mayWrite(areas, 'FL', 100, 100)).toBe(false);
    expect(mayWrite([], 'DT', 0, 0)).toBe(false);
  });
});
