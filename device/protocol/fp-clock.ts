// The calendar registers of FP0R, FP-X and FP-XH (DT90054–DT90057; the address is pew_rtc's
// rtc_address_dt for CPUs that keep it elsewhere): BCD bytes, high byte first in the list below.
//
//   word 0  minute | second      word 1  day | hour      word 2  year (2000+) | month
//   word 3  day of the week (0 Sunday … 6 Saturday)
// The clock holds the PLC's local wall time; no zone is stored.

export const FP_CLOCK_WORDS = 4;

const bcd = (b: number): number | undefined => {
  const hi = b >> 4;
  const lo = b & 15;
  return hi > 9 || lo > 9 ? undefined : hi * 10 + lo;
};
const toBcd = (n: number): number => (Math.floor(n / 10) << 4) | (n % 10);

export interface FpWallTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

/** The wall time the registers hold, or undefined when they are not a valid BCD calendar. */
export function decodeFpClock(words: readonly number[]): FpWallTime | undefined {
  if (words.length < FP_CLOCK_WORDS) return undefined;
  const [w0, w1, w2, w3] = words as [number, number, number, number];
  const f = [w0 >> 8, w0 & 255, w1 >> 8, w1 & 255, w2 >> 8, w2 & 255].map(bcd);
  if (f.some((x) => x === undefined)) return undefined;
  const [minute, second, day, hour, yy, month] = f as number[];
  const t = { year: 2000 + yy!, month: month!, day: day!, hour: hour!, minute: minute!, second: second!, weekday: w3 & 7 };
  const probe = new Date(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  const valid = t.month >= 1 && t.month <= 12 && probe.getDate() === t.day && t.hour < 24 && t.minute < 60 && t.second < 60;
  return valid ? t : undefined;
}

export function encodeFpClock(t: FpWallTime): number[] {
  return [(toBcd(t.minute) << 8) | toBcd(t.second), (toBcd(t.day) << 8) | toBcd(t.hour), (toBcd(t.year % 100) << 8) | toBcd(t.month), t.weekday & 7];
}

/** The registers' wall time as ms since the epoch in the local zone of this process. */
export function fpClockMs(words: readonly number[]): number | undefined {
  const t = decodeFpClock(words);
  return t && new Date(t.year, t.month - 1, t.day, t.hour, t.minute, t.second).getTime();
}

/** The local wall time of `ms` in this process's zone, as the registers want it. */
export function fpClockOf(ms: number): FpWallTime {
  const d = new Date(ms);
  return {
    year: d.getFullYear(),
    month: d.getMonth() + 1,
    day: d.getDate(),
    hour: d.getHours(),
    minute: d.getMinutes(),
    second: d.getSeconds(),
    weekday: d.getDay(),
  };
}
