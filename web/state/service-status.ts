// The live state of the services while a page that shows them is open: the one status answer
// (GET /config/service_status, device/model/service-status.ts), asked for every update tick
// (spec §9: 1500 ms), one request at a time. Every block that shows a service mounts a watch; the
// answer is shared, so a page with several blocks (or /info with its line per service) asks once
// per tick, and the polling stops when the last block goes. The FTP send, the TLS bridge and the
// PLC clock read their detail from the same answer (ftp-status.ts, tls-status.ts, rtc-status.ts).
import { signal } from '@preact/signals';
import type { StatusService } from '../../device/model/service-status.ts';
import { fetchServicesStatus, type ServiceStatus, type ServicesStatus } from '../api/service-status.ts';
import { COM_STATUS_TICK_MS, earlyInto, watchInto } from './com-status.ts';

export const SERVICE_STATUS_TICK_MS = COM_STATUS_TICK_MS; // spec §9: update tick 1500 ms

/** the last answer; null before the first one and after a failed call */
export const servicesStatus = signal<ServicesStatus | null>(null);
/** the last call failed (the blocks say "status unavailable") */
export const servicesStatusFailed = signal(false);
/** Date.now() when the last answer arrived (/datetime lets the unit's time run on from it) */
export const servicesStatusReceivedAt = signal(0);

/** The one answer, noting when it came. */
const received = (load: () => Promise<ServicesStatus>) => async () => {
  const answer = await load();
  servicesStatusReceivedAt.value = Date.now();
  return answer;
};

/** The early call of a page with a service's status block (earlyInto in ./com-status.ts). */
export const earlyServicesStatus = (load: () => Promise<ServicesStatus> = fetchServicesStatus): Promise<void> =>
  earlyInto(servicesStatus, servicesStatusFailed, received(load));

let watchers = 0;
let stopPolling: (() => void) | null = null;

/**
 * Starts the status updates for one block (the first block starts the polling with its `tickMs`
 * and `load`); the returned stop ends this block's interest, and the polling with the last one.
 */
export function watchServicesStatus(tickMs = SERVICE_STATUS_TICK_MS, load: () => Promise<ServicesStatus> = fetchServicesStatus): () => void {
  watchers += 1;
  if (!stopPolling) {
    stopPolling = watchInto(servicesStatus, servicesStatusFailed, received(load), tickMs);
  }
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    watchers -= 1;
    if (watchers === 0 && stopPolling) {
      stopPolling();
      stopPolling = null;
    }
  };
}

/** One service's entry of the last answer (null before an answer, or when the daemon reports no such service). */
export const serviceStatusOf = (service: StatusService): ServiceStatus | null => servicesStatus.value?.services.find((s) => s.service === service) ?? null;

/** The badge tone of a run state: green when it works, amber while it waits or connects, red on an error. */
export const RUN_STATE_TONE = {
  off: '',
  connecting: 'connecting',
  connected: 'up',
  reconnecting: 'connecting',
  idle: 'up',
  running: 'up',
  waiting: 'connecting',
  error: 'down',
} as const satisfies Record<ServiceStatus['state'], 'up' | 'connecting' | 'down' | ''>;
