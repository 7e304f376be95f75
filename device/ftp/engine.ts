// The FTP send of the daemon (spec §3 pew_ftpc and pew_script, §4 rename and delete after a send,
// §9 FTP send: cycle ≥ 60 s, base time ≤ 86400 s, up to 9 retries). Follows the saved pew_ftpc,
// pew_script and pew (whose service control interface carries the PLC's control block). With
// enable_ftp on, a send starts
//   - when the PLC asks for one through its control block (registers.ts), read every plc_poll s;
//   - on the script's transmission cycle (ftp_transmission; schedule.ts) on the unit's clock.
// One send runs at a time; a request or a cycle that comes while one runs starts the next after it.
// A failed attempt is tried again ftp_repeats times, RETRY_DELAY_MS of clock time apart, each time
// with the files still waiting; then the send ends with an error code in the PLC's status words.
//
// The loop wakes every tickMs (1 s) and asks the clock, like the data logger, so it follows a
// clock that is set (NTP, a technician, the tests' injected clock). docs/ftp.md describes it all.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock, Hw } from '../../hw/types.ts';
import { ControlInterfaceOff, plcFailureReason } from '../com/dialog.ts';
import type { Links } from '../com/links.ts';
import type { ConfigStore } from '../config/store.ts';
import { FTP_COUNTERS, type FtpCounters, type FtpLastSend, type FtpRenamed, type FtpSendState, type FtpStatus, type FtpTrigger } from '../model/ftp-status.ts';
import { type StatusReason, sameReason } from '../model/reasons.ts';
import type { Ftpc } from '../model/sections/ftpc.ts';
import type { Log } from '../model/sections/log.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { Script } from '../model/sections/script.ts';
import { followRuns } from '../service-runtime/runs.ts';
import type { Logger } from '../system/log.ts';
import { LocalFolderError, localDirOf, resolveLocalFolder, selectFiles, sentName } from './local-files.ts';
import { FTP_ERROR, FTP_STATE, type FtpErrorName, REG, statusWords } from './registers.ts';
import { nextSend } from './schedule.ts';
import { type SendError, sendAttempt } from './send.ts';

export const FTP_USER = 'ftp';
export const TICK_MS = 1000;
/** clock time between a failed attempt and its retry */
export const RETRY_DELAY_MS = 30_000;

export interface FtpSendDeps {
  store: ConfigStore;
  links: Links;
  hw: Hw;
  log: Logger;
  dataDir: string;
  clock?: Clock;
  tickMs?: number;
  retryDelayMs?: number;
  /** inactivity timeout of the FTP connection (default 10 s) */
  timeoutMs?: number;
}

export interface FtpSend {
  settled(): Promise<void>;
  /**
   * A send asked for by another part of the unit (the script's send statement): starts after the
   * send that runs now, resolves with its result when it finished; undefined while the FTP send is
   * not enabled (or stops meanwhile).
   */
  request(trigger: FtpTrigger): Promise<FtpLastSend | undefined>;
  status(): FtpStatus;
  /** sends, files sent and files not sent since the daemon started (a save does not reset them) */
  counters(): FtpCounters;
  close(): Promise<void>;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** What outlives a settings change: the last result, the state shown to the PLC, the send counter, the status counters. */
interface Shared {
  state: FtpSendState;
  counter: number;
  counters: FtpCounters;
  last?: FtpLastSend;
}

/** The engine with one version of the saved settings, from its start to the next save. */
class FtpRun {
  private active = true;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ticking: Promise<void> = Promise.resolve();
  private job: Promise<void> | undefined;
  private pendingCycle = false;
  private nextCycle: number | undefined;
  private lastPoll = -Infinity;
  private retryAt: number | undefined;
  /** the failure of the attempt whose retry is awaited: shown in the status and in DT n+2 meanwhile */
  private retryError: FtpStatus['retryError'];
  /** the status words the PLC holds as far as we know ('' = not written or the write failed) */
  private written = '';
  plcProblem: StatusReason | undefined;

  constructor(
    private readonly deps: FtpSendDeps & { clock: Clock; tickMs: number; retryDelayMs: number },
    private readonly shared: Shared,
    readonly ftp: Ftpc,
    readonly script: Script,
    private readonly pew: Pew,
  ) {}

  start(): void {
    if (this.script.ftp_transmission) this.nextCycle = nextSend(this.deps.clock.now(), this.script.transmission_btime, this.script.ftp_send_cycle);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
    await this.job;
  }

  get running(): boolean {
    return this.job !== undefined;
  }

  status(): Pick<FtpStatus, 'cycle' | 'nextCycle' | 'retryAt' | 'retryError' | 'plc'> {
    return {
      cycle: this.script.ftp_transmission,
      ...(this.nextCycle !== undefined ? { nextCycle: this.nextCycle } : {}),
      ...(this.retryAt !== undefined ? { retryAt: this.retryAt } : {}),
      ...(this.retryError !== undefined ? { retryError: this.retryError } : {}),
      ...(this.plcProblem ? { plc: this.plcProblem } : {}),
    };
  }

  private schedule(ms = this.deps.tickMs): void {
    if (!this.active) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick()
        .catch((e: unknown) => this.deps.log.error('ftp send step failed', { error: errorText(e) }))
        .finally(() => this.schedule());
    }, ms);
  }

  private async tick(): Promise<void> {
    // the transmission cycle, on the unit's clock; a clock set back waits for the time that is now next
    if (this.nextCycle !== undefined) {
      const now = this.deps.clock.now();
      const next = nextSend(now, this.script.transmission_btime, this.script.ftp_send_cycle);
      if (now >= this.nextCycle) {
        this.nextCycle = next;
        this.pendingCycle = true;
      } else this.nextCycle = Math.min(this.nextCycle, next);
    }
    if (this.pendingCycle && !this.running) {
      this.pendingCycle = false;
      this.begin('cycle');
    }
    // the PLC's control block, every plc_poll seconds
    const t = performance.now();
    if (t - this.lastPoll >= this.ftp.plc_poll * 1000 - this.deps.tickMs / 2) {
      this.lastPoll = t;
      await this.poll();
    }
  }

  private link() {
    const link = this.deps.links.get(this.pew.interface_plc);
    if (!link) throw new ControlInterfaceOff();
    return link;
  }

  /** Reads the request word (taking a request when idle) and brings the status words up to date. */
  private async poll(): Promise<void> {
    const base = this.ftp.plc_control_dt;
    try {
      const link = this.link();
      const [request] = await link.readWords('DT', base + REG.request, 1, FTP_USER);
      if (!this.active) return;
      if ((request ?? 0) !== 0 && !this.running) {
        // the request is taken (cleared) before the send begins: the PLC never sees a send's state,
        // a retry's wait or its result beside its own request still set, and a request whose
        // clearing failed is not run twice (the next poll takes it again); the state word follows
        // in the same write, so a cleared request never shows beside the last send's state
        await link.writeWords('DT', base + REG.request, [0, FTP_STATE.running], FTP_USER);
        if (this.active && !this.running) this.begin('plc');
      }
      await this.publish();
      this.plcProblem = undefined;
    } catch (e) {
      const why = plcFailureReason(e);
      if (!sameReason(this.plcProblem, why)) this.deps.log.warn('ftp control registers cannot be used', { error: errorText(e) });
      this.plcProblem = why;
    }
  }

  /** Writes DT n+1 … n+5 when they differ from what the PLC holds. */
  private async publish(): Promise<void> {
    const s = this.shared;
    const last = s.last;
    const words = statusWords({
      state: s.state,
      // while a retry is awaited, the failure that made it (the last send's result comes later)
      error: ((this.retryError ?? last?.error)?.code as FtpErrorName | undefined) ?? 'none',
      sent: last?.files.length ?? 0,
      failed: last?.failed ?? 0,
      counter: s.counter,
    });
    const key = words.join(',');
    if (key === this.written) return;
    this.written = '';
    await this.link().writeWords('DT', this.ftp.plc_control_dt + REG.state, words, FTP_USER);
    this.written = key;
  }

  async sendNow(trigger: FtpTrigger): Promise<FtpLastSend | undefined> {
    while (this.job) await this.job;
    if (!this.active) return undefined;
    this.begin(trigger);
    await this.job;
    return this.shared.last;
  }

  private begin(trigger: FtpTrigger): void {
    this.shared.state = 'running';
    this.job = this.send(trigger)
      .catch((e: unknown) => this.deps.log.error('ftp send failed', { error: errorText(e) }))
      .finally(() => {
        this.job = undefined;
        // show the result at once; a failed write is repeated by the next poll
        if (this.active)
          void this.publish().catch(() => {
            this.written = '';
          });
      });
    void this.publish().catch(() => {
      this.written = '';
    });
  }

  /** Waits until the clock reaches `at`; false when the run stops first. */
  private async waitUntil(at: number): Promise<boolean> {
    while (this.active && this.deps.clock.now() < at) await new Promise((r) => setTimeout(r, Math.min(this.deps.tickMs, 200)));
    return this.active;
  }

  private async send(trigger: FtpTrigger): Promise<void> {
    const { deps } = this;
    const started = deps.clock.now();
    const ext = this.script.file_ext_replacement;
    const files: string[] = [];
    let bytes = 0;
    let attempts = 0;
    let failed = 0;
    let deleted = 0;
    let held: string[] = [];
    const renamed: FtpRenamed[] = [];
    /** uploads begun and not finished, retried under the same remote name (send.ts) */
    const resume = new Map<string, string>();
    let error: SendError | undefined;
    for (;;) {
      attempts++;
      error = undefined;
      try {
        const log = deps.store.get<Log>('pew_log');
        const folder = await resolveLocalFolder(this.ftp, log, await deps.hw.volumes());
        const pick = await selectFiles(folder.path, this.ftp, this.script, { now: deps.clock.now(), log });
        held = pick.held;
        const r = await sendAttempt(this.ftp, pick.send, {
          dataDir: deps.dataDir,
          folder: folder.path,
          ext,
          resume,
          cancelled: () => !this.active,
          ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
        });
        for (const f of r.sent) {
          files.push(f.name);
          bytes += f.bytes;
          if (f.remote === f.name && f.renamed === sentName(f.name, ext)) continue;
          // its own name was taken on the server or here: never replaced, numbered, and said so
          renamed.push({ file: f.name, remote: f.remote, local: f.renamed });
          deps.log.info('ftp send: a file went under a numbered name, its own was taken', { file: f.name, remote: f.remote, local: f.renamed });
        }
        failed = pick.send.length - r.sent.length - r.gone.length;
        error = r.error;
        if (!error && r.cancelled) error = { code: 'other', message: 'the send was stopped (settings saved or the daemon stopping)', local: true };
        // store_send off: what an earlier send renamed goes once this send reached the server (§4 "deleted later")
        if (!error && !this.ftp.store_send)
          deleted += await this.deleteSent(
            folder.path,
            pick.sent.map((f) => f.name),
          );
      } catch (e) {
        error = e instanceof LocalFolderError ? { code: 'local', message: e.message, local: true } : { code: 'other', message: errorText(e), local: true };
      }
      if (!error || error.local || attempts > this.script.ftp_repeats || !this.active) break;
      deps.log.warn('ftp send failed, trying again', { attempt: attempts, code: error.code, error: error.message });
      this.retryAt = deps.clock.now() + deps.retryDelayMs;
      this.retryError = { code: error.code, number: FTP_ERROR[error.code], message: error.message, at: deps.clock.now() };
      void this.publish().catch(() => {
        this.written = '';
      });
      const go = await this.waitUntil(this.retryAt);
      this.retryAt = undefined;
      this.retryError = undefined;
      if (!go) break;
    }
    const last: FtpLastSend = {
      trigger,
      started,
      finished: deps.clock.now(),
      result: error ? 'error' : 'done',
      files,
      bytes,
      failed,
      held,
      attempts,
      deleted,
      ...(renamed.length > 0 ? { renamed } : {}),
      ...(error ? { error: { code: error.code, number: FTP_ERROR[error.code], message: error.message } } : {}),
    };
    this.shared.last = last;
    this.shared.state = last.result;
    this.shared.counter = (this.shared.counter + 1) & 0xffff;
    const c = this.shared.counters;
    c.sends++;
    c.sent += files.length;
    c.failed += failed;
    if (error) deps.log.warn('ftp send ended with an error', { trigger, code: error.code, error: error.message, sent: files.length, failed });
    else deps.log.info('ftp send done', { trigger, files: files.length, bytes, deleted });
  }

  private async deleteSent(folder: string, names: readonly string[]): Promise<number> {
    let n = 0;
    for (const name of names) {
      try {
        await rm(join(folder, name));
        n++;
      } catch (e) {
        this.deps.log.warn('a sent file cannot be deleted', { file: name, error: errorText(e) });
      }
    }
    return n;
  }
}

export async function startFtpSend(deps: FtpSendDeps): Promise<FtpSend> {
  const full = { ...deps, clock: deps.clock ?? deps.hw.clock, tickMs: deps.tickMs ?? TICK_MS, retryDelayMs: deps.retryDelayMs ?? RETRY_DELAY_MS };
  const shared: Shared = { state: 'idle', counter: 0, counters: Object.fromEntries(FTP_COUNTERS.map((c) => [c, 0])) as FtpCounters };
  let enabled = false;

  const runs = await followRuns(deps.store, ['pew_ftpc', 'pew_script', 'pew'], deps.log, () => {
    const ftp = deps.store.get<Ftpc>('pew_ftpc');
    enabled = ftp.enable_ftp;
    if (!enabled) return undefined;
    const run = new FtpRun(full, shared, ftp, deps.store.get<Script>('pew_script'), deps.store.get<Pew>('pew'));
    run.start();
    return run;
  });
  return {
    settled: () => runs.settled(),
    request: async (trigger) => runs.current()?.sendNow(trigger),
    status: () => {
      // asked with every GET /config/service_status: read from the store's shared frozen view, not
      // copied (a copy of pew_log is all its 700 points, for its storage: 60 ms on a busy unit)
      const view = deps.store.view();
      const ftp = view.pew_ftpc as Ftpc;
      const dir = localDirOf(ftp.local_dir, (view.pew_log as Log).storage);
      const run = runs.current();
      return {
        enabled,
        cycle: false,
        ...run?.status(),
        running: run?.running ?? false,
        state: shared.state,
        localDir: dir.sub ? `${dir.volume}/${dir.sub}` : dir.volume,
        ...(shared.last ? { lastSend: shared.last } : {}),
      };
    },
    counters: () => ({ ...shared.counters }),
    close: () => runs.close(),
  };
}
