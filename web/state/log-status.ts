// The data logger's status while /log is open: asked for every update tick (spec §9: 1500 ms),
// never more than one request at a time, stopped when the page goes. A failed call (or an answer
// that does not fit) only marks the status as unavailable, without a notification.
import { signal } from '@preact/signals';
import { fetchLogStatus, type LogStatus } from '../api/log-status.ts';
import { COM_STATUS_TICK_MS, earlyInto, watchInto } from './com-status.ts';

export const LOG_STATUS_TICK_MS = COM_STATUS_TICK_MS; // spec §9: update tick 1500 ms

/** the last answer; null before the first one and after a failed call */
export const logStatus = signal<LogStatus | null>(null);
/** the last call failed (the page says "status unavailable") */
export const logStatusFailed = signal(false);

/** The log page's early call (earlyInto in ./com-status.ts). */
export const earlyLogStatus = (load: () => Promise<LogStatus> = fetchLogStatus): Promise<void> => earlyInto(logStatus, logStatusFailed, load);

/** Starts the status updates of the log page; the returned stop ends them. */
export function watchLogStatus(tickMs = LOG_STATUS_TICK_MS, load: () => Promise<LogStatus> = fetchLogStatus): () => void {
  return watchInto(logStatus, logStatusFailed, load, tickMs);
}
