import { describe, expect, it } from 'vitest';
import { clockSeconds, clockTime, fileSize, pointAddress } from './format.ts';

describe('display formats', () => {
  it("clockSeconds: a time input's value back to seconds after midnight", () => {
    expect(clockSeconds('00:00:00')).toBe(0);
    expect(clockSeconds('06:30:15')).toBe(23415);
    expect(clockSeconds('06:30')).toBe(23400);
    expect(clockSeconds('23:59:59')).toBe(86399);
    for (const bad of ['', '24:00:00', '12:60', '1:00', '12:00:61', 'noon']) expect(clockSeconds(bad), bad).toBeUndefined();
    for (const s of [0, 1, 3725, 86399]) expect(clockSeconds(clockTime(s))).toBe(s);
  });

  it('clockTime', () => {
    expect(clockTime(0)).toBe('00:00:00');
    expect(clockTime(3725)).toBe('01:02:05');
    expect(clockTime(86399)).toBe('23:59:59');
    expect(clockTime(86400 + 60)).toBe('00:01:00');
  });

  it("fileSize in the unit that fits, in the user's language", () => {
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
