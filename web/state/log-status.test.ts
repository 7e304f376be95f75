import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type LogStatus, logStatusSchema } from '../../device/model/log-status.ts';
import { LOG_STATUS_TICK_MS, logStatus, logStatusFailed, watchLogStatus } from './log-status.ts';

const status = (deleted: string[]): LogStatus => ({
  enabled: true,
  running: true,
  write: deleted.length
    ? { state: 'low_memory', reasons: [{ code: 'low_memory_deleted', args: { count: deleted.length, names: deleted.join(', ') } }], volume: 'temp' }
    : { state: 'ok', reasons: [], volume: 'temp' },
  files: [
    {
      name: 'tank',
      records: 3,
      missed: 1,
      failedReads: 0,
      readsPerRecord: 1,
      lastRecordAt: 5000,
      lastTrigger: 5,
      write: { state: 'ok', reasons: [], volume: 'temp', file: 'tank_2026.csv' },
    },
  ],
  notices: { deleted: deleted.map((name) => ({ name, volume: 'temp', at: 4000 })), deletedCount: deleted.length, dropped: {}, droppedCount: 0 },
});

describe('logger status updates', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks every update tick, marks a failed call quietly and recovers; stop ends it', async () => {
    expect(LOG_STATUS_TICK_MS).toBe(1500);
    const answers: (LogStatus | Error)[] = [status(['old_a.csv']), new Error('down'), status([])];
    const load = vi.fn(async () => {
      const a = answers.shift();
      if (!a || a instanceof Error) throw a ?? new Error('no more');
      return a;
    });
    const stop = watchLogStatus(LOG_STATUS_TICK_MS, load);
    await vi.advanceTimersByTimeAsync(0);
    expect(logStatus.value?.notices.deleted.map((d) => d.name)).toEqual(['old_a.csv']);
    await vi.advanceTimersByTimeAsync(1500);
    expect(logStatus.value).toBeNull();
    expect(logStatusFailed.value).toBe(true);
    await vi.advanceTimersByTimeAsync(1500);
    expect(logStatus.value?.write.state).toBe('ok');
    stop();
    await vi.advanceTimersByTimeAsync(3000);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it("the schema takes the daemon's answer and refuses one that does not fit", () => {
    expect(v.is(logStatusSchema, status(['a.csv', 'b.csv']))).toBe(true);
    expect(v.is(logStatusSchema, { ...status([]), notices: undefined })).toBe(false);
    expect(v.is(logStatusSchema, { ...status([]), write: { state: 'full', reasons: [] } })).toBe(false);
  });
});
