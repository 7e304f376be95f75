import { describe, expect, it } from 'vitest';
import { clockTime, fileSize, pointAddress } from './format.ts';

describe('display formats', () => {
  it('clockTime', () => {
    expect(clockTime(0)).toBe('00:00:00');
    expect(clockTime(3725)).toBe('01:02:05');
    expect(clockTime(86399)).toBe('23:59:59');
    expect(clockTime(86400 + 60)).toBe('00:01:00');
  });

  it('fileSize in the unit that fits, in the user\'s language', () => {
    expect(fileSize(0, 'en-GB')).toBe('0 B');
    expect(fileSize(1023, 'en-GB')).toBe('1,023 B');
    expect(fileSize(1536, 'en-GB')).toBe('1.5 KB');
    expect(fileSize(10 * 1024 * 1024, 'de-DE')).toBe('10,0 MB');
  });

  it('pointAddress', () => {
    expect(pointAddress({ area: 1, reg_addr: '100' })).toBe('DT100');
    expect(pointAddress({ area: 6, reg_addr: '10a' })).toBe('R10A');
    expect(pointAddress({ area: 9, reg_addr: '1' })).toBe('91');
  });
});
