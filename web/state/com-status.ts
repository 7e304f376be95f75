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
 * Calls `load` now (or, with `firstLater`, first after one tick) and then every `tickMs`; a tick that
 * comes while a call is still out is skipped. After `stop()` nothing is called any more and a late
 * answer is dropped.
 */
export function poll<T>(
  load: () => Promise<T>,
  onResult: (r: { ok: true; value: T } | { ok: false; error: unknown }) => void,
  tickMs: number,
  firstLater = false,
): Poller {
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
  if (!firstLater) void tick();
  const timer = setInterval(() => void tick(), tickMs);
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/** when a pair of signals got the answer of its early call (earlyInto), by Date.now() */
const earlyAt = new WeakMap<Signal<unknown>, number>();

/**
 * How long a page waits for its early call before it renders without the answer (its watch then
 * asks again): one update tick.
 */
export const EARLY_WAIT_MS = COM_STATUS_TICK_MS;

/**
 * Asks `load` once into a pair of signals before the page that shows them renders: the page's
 * module awaits it at its top (web/pages/com.tsx), so the page's chunk, loaded with the first page
 * or at a menu click, is ready once the answer is there and the first render shows it, instead of
 * rendering the page once without it and again when its watch's first answer comes. A watch of the
 * pair begun within one tick takes that answer as its first. Done after EARLY_WAIT_MS at the latest;
 * never rejects (a failed call marks the status unavailable, as the watch's would).
 */
export function earlyInto<T>(value: Signal<T | null>, failed: Signal<boolean>, load: () => Promise<T>): Promise<void> {
  const asked = load().then(
    (v) => {
      value.value = v;
      failed.value = false;
    },
    () => {
      value.value = null;
      failed.value = true;
    },
  );
  void asked.then(() => earlyAt.set(value, Date.now()));
  return Promise.race([asked.then(() => undefined), new Promise<void>((r) => setTimeout(r, EARLY_WAIT_MS))]);
}

/**
 * Polls `load` into a pair of signals (last answer, last call failed), starting from nothing, or from
 * the answer of an early call (earlyInto) less than a tick old, when the first call is one tick
 * later; the returned stop ends it.
 */
export function watchInto<T>(value: Signal<T | null>, failed: Signal<boolean>, load: () => Promise<T>, tickMs: number): () => void {
  const fresh = Date.now() - (earlyAt.get(value) ?? Number.NEGATIVE_INFINITY) < tickMs;
  earlyAt.delete(value);
  if (!fresh) {
    value.value = null;
    failed.value = false;
  }
  const poller = poll(
    load,
    (r) => {
      value.value = r.ok ? r.value : null;
      failed.value = !r.ok;
    },
    tickMs,
    fresh,
  );
  return () => poller.stop();
}

/** The COM page's early call (earlyInto). */
export const earlyComStatus = (load: () => Promise<ComStatus> = fetchComStatus): Promise<void> => earlyInto(comStatus, comStatusFailed, load);

/** Starts the status updates of the COM page; the returned stop ends them. */
export function watchComStatus(tickMs = COM_STATUS_TICK_MS, load: () => Promise<ComStatus> = fetchComStatus): () => void {
  return watchInto(comStatus, comStatusFailed, load, tickMs);
}
