// The data logger of the daemon (spec §3 Data logger, §4; architecture: device/logger): follows the
// saved pew_log (and pew for the interfaces' protocols, pew_rtc for the PLC clock's address), runs
// a FileRunner per log file whose trigger is not disabled, writes through one CSV store on the
// configured volume, lets the PLC start and stop logging (enable_plc_ctrl), reports the write state
// to the PLC's registers (enable_mem_ctrl), and deletes old files at 4:00 (file_max).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { VOLUME_IDS, type Clock, type Hw } from '../../hw/types.ts';
import type { ConfigStore } from '../config/store.ts';
import { followSection } from '../config/follow.ts';
import type { Links } from '../com/links.ts';
import type { Log } from '../model/sections/log.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { Rtc } from '../model/sections/rtc.ts';
import { INTERNAL_ID } from '../model/plc.ts';
import type { Logger } from '../system/log.ts';
import { FP_CLOCK_WORDS, fpClockMs } from '../protocol/fp-clock.ts';
import { CsvStore, type StoreFs } from './csv-store.ts';
import { csvFormat, type CsvFormat } from './csv-text.ts';
import { parseFormatFile, type UserFormat } from './format-file.ts';
import { FileRunner } from './file-runner.ts';
import { readLimit, type LimitOf, type Protocol } from './planner.ts';
import { plcWantsLogging, StatusReporter, type ControlIo } from './plc-control.ts';
import { deleteExpired, nextRetentionRun } from './retention.ts';
import { LoggerState } from './state.ts';
import { DISABLED } from './triggers.ts';
import { LOG_FOLDER, type WriteState, type WriteStatus } from './types.ts';
import * as nodeFs from 'node:fs/promises';

export const LOGGER_USER = 'logger';
export const POLL_MS = 1000;

export interface LoggerDeps {
  store: ConfigStore;
  links: Links;
  hw: Hw;
  log: Logger;
  dataDir: string;
  clock?: Clock;
  /** flag, control-register and average-sample polling (default 1 s) */
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
}

export interface LoggerStatus {
  enabled: boolean;
  /** logging runs (enabled, and the PLC asks for it when enable_plc_ctrl) */
  running: boolean;
  write: WriteStatus | { state: WriteState; detail: string };
  files: LogFileStatus[];
}

export interface DataLogger {
  settled(): Promise<void>;
  status(): LoggerStatus;
  close(): Promise<void>;
}

const SEVERITY: Record<WriteState, number> = { ok: 0, low_memory: 1, stopped: 2, error: 3 };

/** "10A" → R word 10, bit 10: the contact index of the R area. */
export function flagIndex(address: string): number {
  const word = address.length > 1 ? Number(address.slice(0, -1)) : 0;
  return word * 16 + parseInt(address.slice(-1), 16);
}

export async function startLogger(deps: LoggerDeps): Promise<DataLogger> {
  const clock = deps.clock ?? deps.hw.clock;
  const pollMs = deps.pollMs ?? POLL_MS;
  const state = LoggerState.at(deps.dataDir, () => clock.now());
  await state.load();
  let runners: FileRunner[] = [];
  let csv: CsvStore | undefined;
  let controlTimer: ReturnType<typeof setTimeout> | undefined;
  let retention: ReturnType<typeof setTimeout> | undefined;
  let enabled = false;
  let running = false;
  let write: LoggerStatus['write'] = { state: 'ok', detail: '' };
  let statusOf = new Map<string, WriteStatus>();

  async function stopAll(): Promise<void> {
    if (controlTimer) clearTimeout(controlTimer);
    if (retention) clearTimeout(retention);
    controlTimer = retention = undefined;
    await Promise.all(runners.map((r) => r.stop()));
    runners = [];
    running = false;
    await state.flush();
    await csv?.close();
    csv = undefined;
  }

  async function userFormat(log: Log): Promise<UserFormat | undefined> {
    if (log.header !== 4) return undefined;
    const r = parseFormatFile(await readFile(join(deps.dataDir, 'logcfg', log.formatfile), 'utf8'));
    if (!r.ok) throw new Error(`format file ${log.formatfile}: ${r.error.message}`);
    return r.value;
  }

  async function apply(): Promise<void> {
    await stopAll();
    const log = deps.store.get<Log>('pew_log');
    const pew = deps.store.get<Pew>('pew');
    const rtc = deps.store.get<Rtc>('pew_rtc');
    enabled = log.enable_log;
    state.keepOnly(new Set(log.log_def.map((f) => f.name)));
    statusOf = new Map();
    write = { state: 'ok', detail: '' };
    if (!enabled) return;

    const volume = VOLUME_IDS[log.storage] ?? 'internal';
    const store = new CsvStore({ volumes: () => deps.hw.volumes(), deleteOldFiles: log.delete_old_files, ...(deps.fs ? { fs: deps.fs } : {}) });
    csv = store;
    const appender = store.appender(volume);
    const protocolOf = (id: number): Protocol => {
      if (id === INTERNAL_ID) return 'MODBUS';
      const p = pew.interfaces.find((i) => i.id === id)?.protocol;
      return p === 'MEWTOCOL7' || p === 'MODBUS' ? p : 'MEWTOCOL';
    };
    const limitOf: LimitOf = (id, area) => readLimit(protocolOf(id), area);
    const plcIo: ControlIo = {
      readWord: async (address) => {
        const link = deps.links.get(pew.interface_plc);
        if (!link) throw new Error('the service control interface is not enabled');
        return (await link.readWords('DT', address, 1, LOGGER_USER))[0]!;
      },
      writeWord: async (address, value) => {
        const link = deps.links.get(pew.interface_plc);
        if (!link) throw new Error('the service control interface is not enabled');
        await link.writeWords('DT', address, [value], LOGGER_USER);
      },
    };
    const reporter = new StatusReporter(plcIo, log);
    const report = async (s: WriteStatus) => {
      statusOf.set(s.file ?? '', s);
      const worst = [...statusOf.values()].reduce<WriteStatus>((a, b) => (SEVERITY[b.state] > SEVERITY[a.state] ? b : a), { state: 'ok', detail: '', volume });
      write = worst;
      if (s.state !== 'ok') deps.log.warn('log write', { state: s.state, detail: s.detail, file: s.file });
      await reporter.report(worst.state);
    };

    let format: (records: Log['log_def'][number]['records']) => CsvFormat;
    try {
      const user = await userFormat(log);
      format = (records) => csvFormat(log, records, user ? { user } : {});
    } catch (e) {
      write = { state: 'error', detail: e instanceof Error ? e.message : String(e) };
      deps.log.error('the logger cannot start', { error: write.detail });
      await reporter.report('error');
      return;
    }

    const build = () => log.log_def.flatMap((file, index) => {
      if (file.trigger === DISABLED) return [];
      const station = file.plc_addr;
      const link = () => deps.links.get(file.interface);
      return [new FileRunner({
        file, index, format: format(file.records), limitOf, midnightToDayBefore: log.midnight_to_daybefore, plcClock: log.plc_rtc_dt,
        lastTrig: Math.max(file.last_trig, state.lastTrigger(file.name)), pollMs,
      }, {
        now: () => clock.now(),
        readWords: async (id, st, area, start, count) => {
          const l = deps.links.get(id);
          if (!l) throw new Error(`interface ${id} is not enabled`);
          return l.readWords(area, start, count, LOGGER_USER, st);
        },
        readFlag: async (address) => {
          const l = link();
          if (!l) throw new Error(`interface ${file.interface} is not enabled`);
          return (await l.readBits('R', flagIndex(address), 1, LOGGER_USER, station))[0]!;
        },
        plcTime: async () => {
          const l = link();
          try {
            return l ? fpClockMs(await l.readWords('DT', rtc.rtc_address_dt, FP_CLOCK_WORDS, LOGGER_USER, station)) : undefined;
          } catch {
            return undefined;
          }
        },
        write: (name, header, lines) => appender.append(name, header, lines),
        triggered: (s) => { void state.triggered(file.name, s); },
        status: (s) => { void report(s); },
        log: deps.log,
      })];
    });

    const startRunners = () => {
      runners = build();
      runners.forEach((r) => r.start());
      running = true;
    };
    const stopRunners = async () => {
      const old = runners;
      runners = [];
      running = false;
      await Promise.all(old.map((r) => r.stop()));
    };

    await reporter.report(log.enable_plc_ctrl ? 'stopped' : 'ok');
    if (!log.enable_plc_ctrl) startRunners();
    else {
      // the PLC starts and stops logging through plc_ctrl_wr, polled
      const poll = async () => {
        const wants = await plcWantsLogging(plcIo, log);
        if (csv !== store) return; // settings changed meanwhile
        if (wants === true && !running) { startRunners(); await report({ state: 'ok', detail: '', volume }); }
        if (wants === false && running) { await stopRunners(); await report({ state: 'stopped', detail: 'stopped by the PLC', volume }); }
        if (csv === store) controlTimer = setTimeout(() => void poll(), pollMs);
      };
      await poll();
    }

    // spec §4: with file_max non-zero, older files are deleted at 4:00
    const retain = async () => {
      const v = (await deps.hw.volumes()).find((x) => x.id === volume);
      if (v?.mounted) {
        for (const f of log.log_def) {
          if (f.file_max === 0) continue;
          try {
            const gone = await deleteExpired(join(v.path, LOG_FOLDER), f, deps.fs ?? nodeFs, store.busyFiles(volume));
            if (gone.length) deps.log.info('old log files deleted', { file: f.name, deleted: gone.length });
          } catch (e) {
            deps.log.warn('deleting old log files failed', { file: f.name, error: String(e) });
          }
        }
      }
      if (csv === store) retention = setTimeout(() => void retain(), Math.max(1000, nextRetentionRun(clock.now()) - clock.now()));
    };
    retention = setTimeout(() => void retain(), Math.max(1000, nextRetentionRun(clock.now()) - clock.now()));
  }

  const follower = await followSection(deps.store, ['pew_log', 'pew', 'pew_rtc'], deps.log, apply);
  return {
    settled: () => follower.settled(),
    status: () => ({
      enabled, running, write,
      files: runners.map((r) => ({ name: r.name, ...r.stats, readsPerRecord: r.readsPerRecord })),
    }),
    close: async () => {
      await follower.stop();
      await stopAll();
    },
  };
}
