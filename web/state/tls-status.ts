// The live state of the TLS bridge while /tls, /tlsclient or /tlsserver is open: the `tls` entry
// of the one status answer (web/state/service-status.ts: asked every update tick, spec §9:
// 1500 ms, one request at a time, stopped when the page goes). A failed call (or an answer that
// does not fit) only marks the status as unavailable.
import { computed } from '@preact/signals';
import type { TlsPartStatus, TlsStatus } from '../../device/model/tls-status.ts';
import { fetchServicesStatus, type ServicesStatus } from '../api/service-status.ts';
import { SERVICE_STATUS_TICK_MS, serviceStatusOf, servicesStatusFailed, watchServicesStatus } from './service-status.ts';

export const TLS_STATUS_TICK_MS = SERVICE_STATUS_TICK_MS; // spec §9: update tick 1500 ms

/** the last answer's TLS bridge; null before the first one and after a failed call */
export const tlsStatus = computed<TlsStatus | null>(() => serviceStatusOf('tls')?.tls ?? null);
/** the last call failed (the page says "status unavailable") */
export const tlsStatusFailed = servicesStatusFailed;

/** Starts the status updates of a TLS page; the returned stop ends them. */
export function watchTlsStatus(tickMs = TLS_STATUS_TICK_MS, load: () => Promise<ServicesStatus> = fetchServicesStatus): () => void {
  return watchServicesStatus(tickMs, load);
}

/** What a part does now, in the order that decides it: switched off, stopped by the PLC, listening, or not listening. */
export type TlsPartState = 'disabled' | 'stopped' | 'listening' | 'closed';

export const tlsPartState = (s: TlsPartStatus): TlsPartState => (!s.enabled ? 'disabled' : s.stoppedByPlc ? 'stopped' : s.listening ? 'listening' : 'closed');
