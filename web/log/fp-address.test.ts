import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFpAddress, parseFpAddress } from './fp-address.ts';

describe('parseFpAddress', () => {
  it('word areas DT, FL, LD, also in the double-word form', () => {
    expect(parseFpAddress('DT100')).toEqual({ ok: true, area: 1, reg_addr: '100', bit: false });
    expect(parseFpAddress('DDT200')).toEqual({ ok: true, area: 1, reg_addr: '200', bit: false });
    expect(parseFpAddress('FL2')).toEqual({ ok: true, area: 2, reg_addr: '2', bit: false });
    expect(parseFpAddress('DFL32764')).toEqual({ ok: true, area: 2, reg_addr: '32764', bit: false });
    expect(parseFpAddress('LD7')).toEqual({ ok: true, area: 3, reg_addr: '7', bit: false });
    expect(parseFpAddress(' dt0042 ')).toEqual({ ok: true, area: 1, reg_addr: '42', bit: false });
    expect(parseFpAddress('DT999424')).toEqual({ ok: true, area: 1, reg_addr: '999424', bit: false });
  });

  it('bit areas X, Y, R: the last hex digit is the bit', () => {
    expect(parseFpAddress('R10A')).toEqual({ ok: true, area: 6, reg_addr: '10A', bit: true });
    expect(parseFpAddress('X1F')).toEqual({ ok: true, area: 4, reg_addr: '1F', bit: true });
    expect(parseFpAddress('Y3')).toEqual({ ok: true, area: 5, reg_addr: '3', bit: true });
    expect(parseFpAddress('yF')).toEqual({ ok: true, area: 5, reg_addr: '0F', bit: true });
    expect(parseFpAddress('r999f')).toEqual({ ok: true, area: 6, reg_addr: '999F', bit: true });
  });

  it('relay words, other areas and garbage are refused with their reason', () => {
    expect(parseFpAddress('WR5')).toEqual({ ok: false, reason: 'relay_word' });
    expect(parseFpAddress('DWX2')).toEqual({ ok: false, reason: 'relay_word' });
    expect(parseFpAddress('WY0')).toEqual({ ok: false, reason: 'relay_word' });
    for (const a of ['WL3', 'L10', 'T5', 'C100', 'SV2', 'EV7', 'SD1', 'IX0']) expect(parseFpAddress(a)).toEqual({ ok: false, reason: 'area_not_logged' });
    for (const a of ['', 'DT', 'DT-1', 'DT1.5', '%MW5.100', 'R1000F', 'XG', 'Q1', 'DT12345678', 'R'])
      expect(parseFpAddress(a)).toEqual({ ok: false, reason: 'bad_address' });
  });
});

describe('formatFpAddress', () => {
  it('writes DDT for 32-bit values, DT for the others, the bit address for X, Y, R', () => {
    expect(formatFpAddress({ area: 1, reg_addr: '100', type: 0 })).toBe('DT100');
    expect(formatFpAddress({ area: 1, reg_addr: '200', type: 4 })).toBe('DDT200');
    expect(formatFpAddress({ area: 2, reg_addr: '8', type: 7 })).toBe('DFL8');
    expect(formatFpAddress({ area: 3, reg_addr: '8', type: 14 })).toBe('LD8');
    expect(formatFpAddress({ area: 3, reg_addr: '8', type: 13 })).toBe('LD8');
    expect(formatFpAddress({ area: 6, reg_addr: '10a', type: 1 })).toBe('R10A');
    expect(formatFpAddress({ area: 4, reg_addr: '0F', type: 1 })).toBe('X0F');
  });

  it('property: format → parse gives the record back', () => {
    const word = fc.record({ area: fc.constantFrom(1, 2, 3), reg_addr: fc.nat(32000).map(String), type: fc.integer({ min: 0, max: 15 }) });
    const bit = fc.record({
      area: fc.constantFrom(4, 5, 6),
      reg_addr: fc.tuple(fc.nat(999), fc.nat(15)).map(([w, b]) => (w > 0 || b > 9 ? `${w}${b.toString(16).toUpperCase()}` : String(b))),
      type: fc.constant(1),
    });
    fc.assert(
      fc.property(fc.oneof(word, bit), (r) => {
        const p = parseFpAddress(formatFpAddress(r));
        expect(p).toEqual({ ok: true, area: r.area, reg_addr: r.reg_addr, bit: r.area >= 4 });
      }),
    );
  });
});
