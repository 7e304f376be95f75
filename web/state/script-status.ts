// The live state of the script while /script is open: its entry of the one status answer
// (web/state/service-status.ts, asked every update tick, spec §9: 1500 ms).
import { computed } from '@preact/signals';
import type { ServiceStatus } from '../api/service-status.ts';
import { serviceStatusOf, servicesStatusFailed, watchServicesStatus } from './service-status.ts';

/** the script's entry of the last answer; null before the first one and after a failed call */
export const scriptStatus = computed<ServiceStatus | null>(() => serviceStatusOf('script'));
export const scriptStatusFailed = servicesStatusFailed;

/** Starts the status updates of the script page; the returned stop ends them. */
export const watchScriptStatus = (): (() => void) => watchServicesStatus();
