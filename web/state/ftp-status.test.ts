import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FTP_ERROR } from '../../device/ftp/registers.ts';
import { type FtpStatus, ftpStatusSchema } from '../../device/model/ftp-status.ts';
import type { ServicesStatus } from '../../device/model/service-status.ts';
import { FTP_ERROR_CODES, FTP_STATUS_TICK_MS, ftpStatus, ftpStatusFailed, isFtpErrorCode, watchFtpStatus } from './ftp-status.ts';

/** the one status answer with only the ftp entry carrying `detail` (web/state/service-status.ts) */
const answerOf = (detail: unknown): ServicesStatus => ({
  services: [{ service: 'ftp', enabled: true, state: 'idle', since: 0, counters: {}, queue: { waiting: 0, dropped: 0, bound: 0 }, ftp: detail as never }],
});

const status = (state: FtpStatus['state']): FtpStatus => ({
  enabled: true,
  cycle: false,
  running: state === 'running',
  state,
  localDir: 'internal/log',
  ...(state === 'error'
    ? {
        lastSend: {
          trigger: 'plc',
          started: 1000,
          finished: 2000,
          result: 'error',
          files: [],
          bytes: 0,
          failed: 2,
          held: [],
          attempts: 3,
          deleted: 0,
          error: { code: 'refused', number: 2, message: 'connect ECONNREFUSED 127.0.0.1:21' },
        },
      }
    : {}),
});

describe('FTP send status updates', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks every update tick (spec §9: 1500 ms), marks a failed call quietly and recovers; stop ends it', async () => {
    expect(FTP_STATUS_TICK_MS).toBe(1500);
    const answers: (FtpStatus | Error)[] = [status('idle'), status('running'), new Error('down'), status('error')];
    const load = vi.fn(async () => {
      const a = answers.shift();
      if (!a || a instanceof Error) throw a ?? new Error('no more');
      return a;
    });
    const stop = watchFtpStatus(FTP_STATUS_TICK_MS, async () => answerOf(await load()));
    await vi.advanceTimersByTimeAsync(0);
    expect(ftpStatus.value?.state).toBe('idle');
    await vi.advanceTimersByTimeAsync(1500);
    expect(ftpStatus.value?.state).toBe('running');
    await vi.advanceTimersByTimeAsync(1500);
    expect(ftpStatus.value).toBeNull();
    expect(ftpStatusFailed.value).toBe(true);
    await vi.advanceTimersByTimeAsync(1500);
    expect(ftpStatusFailed.value).toBe(false);
    expect(ftpStatus.value?.lastSend?.error?.number).toBe(2);
    stop();
    await vi.advanceTimersByTimeAsync(6000);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('knows every error code of the control block except none (docs/ftp.md)', () => {
    expect([...FTP_ERROR_CODES].sort()).toEqual(
      Object.keys(FTP_ERROR)
        .filter((k) => k !== 'none')
        .sort(),
    );
    expect(isFtpErrorCode('tls')).toBe(true);
    expect(isFtpErrorCode('none')).toBe(false);
  });

  it("the schema takes the daemon's answer and refuses one that does not fit", () => {
    expect(v.safeParse(ftpStatusSchema, status('error')).success).toBe(true);
    expect(v.safeParse(ftpStatusSchema, { ...status('idle'), nextCycle: 5, retryAt: 6 }).success).toBe(true);
    expect(v.safeParse(ftpStatusSchema, { ...status('idle'), state: 'waiting' }).success).toBe(false);
    expect(v.safeParse(ftpStatusSchema, { ...status('idle'), plc: 'the PLC did not answer' }).success).toBe(false); // a reason is a code, never words
    const bad = status('error');
    expect(v.safeParse(ftpStatusSchema, { ...bad, lastSend: { ...bad.lastSend, trigger: 'manual' } }).success).toBe(false);
  });
});
