// The data logger of the daemon (spec §3 Data logger, §4; architecture: device/logger): follows the
// saved pew_log (and pew for the interfaces' protocols, pew_rtc for the PLC clock's address), runs
// a FileRunner per log file whose trigger is not disabled, each writing through its own appender of
// one CSV store on the configured volume, lets the PLC start and stop logging (enable_plc_ctrl),
// reports the write state to the PLC's registers (enable_mem_ctrl), writes again what a failing
// volume kept queued, and deletes old files at 4:00 (file_max). docs/logger.md describes it.
//
// Every save of one of the three sections ends the current run (the runners write what they have
// cached, the files are closed) and starts a new one with the saved settings. A run's own loop
// wakes every pollMs: the PLC's start/stop register, the retry of failed writes and the 4:00
// check; like the runners it asks the clock at each wake, so it follows a clock that is set.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Clock, type Hw, VOLUME_IDS, type VolumeId } from '../../hw/types.ts';
import { ControlInterfaceOff } from '../com/dialog.ts';
import type { Links } from '../com/links.ts';
import type { ConfigStore } from '../config/store.ts';
import { reason, reasonLog, type StatusReason } from '../model/reasons.ts';
import type { Log } from '../model/sections/log.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { Rtc } from '../model/sections/rtc.ts';
import { parseBitOffset } from '../protocol/areas.ts';
import { FP_CLOCK_WORDS, fpClockMs } from '../protocol/fp-clock.ts';
import { followRuns, type Runs } from '../service-runtime/runs.ts';
import type { AuditLog } from '../system/audit.ts';
import type { Logger } from '../system/log.ts';
import { type CsvAppender, CsvStore, type StoreFs } from './csv-store.ts';
import { type CsvFormat, csvFormat } from './csv-text.ts';
import { FileRunner } from './file-runner.ts';
import { parseFormatFile, type UserFormat } from './format-file.ts';
import { lastRecordAt } from './last-record.ts';
import { type LoggerNotices, NoticeBoard } from './notices.ts';
import { interfaceProtocol, type LimitOf, readLimit } from './planner.ts';
import { type ControlIo, plcWantsLogging, StatusReporter } from './plc-control.ts';
import { deleteExpired, nextRetentionRun } from './retention.ts';
import { LoggerState } from './state.ts';
import { DISABLED } from './triggers.ts';
import { LOG_FOLDER, type LogFile, type WriteState, type WriteStatus } from './types.ts';

export const LOGGER_USER = 'logger';
export const POLL_MS = 1000;
/** where header mode 4 finds pew_log.formatfile (mewtocol.md §9 format files) */
export const FORMAT_FOLDER = 'logcfg';

export interface LoggerDeps {
  store: ConfigStore;
  links: Links;
  hw: Hw;
  log: Logger;
  /** every CSV file the low-memory policy deletes is audited with its name */
  audit: AuditLog;
  dataDir: string;
  clock?: Clock;
  /** the longest sleep of every timer, the flag and control-register poll, the average sampling (default 1 s) */
  pollMs?: number;
  fs?: StoreFs;
}

export interface LogFileStatus {
  name: string;
  records: number;
  missed: number;
  failedReads: number;
  readsPerRecord: number;
  lastRecordAt?: number;
  /** Unix seconds of the last trigger, kept across restarts (last_trig); 0 = never */
  lastTrigger: number;
  /** what the last write of this log file's records gave */
  write?: WriteStatus;
}

export interface LoggerStatus {
  enabled: boolean;
  /** logging runs (enabled, and the PLC asks for it when enable_plc_ctrl) */
  running: boolean;
  /** the worst state of the log files' writes, or why logging does not run, with the notices not acknowledged yet */
  write: WriteStatus | { state: WriteState; reasons: StatusReason[] };
  files: LogFileStatus[];
  /** deletions and dropped records the technician has not acknowledged yet (notices.ts) */
  notices: LoggerNotices;
}

export interface DataLogger {
  settled(): Promise<void>;
  status(): LoggerStatus;
  /** The technician has seen the notices: they are cleared (and the PLC's registers follow); returns what was seen. */
  acknowledge(): Promise<LoggerNotices>;
  close(): Promise<void>;
}

const SEVERITY: Record<WriteState, number> = { ok: 0, low_memory: 1, stopped: 2, error: 3 };
const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

interface RunContext {
  deps: LoggerDeps;
  clock: Clock;
  pollMs: number;
  state: LoggerState;
  notices: NoticeBoard;
}

/** The logger with one version of the saved settings, from its start to the next save. */
class LoggerRun {
  private active = true;
  private runners: FileRunner[] = [];
  /** the runners last started, kept for the status while the PLC has stopped logging */
  private shown: FileRunner[] = [];
  private running = false;
  private plcStopped: boolean;
  /** settings that cannot run (an unreadable format file) */
  private problem: string | undefined;
  private format: (records: LogFile['records']) => CsvFormat = () => {
    throw new Error('no format yet');
  };
  /** the last write status of each log file, by name */
  private readonly writes = new Map<string, WriteStatus>();
  private readonly appenders = new Map<string, CsvAppender>();
  private readonly csv: CsvStore;
  private readonly volume: VolumeId;
  private readonly plcIo: ControlIo;
  private readonly reporter: StatusReporter;
  private reports: Promise<unknown> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private looping: Promise<void> = Promise.resolve();
  private nextRetention = Infinity;

  constructor(
    private readonly c: RunContext,
    private readonly log: Log,
    private readonly pew: Pew,
    private readonly rtc: Rtc,
  ) {
    const { deps } = c;
    this.volume = VOLUME_IDS[log.storage] ?? 'internal';
    this.csv = new CsvStore({
      volumes: () => deps.hw.volumes(),
      deleteOldFiles: log.delete_old_files,
      ...(deps.fs ? { fs: deps.fs } : {}),
      onDeleted: (volume, names) => this.deletedForSpace(volume, names),
    });
    this.plcStopped = log.enable_plc_ctrl;
    // the control and status registers are DT words of the service control interface's own PLC
    const controlLink = () => {
      const link = deps.links.get(pew.interface_plc);
      if (!link) throw new ControlInterfaceOff();
      return link;
    };
    this.plcIo = {
      readWord: async (address) => (await controlLink().readWords('DT', address, 1, LOGGER_USER))[0]!,
      writeWord: (address, value) => controlLink().writeWords('DT', address, [value], LOGGER_USER),
    };
    this.reporter = new StatusReporter(this.plcIo, log);
  }

  async start(): Promise<void> {
    try {
      const user = await this.userFormat();
      this.format = (records) => csvFormat(this.log, records, user ? { user } : {});
    } catch (e) {
      this.problem = errorText(e);
      this.c.deps.log.error('the logger cannot start', { error: this.problem });
    }
    if (this.problem === undefined) {
      if (this.log.enable_plc_ctrl) await this.control();
      else await this.startRunners();
    }
    await this.publish();
    this.nextRetention = nextRetentionRun(this.c.clock.now());
    this.schedule();
  }

  async stop(): Promise<void> {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    await this.looping;
    await this.stopRunners();
    await this.reports;
    await this.csv.close();
  }

  status(): LoggerStatus {
    return {
      enabled: true,
      running: this.running,
      write: this.c.notices.over(this.current()),
      notices: this.c.notices.current(),
      files: this.shown.map((r) => {
        const write = this.writes.get(r.name);
        return { name: r.name, ...r.stats, readsPerRecord: r.readsPerRecord, lastTrigger: this.c.state.lastTrigger(r.name), ...(write ? { write } : {}) };
      }),
    };
  }

  /** The worst write state of the log files; the PLC's stop and a settings problem count too. */
  private current(): LoggerStatus['write'] {
    if (this.problem !== undefined) return { state: 'error', reasons: [reason('format_file', undefined, this.problem)] };
    let worst: WriteStatus = { state: 'ok', reasons: [], volume: this.volume };
    for (const s of this.writes.values()) if (SEVERITY[s.state] > SEVERITY[worst.state]) worst = s;
    if (this.plcStopped && SEVERITY[worst.state] < SEVERITY.stopped) return { state: 'stopped', reasons: [reason('stopped_by_plc')], volume: this.volume };
    return worst;
  }

  /** Writes the current state (with the notices) to the PLC's status registers; one report after another, each with the state of its turn. */
  publish(): Promise<unknown> {
    this.reports = this.reports
      .then(() => (this.active ? this.reporter.report(this.c.notices.over(this.current()).state) : undefined))
      .catch((e: unknown) => this.c.deps.log.warn('the logger status registers cannot be written', { error: errorText(e) }));
    return this.reports;
  }

  private note(file: string, s: WriteStatus): void {
    if (!this.active) return;
    const before = this.writes.get(file);
    this.writes.set(file, s);
    const detail = s.reasons.map(reasonLog).join('; ');
    if (s.state !== 'ok' && (before?.state !== s.state || before.reasons.map(reasonLog).join('; ') !== detail))
      this.c.deps.log.warn('log write', { file, state: s.state, detail });
    if (before?.state !== s.state) void this.publish();
  }

  /** The low-memory policy deleted `names`: a notice until acknowledged, the daemon log and the audit log, each with the names. */
  private deletedForSpace(volume: VolumeId, names: string[]): void {
    const { deps, clock, notices } = this.c;
    deps.log.warn('log files deleted for space', { volume, files: names });
    deps.audit
      .write({ action: 'logfile_delete', user: LOGGER_USER, detail: { storage: this.log.storage, volume, names, reason: 'low_memory' } })
      .catch((e: unknown) => deps.log.error('the audit log cannot be written', { error: errorText(e) }));
    notices.filesDeleted(volume, names, clock.now());
  }

  private async userFormat(): Promise<UserFormat | undefined> {
    if (this.log.header !== 4) return undefined;
    const r = parseFormatFile(await readFile(join(this.c.deps.dataDir, FORMAT_FOLDER, this.log.formatfile), 'utf8'));
    if (!r.ok) throw new Error(`format file ${this.log.formatfile}: ${r.error.message}`);
    return r.value;
  }

  private schedule(): void {
    if (!this.active) return;
    this.timer = setTimeout(() => {
      this.looping = this.step()
        .catch((e: unknown) => this.c.deps.log.error('logger step failed', { error: errorText(e) }))
        .finally(() => this.schedule());
    }, this.c.pollMs);
  }

  private async step(): Promise<void> {
    if (this.problem === undefined) {
      if (this.log.enable_plc_ctrl) await this.control();
      await this.retry();
      // spec §4: old files are deleted at 4:00; a clock set back waits for the 4:00 that is now next
      const now = this.c.clock.now();
      const next = nextRetentionRun(now);
      if (now >= this.nextRetention) {
        this.nextRetention = next;
        await this.retain();
      } else this.nextRetention = Math.min(this.nextRetention, next);
    }
    // a register write that failed (the control link was down) is repeated; unchanged ones are not written
    await this.publish();
  }

  /** enable_plc_ctrl: the PLC's DT plc_ctrl_wr starts (≠ 0) and stops (0) logging; unreadable keeps the last decision. */
  private async control(): Promise<void> {
    const wants = await plcWantsLogging(this.plcIo, this.log);
    if (!this.active) return;
    if (wants === true && !this.running) {
      this.plcStopped = false;
      await this.startRunners();
      await this.publish();
    } else if (wants === false && this.running) {
      this.plcStopped = true;
      await this.stopRunners();
      await this.publish();
    }
  }

  /** A log file whose last write failed or was stopped for space writes its queued records again. */
  private async retry(): Promise<void> {
    for (const [file, s] of [...this.writes]) {
      if (s.state !== 'error' && s.state !== 'stopped') continue;
      const appender = this.appenders.get(file);
      if (appender && this.active) this.note(file, await appender.flush());
    }
  }

  private async retain(): Promise<void> {
    const v = (await this.c.deps.hw.volumes()).find((x) => x.id === this.volume);
    if (!v?.mounted) return;
    for (const f of this.log.log_def) {
      if (f.file_max === 0) continue;
      try {
        const gone = await deleteExpired(join(v.path, LOG_FOLDER), f, this.csv.fs, this.csv.busyFiles(this.volume));
        if (gone.length) this.c.deps.log.info('old log files deleted', { file: f.name, deleted: gone.length, files: gone });
      } catch (e) {
        this.c.deps.log.warn('deleting old log files failed', { file: f.name, error: errorText(e) });
      }
    }
  }

  private async startRunners(): Promise<void> {
    const files = this.log.log_def.flatMap((file, index) => (file.trigger === DISABLED ? [] : [{ file, index }]));
    const shown = await Promise.all(files.map(async ({ file, index }) => this.runner(file, index, await this.lastTrigFromFiles(file))));
    if (!this.active) return;
    this.runners = shown;
    this.shown = this.runners;
    this.runners.forEach((r) => r.start());
    this.running = true;
  }

  /**
   * Unix seconds of the last record of `file` in its CSV files (last-record.ts): after a crash the
   * truth, where the kept state may be a minute old. Undefined when the files show none, or with
   * plc_rtc_dt, where a record carries the PLC's clock and not the slot that triggered it.
   */
  private async lastTrigFromFiles(file: LogFile): Promise<number | undefined> {
    if (this.log.plc_rtc_dt) return undefined;
    try {
      const v = await this.csv.volume(this.volume);
      if (!v?.mounted) return undefined;
      const at = await lastRecordAt(join(v.path, LOG_FOLDER), file.name, this.format(file.records), this.csv.fs);
      return at === undefined ? undefined : Math.floor(at / 1000);
    } catch (e) {
      this.c.deps.log.warn('the last record of a log file cannot be read', { file: file.name, error: errorText(e) });
      return undefined;
    }
  }

  private async stopRunners(): Promise<void> {
    const old = this.runners;
    this.runners = [];
    this.running = false;
    await Promise.all(old.map((r) => r.stop()));
  }

  private appender(file: string): CsvAppender {
    let a = this.appenders.get(file);
    if (!a) {
      a = this.csv.appender(this.volume, (records) => {
        this.c.deps.log.warn('log records dropped', { file, records });
        this.c.notices.recordsDropped(file, records);
      });
      this.appenders.set(file, a);
    }
    return a;
  }

  private runner(file: LogFile, index: number, fromFiles: number | undefined): FileRunner {
    const { deps, clock, state, pollMs } = this.c;
    // the files are the truth after a crash (the kept state may be older or newer than them)
    if (fromFiles !== undefined) state.restore(file.name, fromFiles);
    const limitOf: LimitOf = (id, area) => readLimit(interfaceProtocol(this.pew, id), area);
    const station = file.plc_addr;
    const link = () => {
      const l = deps.links.get(file.interface);
      if (!l) throw new Error(`interface ${file.interface} is not enabled`);
      return l;
    };
    const appender = this.appender(file.name);
    return new FileRunner(
      {
        file,
        index,
        format: this.format(file.records),
        limitOf,
        midnightToDayBefore: this.log.midnight_to_daybefore,
        plcClock: this.log.plc_rtc_dt,
        lastTrig: fromFiles ?? Math.max(file.last_trig, state.lastTrigger(file.name)),
        pollMs,
      },
      {
        now: () => clock.now(),
        readWords: async (id, st, area, start, count) => {
          const l = deps.links.get(id);
          if (!l) throw new Error(`interface ${id} is not enabled`);
          return l.readWords(area, start, count, LOGGER_USER, st);
        },
        readFlag: async (address) => {
          const bit = parseBitOffset(address);
          if (!bit.ok) throw new Error(`R${address}: ${bit.error.message}`);
          return (await link().readBits('R', bit.value.word * 16 + bit.value.bit, 1, LOGGER_USER, station))[0]!;
        },
        // plc_rtc_dt: the clock of the PLC the log file reads (its interface and station)
        plcTime: async () => {
          try {
            return fpClockMs(await link().readWords('DT', this.rtc.rtc_address_dt, FP_CLOCK_WORDS, LOGGER_USER, station));
          } catch {
            return undefined;
          }
        },
        write: (name, header, lines) => appender.append(name, header, lines),
        triggered: (s) => {
          void state.triggered(file.name, s);
        },
        status: (s) => this.note(file.name, s),
        log: deps.log,
      },
    );
  }
}

export async function startLogger(deps: LoggerDeps): Promise<DataLogger> {
  const clock = deps.clock ?? deps.hw.clock;
  const pollMs = deps.pollMs ?? POLL_MS;
  const state = LoggerState.at(deps.dataDir, () => clock.now());
  await state.load();
  let enabled = false;
  let runs: Runs<LoggerRun> | undefined;
  // kept across settings saves: a notice stays until the technician acknowledged it
  const notices = NoticeBoard.at(deps.dataDir, () => void runs?.current()?.publish());
  await notices.load();

  runs = await followRuns(deps.store, ['pew_log', 'pew', 'pew_rtc'], deps.log, async () => {
    await state.flush();
    const log = deps.store.get<Log>('pew_log');
    enabled = log.enable_log;
    state.keepOnly(new Set(log.log_def.map((f) => f.name)));
    if (!enabled) return undefined;
    const next = new LoggerRun({ deps, clock, pollMs, state, notices }, log, deps.store.get<Pew>('pew'), deps.store.get<Rtc>('pew_rtc'));
    try {
      await next.start();
    } catch (e) {
      await next.stop(); // what started before the failure stops with it
      throw e;
    }
    return next;
  });
  const followed = runs;
  return {
    settled: () => followed.settled(),
    status: () =>
      followed.current()?.status() ?? { enabled, running: false, write: notices.over({ state: 'ok', reasons: [] }), files: [], notices: notices.current() },
    acknowledge: async () => {
      const seen = notices.acknowledge();
      await followed.current()?.publish();
      return seen;
    },
    close: async () => {
      await followed.close();
      await state.flush();
      await notices.close();
    },
  };
}
