// The live state of the FTP send while /ftp is open: asked for every update tick (spec §9:
// 1500 ms), never more than one request at a time, stopped when the page goes. A failed call (or
// an answer that does not fit) only marks the status as unavailable, without a notification.
import { signal } from '@preact/signals';
import { fetchFtpStatus, type FtpStatus } from '../api/ftp-status.ts';
import { COM_STATUS_TICK_MS, watchInto } from './com-status.ts';

export const FTP_STATUS_TICK_MS = COM_STATUS_TICK_MS; // spec §9: update tick 1500 ms

/** the last answer; null before the first one and after a failed call */
export const ftpStatus = signal<FtpStatus | null>(null);
/** the last call failed (the page says "status unavailable") */
export const ftpStatusFailed = signal(false);

/** Starts the status updates of the FTP page; the returned stop ends them. */
export function watchFtpStatus(tickMs = FTP_STATUS_TICK_MS, load: () => Promise<FtpStatus> = fetchFtpStatus): () => void {
  return watchInto(ftpStatus, ftpStatusFailed, load, tickMs);
}

/** the error codes of docs/ftp.md (DT n+2) the console explains; another code shows as it came */
export const FTP_ERROR_CODES = ['unknown_host', 'refused', 'timeout', 'tls', 'auth_failed', 'server_refused', 'local', 'other'] as const;
export type FtpErrorCode = (typeof FTP_ERROR_CODES)[number];
export const isFtpErrorCode = (code: string): code is FtpErrorCode => (FTP_ERROR_CODES as readonly string[]).includes(code);
