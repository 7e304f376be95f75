// The live state of the IEC 60870-5-104 station while /iec is open: the `iec` entry of the one
// status answer (web/state/service-status.ts: asked every update tick, spec §9: 1500 ms, one
// request at a time, stopped when the page goes). A failed call (or an answer that does not fit)
// only marks the status as unavailable.
import { computed } from '@preact/signals';
import type { IecStatus } from '../../device/model/iec-status.ts';
import type { ServiceStatus } from '../../device/model/service-status.ts';
import { fetchServicesStatus, type ServicesStatus } from '../api/service-status.ts';
import { SERVICE_STATUS_TICK_MS, serviceStatusOf, servicesStatusFailed, watchServicesStatus } from './service-status.ts';

export const IEC_STATUS_TICK_MS = SERVICE_STATUS_TICK_MS; // spec §9: update tick 1500 ms

/** the last answer's station entry; null before the first one and after a failed call */
export const iecEntry = computed<ServiceStatus | null>(() => serviceStatusOf('iec'));
/** the last answer's station detail; null before the first one and after a failed call */
export const iecStatus = computed<IecStatus | null>(() => iecEntry.value?.iec ?? null);
/** the last call failed (the page says "status unavailable") */
export const iecStatusFailed = servicesStatusFailed;

/** Starts the status updates of /iec; the returned stop ends them. */
export function watchIecStatus(tickMs = IEC_STATUS_TICK_MS, load: () => Promise<ServicesStatus> = fetchServicesStatus): () => void {
  return watchServicesStatus(tickMs, load);
}

/** Whether the station's port is open now: it listens. */
export const iecListening = computed(() => iecStatus.value?.listener?.listening === true);
