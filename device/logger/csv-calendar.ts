// Wall-clock time for the CSV files: the date and time columns and the file names are local time of
// the daemon's time zone (the CSV format contract). The calendar is injected so tests can pin a
// zone or an offset; localCalendar follows the process's zone (TZ).

/** A local date and time; month 1–12. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export interface Calendar {
  /** the local date and time of an instant (ms since the epoch) */
  wall(ms: number): WallTime;
  /**
   * the instant of a local date and time; a time skipped by a clock change moves forward past the
   * gap, a time that occurs twice is its first occurrence
   */
  instant(w: WallTime): number;
}

const DAY_MS = 86_400_000;

/** The process's local time (ECMAScript Date: the gap and repeat rules above are Date's own). */
export const localCalendar: Calendar = {
  wall(ms) {
    const d = new Date(ms);
    return { year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate(), hour: d.getHours(), minute: d.getMinutes(), second: d.getSeconds() };
  },
  instant: (w) => new Date(w.year, w.month - 1, w.day, w.hour, w.minute, w.second).getTime(),
};

function utcWall(ms: number): WallTime {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

const utcOf = (w: WallTime): number => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/** A zone given by its offset from UTC in minutes at each instant (east positive, e.g. 60 for CET). */
export function offsetCalendar(offsetMinutes: (ms: number) => number): Calendar {
  return {
    wall: (ms) => utcWall(ms + offsetMinutes(ms) * 60_000),
    instant(w) {
      const local = utcOf(w);
      const first = local - offsetMinutes(local) * 60_000;
      return local - offsetMinutes(first) * 60_000;
    },
  };
}

/** ISO 8601 week of a date: the week-numbering year and week 1–53 (weeks start on Monday). */
export function isoWeek(year: number, month: number, day: number): { year: number; week: number } {
  const t = Date.UTC(year, month - 1, day);
  const thursday = t + (3 - ((new Date(t).getUTCDay() + 6) % 7)) * DAY_MS; // the week's Thursday decides its year
  const y = new Date(thursday).getUTCFullYear();
  return { year: y, week: Math.floor((thursday - Date.UTC(y, 0, 1)) / DAY_MS / 7) + 1 };
}

/** The Monday of ISO week `week` of week-numbering year `year`, or undefined when that year has no such week. */
export function isoWeekMonday(year: number, week: number): { year: number; month: number; day: number } | undefined {
  if (!Number.isInteger(week) || week < 1 || week > 53) return undefined;
  const jan4 = Date.UTC(year, 0, 4); // always in week 1
  const monday = new Date(jan4 + ((week - 1) * 7 - ((new Date(jan4).getUTCDay() + 6) % 7)) * DAY_MS);
  const date = { year: monday.getUTCFullYear(), month: monday.getUTCMonth() + 1, day: monday.getUTCDate() };
  return isoWeek(date.year, date.month, date.day).year === year ? date : undefined;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The designators a date or time pattern may use (mewtocol.md §9 %DEF_DATE, %DEF_TIME). */
export const WALL_DESIGNATORS = 'YymdHMSW%';

/**
 * A local date or time by pattern: %Y year, %y its last two digits, %m month 01–12, %d day 01–31,
 * %H hour 00–23, %M minute, %S second, %W ISO week 01–53, %% a percent sign; anything else as is.
 */
export function formatWall(pattern: string, w: WallTime): string {
  return pattern.replace(/%(.)/g, (all, c: string) => {
    switch (c) {
      case 'Y':
        return pad(w.year, 4);
      case 'y':
        return pad(w.year % 100);
      case 'm':
        return pad(w.month);
      case 'd':
        return pad(w.day);
      case 'H':
        return pad(w.hour);
      case 'M':
        return pad(w.minute);
      case 'S':
        return pad(w.second);
      case 'W':
        return pad(isoWeek(w.year, w.month, w.day).week);
      case '%':
        return '%';
      default:
        return all;
    }
  });
}

/** Days in month `month` (1–12) of `year`. */
export const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();
