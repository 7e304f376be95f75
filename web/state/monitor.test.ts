import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MonitorAnswer, MonitorRecord } from '../../device/model/monitor.ts';
import {
  clearMonitor,
  KEPT_MAX,
  MONITOR_TICK_MS,
  monitorAnswer,
  monitorClearedAt,
  monitorFailed,
  monitorLost,
  monitorRecords,
  NO_FILTERS,
  pauseMonitor,
  setMonitorFilters,
  watchMonitor,
} from './monitor.ts';

const event = (seq: number): MonitorRecord => ({ seq, t: 1_700_000_000_000 + seq, source: 'COM1', kind: 'event', event: 'link_up' });

/** An answer with the records from..to (seq), `lost` dropped before them. */
const answer = (from: number, to: number, lost = 0): MonitorAnswer => ({
  capture: { on: true, sources: ['COM1'], level: 'frames' },
  held: { records: 0, bytes: 0, maxRecords: 20_000, maxBytes: 2 << 20 },
  sources: [{ id: 'COM1', kind: 'link', protocol: 'mewtocol', active: true }],
  records: Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => event(from + i)),
  next: Math.max(to, from - 1),
  lost,
});

/** A read that the test answers by hand: the queries asked, and the pending answers. */
function unit() {
  const queries: string[] = [];
  const pending: ((a: MonitorAnswer) => void)[] = [];
  const load = vi.fn(
    (q: string) =>
      new Promise<MonitorAnswer>((resolve) => {
        queries.push(q);
        pending.push(resolve);
      }),
  );
  return { queries, pending, load, answer: (a: MonitorAnswer) => pending.shift()!(a) };
}

describe('the traffic monitor list', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads on the update tick from the cursor of the last read, one read at a time; stop ends it', async () => {
    expect(MONITOR_TICK_MS).toBe(1500);
    const u = unit();
    const stop = watchMonitor(MONITOR_TICK_MS, u.load);
    expect(u.queries).toEqual(['after=0']);
    // a tick while the read is out asks nothing
    await vi.advanceTimersByTimeAsync(3000);
    expect(u.queries).toHaveLength(1);
    u.answer(answer(1, 3));
    await vi.advanceTimersByTimeAsync(0);
    expect(monitorRecords.value.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(monitorAnswer.value?.capture.on).toBe(true);
    await vi.advanceTimersByTimeAsync(1500);
    expect(u.queries.at(-1)).toBe('after=3');
    u.answer(answer(4, 4));
    await vi.advanceTimersByTimeAsync(0);
    expect(monitorRecords.value.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    stop();
    await vi.advanceTimersByTimeAsync(6000);
    expect(u.queries).toHaveLength(2);
    // the next visit starts from nothing
    expect(monitorRecords.value).toEqual([]);
    expect(monitorAnswer.value).toBeNull();
  });

  it(`keeps the latest ${KEPT_MAX} records and counts the ones the unit dropped before a read (not before the oldest held)`, async () => {
    const u = unit();
    const stop = watchMonitor(1500, u.load);
    u.answer(answer(501, 1500, 500)); // from 0: the oldest held is 501, nothing of the page's was lost
    await vi.advanceTimersByTimeAsync(1500);
    expect(monitorLost.value).toBe(0);
    u.answer(answer(1801, 3000, 300));
    await vi.advanceTimersByTimeAsync(0);
    expect(monitorRecords.value).toHaveLength(KEPT_MAX);
    expect(monitorRecords.value[0]?.seq).toBe(701); // 1000 + 1200 read, the first 200 gone
    expect(monitorLost.value).toBe(300);
    stop();
  });

  it('new filters start the list again from the oldest record held, sent to the unit; an answer for the old filters is dropped', async () => {
    const u = unit();
    const stop = watchMonitor(1500, u.load);
    u.answer(answer(1, 5));
    await vi.advanceTimersByTimeAsync(1500);
    expect(u.queries.at(-1)).toBe('after=5');
    setMonitorFilters({ dir: 'in', command: 'RD', errors: true });
    expect(monitorRecords.value).toEqual([]);
    // the read for the old filters comes back: dropped, and the new one goes out at once
    u.answer(answer(6, 6));
    await vi.advanceTimersByTimeAsync(0);
    expect(monitorRecords.value).toEqual([]);
    expect(u.queries.at(-1)).toBe('after=0&dir=in&command=RD&errors=1');
    u.answer(answer(2, 2));
    await vi.advanceTimersByTimeAsync(0);
    expect(monitorRecords.value.map((r) => r.seq)).toEqual([2]);
    stop();
  });

  it('Pause stops reading and Resume goes on from the cursor; Clear empties the list and the next list starts there', async () => {
    const u = unit();
    const stop = watchMonitor(1500, u.load);
    u.answer(answer(1, 4));
    await vi.advanceTimersByTimeAsync(0);
    pauseMonitor(true);
    await vi.advanceTimersByTimeAsync(6000);
    expect(u.queries).toEqual(['after=0']);
    pauseMonitor(false);
    expect(u.queries.at(-1)).toBe('after=4');
    u.answer(answer(5, 7));
    await vi.advanceTimersByTimeAsync(0);
    clearMonitor();
    expect(monitorRecords.value).toEqual([]);
    expect(monitorClearedAt.value).toBe(7);
    await vi.advanceTimersByTimeAsync(1500);
    expect(u.queries.at(-1)).toBe('after=7');
    u.answer(answer(8, 8));
    await vi.advanceTimersByTimeAsync(0);
    expect(monitorRecords.value.map((r) => r.seq)).toEqual([8]);
    // a filter after a Clear starts from the Clear, not from records the page emptied
    setMonitorFilters({ ...NO_FILTERS, errors: true });
    expect(u.queries.at(-1)).toBe('after=7&errors=1');
    stop();
  });

  it('a failed read says so and the next one recovers', async () => {
    let fail = true;
    const stop = watchMonitor(1500, async () => {
      if (fail) throw new Error('down');
      return answer(1, 1);
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(monitorFailed.value).toBe(true);
    fail = false;
    await vi.advanceTimersByTimeAsync(1500);
    expect(monitorFailed.value).toBe(false);
    expect(monitorRecords.value).toHaveLength(1);
    stop();
  });
});
