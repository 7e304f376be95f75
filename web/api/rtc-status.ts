// The live state of the PLC clock update for /datetime (spec §2, §3 pew_rtc): `GET /config/rtc_status`.
// The answer is checked against its schema before the page shows it, so a reply of another daemon
// version shows as "status unavailable" instead of breaking the page.
import * as v from 'valibot';
import { ApiFailure, get } from './client.ts';
import { rtcStatusSchema, type RtcStatus } from '../../device/model/rtc-status.ts';

export const RTC_STATUS_PATH = '/config/rtc_status';
export type { RtcStatus };

/** The clock status; throws ApiFailure when the call fails or the answer is not understood. */
export async function fetchRtcStatus(): Promise<RtcStatus> {
  const parsed = v.safeParse(rtcStatusSchema, await get<unknown>(RTC_STATUS_PATH));
  if (!parsed.success) throw new ApiFailure(200, 'internal');
  return parsed.output;
}
