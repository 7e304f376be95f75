// Small display formats of the /log page: seconds after midnight as a clock time and back (time_start),
// file sizes, and a point's address as the technician writes it (DT100, R10A).
import { LOG_AREAS, type LogArea } from '../../device/model/sections/logfile.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/** 3725 → "01:02:05"; values outside a day are taken modulo 24 h. */
export function clockTime(seconds: number): string {
  const s = ((Math.trunc(seconds) % 86400) + 86400) % 86400;
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** "06:30:15" or "06:30" (a time input's value) → seconds after midnight; anything else → undefined. */
export function clockSeconds(text: string): number | undefined {
  const m = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(text);
  if (!m) return undefined;
  const [h, min, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  return h < 24 && min < 60 && s < 60 ? h * 3600 + min * 60 + s : undefined;
}

const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/** Bytes in the largest unit that keeps the number at or above 1 (1024 steps), one decimal above bytes. */
export function fileSize(bytes: number, locale: string): string {
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < UNITS.length - 1) {
    n /= 1024;
    u++;
  }
  const digits = u === 0 ? 0 : 1;
  return `${new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n)} ${UNITS[u]}`;
}

/** The area and address of a point: "DT100", "R10A"; an unknown area shows its code. */
export function pointAddress(r: { area: unknown; reg_addr: unknown }): string {
  const area = LOG_AREAS[r.area as LogArea] ?? String(r.area);
  return `${area}${String(r.reg_addr).toUpperCase()}`;
}
