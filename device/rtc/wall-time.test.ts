import { describe, expect, it } from 'vitest';
import { reportWords } from './registers.ts';
import { utcOffsetMinutes, wallText, wallTime } from './wall-time.ts';

// the zone of this test run decides "local"; the UTC side is independent of it
describe('PLC clock wall time (spec §3 pew_rtc rtc_sync_as_utc)', () => {
  const t = Date.UTC(2026, 10, 21, 23, 30, 7); // a Saturday in UTC
  it('UTC: the UTC calendar fields and weekday', () => {
    expect(wallTime(t, true)).toEqual({ year: 2026, month: 11, day: 21, hour: 23, minute: 30, second: 7, weekday: 6 });
    expect(utcOffsetMinutes(t, true)).toBe(0);
  });
  it("local: the fields of this process's zone, and its offset", () => {
    const d = new Date(t);
    expect(wallTime(t, false)).toEqual({
      year: d.getFullYear(),
      month: d.getMonth() + 1,
      day: d.getDate(),
      hour: d.getHours(),
      minute: d.getMinutes(),
      second: d.getSeconds(),
      weekday: d.getDay(),
    });
    expect(utcOffsetMinutes(t, false)).toBe(-d.getTimezoneOffset());
  });
  it('text as the PLC shows it', () => {
    expect(wallText(wallTime(Date.UTC(2026, 0, 2, 3, 4, 5), true))).toBe('2026-01-02 03:04:05');
  });
  it("report words: result, count (wrapping), trigger, offset as 16-bit two's complement", () => {
    expect(reportWords(true, 1, 'time', 60)).toEqual([1, 1, 1, 60]);
    expect(reportWords(false, 65536, 'plc', -300)).toEqual([2, 0, 2, 0x10000 - 300]);
    expect(reportWords(true, 7, 'request', 0)).toEqual([1, 7, 3, 0]);
  });
});
