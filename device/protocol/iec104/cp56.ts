// CP56Time2a, the seven-octet time tag of IEC 60870-5-4: milliseconds of the minute (0-59999, two
// octets little-endian), minute (bits 0-5, IV invalid in bit 7), hour (bits 0-4, SU summer time in
// bit 7), day of month (bits 0-4, 1-31) with day of week (bits 5-7, 1-7, 0 = not used), month
// (bits 0-3, 1-12), year (bits 0-6, 0-99 for 2000-2099). Reserved bits are sent as 0 and ignored.
// Which time zone the fields are in is the caller's choice; toEpochMs/fromEpochMs read them as UTC.

import { check, fail, isInt, ok, type Result } from '../result.ts';

export const CP56_LENGTH = 7;

export interface Cp56 {
  ms: number; // 0-59999: seconds * 1000 + milliseconds
  minute: number;
  hour: number;
  day: number; // 1-31
  weekday: number; // 1-7 (Monday = 1), 0 = not used
  month: number; // 1-12
  year: number; // 0-99: 2000-2099
  invalid: boolean;
  summer: boolean;
}

export function encodeCp56(t: Cp56, out: Uint8Array = new Uint8Array(CP56_LENGTH), at = 0): Uint8Array {
  check(
    isInt(t.ms, 0, 59999) &&
      isInt(t.minute, 0, 59) &&
      isInt(t.hour, 0, 23) &&
      isInt(t.day, 1, 31) &&
      isInt(t.weekday, 0, 7) &&
      isInt(t.month, 1, 12) &&
      isInt(t.year, 0, 99),
    'CP56Time2a field out of range',
  );
  out[at] = t.ms & 0xff;
  out[at + 1] = t.ms >> 8;
  out[at + 2] = t.minute | (t.invalid ? 0x80 : 0);
  out[at + 3] = t.hour | (t.summer ? 0x80 : 0);
  out[at + 4] = t.day | (t.weekday << 5);
  out[at + 5] = t.month;
  out[at + 6] = t.year;
  return out;
}

/** Reads seven octets at `at`; fields out of range (minute 60, month 13, ...) give `bad_time`. */
export function decodeCp56(b: Uint8Array, at = 0): Result<Cp56> {
  if (at + CP56_LENGTH > b.length) return fail('short_time', 'CP56Time2a needs 7 octets');
  const t: Cp56 = {
    ms: (b[at] as number) | ((b[at + 1] as number) << 8),
    minute: (b[at + 2] as number) & 0x3f,
    hour: (b[at + 3] as number) & 0x1f,
    day: (b[at + 4] as number) & 0x1f,
    weekday: (b[at + 4] as number) >> 5,
    month: (b[at + 5] as number) & 0x0f,
    year: (b[at + 6] as number) & 0x7f,
    invalid: ((b[at + 2] as number) & 0x80) !== 0,
    summer: ((b[at + 3] as number) & 0x80) !== 0,
  };
  if (t.ms > 59999 || t.minute > 59 || t.hour > 23 || t.day < 1 || t.month < 1 || t.month > 12 || t.year > 99)
    return fail('bad_time', `CP56Time2a out of range: ${t.year}-${t.month}-${t.day} ${t.hour}:${t.minute} ${t.ms} ms`);
  return ok(t);
}

/** The time tag of an instant, its fields in UTC (2000-2099). */
export function cp56FromEpochMs(epochMs: number, flags: { invalid?: boolean; summer?: boolean } = {}): Cp56 {
  const d = new Date(epochMs);
  const year = d.getUTCFullYear() - 2000;
  check(isInt(year, 0, 99), `year ${d.getUTCFullYear()} outside 2000-2099`);
  return {
    ms: d.getUTCSeconds() * 1000 + d.getUTCMilliseconds(),
    minute: d.getUTCMinutes(),
    hour: d.getUTCHours(),
    day: d.getUTCDate(),
    weekday: d.getUTCDay() === 0 ? 7 : d.getUTCDay(),
    month: d.getUTCMonth() + 1,
    year,
    invalid: flags.invalid ?? false,
    summer: flags.summer ?? false,
  };
}

/** The instant of a time tag read as UTC; null for a date that does not exist (31 February). */
export function cp56ToEpochMs(t: Cp56): number | null {
  const ms = Date.UTC(2000 + t.year, t.month - 1, t.day, t.hour, t.minute, 0, t.ms);
  return new Date(ms).getUTCDate() === t.day ? ms : null;
}
