// What the logger keeps across restarts (spec §3 log file `last_trig`: "last trigger kept across
// restarts"): the Unix seconds of each log file's last trigger, by log file name (ids renumber when
// files are deleted, names are unique). Kept in `<dataDir>/logger/state.json`, replaced atomically
// (hw/atomic-file.ts), at most once per `minIntervalMs` (flash wear: a 1 s cycle must not rewrite a
// file every second) and at stop. After a power cut the kept time is at most that interval old; the
// triggers never record a period twice because of it (fixed cycles are aligned to the clock).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../hw/atomic-file.ts';

export const STATE_FILE = join('logger', 'state.json');
export const STATE_SAVE_INTERVAL_MS = 60_000;

export class LoggerState {
  private lastTrig = new Map<string, number>();
  private dirty = false;
  private savedAt = -Infinity;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly now: () => number,
    private readonly minIntervalMs = STATE_SAVE_INTERVAL_MS,
  ) {}

  static at(dataDir: string, now: () => number, minIntervalMs?: number): LoggerState {
    return new LoggerState(join(dataDir, STATE_FILE), now, minIntervalMs);
  }

  /** Reads the kept state; a missing or unreadable file is an empty state (nothing triggered yet). */
  async load(): Promise<void> {
    try {
      const parsed = JSON.parse(await readFile(this.file, 'utf8')) as { lastTrig?: Record<string, unknown> };
      const entries = Object.entries(parsed.lastTrig ?? {}).filter((e): e is [string, number] => Number.isInteger(e[1]) && (e[1] as number) >= 0);
      this.lastTrig = new Map(entries);
    } catch {
      this.lastTrig = new Map();
    }
  }

  lastTrigger(logFile: string): number {
    return this.lastTrig.get(logFile) ?? 0;
  }

  /** Sets the last trigger to what the CSV files show at start (last-record.ts); saved with the next save. */
  restore(logFile: string, unixSeconds: number): void {
    if (this.lastTrig.get(logFile) === unixSeconds) return;
    this.lastTrig.set(logFile, unixSeconds);
    this.dirty = true;
  }

  /** Notes a trigger (Unix seconds); saved when the interval since the last save has passed. */
  triggered(logFile: string, unixSeconds: number): Promise<void> {
    this.lastTrig.set(logFile, unixSeconds);
    this.dirty = true;
    const since = this.now() - this.savedAt; // negative: the clock was set back, save now
    return since < 0 || since >= this.minIntervalMs ? this.flush() : Promise.resolve();
  }

  /** Forgets log files that no longer exist. */
  keepOnly(names: ReadonlySet<string>): void {
    for (const n of [...this.lastTrig.keys()])
      if (!names.has(n)) {
        this.lastTrig.delete(n);
        this.dirty = true;
      }
  }

  /** Writes the state now when it changed (at stop, and by `triggered`). */
  flush(): Promise<void> {
    this.saving = this.saving.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      this.savedAt = this.now();
      try {
        await writeFileAtomic(this.file, JSON.stringify({ lastTrig: Object.fromEntries(this.lastTrig) }));
      } catch {
        this.dirty = true; // tried again with the next trigger or at stop
      }
    });
    return this.saving;
  }
}
