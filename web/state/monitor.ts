// The traffic monitor's list while /monitor is open (docs/monitor.md): the unit's capture read on
// the update tick (spec §9: 1500 ms) from the cursor of the last read, never more than one request
// at a time, stopped when the page goes. The page keeps the latest KEPT_MAX records. A change of the
// filters starts the list again from the oldest record the unit holds (after the last Clear), with
// the filters sent to the unit; Pause stops reading (the unit goes on capturing) and Resume goes on
// from the cursor; Clear empties the list and goes on from the cursor, where the downloads start too.
import { signal } from '@preact/signals';
import type { CaptureStateView, MonitorAnswer, MonitorRecord } from '../../device/model/monitor.ts';
import { fetchMonitor } from '../api/monitor.ts';
import { COM_STATUS_TICK_MS } from './com-status.ts';

export const MONITOR_TICK_MS = COM_STATUS_TICK_MS; // spec §9: update tick 1500 ms
/** records the page keeps (the oldest go first) */
export const KEPT_MAX = 2000;

export interface MonitorFilters {
  dir: '' | 'in' | 'out';
  /** a command as the unit names it (RD, FC3, I); '' for every one */
  command: string;
  errors: boolean;
}
export const NO_FILTERS: MonitorFilters = { dir: '', command: '', errors: false };

/** the last answer without its records (the capture's state, the sources, what the unit holds); null before the first */
export const monitorAnswer = signal<Omit<MonitorAnswer, 'records'> | null>(null);
/** the last read failed */
export const monitorFailed = signal(false);
export const monitorRecords = signal<readonly MonitorRecord[]>([]);
/** records the unit dropped before the page read them, since the list started */
export const monitorLost = signal(0);
export const monitorPaused = signal(false);
export const monitorFilters = signal<MonitorFilters>(NO_FILTERS);
/** the cursor of the last Clear (0: none, the oldest record held): the list and the downloads start after it */
export const monitorClearedAt = signal(0);

/** the `after` of the next read */
let cursor = 0;
/** counts the starts of the list: a read sent before the latest start is dropped when it comes back */
let generation = 0;
/** reads now (when no read is out and the list is not paused) */
let wake = () => {};

/** The query of a read: the records after `after` that pass the filters. */
export function readQuery(after: number, f: MonitorFilters): string {
  const q = new URLSearchParams({ after: String(after) });
  if (f.dir) q.set('dir', f.dir);
  if (f.command) q.set('command', f.command);
  if (f.errors) q.set('errors', '1');
  return q.toString();
}

function take(a: MonitorAnswer, after: number): void {
  const { records, ...rest } = a;
  monitorAnswer.value = rest;
  monitorFailed.value = false;
  cursor = a.next;
  // a read from 0 asks for the oldest record held: what went before it was never the page's to lose
  if (after > 0 && a.lost > 0) monitorLost.value += a.lost;
  if (records.length > 0) monitorRecords.value = [...monitorRecords.value, ...records].slice(-KEPT_MAX);
}

/** Nothing read, no filter: how a visit of the page starts, and what its end leaves behind. */
function reset(): void {
  generation++;
  cursor = 0;
  monitorClearedAt.value = 0;
  monitorAnswer.value = null;
  monitorFailed.value = false;
  monitorRecords.value = [];
  monitorLost.value = 0;
  monitorPaused.value = false;
  monitorFilters.value = NO_FILTERS;
}

/** Starts reading the capture from its oldest record, with no filter; the returned stop ends it and forgets what was read. */
export function watchMonitor(tickMs = MONITOR_TICK_MS, load: (query: string) => Promise<MonitorAnswer> = fetchMonitor): () => void {
  let stopped = false;
  let busy = false;
  reset();
  const tick = async () => {
    if (busy || stopped || monitorPaused.value) return;
    busy = true;
    const g = generation;
    const after = cursor;
    try {
      const a = await load(readQuery(after, monitorFilters.value));
      if (!stopped && g === generation) take(a, after);
    } catch {
      if (!stopped && g === generation) monitorFailed.value = true;
    } finally {
      busy = false;
      // the list started again while this read was out: read for it at once
      if (!stopped && g !== generation) void tick();
    }
  };
  wake = () => void tick();
  void tick();
  const timer = setInterval(() => void tick(), tickMs);
  return () => {
    stopped = true;
    clearInterval(timer);
    wake = () => {};
    reset();
  };
}

/** New filters: the list starts again from the oldest record held after the last Clear. */
export function setMonitorFilters(f: MonitorFilters): void {
  monitorFilters.value = f;
  generation++;
  cursor = monitorClearedAt.value;
  monitorRecords.value = [];
  monitorLost.value = 0;
  wake();
}

/** Pause stops reading; Resume reads on from the cursor at once. */
export function pauseMonitor(paused: boolean): void {
  monitorPaused.value = paused;
  if (!paused) wake();
}

/** Empties the list; reading goes on from the cursor, and the downloads start there. */
export function clearMonitor(): void {
  monitorClearedAt.value = cursor;
  monitorRecords.value = [];
  monitorLost.value = 0;
}

/** The capture was started or stopped from the page: its state at once, its first records soon. */
export function captureChanged(state: CaptureStateView): void {
  if (monitorAnswer.value) monitorAnswer.value = { ...monitorAnswer.value, capture: state };
  wake();
}
