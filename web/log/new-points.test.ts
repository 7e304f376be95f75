import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withDefaults } from '../../device/model/section.ts';
import { type LogRecord, recordSchema } from '../../device/model/sections/logfile.ts';
import { newPoints, nextAddress } from './new-points.ts';

const rec = (r: Partial<LogRecord>) => withDefaults(recordSchema, r) as LogRecord;

describe('nextAddress', () => {
  it("word areas step by the value's words", () => {
    expect(nextAddress({ area: 1, reg_addr: '100', type: 0 })).toBe('101');
    expect(nextAddress({ area: 1, reg_addr: '100', type: 4 })).toBe('102');
    expect(nextAddress({ area: 2, reg_addr: '10', type: 14 }, 3)).toBe('22');
    expect(nextAddress({ area: 3, reg_addr: '0', type: 13 })).toBe('26');
  });

  it('bit areas step by one bit, over the word end', () => {
    expect(nextAddress({ area: 6, reg_addr: '10A', type: 1 })).toBe('10B');
    expect(nextAddress({ area: 6, reg_addr: '10F', type: 1 })).toBe('110');
    expect(nextAddress({ area: 4, reg_addr: '9', type: 1 })).toBe('0A');
    expect(nextAddress({ area: 5, reg_addr: '0f', type: 1 }, 2)).toBe('11');
  });

  it('an address that is not valid has no next one', () => {
    expect(nextAddress({ area: 1, reg_addr: 'x1', type: 0 })).toBeUndefined();
    expect(nextAddress({ area: 6, reg_addr: '1G', type: 1 })).toBeUndefined();
  });
});

describe('newPoints', () => {
  it('a log file without points starts at DT0, INT, through its interface, named Value1…', () => {
    const out = newPoints({ interface: 0, records: [] }, 3);
    expect(out.map((r) => [r.id, r.name, r.if, r.area, r.reg_addr, r.type])).toEqual([
      [1, 'Value1', 0, 1, '0', 0],
      [2, 'Value2', 0, 1, '1', 0],
      [3, 'Value3', 0, 1, '2', 0],
    ]);
  });

  it('copies the last point with the next addresses and names', () => {
    const last = rec({
      id: 2,
      name: 'Tank7',
      if: 3,
      plc_addr: 5,
      area: 1,
      reg_addr: '100',
      type: 4,
      format: 'difference',
      decimal: 3,
      dim: 'l',
      enable_scal: true,
    });
    const out = newPoints({ interface: 0, records: [rec({ id: 1, name: 'Tank9' }), last] }, 3);
    expect(out.map((r) => [r.id, r.name, r.reg_addr])).toEqual([
      [3, 'Tank8', '102'],
      [4, 'Tank10', '104'],
      [5, 'Tank11', '106'],
    ]);
    for (const r of out) expect(r).toMatchObject({ if: 3, plc_addr: 5, type: 4, format: 'difference', decimal: 3, dim: 'l', enable_scal: true });
  });

  it('a name without a number gets one; bit points count bits', () => {
    const out = newPoints({ interface: 4, records: [rec({ id: 1, name: 'Pump', area: 6, reg_addr: '1E', type: 1 })] }, 3);
    expect(out.map((r) => [r.name, r.reg_addr])).toEqual([
      ['Pump1', '1F'],
      ['Pump2', '20'],
      ['Pump3', '21'],
    ]);
  });

  it('a long name stays within 70 characters', () => {
    const out = newPoints({ interface: 4, records: [rec({ id: 1, name: 'A'.repeat(70) })] }, 2);
    expect(out.map((r) => r.name)).toEqual([`${'A'.repeat(69)}1`, `${'A'.repeat(69)}2`]);
  });

  it('property: n new points, ids after the last, names unique among all', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,6}$/), { maxLength: 20 }), fc.integer({ min: 1, max: 50 }), (ns, n) => {
        const records = ns.map((name, i) => rec({ id: i + 1, name }));
        const out = newPoints({ interface: 4, records }, n);
        expect(out).toHaveLength(n);
        expect(out.map((r) => r.id)).toEqual(out.map((_, i) => records.length + i + 1));
        const all = [...records, ...out].map((r) => r.name.toLowerCase());
        expect(new Set(out.map((r) => r.name.toLowerCase())).size).toBe(n);
        for (const r of out) expect(all.filter((x) => x === r.name.toLowerCase())).toHaveLength(1);
      }),
    );
  });
});
