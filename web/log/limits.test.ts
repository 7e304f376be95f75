import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DIFFERENCE_POINTS, MAX_STRING_POINTS } from '../../device/model/sections/log.ts';
import { MAX_POINTS, STRING_TYPE } from '../../device/model/sections/logfile.ts';
import { ADD_AT_ONCE_MAX, fitting, pointCounts, room } from './limits.ts';

const INT = { type: 0, format: 'momentary' };
const STRING = { type: STRING_TYPE, format: 'momentary' };
const DIFF = { type: 4, format: 'difference' };
const file = (...records: { type: number; format: string }[]) => ({ records });
const many = <T>(n: number, x: T) => Array.from({ length: n }, () => x);

describe('the limits of spec §9', () => {
  it('are 700 points, 60 STRING, 400 difference, 50 at once', () => {
    expect([MAX_POINTS, MAX_STRING_POINTS, MAX_DIFFERENCE_POINTS, ADD_AT_ONCE_MAX]).toEqual([700, 60, 400, 50]);
  });

  it('pointCounts counts across every log file', () => {
    expect(pointCounts([file(INT, STRING), file(DIFF, DIFF, INT), file()])).toEqual({ total: 5, strings: 1, differences: 2 });
    expect(pointCounts([])).toEqual({ total: 0, strings: 0, differences: 0 });
  });

  it('room: the total limit for every kind, the STRING and difference limits for theirs', () => {
    const c = { total: 690, strings: 58, differences: 395 };
    expect(room(c, INT)).toBe(10);
    expect(room(c, STRING)).toBe(2);
    expect(room(c, DIFF)).toBe(5);
    expect(room({ total: 700, strings: 0, differences: 0 }, INT)).toBe(0);
    expect(room({ total: 10, strings: 60, differences: 0 }, STRING)).toBe(0);
    expect(room({ total: 10, strings: 60, differences: 0 }, INT)).toBe(690);
    expect(room({ total: 701, strings: 61, differences: 0 }, STRING)).toBe(0);
  });

  it('fitting stops at the first point past a limit, counting as it goes', () => {
    const c = pointCounts([file(...many(59, STRING))]);
    expect(fitting(c, [INT, STRING, STRING, INT])).toBe(2);
    expect(fitting({ total: 698, strings: 0, differences: 0 }, [INT, INT, INT])).toBe(2);
    expect(fitting({ total: 0, strings: 0, differences: 399 }, [DIFF, DIFF])).toBe(1);
    expect(fitting({ total: 0, strings: 0, differences: 0 }, [])).toBe(0);
  });

  it('property: adding what fitting allows never passes a limit; one more would', () => {
    const kind = fc.constantFrom(INT, STRING, DIFF);
    fc.assert(
      fc.property(fc.array(kind, { maxLength: 720 }), fc.array(kind, { maxLength: 80 }), (have, add) => {
        const c = pointCounts([file(...have)]);
        const n = fitting(c, add);
        const after = pointCounts([file(...have, ...add.slice(0, n))]);
        const within = (x: typeof after) => x.total <= MAX_POINTS && x.strings <= MAX_STRING_POINTS && x.differences <= MAX_DIFFERENCE_POINTS;
        if (within(c)) expect(within(after)).toBe(true);
        if (n < add.length) expect(within(pointCounts([file(...have, ...add.slice(0, n + 1))]))).toBe(false);
      }),
    );
  });
});
