import { describe, expect, it } from 'vitest';
import { formatAddress, parseAddress } from './addresses.ts';

describe('CA and IOA text', () => {
  it('structured: octets of 0-255, most significant first', () => {
    expect(formatAddress(0x0102, 2, true)).toBe('1.2');
    expect(formatAddress(0x010203, 3, true)).toBe('1.2.3');
    expect(formatAddress(258, 2, false)).toBe('258');
    expect(parseAddress('1.2.3', 3, true)).toEqual({ ok: true, value: 0x010203 });
    expect(parseAddress('255.255', 2, true)).toEqual({ ok: true, value: 0xffff });
    expect(parseAddress('16777215', 3, false)).toEqual({ ok: true, value: 0xffffff });
  });

  it('refuses what does not fit', () => {
    for (const [t, n, s] of [
      ['1.256', 2, true],
      ['1.2', 3, true],
      ['1.2.3', 2, true],
      ['65536', 2, false],
      ['-1', 2, false],
      ['1.2', 2, false],
      ['', 2, false],
    ] as const)
      expect(parseAddress(t, n, s)).toMatchObject({ ok: false, error: { code: 'bad_address' } });
    expect(() => formatAddress(65536, 2, true)).toThrow(RangeError);
  });
});
