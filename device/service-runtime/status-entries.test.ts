import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { FtpStatus } from '../model/ftp-status.ts';
import type { IecConnectionStatus, IecGroupStatus, IecStatus } from '../model/iec-status.ts';
import type { RtcStatus } from '../model/rtc-status.ts';
import { serviceStatusSchema } from '../model/service-status.ts';
import type { TlsPartStatus } from '../model/tls-status.ts';
import { OtherServicesStatus } from './status-entries.ts';

const clock = {
  t: 1000,
  now() {
    return this.t;
  },
};
const NO_SENDS = { sends: 0, sent: 0, failed: 0 };
const ftp = (o: Partial<FtpStatus> = {}): FtpStatus => ({
  enabled: true,
  cycle: false,
  running: false,
  state: 'idle',
  localDir: 'internal/log',
  ...o,
});
const part = (o: Partial<TlsPartStatus> = {}): TlsPartStatus => ({
  enabled: true,
  port: 1502,
  listening: true,
  stoppedByPlc: false,
  connections: 0,
  accepted: 3,
  refused: 1,
  tlsFailures: 0,
  errors: 2,
  faults: 0,
  bytesIn: 0,
  bytesOut: 0,
  ...o,
});
const rtc = (o: Partial<RtcStatus> = {}): RtcStatus => ({
  unitTime: 0,
  timezone: 'UTC',
  ntp: { enabled: false, synchronized: false, servers: [] },
  running: true,
  ...o,
});

describe('the FTP send, the TLS bridge and the clock sync in the one status answer', () => {
  it("FTP: state and since from the send, last success and last error in the one classification, the engine's counters, its detail kept", () => {
    const o = new OtherServicesStatus(clock);
    clock.t = 1000;
    expect(o.ftp(ftp(), NO_SENDS).state).toBe('idle');
    clock.t = 2000;
    const running = o.ftp(ftp({ state: 'running', running: true, retryAt: 9000 }), NO_SENDS);
    expect(running).toMatchObject({ state: 'waiting', since: 2000, queue: { bound: 0 } });
    expect(running.lastError).toBeUndefined();
    const error = { code: 'refused', number: 2, message: 'connect ECONNREFUSED' };
    const last: NonNullable<FtpStatus['lastSend']> = {
      trigger: 'plc',
      started: 1500,
      finished: 2500,
      result: 'error',
      files: [],
      bytes: 0,
      failed: 1,
      held: [],
      attempts: 2,
      deleted: 0,
      error,
    };
    clock.t = 3000;
    const failed = o.ftp(ftp({ state: 'error', lastSend: last, plc: { code: 'control_interface_off' } }), NO_SENDS);
    expect(failed).toMatchObject({ state: 'error', since: 3000, lastError: { code: 'refused', number: 2, at: 2500 } });
    expect(failed.plc).toEqual({ code: 'control_interface_off' });
    expect(failed.ftp?.lastSend?.attempts).toBe(2);
    const done = o.ftp(ftp({ state: 'done', lastSend: { ...last, result: 'done', finished: 4000 } }), { sends: 2, sent: 3, failed: 1 });
    expect(done).toMatchObject({ state: 'idle', lastSuccess: 4000, lastError: { code: 'refused' } });
    // the engine's counters are the entry's, each by its name (the live block shows every counter)
    expect(done.counters).toEqual({ sends: 2, sent: 3, failed: 1 });
    expect(failed.counters).toEqual(NO_SENDS);
    expect(o.ftp(ftp({ enabled: false }), NO_SENDS).state).toBe('off');
    for (const s of [running, failed, done]) expect(v.safeParse(serviceStatusSchema, s).success).toBe(true);
  });

  it('TLS: error while an enabled part does not listen, running with connections, counters of both parts', () => {
    const o = new OtherServicesStatus(clock);
    const inUse = { code: 'port_in_use', args: { port: 802 } } as const;
    const broken = o.tls({ client: part(), server: part({ port: 802, listening: false, reason: inUse }) });
    expect(broken).toMatchObject({ state: 'error', lastError: { code: 'local', message: 'port_in_use port=802', reason: inUse } });
    expect(broken.counters).toMatchObject({ accepted: 6, refused: 2, errors: 4 });
    expect(o.tls({ client: part({ connections: 1 }), server: part({ enabled: false, listening: false }) }).state).toBe('running');
    expect(o.tls({ client: part(), server: part({ listening: false, stoppedByPlc: true }) }).state).toBe('idle');
    expect(o.tls({ client: part({ enabled: false }), server: part({ enabled: false }) })).toMatchObject({ enabled: false, state: 'off' });
    expect(v.safeParse(serviceStatusSchema, broken).success).toBe(true);
  });

  it('RTC: off unless it runs; a failed sync is an error of the classification, a good one the last success', () => {
    const o = new OtherServicesStatus(clock);
    expect(o.rtc(rtc({ running: false })).state).toBe('off');
    const failed = o.rtc(rtc({ lastSync: { at: 5000, trigger: 'plc', ok: false, failure: { reason: 'no_answer', message: 'the PLC did not answer' } } }));
    expect(failed).toMatchObject({ state: 'idle', lastError: { code: 'timeout', number: 3, at: 5000 } });
    const ok = o.rtc(rtc({ lastSync: { at: 6000, trigger: 'time', ok: true, written: '2026-11-27 10:00:00' } }));
    expect(ok).toMatchObject({ lastSuccess: 6000, lastError: { code: 'timeout' } });
    expect(ok.rtc?.lastSync?.written).toBe('2026-11-27 10:00:00');
    expect(v.safeParse(serviceStatusSchema, ok).success).toBe(true);
  });
});

const conn = (o: Partial<IecConnectionStatus> = {}): IecConnectionStatus => ({
  id: 1,
  remote: '127.0.0.1:50123',
  state: 'stopped',
  active: false,
  framesIn: 1,
  framesOut: 1,
  iFramesIn: 0,
  iFramesOut: 0,
  windowStalls: 0,
  unacknowledged: 0,
  startedAt: null,
  startedForMs: null,
  openedAt: 10,
  lastError: null,
  ...o,
});
const COMMANDS = { written: 3, accepted: 2, refused: 1, done: 2, noAnswer: 0, waiting: 0 };
const iecGroup = (index: number, plc: Partial<IecGroupStatus['plc']> = {}): IecGroupStatus => ({
  index,
  station: { started: true, plcOk: true, points: 4, selected: 0, confirming: 0, terminating: 0 },
  plc: { plc: 'ok', ringError: '', capacity: 10, events: 5, skipped: 0, commands: COMMANDS, ...plc },
});
const queue = (index: number, connections: IecConnectionStatus[]) => ({ index, connections, queued: 1, overflowed: 2, sent: 7, resent: 1, acknowledged: 6 });
const iec = (o: Partial<IecStatus> = {}, connections: IecConnectionStatus[] = []): IecStatus => ({
  enabled: true,
  listener: { port: 2404, listening: true, refused: 3, faults: 1, groups: [queue(0, connections), queue(1, [])] },
  groups: [iecGroup(0), iecGroup(1)],
  clockSyncs: 2,
  ...o,
});

describe('the IEC 104 station in the one status answer', () => {
  it('off while disabled; idle while it listens with no started connection; running with one; its detail kept', () => {
    const o = new OtherServicesStatus(clock);
    clock.t = 100;
    expect(o.iec({ enabled: false, groups: [], clockSyncs: 0 })).toMatchObject({ service: 'iec', enabled: false, state: 'off' });
    clock.t = 200;
    const idle = o.iec(iec({}, [conn()]));
    expect(idle).toMatchObject({ enabled: true, state: 'idle', since: 200 });
    expect(idle.plc).toBeUndefined();
    expect(idle.lastError).toBeUndefined();
    clock.t = 300;
    const started = conn({ state: 'started', active: true, startedAt: 250, startedForMs: 50 });
    const running = o.iec(iec({}, [started, conn({ id: 2 })]));
    expect(running).toMatchObject({ state: 'running', since: 300 });
    expect(running.iec?.listener?.groups[0]?.connections[0]?.remote).toBe('127.0.0.1:50123');
    // the counters: connections open now, refused at accept, faults, both queues', both PLC sides', clock syncs
    expect(running.counters).toEqual({
      connections: 2,
      refused: 3,
      faults: 1,
      eventsSent: 14,
      eventsOverflowed: 4,
      eventsAcknowledged: 12,
      commandsDone: 4,
      commandsRefused: 2,
      clockSyncs: 2,
    });
    // a started connection that is not the group's active one does not run data transfer
    expect(o.iec(iec({}, [conn({ state: 'started', active: false })])).state).toBe('idle');
    for (const s of [idle, running]) expect(v.safeParse(serviceStatusSchema, s).success).toBe(true);
  });

  it("enabled but not listening: error with the listener's reason as the last error, once; the PLC side's reason as plc", () => {
    const o = new OtherServicesStatus(clock);
    clock.t = 1000;
    const inUse = { code: 'port_in_use', args: { port: 2404 } } as const;
    const notListening = { port: 2404, listening: false, reason: inUse, refused: 0, faults: 0, groups: [] };
    const broken = o.iec(iec({ listener: notListening }));
    expect(broken).toMatchObject({ state: 'error', lastError: { code: 'local', number: 7, reason: inUse, at: 1000 } });
    expect(broken.counters).toMatchObject({ connections: 0, eventsSent: 0 });
    clock.t = 2000;
    expect(o.iec(iec({ listener: notListening })).lastError?.at).toBe(1000);
    expect(v.safeParse(serviceStatusSchema, broken).success).toBe(true);

    const silent = o.iec(
      iec({ groups: [iecGroup(0, { ringError: 'read index 99 out of range' }), iecGroup(1, { plc: 'silent', reason: { code: 'plc_no_answer' } })] }),
    );
    expect(silent).toMatchObject({ state: 'idle', plc: { code: 'plc_no_answer' } });
    expect(o.iec(iec({ groups: [iecGroup(0, { ringError: 'read index 99 out of range' })] })).plc).toEqual({
      code: 'ring_error',
      words: 'read index 99 out of range',
    });
    expect(o.iec(iec()).plc).toBeUndefined();
  });
});

describe('the FTP send waiting for its retry', () => {
  it("the failed attempt's error is the last error at once, with its time; the send's own result replaces it", () => {
    const o = new OtherServicesStatus(clock);
    clock.t = 5000;
    const retryError = { code: 'refused', number: 2, message: 'connect ECONNREFUSED 127.0.0.1:21', at: 4900 };
    const waiting = o.ftp(ftp({ state: 'running', running: true, retryAt: 9000, retryError }), NO_SENDS);
    expect(waiting).toMatchObject({ state: 'waiting', lastError: { code: 'refused', number: 2, message: 'connect ECONNREFUSED 127.0.0.1:21', at: 4900 } });
    const auth = { code: 'auth_failed', number: 5, message: '530 Login incorrect' };
    const last: NonNullable<FtpStatus['lastSend']> = {
      trigger: 'plc',
      started: 4000,
      finished: 9500,
      result: 'error',
      files: [],
      bytes: 0,
      failed: 1,
      held: [],
      attempts: 2,
      deleted: 0,
      error: auth,
    };
    clock.t = 9600;
    expect(o.ftp(ftp({ state: 'error', lastSend: last }), NO_SENDS).lastError).toMatchObject({ code: 'auth_failed', at: 9500 });
  });
});
