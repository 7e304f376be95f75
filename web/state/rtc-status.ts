// The live clock status while /datetime is open: the `rtc` entry of the one status answer
// (web/state/service-status.ts: asked every update tick, spec §9: 1500 ms, one request at a time,
// stopped when the page goes). Each answer keeps the moment it arrived, so the page can let the
// unit's time run on between two answers. A failed call only marks the status as unavailable,
// without a notification.
import { computed } from '@preact/signals';
import type { RtcStatus } from '../../device/model/rtc-status.ts';
import { fetchServicesStatus, type ServicesStatus } from '../api/service-status.ts';
import { SERVICE_STATUS_TICK_MS, serviceStatusOf, servicesStatusFailed, servicesStatusReceivedAt, watchServicesStatus } from './service-status.ts';

export const RTC_STATUS_TICK_MS = SERVICE_STATUS_TICK_MS; // spec §9: update tick 1500 ms

export interface RtcStatusSeen {
  status: RtcStatus;
  /** Date.now() when the answer arrived */
  receivedAt: number;
}

/** the last answer's clock status; null before the first one and after a failed call */
export const rtcStatus = computed<RtcStatusSeen | null>(() => {
  const status = serviceStatusOf('rtc')?.rtc;
  return status ? { status, receivedAt: servicesStatusReceivedAt.value } : null;
});
/** the last call failed (the page says "status unavailable") */
export const rtcStatusFailed = servicesStatusFailed;

/** Starts the status updates of the date and time page; the returned stop ends them. */
export function watchRtcStatus(tickMs = RTC_STATUS_TICK_MS, load: () => Promise<ServicesStatus> = fetchServicesStatus): () => void {
  return watchServicesStatus(tickMs, load);
}

/** The unit's time now: the time of the last answer moved on by the time since it arrived. */
export const unitTimeNow = (seen: RtcStatusSeen, now = Date.now()): number => seen.status.unitTime + Math.max(0, now - seen.receivedAt);
