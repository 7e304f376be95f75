// The IEC 60870-5-104 controlled station of the unit (spec §3 pew_60870; docs/iec104.md): while
// `enable_60870` is on it listens on `port` and runs, per connection entry (one redundancy group),
// the station logic (station.ts), the transport's group (listener.ts, group.ts) and the PLC side
// (plc-side.ts) over the service control interface (pew.interface_plc). The three parts are pure
// or own their I/O; this engine only joins them: it passes each part's actions to the part they are
// for, runs the stations' timers on the monotonic clock, and rebuilds everything when pew_60870
// or the control interface is saved.

import type { ClockSetting } from '../../hw/types.ts';
import type { Links } from '../com/links.ts';
import { followSection } from '../config/follow.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Capture } from '../diag/capture.ts';
import type { RecordErrorCode } from '../model/blocks/iec104.ts';
import type { IEC_CLOSE_CODES, IEC_LINK_STATES, IEC_RECORD_ERRORS, IecClockSync, IecGroupStatus, IecListenerStatus, IecStatus } from '../model/iec-status.ts';
import type { Iec } from '../model/sections/iec.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { Logger } from '../system/log.ts';
import type { CloseCode, LinkState } from './link.ts';
import { type Iec104Listener, type Iec104ListenerStatus, startIec104Listener } from './listener.ts';
import { PlcSide, type PlcSideStatus } from './plc-side.ts';
import type { PlcCommandAnswer } from './points.ts';
import { Iec104Station, type StationAction, type StationStatus, stationSettings } from './station.ts';

export interface Iec104Deps {
  store: ConfigStore;
  links: Links;
  clock: { now(): number };
  log: Logger;
  host: string;
  /** sets the unit's clock to a control station's clock sync (C_CS_NA_1): 'set', or 'ntp' when NTP keeps it */
  setClock?: (epochMs: number) => Promise<ClockSetting>;
  /** then writes the unit's clock into the PLC where the PLC clock sync (pew_rtc) runs: 'written', or 'off' */
  setPlcClock?: () => Promise<'written' | 'off'>;
  /** the monitor's capture (device/diag/capture.ts) */
  capture?: Capture;
}

/** What the last clock sync of a control station did (docs/iec104.md "Clock synchronisation"). */
export type Iec104ClockSync = IecClockSync;
export type Iec104GroupStatus = IecGroupStatus;
/** the station's live state: the `iec` detail of the one status answer (device/model/iec-status.ts) */
export type Iec104Status = IecStatus;

// The parts keep their own types; these checks fail the build when one of them and the schema differ.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTypes = <_ extends true>() => undefined;
sameTypes<Same<Iec104ListenerStatus, IecListenerStatus>>();
sameTypes<Same<StationStatus, IecGroupStatus['station']>>();
sameTypes<Same<PlcSideStatus, IecGroupStatus['plc']>>();
sameTypes<Same<ClockSetting | 'setting' | 'failed', IecClockSync['unit']>>();
sameTypes<Same<LinkState, (typeof IEC_LINK_STATES)[number]>>();
sameTypes<Same<CloseCode, (typeof IEC_CLOSE_CODES)[number]>>();
sameTypes<Same<RecordErrorCode, (typeof IEC_RECORD_ERRORS)[number]>>();

export interface Iec104Engine {
  status(): Iec104Status;
  /** resolves once the last saved settings are applied */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const mono = () => performance.now();

interface Group {
  station: Iec104Station<number>;
  plc: PlcSide;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** One run of the station under one set of saved settings. */
class StationRun {
  private listener: Iec104Listener | undefined;
  private readonly groups: Group[] = [];
  clockSyncs = 0;
  private clockChain: Promise<void> = Promise.resolve();
  lastClockSync: Iec104ClockSync | undefined;
  private closed = false;

  constructor(
    private readonly iec: Iec,
    private readonly interfaceId: number,
    private readonly deps: Iec104Deps,
  ) {}

  async start(): Promise<void> {
    const { iec, deps } = this;
    for (const [index, entry] of iec.connections.entries()) {
      const station = new Iec104Station<number>(stationSettings(iec, index));
      const g: Group = {
        station,
        timer: undefined,
        plc: new PlcSide({
          entry,
          index,
          pollMs: iec.plc_poll,
          liveCheck: iec.plc_live_check,
          reconnectReset: iec.plc_reconnect_reset,
          link: () => this.link(),
          clock: deps.clock,
          log: deps.log,
          points: (points) => {
            for (const p of points) this.apply(index, () => station.event(mono(), p));
          },
          answer: (a: PlcCommandAnswer) => this.apply(index, () => station.plcAnswer(mono(), a)),
          plcState: (s) => this.apply(index, () => station.plcState(mono(), s.ok, deps.clock.now())),
          dropConnections: (reason) => this.listener?.dropGroup(index, reason === 'plc_silent' ? 'the PLC does not answer' : 'the PLC link came back'),
        }),
      };
      this.groups.push(g);
    }
    this.listener = await startIec104Listener({
      settings: iec,
      host: deps.host,
      log: deps.log,
      ...(deps.capture ? { capture: deps.capture } : {}),
      handler: {
        asdu: (gi, connection, asdu) => this.apply(gi, (st) => st.receive(mono(), deps.clock.now(), connection, asdu), true),
        closed: (gi, connection) => this.apply(gi, (st) => st.connectionClosed(mono(), connection)),
      },
    });
    for (const [index, g] of this.groups.entries()) {
      this.apply(index, (st) => st.start(mono(), deps.clock.now()));
      g.plc.start();
    }
  }

  private link() {
    return this.deps.links.control(this.interfaceId);
  }

  /**
   * Runs a call of group `gi`'s station and carries out its actions. `fromPeer`: the call handles
   * what a peer sent, so a throw goes back to the listener (which ends that connection only);
   * otherwise a throw (a PLC record no ASDU can carry) is logged and the rest goes on.
   */
  private apply(gi: number, call: (st: Iec104Station<number>) => StationAction<number>[], fromPeer = false): void {
    const g = this.groups[gi];
    if (!g || this.closed) return;
    let actions: StationAction<number>[];
    try {
      actions = call(g.station);
    } catch (e) {
      if (fromPeer) throw e;
      this.deps.log.warn('IEC 104 station: a PLC value could not be sent', { group: gi, error: String(e) });
      return;
    }
    for (const a of actions) {
      switch (a.kind) {
        case 'to_connection':
          this.listener?.sendTo(gi, a.connection, a.asdu);
          break;
        case 'event':
          this.listener?.sendEvent(gi, a.asdu);
          break;
        case 'plc_command':
          g.plc.command(a.command);
          break;
        case 'set_clock':
          this.clockSync(a.epochMs);
          break;
        case 'close':
          this.listener?.closeConnection(gi, a.connection, a.reason);
          break;
        case 'timer':
          this.arm(gi, g, a.at);
          break;
      }
    }
  }

  private arm(gi: number, g: Group, at: number | null): void {
    clearTimeout(g.timer);
    g.timer = undefined;
    if (at === null || this.closed) return;
    g.timer = setTimeout(() => this.apply(gi, (st) => st.tick(mono())), Math.max(0, Math.ceil(at - mono())));
    g.timer.unref();
  }

  /**
   * A station's clock sync (confirmed to it by the station already): the unit's clock is set unless
   * NTP keeps it, then the PLC's where the PLC clock sync runs. One at a time, in the order they came.
   */
  private clockSync(epochMs: number): void {
    this.clockSyncs++;
    const sync: Iec104ClockSync = { time: epochMs, unit: 'setting', plc: 'waiting' };
    this.lastClockSync = sync;
    const time = new Date(epochMs).toISOString();
    const { setClock, setPlcClock, log } = this.deps;
    const apply = async () => {
      try {
        sync.unit = setClock ? await setClock(epochMs) : 'failed';
        if (!setClock) sync.error = 'this unit has no clock to set';
      } catch (e) {
        sync.unit = 'failed';
        sync.error = e instanceof Error ? e.message : String(e);
      }
      try {
        sync.plc = setPlcClock ? await setPlcClock() : 'off';
      } catch (e) {
        sync.plc = 'failed';
        sync.error ??= e instanceof Error ? e.message : String(e);
      }
      const fields = { time, unit: sync.unit, plc: sync.plc, ...(sync.error ? { error: sync.error } : {}) };
      if (sync.unit === 'failed' || sync.plc === 'failed') log.warn('IEC 104 clock sync: a clock could not be set', fields);
      else log.info('IEC 104 clock sync', fields);
    };
    this.clockChain = this.clockChain.then(apply);
  }

  status(): Omit<Iec104Status, 'enabled'> {
    const t = mono();
    return {
      ...(this.listener ? { listener: this.listener.status() } : {}),
      groups: this.groups.map((g, index) => ({ index, station: g.station.status(t), plc: g.plc.status() })),
      clockSyncs: this.clockSyncs,
      ...(this.lastClockSync ? { lastClockSync: { ...this.lastClockSync } } : {}),
    };
  }

  async stop(): Promise<void> {
    this.closed = true;
    for (const g of this.groups) clearTimeout(g.timer);
    await Promise.all(this.groups.map((g) => g.plc.stop()));
    await this.listener?.close();
    await this.clockChain;
  }
}

export async function startIec104(deps: Iec104Deps): Promise<Iec104Engine> {
  let run: StationRun | undefined;
  let key = '';
  const follower = await followSection(deps.store, ['pew_60870', 'pew'], deps.log, async () => {
    const iec = deps.store.get<Iec>('pew_60870');
    const interfaceId = deps.store.get<Pew>('pew').interface_plc;
    const next = JSON.stringify({ iec, interfaceId });
    if (next === key) return;
    key = next;
    await run?.stop();
    run = undefined;
    if (!iec.enable_60870) return;
    const r = new StationRun(iec, interfaceId, deps);
    run = r;
    await r.start();
  });
  return {
    status: () => ({ enabled: run !== undefined, ...(run ? run.status() : { groups: [], clockSyncs: 0 }) }),
    settled: () => follower.settled(),
    close: async () => {
      await follower.stop();
      await run?.stop();
      run = undefined;
    },
  };
}
