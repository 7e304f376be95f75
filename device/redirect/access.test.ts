// allowed(): examples from spec §3 (restrictions) and a property against a per-word oracle — every
// word of the request gets its rights from the entries of its area (RO read, R/W read+write), BLK
// takes them away, and a request passes only when every word has the right for the operation.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Restriction } from '../model/sections/redirect.ts';
import type { WordArea } from '../protocol/index.ts';
import { allowed, type Op } from './access.ts';
import { entry, granted, rightsOf } from './testing.ts';

function oracle(mapping: readonly Restriction[], area: WordArea, start: number, count: number, op: Op): boolean {
  if (!Number.isInteger(start) || !Number.isInteger(count) || start < 0 || count < 1) return false;
  const rights = rightsOf(mapping);
  for (let w = start; w < start + count; w++) if (!granted(rights, area, w, op)) return false;
  return true;
}

const AREAS: WordArea[] = ['DT', 'WR', 'LD'];
// small address spaces, so entries overlap and requests straddle their edges; start > end happens too
const anyEntry: fc.Arbitrary<Restriction> = fc
  .record({
    area: fc.constantFrom(...AREAS),
    start: fc.integer({ min: 0, max: 30 }),
    len: fc.integer({ min: -2, max: 12 }),
    rw: fc.constantFrom<Restriction['read_write']>('RO', 'R/W', 'BLK'),
    type: fc.constantFrom<Restriction['type']>(0, 1, 2, 3),
    mapped: fc.integer({ min: 0, max: 100 }),
  })
  .map((x) => entry(x.area, x.start, Math.max(0, x.start + x.len), x.rw, x.type, x.mapped));
const anyMapping = fc.array(anyEntry, { minLength: 0, maxLength: 10 });
const op = fc.constantFrom<Op>('read', 'write');
/** A mapping and a request: anywhere, or in and around one of its entries so grants are met too. */
const requestFor = anyMapping.chain((mapping) => {
  const anywhere = fc.tuple(fc.constantFrom(...AREAS), fc.integer({ min: 0, max: 45 }), fc.integer({ min: 0, max: 20 }));
  const near = mapping.length
    ? fc.constantFrom(...mapping).chain((e) =>
        fc.tuple(
          fc.constant(e.area),
          fc.integer({ min: e.register_area_start - 2, max: e.register_area_end + 1 }).map((x) => Math.max(0, x)),
          fc.integer({ min: 1, max: Math.max(1, e.register_area_end - e.register_area_start + 3) }),
        ),
      )
    : anywhere;
  return fc.tuple(fc.constant(mapping), fc.oneof(anywhere, near), op).map(([m, [area, start, count], o]) => [m, area, start, count, o] as const);
});

describe('allowed', () => {
  const m = [entry('DT', 0, 99, 'RO'), entry('DT', 100, 199, 'R/W'), entry('DT', 150, 159, 'BLK'), entry('WY', 0, 3, 'R/W')];

  it('RO grants reads only, R/W reads and writes', () => {
    expect(allowed(m, 'DT', 10, 5, 'read')).toBe(true);
    expect(allowed(m, 'DT', 10, 5, 'write')).toBe(false);
    expect(allowed(m, 'DT', 120, 10, 'read')).toBe(true);
    expect(allowed(m, 'DT', 120, 10, 'write')).toBe(true);
    expect(allowed(m, 'WY', 3, 1, 'write')).toBe(true);
  });

  it('a range across two adjoining grants passes for the weaker right only', () => {
    expect(allowed(m, 'DT', 95, 10, 'read')).toBe(true);
    expect(allowed(m, 'DT', 95, 10, 'write')).toBe(false);
    expect(allowed([entry('DT', 0, 9, 'R/W'), entry('DT', 10, 19, 'R/W')], 'DT', 5, 10, 'write')).toBe(true);
    // listed out of address order
    expect(allowed([entry('DT', 10, 19, 'R/W'), entry('DT', 0, 9, 'R/W')], 'DT', 0, 20, 'write')).toBe(true);
  });

  it('BLK wins over an overlapping grant, even for one word of the range', () => {
    expect(allowed(m, 'DT', 150, 1, 'read')).toBe(false);
    expect(allowed(m, 'DT', 145, 5, 'write')).toBe(true);
    expect(allowed(m, 'DT', 145, 6, 'write')).toBe(false);
    expect(allowed(m, 'DT', 159, 2, 'read')).toBe(false);
    expect(allowed(m, 'DT', 160, 40, 'read')).toBe(true);
    // BLK listed before the grant
    expect(allowed([entry('DT', 5, 5, 'BLK'), entry('DT', 0, 9, 'R/W')], 'DT', 5, 1, 'read')).toBe(false);
  });

  it('a gap, the end of a grant, or another area grants nothing', () => {
    expect(allowed([entry('DT', 0, 9, 'R/W'), entry('DT', 11, 19, 'R/W')], 'DT', 5, 10, 'read')).toBe(false);
    expect(allowed(m, 'DT', 195, 10, 'read')).toBe(false);
    expect(allowed(m, 'DT', 200, 1, 'read')).toBe(false);
    expect(allowed(m, 'LD', 0, 1, 'read')).toBe(false);
    expect(allowed(m, 'WY', 4, 1, 'read')).toBe(false);
    // a BLK of another area does not block
    expect(allowed([entry('DT', 0, 9, 'RO'), entry('LD', 0, 9, 'BLK')], 'DT', 0, 10, 'read')).toBe(true);
  });

  it('no entries grant nothing; BLK alone grants nothing', () => {
    expect(allowed([], 'DT', 0, 1, 'read')).toBe(false);
    expect(allowed([entry('DT', 0, 9, 'BLK')], 'DT', 0, 1, 'read')).toBe(false);
  });

  it('an entry whose start lies after its end grants nothing', () => {
    expect(allowed([entry('DT', 9, 0, 'R/W')], 'DT', 5, 1, 'read')).toBe(false);
    expect(allowed([entry('DT', 9, 0, 'BLK'), entry('DT', 0, 9, 'R/W')], 'DT', 5, 1, 'write')).toBe(true);
  });

  it('a count below 1, a negative or fractional start, is never allowed', () => {
    const all = [entry('DT', 0, 999, 'R/W')];
    expect(allowed(all, 'DT', 0, 0, 'read')).toBe(false);
    expect(allowed(all, 'DT', -1, 2, 'read')).toBe(false);
    expect(allowed(all, 'DT', 1.5, 1, 'read')).toBe(false);
    expect(allowed(all, 'DT', 1, 1.5, 'read')).toBe(false);
    expect(allowed(all, 'DT', Number.NaN, 1, 'read')).toBe(false);
  });

  it('the type and mapped address of an entry play no part', () => {
    expect(allowed([entry('WR', 0, 3, 'R/W', 2, 1000)], 'WR', 0, 4, 'write')).toBe(true);
    expect(allowed([entry('WR', 0, 3, 'BLK', 3, 7), entry('WR', 0, 9, 'RO', 0, 0)], 'WR', 2, 1, 'read')).toBe(false);
  });

  it('equals the per-word oracle for random entry sets and requests', () => {
    let granted = 0;
    fc.assert(
      fc.property(requestFor, ([mapping, area, start, count, o]) => {
        const want = oracle(mapping, area, start, count, o);
        if (want) granted++;
        expect(allowed(mapping, area, start, count, o)).toBe(want);
      }),
      { numRuns: 3000 },
    );
    expect(granted).toBeGreaterThan(150); // grants as well as refusals
  });

  it('is monotone: a sub-range of an allowed range is allowed; the order of entries does not matter', () => {
    fc.assert(
      fc.property(
        anyMapping,
        fc.constantFrom(...AREAS),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 15 }),
        op,
        fc.nat(),
        fc.nat(),
        (mapping, area, start, count, o, a, b) => {
          const shuffled = [...mapping].reverse();
          expect(allowed(shuffled, area, start, count, o)).toBe(allowed(mapping, area, start, count, o));
          if (!allowed(mapping, area, start, count, o)) return;
          const s = start + (a % count);
          const c = 1 + (b % (start + count - s));
          expect(allowed(mapping, area, s, c, o)).toBe(true);
          if (o === 'write') expect(allowed(mapping, area, start, count, 'read')).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
