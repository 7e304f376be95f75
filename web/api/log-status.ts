// The data logger at work for /log (spec §3 Data logger, §4 write status; docs/logger.md):
// `GET /config/log_status`, and `POST /config/log_status/ack` when the technician has seen the
// deletions and dropped records. Answers are checked against their schema before the page shows
// them, so a reply of another daemon version shows as "status unavailable" instead of breaking it.
import * as v from 'valibot';
import { type LogNotices, type LogStatus, logStatusSchema } from '../../device/model/log-status.ts';
import { ApiFailure, get, post } from './client.ts';

export const LOG_STATUS_PATH = '/config/log_status';
export const LOG_ACK_PATH = '/config/log_status/ack';
export type { LogNotices, LogStatus };

function checked(answer: unknown): LogStatus {
  const parsed = v.safeParse(logStatusSchema, answer);
  if (!parsed.success) throw new ApiFailure(200, 'internal');
  return parsed.output;
}

/** The logger's status; throws ApiFailure when the call fails or the answer is not understood. */
export async function fetchLogStatus(): Promise<LogStatus> {
  return checked(await get<unknown>(LOG_STATUS_PATH));
}

/** Clears the notices (administrator); the status afterwards. */
export async function acknowledgeLogNotices(): Promise<LogStatus> {
  return checked(await post<unknown>(LOG_ACK_PATH, {}));
}
