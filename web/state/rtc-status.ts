// The live clock status while /datetime is open: asked for every update tick (spec §9: 1500 ms),
// never more than one request at a time, stopped when the page goes. Each answer keeps the moment
// it arrived, so the page can let the unit's time run on between two answers. A failed call only
// marks the status as unavailable, without a notification.
import { signal } from '@preact/signals';
import { fetchRtcStatus, type RtcStatus } from '../api/rtc-status.ts';
import { COM_STATUS_TICK_MS, watchInto } from './com-status.ts';

export const RTC_STATUS_TICK_MS = COM_STATUS_TICK_MS; // spec §9: update tick 1500 ms

export interface RtcStatusSeen {
  status: RtcStatus;
  /** Date.now() when the answer arrived */
  receivedAt: number;
}

/** the last answer; null before the first one and after a failed call */
export const rtcStatus = signal<RtcStatusSeen | null>(null);
/** the last call failed (the page says "status unavailable") */
export const rtcStatusFailed = signal(false);

/** Starts the status updates of the date and time page; the returned stop ends them. */
export function watchRtcStatus(tickMs = RTC_STATUS_TICK_MS, load: () => Promise<RtcStatus> = fetchRtcStatus): () => void {
  return watchInto(rtcStatus, rtcStatusFailed, async () => ({ status: await load(), receivedAt: Date.now() }), tickMs);
}

/** The unit's time now: the time of the last answer moved on by the time since it arrived. */
export const unitTimeNow = (seen: RtcStatusSeen, now = Date.now()): number => seen.status.unitTime + Math.max(0, now - seen.receivedAt);
