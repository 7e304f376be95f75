// The unit's health while /health is open: asked as often as the daemon takes a sample (the answer
// names its interval: 10 s on the unit), never more than one request at a time, stopped when the
// page goes. A failed call keeps the last answer on the page and only marks it as not updated.
import { signal } from '@preact/signals';
import { fetchHealth, type HealthAnswer } from '../api/health.ts';
import { type Poller, poll } from './com-status.ts';

export const HEALTH_TICK_MS = 10_000; // the daemon's sample interval (device/diag/health.ts)

/** the last answer; null before the first one */
export const health = signal<HealthAnswer | null>(null);
/** what the last call failed with; null when it answered */
export const healthFailed = signal<unknown>(null);

/**
 * Starts the updates of /health: at once, then every `tickMs`, or every interval the answer names
 * once it names another; the returned stop ends them.
 */
export function watchHealth(tickMs = HEALTH_TICK_MS, load: () => Promise<HealthAnswer> = fetchHealth): () => void {
  health.value = null;
  healthFailed.value = null;
  let tick = tickMs;
  let poller: Poller | undefined;
  const start = () =>
    poll(
      load,
      (r) => {
        healthFailed.value = r.ok ? null : r.error;
        if (!r.ok) return;
        health.value = r.value;
        const every = r.value.intervalMs;
        if (every > 0 && every !== tick) {
          // the daemon samples at another pace: ask at that one (asks once more now)
          tick = every;
          poller?.stop();
          poller = start();
        }
      },
      tick,
    );
  poller = start();
  return () => poller?.stop();
}
