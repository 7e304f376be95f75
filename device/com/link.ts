// One PLC link: an enabled interface of pew with its channel (serial port, TCP connection or the
// INTERNAL memory), its protocol driver and its transaction queue.
//
// States: connecting (opening, or autobaud searching), up (the PLC answered the last exchange),
// down (the port is missing or closed, the TCP port refused, or NO_ANSWER_DOWN exchanges in a row
// got no answer), absent (the connector does not exist on this unit). While not up, the link probes
// on a backoff schedule (RECONNECT_FIRST_MS doubling up to RECONNECT_MAX_MS): reopening the
// channel when it is closed, searching the baud rate again when autobaud is on, so an unplugged
// cable or a PLC switched off comes back by itself. Each attempt ends after the timeout (spec §9
// interface timeout) without an answer; reads are retried once. The line guard (line-guard.ts)
// keeps late answers from being taken by later requests: after an unanswered attempt the next one
// may first wait for a quiet line and put a resync read on the wire, whose own timeout comes on
// top (restarted while late answers still arrive).
import type { ByteChannel } from '../../hw/types.ts';
import { reason, reasonLog, type StatusReason } from '../model/reasons.ts';
import type { BitArea, WordArea } from '../protocol/index.ts';
import { autobaudOrder, probeTimeoutMs } from './autobaud.ts';
import { type ChannelIo, type Dialog, PlcError, runDialog } from './dialog.ts';
import type { PlcDriver, PlcIdentity, Run } from './driver.ts';
import { LineGuard, quietMsOf } from './line-guard.ts';
import { type LinkConfig, type LinkDeps, type LinkState, type LinkStatus, OpenError } from './link-types.ts';
import { Abort, LinkError, LinkQueue } from './queue.ts';

export const NO_ANSWER_DOWN = 2;
export const RECONNECT_FIRST_MS = 500;
export const RECONNECT_MAX_MS = 10_000;

export class Link {
  private channel: ByteChannel | undefined;
  private opening: Promise<ByteChannel> | undefined;
  private channelIo: ChannelIo | undefined;
  private readonly queue: LinkQueue;
  private readonly guard: LineGuard;
  /** since when the counters count: the link's start, or their last reset */
  private countedSince: number;
  private noAnswerInRow = 0;
  private backoffMs: number;
  private probeTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private bytesIn = 0;
  private bytesOut = 0;
  private reconnects = 0;
  /** a channel was open once and lost since: the next one opened is a reconnect */
  private lost = false;
  private needBaudSearch: boolean;
  state: LinkState = 'connecting';
  reason: StatusReason | undefined;
  baudRate: number;
  autobaud: 'searching' | 'found' | 'failed' | undefined;
  /** the last attempt to open a TCP link was refused (spec §8 'TCP port of selected COM port not open') */
  refused = false;

  constructor(
    readonly cfg: LinkConfig,
    private readonly deps: LinkDeps,
  ) {
    this.queue = new LinkQueue({
      clock: deps.clock,
      timeoutMs: cfg.timeoutMs,
      retries: deps.retries ?? 1,
      // the PLC answered with an error: asking again gets the same answer
      retryable: (e) => !(e instanceof PlcError && e.reason === 'plc_error'),
      fault: (e) => deps.log.error('a PLC link user failed on an answer', { link: cfg.name, error: e instanceof Error ? e.message : String(e) }),
    });
    this.countedSince = deps.clock.now();
    this.baudRate = cfg.serial.baudRate;
    this.guard = new LineGuard(deps.clock, quietMsOf(cfg.kind, cfg.serial, this.baudRate, cfg.timeoutMs));
    this.backoffMs = this.reconnect.firstMs;
    this.needBaudSearch = cfg.kind === 'serial' && cfg.autobaud;
  }

  private get reconnect() {
    return this.deps.reconnect ?? { firstMs: RECONNECT_FIRST_MS, maxMs: RECONNECT_MAX_MS };
  }

  /** Opens the channel and checks that the PLC answers (searching the baud rate when autobaud is on). */
  start(): void {
    this.scheduleProbe(0);
  }

  // ---- operations (each part is one queue transaction) -------------------------------------

  readWords(area: WordArea, start: number, count: number, user = 'link', station = 0): Promise<number[]> {
    return this.driverOf(station).readWords(this.runFor(user, this.isOwn(station)), area, start, count);
  }
  writeWords(area: WordArea, start: number, words: readonly number[], user = 'link', station = 0): Promise<void> {
    return this.driverOf(station).writeWords(this.runFor(user, this.isOwn(station)), area, start, words);
  }
  readBits(area: BitArea, index: number, count: number, user = 'link', station = 0): Promise<boolean[]> {
    return this.driverOf(station).readBits(this.runFor(user, this.isOwn(station)), area, index, count);
  }
  writeBits(area: BitArea, index: number, values: readonly boolean[], user = 'link', station = 0): Promise<void> {
    return this.driverOf(station).writeBits(this.runFor(user, this.isOwn(station)), area, index, values);
  }
  identify(user = 'plctest'): Promise<PlcIdentity> {
    return this.deps.driver.identify(this.runFor(user));
  }
  /**
   * Runs a caller's own dialog (the redirect threads pass frames through this) to `station` (0: the
   * link's own or any): a station that stays silent does not mark the link down for everyone else.
   */
  exchangeDialog<T>(make: () => Dialog<T>, idempotent: boolean, user: string, station = 0): Promise<T> {
    return this.runFor(user, this.isOwn(station))(make, idempotent);
  }

  /**
   * exchangeDialog with callbacks: `answered` runs in the turn the PLC's answer arrived, so that a
   * redirect thread's answer leaves without waiting for promise turns; exactly one of the two is
   * called, once, and neither may throw.
   */
  exchangeDialogNow<T>(
    make: () => Dialog<T>,
    idempotent: boolean,
    user: string,
    station: number,
    answered: (value: T) => void,
    failed: (e: PlcError) => void,
  ): void {
    this.enqueue(user, this.isOwn(station), make, idempotent, answered, failed);
  }

  status(): LinkStatus {
    const now = this.deps.clock.now();
    const queue = this.queue.statsNow();
    return {
      id: this.cfg.id,
      name: this.cfg.name,
      protocol: this.cfg.protocol,
      transport: this.cfg.kind,
      state: this.state,
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.cfg.kind === 'serial' ? { baudRate: this.baudRate } : {}),
      ...(this.autobaud ? { autobaud: this.autobaud } : {}),
      stats: {
        ...queue,
        ...this.guard.stats,
        bytesOut: this.bytesOut,
        bytesIn: this.bytesIn,
        reconnects: this.reconnects,
        busyShare: this.queue.busyShare(now - this.countedSince, queue.busyMs),
        since: this.countedSince,
      },
    };
  }

  /** Starts every counter of the link again from 0, and the busy share's time with them. */
  resetCounters(): void {
    this.queue.resetCounters();
    this.guard.resetCounters();
    this.bytesIn = 0;
    this.bytesOut = 0;
    this.reconnects = 0;
    this.countedSince = this.deps.clock.now();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.queue.close();
    const ch = this.channel ?? (await this.opening?.catch(() => undefined));
    this.channel = undefined;
    await ch?.close();
  }

  // ---- internals -----------------------------------------------------------------------------

  private readonly stationDrivers = new Map<number, PlcDriver>();

  /** station 0 or the link's own: the link's driver; another station: a driver of its own, kept */
  private driverOf(station: number): PlcDriver {
    const at = this.deps.driverAt;
    if (!at || this.isOwn(station)) return this.deps.driver;
    let d = this.stationDrivers.get(station);
    if (!d) this.stationDrivers.set(station, (d = at(station)));
    return d;
  }

  /** another station's silence says nothing about the line: only the link's own station marks it down */
  private isOwn(station: number): boolean {
    return station === 0 || station === this.cfg.station || !this.deps.driverAt;
  }

  private runFor(user: string, own = true): Run {
    return <T>(make: () => Dialog<T>, idempotent: boolean): Promise<T> =>
      new Promise<T>((resolve, reject) => this.enqueue(user, own, make, idempotent, resolve, reject));
  }

  /** One transaction of `user` on the queue: a new dialog per attempt; every failure a PlcError. */
  private enqueue<T>(
    user: string,
    own: boolean,
    make: () => Dialog<T>,
    idempotent: boolean,
    answered: (value: T) => void,
    failed: (e: PlcError) => void,
  ): void {
    let last: Dialog<T> | undefined;
    this.queue.enqueue<T>(
      {
        user,
        idempotent,
        start: (abort, ok, broke, restartClock) => this.exchange((last = make()), abort, restartClock, own, ok, broke),
        asError: (e) => this.asPlcError(e, last?.raw() ?? ''),
      },
      answered,
      failed as (e: unknown) => void,
    );
  }

  private asPlcError(e: unknown, raw: string): PlcError {
    if (e instanceof PlcError) return e;
    if (e instanceof LinkError) {
      if (e.code === 'timeout') return new PlcError('no_answer', `No answer from the PLC within ${this.cfg.timeoutMs} ms`, undefined, raw);
      if (e.cause instanceof PlcError) return e.cause;
      if (e.cause instanceof OpenError) return new PlcError('link_down', e.cause.message);
      return new PlcError('link_down', e.message, undefined, raw);
    }
    return new PlcError('link_down', e instanceof Error ? e.message : String(e), undefined, raw);
  }

  /** The channel as dialogs see it (through the line guard): made once per channel, not per exchange. */
  private io(channel: ByteChannel): ChannelIo {
    if (this.channelIo?.channel === channel) return this.channelIo;
    const tap = this.deps.tap;
    this.channelIo = this.guard.io(channel, (b) => {
      this.bytesOut += b.length;
      if (tap?.frames) tap.frame('out', b);
    });
    return this.channelIo;
  }

  /** One attempt of a transaction: the dialog on the channel (opened first when it is not), when the line guard lets it. */
  private exchange<T>(
    dialog: Dialog<T>,
    abort: Abort,
    restartClock: () => void,
    own: boolean,
    answered: (value: T) => void,
    failed: (e: unknown) => void,
  ): void {
    if (this.needBaudSearch)
      return failed(
        new PlcError('link_down', this.autobaud === 'failed' ? 'Autobaud found no answering PLC at any baud rate' : "Searching the PLC's baud rate"),
      );
    const onChannel = (channel: ByteChannel) =>
      this.guard.exchange(
        this.io(channel),
        dialog,
        abort,
        restartClock,
        (value) => {
          if (dialog.noAnswerMs === undefined) this.markUp(); // a broadcast proves nothing about the PLC
          if (this.cfg.waitMs > 0) setTimeout(() => answered(value), this.cfg.waitMs);
          else answered(value);
        },
        (e) => {
          if (e instanceof PlcError) {
            if (e.reason === 'plc_error')
              this.markUp(); // the PLC answered, with an error
            else if (e.reason === 'no_answer') {
              if (this.deps.tap?.events) this.deps.tap.event('no_answer', { ms: this.cfg.timeoutMs });
              if (own && ++this.noAnswerInRow >= NO_ANSWER_DOWN) this.markDown(reason('plc_no_answer'));
            }
          }
          failed(e);
        },
      );
    // open: the dialog starts in this turn
    if (this.channel?.isOpen) onChannel(this.channel);
    else this.connect().then(onChannel, failed);
  }

  private connect(): Promise<ByteChannel> {
    if (this.channel?.isOpen) return Promise.resolve(this.channel);
    this.opening ??= this.openAt(this.baudRate).finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  private async openAt(baud: number): Promise<ByteChannel> {
    let ch: ByteChannel;
    try {
      ch = await this.deps.open(baud);
    } catch (e) {
      const words = e instanceof Error ? e.message : String(e);
      const err = e instanceof OpenError ? e : new OpenError(false, words, reason('open_failed', undefined, words));
      this.refused = err.refused;
      this.setState(err.absent ? 'absent' : 'down', err.reason);
      this.scheduleProbe();
      throw err;
    }
    this.refused = false;
    if (this.closed) {
      await ch.close();
      throw new OpenError(false, 'The link is closed', reason('port_closed'));
    }
    if (this.lost) this.reconnects++;
    this.lost = false;
    this.guard.reset(); // a new line owes nothing
    const tap = this.deps.tap;
    ch.onData((b) => {
      this.bytesIn += b.length;
      if (tap?.frames) tap.frame('in', b);
      this.guard.data(b);
    });
    ch.onClose((err) => {
      if (this.channel !== ch) return;
      this.channel = undefined;
      this.lost = true;
      this.markDown(reason('port_closed', undefined, err?.message));
    });
    this.channel = ch;
    return ch;
  }

  private async closeChannel(): Promise<void> {
    const ch = this.channel;
    this.channel = undefined;
    await ch?.close();
  }

  private setState(state: LinkState, why?: StatusReason): void {
    const detail = why ? reasonLog(why) : '';
    if (state !== this.state || detail !== (this.reason ? reasonLog(this.reason) : '')) {
      const level = state === 'up' ? 'info' : 'warn';
      this.deps.log[level](`PLC link ${state}`, { link: this.cfg.name, detail });
      const tap = this.deps.tap;
      if (tap?.events && (state === 'up' || state === 'down'))
        tap.event(state === 'up' ? 'link_up' : 'link_down', why ? { reason: why.code, ...why.args } : undefined);
    }
    this.state = state;
    this.reason = why;
  }

  private markUp(): void {
    this.noAnswerInRow = 0;
    this.backoffMs = this.reconnect.firstMs;
    if (this.state !== 'up') this.setState('up');
  }

  private markDown(why: StatusReason): void {
    this.setState('down', why);
    this.scheduleProbe();
  }

  private scheduleProbe(ms = this.backoffMs): void {
    if (this.closed || this.probeTimer) return;
    this.probeTimer = setTimeout(() => {
      this.probeTimer = undefined;
      void this.probe();
    }, ms);
    this.backoffMs = Math.min(this.reconnect.maxMs, this.backoffMs * 2);
  }

  /** One attempt to bring the link up: autobaud scan, or a probe through the queue. */
  private async probe(): Promise<void> {
    if (this.closed || this.state === 'up') return;
    try {
      if (this.needBaudSearch) await this.queue.submit({ user: 'autobaud', idempotent: false, timeoutMs: this.scanBudgetMs(), run: () => this.searchBaud() });
      else await this.deps.driver.probe(this.runFor('probe'));
    } catch {
      // state and the next probe were set on the way; nothing for a caller here
    }
    if ((this.state as LinkState) !== 'up') this.scheduleProbe();
  }

  private scanBudgetMs(): number {
    return autobaudOrder(this.cfg.serial.baudRate).reduce((sum, b) => sum + probeTimeoutMs(b, this.cfg.serial) + 50, 0);
  }

  /** Autobaud (pew `autobaud`): reopens the port at each rate until the PLC answers a probe. */
  private async searchBaud(): Promise<void> {
    this.autobaud = 'searching';
    this.setState('connecting', reason('baud_searching'));
    for (const baud of autobaudOrder(this.cfg.serial.baudRate)) {
      if (this.closed) return;
      await this.closeChannel();
      let ch: ByteChannel;
      try {
        ch = await this.openAt(baud);
      } catch {
        return; // port missing: state set by openAt
      }
      const io = this.io(ch);
      const direct: Run = <T>(make: () => Dialog<T>) => runDialog(io, make(), Abort.after(probeTimeoutMs(baud, this.cfg.serial)));
      const answered = async (): Promise<boolean> => {
        try {
          await this.deps.driver.probe(direct);
          return true;
        } catch (e) {
          return e instanceof PlcError && e.reason === 'plc_error'; // an error answer is an answer at this rate
        }
      };
      // The first answer may be the late one to the probe at the rate before (a PLC slower than that
      // probe's wait, its answer still on the line): a second answer at this rate proves the PLC
      // speaks it, as a PLC at another rate never hears the second probe.
      if (!(await answered()) || !(await answered())) continue; // no or garbled answer: next rate
      this.baudRate = baud;
      this.guard.quietMs = quietMsOf(this.cfg.kind, this.cfg.serial, baud, this.cfg.timeoutMs);
      this.guard.reset(); // what the probes at other rates left is no answer to anything
      this.needBaudSearch = false;
      this.autobaud = 'found';
      this.deps.log.info('autobaud found the PLC', { link: this.cfg.name, baud });
      this.markUp();
      return;
    }
    this.autobaud = 'failed';
    await this.closeChannel();
    this.setState('down', reason('baud_not_found'));
  }
}
