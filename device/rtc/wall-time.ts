// The wall time the unit writes into the PLC's clock (spec §3 pew_rtc rtc_sync_as_utc): the unit's
// local time (this process's zone, the unit's configured zone), or UTC. The PLC's clock keeps no
// zone (device/protocol/fp-clock.ts), so the zone is chosen when writing.

import { readTimeZone } from '../../hw/linux/time-zone.ts';
import { type FpWallTime, fpClockOf } from '../protocol/fp-clock.ts';

export function wallTime(ms: number, utc: boolean): FpWallTime {
  if (!utc) return fpClockOf(ms);
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
  };
}

/** Minutes the written wall time is ahead of UTC (0 when written as UTC). */
export function utcOffsetMinutes(ms: number, utc: boolean): number {
  return utc ? 0 : -new Date(ms).getTimezoneOffset();
}

const two = (n: number) => String(n).padStart(2, '0');

/** As the PLC shows it: 2026-11-21 14:05:00. */
export function wallText(t: FpWallTime): string {
  return `${t.year}-${two(t.month)}-${two(t.day)} ${two(t.hour)}:${two(t.minute)}:${two(t.second)}`;
}

/** The unit's time zone (IANA name): this process's zone, as the C library finds it. */
export const unitTimeZone = (): Promise<string> => readTimeZone();
