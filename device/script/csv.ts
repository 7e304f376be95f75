// The script's CSV files (file and append statements): written through the data logger's
// crash-safe CSV store (device/logger/csv-store.ts: one synced write per line, tail repair, volume
// failures as a write status) into the log folder of the logger's storage volume, the folder the
// FTP send takes by default. The parser lets only plain NAME.csv names through and the store checks
// them again, so a script cannot leave that folder.
//
// A line: date;time;value;value… (local time of the unit, '.' as decimal point, an empty field
// for a value whose read failed); a new file first gets the header date;time;name;name…
import type { Volume, VolumeId } from '../../hw/types.ts';
import { type Calendar, localCalendar } from '../logger/csv-calendar.ts';
import { type CsvAppender, CsvStore } from '../logger/csv-store.ts';
import type { WriteStatus } from '../logger/types.ts';

export const SCRIPT_CSV_SEPARATOR = ';';

const two = (n: number) => String(n).padStart(2, '0');

/** A value as the CSV shows it: whole numbers as they are, REAL to 7 significant digits. */
export function csvValue(v: number | null): string {
  if (v === null) return '';
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(7)));
}

export function csvLine(atMs: number, values: readonly (number | null)[], calendar: Calendar = localCalendar): string {
  const w = calendar.wall(atMs);
  const date = `${w.year}-${two(w.month)}-${two(w.day)}`;
  const time = `${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
  return [date, time, ...values.map(csvValue)].join(SCRIPT_CSV_SEPARATOR);
}

export const csvHeader = (names: readonly string[]): string => ['date', 'time', ...names].join(SCRIPT_CSV_SEPARATOR);

export class ScriptCsv {
  private readonly store: CsvStore;
  private appender: CsvAppender | undefined;

  constructor(
    volumes: () => Promise<Volume[]>,
    private readonly volume: VolumeId,
    private readonly calendar: Calendar = localCalendar,
  ) {
    this.store = new CsvStore({ volumes });
  }

  append(file: string, names: readonly string[], atMs: number, values: readonly (number | null)[]): Promise<WriteStatus> {
    this.appender ??= this.store.appender(this.volume);
    return this.appender.append(file, [csvHeader(names)], [csvLine(atMs, values, this.calendar)]);
  }

  /** Closes the open file, so that it is complete on the volume (before a send). */
  async closeFile(): Promise<void> {
    const a = this.appender;
    this.appender = undefined;
    await a?.close();
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
