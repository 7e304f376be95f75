// The live counters of the redirection threads while the ports page is open: asked for every
// update tick (spec §9: 1500 ms), never more than one request at a time, stopped when the page
// goes. A failed call only marks the status as unavailable, without a notification.
import { signal } from '@preact/signals';
import { fetchPortStatus, type PortStatus } from '../api/port.ts';
import { COM_STATUS_TICK_MS, earlyInto, watchInto } from './com-status.ts';

export const PORT_STATUS_TICK_MS = COM_STATUS_TICK_MS; // spec §9: update tick 1500 ms

/** the last answer; null before the first one and after a failed call */
export const portStatus = signal<PortStatus | null>(null);
/** the last call failed (the page says "status unavailable") */
export const portStatusFailed = signal(false);

/** The ports page's early call (earlyInto in ./com-status.ts). */
export const earlyPortStatus = (load: () => Promise<PortStatus> = fetchPortStatus): Promise<void> => earlyInto(portStatus, portStatusFailed, load);

/** Starts the status updates of the ports page; the returned stop ends them. */
export function watchPortStatus(tickMs = PORT_STATUS_TICK_MS, load: () => Promise<PortStatus> = fetchPortStatus): () => void {
  return watchInto(portStatus, portStatusFailed, load, tickMs);
}
