// The script's CSV files (file and append statements): written through the data logger's
// crash-safe CSV store (device/logger/csv-store.ts: one synced write per line, tail repair, volume
// failures as a write status) into the log folder of the logger's storage volume, the folder the
// FTP send takes by default. The parser lets only plain NAME.csv names through and the store checks
// them again, so a script cannot leave that folder.
//
// A file name may hold the data logger's date and time placeholders (`audit_%Y%m%d.csv`; formatWall,
// the one formatter of the logger's date and time patterns): each line goes into the file named
// for its own time, so the name moves on with the clock.
//
// A line: date;time;value;value… (local time of the unit, '.' as decimal point, an empty field
// for a value whose read failed); a new file first gets the header date;time;name;name…
// A file that already holds another header (the script was edited and its append names other
// values) is never appended to: it is kept as it is under a numbered name (`audit_1.csv`;
// device/system/unique-name.ts), and the line starts a new file of the script's name.
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Volume, VolumeId } from '../../hw/types.ts';
import { type Calendar, formatWall, localCalendar } from '../logger/csv-calendar.ts';
import { type CsvAppender, CsvStore, classifyError, LINE_END, nodeStoreFs, syncFolder } from '../logger/csv-store.ts';
import { LOG_FOLDER, type WriteStatus } from '../logger/types.ts';
import type { Logger } from '../system/log.ts';
import { folderNames, uniqueName } from '../system/unique-name.ts';

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

/** The file a line at `atMs` goes into: the file statement's name with its placeholders filled in. */
export const scriptFileName = (name: string, atMs: number, calendar: Calendar = localCalendar): string => formatWall(name, calendar.wall(atMs));

/**
 * Whether the file at `path` holds something else than `header` at its start: neither the header
 * with its line end nor the start of it (a header torn by a power cut, which the store writes
 * again). No file, or an empty one, holds nothing else.
 */
export async function holdsOtherHeader(path: string, header: string): Promise<boolean> {
  const want = Buffer.from(header + LINE_END);
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
  try {
    const got = Buffer.alloc(want.length);
    const { bytesRead } = await fh.read(got, 0, want.length, 0);
    return !got.subarray(0, bytesRead).equals(want.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

export class ScriptCsv {
  private readonly store: CsvStore;
  private appender: CsvAppender | undefined;
  /** the file the open appender writes and the header its lines go under, checked against the file */
  private current: { file: string; header: string } | undefined;

  constructor(
    volumes: () => Promise<Volume[]>,
    private readonly volume: VolumeId,
    private readonly calendar: Calendar = localCalendar,
    private readonly log?: Logger,
  ) {
    this.store = new CsvStore({ volumes });
  }

  /** One line into the file `name` names at `atMs`; a file of that name with another header is kept under a numbered name first. */
  async append(name: string, names: readonly string[], atMs: number, values: readonly (number | null)[]): Promise<WriteStatus> {
    const file = scriptFileName(name, atMs, this.calendar);
    const header = csvHeader(names);
    if (this.current?.file !== file || this.current.header !== header) {
      await this.closeFile();
      try {
        await this.keepOtherHeader(file, header);
      } catch (e) {
        const c = classifyError(e, this.volume);
        if (!c) throw e;
        return { ...c, volume: this.volume, file };
      }
      this.current = { file, header };
    }
    this.appender ??= this.store.appender(this.volume);
    return this.appender.append(file, [header], [csvLine(atMs, values, this.calendar)]);
  }

  /** A file `file` of the log folder that holds another header is renamed to the first free numbered name. */
  private async keepOtherHeader(file: string, header: string): Promise<void> {
    const vol = await this.store.volume(this.volume);
    if (!vol?.mounted) return; // the append reports the volume
    const dir = join(vol.path, LOG_FOLDER);
    if (!(await holdsOtherHeader(join(dir, file), header))) return;
    const kept = await uniqueName(file, await folderNames(dir));
    await rename(join(dir, file), join(dir, kept));
    await syncFolder(nodeStoreFs, dir);
    this.log?.warn('script: the file holds another header; it is kept as it was under a new name and a new file begins', { file, kept, header });
  }

  /** Closes the open file, so that it is complete on the volume (before a send). */
  async closeFile(): Promise<void> {
    const a = this.appender;
    this.appender = undefined;
    this.current = undefined;
    await a?.close();
  }

  close(): Promise<void> {
    this.current = undefined;
    return this.store.close();
  }
}
