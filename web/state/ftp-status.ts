// The live state of the FTP send while /ftp is open: the `ftp` entry of the one status answer
// (web/state/service-status.ts: asked every update tick, spec §9: 1500 ms, one request at a time,
// stopped when the page goes). A failed call (or an answer that does not fit) only marks the
// status as unavailable, without a notification.
import { computed } from '@preact/signals';
import type { FtpStatus } from '../../device/model/ftp-status.ts';
import type { ServicesStatus } from '../api/service-status.ts';
import { fetchServicesStatus } from '../api/service-status.ts';
import { SERVICE_STATUS_TICK_MS, serviceStatusOf, servicesStatusFailed, watchServicesStatus } from './service-status.ts';

export const FTP_STATUS_TICK_MS = SERVICE_STATUS_TICK_MS; // spec §9: update tick 1500 ms

/** the last answer's FTP send; null before the first one and after a failed call */
export const ftpStatus = computed<FtpStatus | null>(() => serviceStatusOf('ftp')?.ftp ?? null);
/** the last call failed (the page says "status unavailable") */
export const ftpStatusFailed = servicesStatusFailed;

/** Starts the status updates of the FTP page; the returned stop ends them. */
export function watchFtpStatus(tickMs = FTP_STATUS_TICK_MS, load: () => Promise<ServicesStatus> = fetchServicesStatus): () => void {
  return watchServicesStatus(tickMs, load);
}

/** the error codes of docs/ftp.md (DT n+2) the console explains; another code shows as it came */
export const FTP_ERROR_CODES = ['unknown_host', 'refused', 'timeout', 'tls', 'auth_failed', 'server_refused', 'local', 'other'] as const;
export type FtpErrorCode = (typeof FTP_ERROR_CODES)[number];
export const isFtpErrorCode = (code: string): code is FtpErrorCode => (FTP_ERROR_CODES as readonly string[]).includes(code);
