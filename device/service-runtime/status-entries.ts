// The FTP send, the TLS bridge, the PLC clock sync and the IEC 104 station in the one status answer
// (design/services.md "Status everywhere"; device/model/service-status.ts): each keeps its own
// detailed status (the `ftp`, `tls`, `rtc` and `iec` parts of its entry, what /ftp, the TLS pages,
// /datetime and /iec show), and
// this file reads from it the fields every service has: the run state and since when, the last
// success, the last error in the one classification, counters, and `plc`. One book per service
// keeps the state's start and the last success and error across answers.
import type { Clock } from '../../hw/types.ts';
import { SERVICE_ERROR, type ServiceErrorName } from '../model/blocks/convention.ts';
import type { FtpCounters, FtpStatus } from '../model/ftp-status.ts';
import type { IecStatus } from '../model/iec-status.ts';
import { reason, reasonLog, sameReason } from '../model/reasons.ts';
import type { RTC_SYNC_FAILURES, RtcStatus } from '../model/rtc-status.ts';
import type { ServiceStatus } from '../model/service-status.ts';
import type { TlsStatus } from '../model/tls-status.ts';
import { StatusBook } from './status.ts';

type ErrorCode = Exclude<ServiceErrorName, 'none'>;
const NO_QUEUE = { waiting: 0, dropped: 0, bound: 0 } as const;

/** A code of another table (docs/ftp.md's is a part of the one classification) in the one classification. */
const classified = (code: string): ErrorCode => (code in SERVICE_ERROR && code !== 'none' ? (code as ErrorCode) : 'other');

/** the one classification of a failed clock sync */
export const RTC_FAILURE_CODE: Record<(typeof RTC_SYNC_FAILURES)[number], ErrorCode> = {
  no_answer: 'timeout',
  plc_error: 'server_refused',
  link_down: 'not_connected',
};

const TLS_COUNTERS = ['accepted', 'refused', 'tlsFailures', 'errors', 'faults'] as const;

export class OtherServicesStatus {
  private readonly ftpBook: StatusBook<never>;
  private readonly tlsBook: StatusBook<never>;
  private readonly rtcBook: StatusBook<never>;
  private readonly iecBook: StatusBook<never>;

  constructor(clock: Clock) {
    this.ftpBook = new StatusBook('ftp', clock, []);
    this.tlsBook = new StatusBook('tls', clock, []);
    this.rtcBook = new StatusBook('rtc', clock, []);
    this.iecBook = new StatusBook('iec', clock, []);
  }

  /**
   * The FTP send: running (waiting while a failed attempt waits for its retry), idle, or error after
   * a failed send; its counters are the engine's (sends, files sent, files not sent).
   */
  ftp(s: FtpStatus, counters: FtpCounters): ServiceStatus {
    const b = this.ftpBook;
    b.set(!s.enabled ? 'off' : s.state === 'running' ? (s.retryAt !== undefined ? 'waiting' : 'running') : s.state === 'error' ? 'error' : 'idle');
    const last = s.lastSend;
    if (last?.result === 'done' && (b.lastSuccess ?? 0) < last.finished) b.lastSuccess = last.finished;
    // the newer failure wins, and on a tie the later one: the send's result, then an attempt that waits for its retry
    if (last?.error && (b.lastError?.at ?? 0) <= last.finished) {
      const code = classified(last.error.code);
      b.lastError = { code, number: last.error.number, message: last.error.message, at: last.finished };
    }
    // a failed attempt waiting for its retry: its failure is the last error already
    const r = s.retryError;
    if (r && (b.lastError?.at ?? 0) <= r.at) b.lastError = { code: classified(r.code), number: r.number, message: r.message, at: r.at };
    b.plc = s.plc;
    return { ...b.answer(s.enabled, NO_QUEUE), counters: { ...counters }, ftp: s };
  }

  /**
   * The TLS bridge: error while an enabled part does not listen (not stopped by the PLC), running
   * while connections are open, else idle; its counters are the two parts' together.
   */
  tls(s: TlsStatus): ServiceStatus {
    const b = this.tlsBook;
    const parts = [s.client, s.server];
    const enabled = parts.some((p) => p.enabled);
    const broken = parts.find((p) => p.enabled && !p.listening && !p.stoppedByPlc);
    b.set(!enabled ? 'off' : broken ? 'error' : parts.some((p) => p.connections > 0) ? 'running' : 'idle');
    if (broken?.reason && !sameReason(b.lastError?.reason, broken.reason)) b.error('local', reasonLog(broken.reason), broken.reason);
    const counters = Object.fromEntries(TLS_COUNTERS.map((c) => [c, s.client[c] + s.server[c]]));
    return { ...b.answer(enabled, NO_QUEUE), counters, tls: s };
  }

  /** The PLC clock sync: idle while it runs, its last sync's success or failure. */
  rtc(s: RtcStatus): ServiceStatus {
    const b = this.rtcBook;
    b.set(s.running ? 'idle' : 'off');
    const last = s.lastSync;
    if (last?.ok && (b.lastSuccess ?? 0) < last.at) b.lastSuccess = last.at;
    if (last?.failure && (b.lastError?.at ?? 0) < last.at) {
      const code = RTC_FAILURE_CODE[last.failure.reason];
      b.lastError = { code, number: SERVICE_ERROR[code], message: last.failure.message, at: last.at };
    }
    return { ...b.answer(s.running, NO_QUEUE), rtc: s };
  }

  /**
   * The IEC 104 station: error while it is enabled and does not listen (why not as the last error,
   * like a TLS part's), running while a connection has data transfer started, else idle; `plc` says
   * why an entry's PLC side cannot read its buffers. Counters: connections open now, clients refused
   * at accept, faults, the event queues' and the PLC sides' counts, clock syncs.
   */
  iec(s: IecStatus): ServiceStatus {
    const b = this.iecBook;
    const l = s.listener;
    const queues = l?.groups ?? [];
    const connections = queues.flatMap((g) => g.connections);
    const broken = s.enabled && !l?.listening;
    b.set(!s.enabled ? 'off' : broken ? 'error' : connections.some((c) => c.active && c.state === 'started') ? 'running' : 'idle');
    const why = l?.reason;
    if (broken && why && !sameReason(b.lastError?.reason, why)) b.error('local', reasonLog(why), why);
    const silent = s.groups.find((g) => g.plc.plc === 'silent');
    const ringError = s.groups.find((g) => g.plc.ringError !== '')?.plc.ringError;
    b.plc = silent ? (silent.plc.reason ?? reason('plc_no_answer')) : ringError ? reason('ring_error', undefined, ringError) : undefined;
    const sum = (of: (g: IecStatus['groups'][number]['plc']['commands']) => number) => s.groups.reduce((n, g) => n + of(g.plc.commands), 0);
    const counters = {
      connections: connections.length,
      refused: l?.refused ?? 0,
      faults: l?.faults ?? 0,
      eventsSent: queues.reduce((n, g) => n + g.sent, 0),
      eventsOverflowed: queues.reduce((n, g) => n + g.overflowed, 0),
      eventsAcknowledged: queues.reduce((n, g) => n + g.acknowledged, 0),
      commandsDone: sum((c) => c.done),
      commandsRefused: sum((c) => c.refused),
      clockSyncs: s.clockSyncs,
    };
    return { ...b.answer(s.enabled, NO_QUEUE), counters, iec: s };
  }
}
