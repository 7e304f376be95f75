// The PLC clock sync of the saved pew_rtc section (spec §3 pew_rtc, §9): with rtc_by_plc on, the
// unit writes its date and time into the PLC's calendar registers (rtc_address_dt, FP encoding of
// device/protocol/fp-clock.ts) through the service control interface (pew.interface_plc):
//   - by time: at start and every rtc_update_by_time minutes (0: only on request); a failed sync
//     is tried again after rtc_polling seconds, not after the whole interval;
//   - on the PLC's request: the request word of rtc_control_rtc_r, polled every rtc_polling
//     seconds (registers.ts has the layout and the acknowledgement);
//   - from the console (POST /config/rtc_sync).
// Time is the injected clock; the real timer only wakes the engine every `tickMs` to look at it.
import type { Clock } from '../../hw/types.ts';
import { PlcError } from '../com/dialog.ts';
import type { Links } from '../com/links.ts';
import { followSection } from '../config/follow.ts';
import type { ConfigStore } from '../config/store.ts';
import type { RtcStatus } from '../model/rtc-status.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { Rtc } from '../model/sections/rtc.ts';
import { encodeFpClock } from '../protocol/fp-clock.ts';
import type { Logger } from '../system/log.ts';
import { REQUEST, RESULT, reportWords, type SyncTrigger } from './registers.ts';
import { utcOffsetMinutes, wallText, wallTime } from './wall-time.ts';

export type LastSync = NonNullable<RtcStatus['lastSync']>;
type Failure = NonNullable<LastSync['failure']>;

export const TICK_MS = 1000;
const USER = 'rtc';

export class RtcSyncError extends Error {}

export interface RtcSync {
  /** whether the sync runs (rtc_by_plc on, the service control interface enabled), and the last sync */
  status(): { running: boolean; lastSync?: LastSync };
  /** a sync now, from the console; RtcSyncError when the sync does not run */
  syncNow(): Promise<LastSync>;
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface RtcDeps {
  store: ConfigStore;
  links: Links;
  clock: Clock;
  log: Logger;
  tickMs?: number;
}

function failureOf(e: unknown): Failure {
  if (e instanceof PlcError) {
    // a garbled answer is no usable answer
    const reason = e.reason === 'plc_error' ? 'plc_error' : e.reason === 'link_down' ? 'link_down' : 'no_answer';
    return { reason, message: e.message };
  }
  return { reason: 'link_down', message: e instanceof Error ? e.message : String(e) };
}

/** One run of the saved settings; replaced when pew_rtc or the service control interface changes. */
class SyncRun {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private nextByTime: number;
  private nextPoll: number;

  constructor(
    private readonly cfg: Rtc,
    private readonly interfaceId: number,
    private readonly deps: RtcDeps,
    private readonly state: { lastSync?: LastSync; count: number },
  ) {
    const now = deps.clock.now();
    this.nextByTime = cfg.rtc_update_by_time > 0 ? now : Infinity;
    this.nextPoll = now;
  }

  get usable(): boolean {
    return this.deps.links.get(this.interfaceId) !== undefined;
  }

  start(): void {
    const tick = () => {
      if (this.stopped) return;
      void this.exclusive(() => this.tick()).finally(() => {
        if (!this.stopped) this.timer = setTimeout(tick, this.deps.tickMs ?? TICK_MS);
      });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.chain.catch(() => {});
  }

  syncNow(): Promise<LastSync> {
    return this.exclusive(() => this.sync('request'));
  }

  /** one exchange sequence at a time: a console request waits for a running tick */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch(() => {});
    return next;
  }

  private async tick(): Promise<void> {
    if (this.stopped || !this.usable) return;
    const now = this.deps.clock.now();
    const pollMs = this.cfg.rtc_polling * 1000;
    if (now >= this.nextByTime) {
      const s = await this.sync('time');
      this.nextByTime = s.ok ? now + this.cfg.rtc_update_by_time * 60_000 : now + pollMs;
    }
    if (now >= this.nextPoll) {
      this.nextPoll = now + pollMs;
      let request: number | undefined;
      try {
        [request] = await this.link().readWords('DT', this.cfg.rtc_control_rtc_r + REQUEST, 1, USER);
      } catch {
        request = undefined; // asked again at the next poll
      }
      if (request) await this.sync('plc');
    }
  }

  private link() {
    return this.deps.links.control(this.interfaceId);
  }

  private async sync(trigger: SyncTrigger): Promise<LastSync> {
    const at = this.deps.clock.now();
    const utc = this.cfg.rtc_sync_as_utc;
    const t = wallTime(at, utc);
    let result: LastSync;
    try {
      await this.link().writeWords('DT', this.cfg.rtc_address_dt, encodeFpClock(t), USER);
      this.state.count++;
      result = { at, trigger, ok: true, written: wallText(t) };
    } catch (e) {
      result = { at, trigger, ok: false, failure: failureOf(e) };
      this.deps.log.warn('PLC clock sync failed', { trigger, reason: result.failure!.reason, error: result.failure!.message });
    }
    this.state.lastSync = result;
    // a PLC that does not answer cannot take the report either
    if (result.ok || result.failure?.reason === 'plc_error') {
      try {
        const base = this.cfg.rtc_control_rtc_r;
        await this.link().writeWords('DT', base + RESULT, reportWords(result.ok, this.state.count, trigger, utcOffsetMinutes(at, utc)), USER);
        // the acknowledgement comes last: when the PLC sees its request cleared, the report is there
        if (trigger === 'plc') await this.link().writeWords('DT', base + REQUEST, [0], USER);
      } catch (e) {
        this.deps.log.warn('PLC clock sync: the report registers could not be written', { error: failureOf(e).message });
      }
    }
    return result;
  }
}

export async function startRtcSync(deps: RtcDeps): Promise<RtcSync> {
  const { store, log } = deps;
  const state: { lastSync?: LastSync; count: number } = { count: 0 };
  let run: SyncRun | undefined;
  let key = '';
  const follower = await followSection(store, ['pew_rtc', 'pew'], log, async () => {
    const rtc = store.get<Rtc>('pew_rtc');
    const interfaceId = store.get<Pew>('pew').interface_plc;
    const next = JSON.stringify({ rtc, interfaceId });
    if (next === key && run) return;
    await run?.stop();
    run = undefined;
    key = next;
    if (!rtc.rtc_by_plc) return;
    run = new SyncRun(rtc, interfaceId, deps, state);
    run.start();
    log.info('PLC clock sync running', { everyMinutes: rtc.rtc_update_by_time, utc: rtc.rtc_sync_as_utc, pollS: rtc.rtc_polling });
  });
  return {
    status: () => ({ running: run?.usable ?? false, ...(state.lastSync ? { lastSync: state.lastSync } : {}) }),
    syncNow: async () => {
      await follower.settled();
      if (!run?.usable) throw new RtcSyncError('The PLC clock sync is off or its interface is not enabled');
      return run.syncNow();
    },
    settled: () => follower.settled(),
    close: async () => {
      await follower.stop();
      await run?.stop();
      run = undefined;
    },
  };
}
