// The live state of the FTP send for /ftp (spec §2, §3 pew_ftpc, docs/ftp.md):
// `GET /config/ftp_status`. The answer is checked against its schema before the page shows it, so
// a reply of another daemon version shows as "status unavailable" instead of breaking the page.
import * as v from 'valibot';
import { ApiFailure, get } from './client.ts';
import { ftpStatusSchema, type FtpLastSend, type FtpStatus } from '../../device/model/ftp-status.ts';

export const FTP_STATUS_PATH = '/config/ftp_status';
export type { FtpLastSend, FtpStatus };

/** The FTP send's status; throws ApiFailure when the call fails or the answer is not understood. */
export async function fetchFtpStatus(): Promise<FtpStatus> {
  const parsed = v.safeParse(ftpStatusSchema, await get<unknown>(FTP_STATUS_PATH));
  if (!parsed.success) throw new ApiFailure(200, 'internal');
  return parsed.output;
}
