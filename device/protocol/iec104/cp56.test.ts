import { describe, expect, it } from 'vitest';
import { octetsHex } from './apci.ts';
import { cp56FromEpochMs, cp56ToEpochMs, decodeCp56, encodeCp56 } from './cp56.ts';

describe('CP56Time2a', () => {
  it('2026-12-02 01:44:30.500 UTC, a Wednesday: 24 77 2c 01 62 0c 1a', () => {
    const ms = Date.UTC(2026, 11, 2, 1, 44, 30, 500);
    const t = cp56FromEpochMs(ms);
    expect(t).toEqual({ ms: 30500, minute: 44, hour: 1, day: 2, weekday: 3, month: 12, year: 26, invalid: false, summer: false });
    expect(octetsHex(encodeCp56(t))).toBe('24 77 2c 01 62 0c 1a');
    expect(cp56ToEpochMs(t)).toBe(ms);
  });

  it('IV and SU flags, Sunday as 7; reserved bits are ignored when reading', () => {
    const t = cp56FromEpochMs(Date.UTC(2000, 0, 2, 23, 59, 59, 999), { invalid: true, summer: true });
    expect(t.weekday).toBe(7);
    expect(octetsHex(encodeCp56(t))).toBe('5f ea bb 97 e2 01 00');
    expect(decodeCp56(Uint8Array.from([0x5f, 0xea, 0xfb, 0xf7, 0xe2, 0xf1, 0x80]))).toEqual({ ok: true, value: t });
  });

  it('out-of-range fields are bad_time, too few octets short_time; 31 February has no instant', () => {
    expect(decodeCp56(Uint8Array.from([0x60, 0xea, 0, 0, 1, 1, 0]))).toMatchObject({ ok: false, error: { code: 'bad_time' } }); // 60000 ms
    expect(decodeCp56(Uint8Array.from([0, 0, 60, 0, 1, 1, 0]))).toMatchObject({ ok: false, error: { code: 'bad_time' } });
    expect(decodeCp56(Uint8Array.from([0, 0, 0, 24, 1, 1, 0]))).toMatchObject({ ok: false, error: { code: 'bad_time' } });
    expect(decodeCp56(Uint8Array.from([0, 0, 0, 0, 1, 1]))).toMatchObject({ ok: false, error: { code: 'short_time' } });
    expect(cp56ToEpochMs({ ms: 0, minute: 0, hour: 0, day: 31, weekday: 0, month: 2, year: 26, invalid: false, summer: false })).toBeNull();
    expect(() => cp56FromEpochMs(Date.UTC(2100, 0, 1))).toThrow(RangeError);
  });
});
