// The live state of the PLC links while the COM page is open: asked for every update tick
// (spec §9: 1500 ms), never more than one request at a time, stopped when the page goes. A failed
// call only marks the status as unavailable: it repeats every tick, so it raises no notification.
import { type Signal, signal } from '@preact/signals';
import { type ComStatus, fetchComStatus } from '../api/com.ts';

export const COM_STATUS_TICK_MS = 1500; // spec §9: update tick 1500 ms

/** the last answer; null before the first one and after a failed call */
export const comStatus = signal<ComStatus | null>(null);
/** the last call failed (the page says "status unavailable") */
export const comStatusFailed = signal(false);

export interface Poller {
  stop(): void;
}

/**
 * Calls `load` now and then every `tickMs`; a tick that comes while a call is still out is skipped.
 * After `stop()` nothing is called any more and a late answer is dropped.
 */
export function poll<T>(load: () => Promise<T>, onResult: (r: { ok: true; value: T } | { ok: false; error: unknown }) => void, tickMs: number): Poller {
  let stopped = false;
  let busy = false;
  const tick = async () => {
    if (busy || stopped) return;
    busy = true;
    try {
      const value = await load();
      if (!stopped) onResult({ ok: true, value });
    } catch (error) {
      if (!stopped) onResult({ ok: false, error });
    } finally {
      busy = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), tickMs);
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/** Polls `load` into a pair of signals (last answer, last call failed), starting from nothing; the returned stop ends it. */
export function watchInto<T>(value: Signal<T | null>, failed: Signal<boolean>, load: () => Promise<T>, tickMs: number): () => void {
  value.value = null;
  failed.value = false;
  const poller = poll(
    load,
    (r) => {
      value.value = r.ok ? r.value : null;
      failed.value = !r.ok;
    },
    tickMs,
  );
  return () => poller.stop();
}

/** Starts the status updates of the COM page; the returned stop ends them. */
export function watchComStatus(tickMs = COM_STATUS_TICK_MS, load: () => Promise<ComStatus> = fetchComStatus): () => void {
  return watchInto(comStatus, comStatusFailed, load, tickMs);
}
