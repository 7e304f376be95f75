// One log file of pew_log at work (spec §3 Data logger): its trigger decides when a record is due
// (triggers.ts), the planned block reads fetch its data points through the links (planner.ts; one
// transaction per block, fair with the redirect clients), the values are decoded and kept per value
// kind (values.ts), formatted (csv-text.ts), cached delay_store records at a time and handed to the
// CSV store.
//
// Timing: the runner never sleeps longer than `pollMs` (default 1 s). Each wake asks the clock what
// time it is and lets the trigger decide, so the records follow the wall clock when it is set (NTP
// at boot, a technician, the tests' injected clock) instead of a timer armed hours before. A wake
// also polls the R flags of a condition or PLC-flag trigger, and samples the average points once
// per `pollMs` of clock time between records.
import type { LogFile, LogRecord } from '../model/sections/logfile.ts';
import type { Logger } from '../system/log.ts';
import { type CsvFormat, csvFileName, formatLine, headerLines } from './csv-text.ts';
import { type LimitOf, planReads } from './planner.ts';
import { filePoints } from './points.ts';
import {
  type CacheEvent,
  CONDITION,
  type ConditionState,
  cacheStep,
  conditionStart,
  conditionStep,
  emptyCache,
  FIXED_CYCLE,
  type FlagLevels,
  type FlagState,
  flagStep,
  PLC_FLAG,
  type RecordCache,
  SPECIFIED_TIME,
  timedStart,
  timedStep,
} from './triggers.ts';
import type { BlockRead, LogValue, LogWordArea, PointSource, WriteStatus } from './types.ts';
import { type KindState, kindState, pointValue } from './values.ts';

export interface RunnerIo {
  now(): number;
  readWords(interfaceId: number, station: number, area: LogWordArea, start: number, count: number): Promise<number[]>;
  /** an R flag such as `10A` (R10A) of the log file's interface and station */
  readFlag(address: string): Promise<boolean>;
  /** the PLC's clock (plc_rtc_dt), ms; undefined when it cannot be read */
  plcTime(): Promise<number | undefined>;
  write(file: string, header: readonly string[], lines: readonly string[]): Promise<WriteStatus>;
  triggered(unixSeconds: number): void;
  status(s: WriteStatus): void;
  log: Logger;
}

export interface RunnerSettings {
  file: LogFile;
  index: number;
  format: CsvFormat;
  limitOf: LimitOf;
  midnightToDayBefore: boolean;
  plcClock: boolean;
  lastTrig: number;
  /** the longest sleep, the flag poll and the average sampling interval */
  pollMs: number;
}

export interface RunnerStats {
  records: number;
  missed: number;
  failedReads: number;
  lastRecordAt?: number;
}

type Item = { line: string };
const strip = (line: string) => line.replace(/\r\n$/, '');

export class FileRunner {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private busy: Promise<void> = Promise.resolve();
  /** the writes handed to the volume and not yet synced: a slow volume never holds up the next reading */
  private writing: Promise<void> = Promise.resolve();
  private cache: RecordCache<Item> = emptyCache();
  private due = 0;
  private nextSample = -Infinity;
  private cond: ConditionState;
  private flag: FlagState = {};
  private readonly points: PointSource[];
  private readonly byKey: Map<string, PointSource>;
  private readonly records: LogRecord[];
  private readonly kinds: KindState[];
  private readonly plan: BlockRead[];
  private readonly samplePlan: BlockRead[];
  readonly stats: RunnerStats = { records: 0, missed: 0, failedReads: 0 };

  constructor(
    private readonly s: RunnerSettings,
    private readonly io: RunnerIo,
  ) {
    const resolved = filePoints(s.file, s.index);
    for (const p of resolved.problems) io.log.warn('a data point cannot be read', { file: s.file.name, point: p.key, problem: p.message });
    const byKey = new Map(resolved.points.map((p) => [p.key, p]));
    this.byKey = byKey;
    // a point that does not resolve keeps its column, empty
    this.records = s.file.records;
    this.points = s.file.records.map((_, j) => byKey.get(`${s.index}.${j}`)).filter((p): p is PointSource => p !== undefined);
    this.kinds = s.file.records.map((r) => kindState(r.format));
    this.plan = planReads(this.points, s.limitOf);
    const averaged = new Set(s.file.records.flatMap((r, j) => (r.format === 'average' ? [`${s.index}.${j}`] : [])));
    this.samplePlan = averaged.size
      ? planReads(
          this.points.filter((p) => averaged.has(p.key)),
          s.limitOf,
        )
      : [];
    this.cond = conditionStart(s.lastTrig);
  }

  get name(): string {
    return this.s.file.name;
  }

  /** block reads per record: what the bench and the console compare with the minimum */
  get readsPerRecord(): number {
    return this.plan.length;
  }

  start(): void {
    const { trigger } = this.s.file;
    if (trigger === FIXED_CYCLE || trigger === SPECIFIED_TIME) {
      const start = timedStart(this.s.file, this.io.now(), this.s.lastTrig);
      this.stats.missed += start.missed;
      this.due = start.due;
    }
    this.schedule();
  }

  /** Stops the timers and writes what is cached. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.busy;
    await this.cached({ kind: 'stop' });
    await this.writing;
  }

  private schedule(): void {
    if (this.stopped) return;
    const now = this.io.now();
    const t = this.s.file.trigger;
    const recordAt = t === FIXED_CYCLE || t === SPECIFIED_TIME ? this.due : t === CONDITION && this.cond.running ? this.cond.due : undefined;
    // never longer than pollMs: a clock set meanwhile moves the next record with it (see the head)
    const wake = Math.min(recordAt ?? Infinity, now + this.s.pollMs);
    this.timer = setTimeout(
      () => {
        this.busy = this.tick()
          .catch((e: unknown) => this.io.log.error('log file step failed', { file: this.s.file.name, error: String(e) }))
          .finally(() => this.schedule());
      },
      Math.max(0, wake - now),
    );
  }

  private async tick(): Promise<void> {
    const now = this.io.now();
    const f = this.s.file;
    if (f.trigger === FIXED_CYCLE || f.trigger === SPECIFIED_TIME) {
      // also when early: timedStep moves `due` when the clock was set back by more than a slot
      const step = timedStep(f, this.due, now);
      this.due = step.due;
      this.stats.missed += step.missed;
      if (step.record) await this.record(step.slot ?? now);
      else await this.sample(now);
      return;
    }
    if (f.trigger === CONDITION) {
      const levels = await this.levels();
      const step = conditionStep(f, this.cond, now, levels);
      this.cond = step.state;
      this.stats.missed += step.missed;
      if (step.record) await this.record(step.slot ?? now);
      else await this.sample(now);
      if (step.flush) await this.cached({ kind: step.flush });
      return;
    }
    if (f.trigger === PLC_FLAG) {
      const levels = await this.levels();
      if (!levels) return;
      const step = flagStep(this.flag, levels);
      this.flag = step.state;
      if (step.record) await this.record(now);
      else await this.sample(now);
      if (step.flush) await this.cached({ kind: 'store' });
    }
  }

  /** The flags of a condition or PLC-flag trigger; undefined when they cannot be read (no step then). */
  private async levels(): Promise<FlagLevels | undefined> {
    const f = this.s.file;
    try {
      const trig = await this.io.readFlag(f.cond_trig);
      const end = f.trigger === CONDITION && f.cond_end ? await this.io.readFlag(f.cond_end) : undefined;
      const store = f.enable_cond_store && f.cond_store ? await this.io.readFlag(f.cond_store) : undefined;
      return { trig, ...(end !== undefined ? { end } : {}), ...(store !== undefined ? { store } : {}) };
    } catch (e) {
      this.io.log.warn('the trigger flags cannot be read', { file: f.name, error: String(e) });
      return undefined;
    }
  }

  /** Reads the blocks; a failed block leaves its points without words. */
  private async read(plan: readonly BlockRead[]): Promise<Map<string, number[]>> {
    const words = new Map<string, number[]>();
    const byKey = this.byKey;
    for (const b of plan) {
      let got: number[];
      try {
        got = await this.io.readWords(b.interfaceId, b.station, b.area, b.start, b.count);
      } catch {
        this.stats.failedReads++;
        continue;
      }
      for (const key of b.points) {
        const p = byKey.get(key)!;
        words.set(key, got.slice(p.word - b.start, p.word - b.start + p.words));
      }
    }
    return words;
  }

  private valueOf(words: Map<string, number[]>, j: number): LogValue {
    const key = `${this.s.index}.${j}`;
    const p = this.byKey.get(key);
    return pointValue(this.records[j]!, p ? (words.get(key) ?? null) : null, p?.bit);
  }

  /**
   * One sample of the average points, at most one per pollMs of clock time (so the count of
   * samples between two records follows the clock, not how often the timer happened to fire); a
   * clock set back by more than that samples again at once.
   */
  private async sample(now: number): Promise<void> {
    if (!this.samplePlan.length) return;
    if (now < this.nextSample && this.nextSample - now <= this.s.pollMs) return;
    this.nextSample = now + this.s.pollMs;
    const words = await this.read(this.samplePlan);
    this.records.forEach((r, j) => {
      if (r.format === 'average') this.kinds[j]!.sample(this.valueOf(words, j));
    });
  }

  private async record(slot: number): Promise<void> {
    this.nextSample = this.io.now() + this.s.pollMs;
    const words = await this.read(this.plan);
    const values = this.records.map((_, j) => this.kinds[j]!.record(this.valueOf(words, j)));
    const at = (this.s.plcClock ? await this.io.plcTime() : undefined) ?? slot;
    const file = csvFileName(this.s.file.name, this.s.file.split, at, this.s.midnightToDayBefore);
    this.stats.records++;
    this.stats.lastRecordAt = at;
    this.io.triggered(Math.floor(slot / 1000));
    await this.cached({ kind: 'record', file, item: { line: strip(formatLine({ at, values }, this.s.format)) } });
  }

  /**
   * Hands the records the cache lets go to the volume's writer, in order, without waiting for the
   * sync: a volume slow to sync (an SD card, a busy disk) delays the write status, never the next
   * slot's reading (the writer queues the batches, bounded: csv-store.ts).
   */
  private async cached(ev: CacheEvent<Item>): Promise<void> {
    const step = cacheStep(this.cache, this.s.file.delay_store, ev);
    this.cache = step.cache;
    for (const w of step.writes) {
      const header = headerLines(this.records, this.s.format).map(strip);
      const written = this.io.write(
        w.file,
        header,
        w.items.map((i) => i.line),
      );
      this.writing = this.writing
        .then(() => written)
        .then(
          (s) => this.io.status(s),
          (e: unknown) => this.io.log.error('log write failed', { file: w.file, error: String(e) }),
        );
    }
  }
}
