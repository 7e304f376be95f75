// The live state of the PLC clock sync (spec §2 /datetime, §3 pew_rtc): the unit's time, NTP, and
// the last time the unit wrote its date and time into the PLC. The `rtc` entry of
// `GET /config/service_status` (service-status.ts).
import * as v from 'valibot';

/** why a sync failed: the PLC did not answer, answered with an error, the link is not usable */
export const RTC_SYNC_FAILURES = ['no_answer', 'plc_error', 'link_down'] as const;

export const rtcStatusSchema = v.object({
  /** the unit's clock, ms since the epoch, and its time zone (IANA name) */
  unitTime: v.number(),
  timezone: v.string(),
  ntp: v.object({ enabled: v.boolean(), synchronized: v.boolean(), servers: v.array(v.string()) }),
  /** whether the sync runs (pew_rtc saved with by-time or by-PLC sync on a usable interface) */
  running: v.boolean(),
  /** the last sync tried, if any */
  lastSync: v.optional(
    v.object({
      at: v.number(),
      trigger: v.picklist(['time', 'plc', 'request']),
      ok: v.boolean(),
      /** what was written, as the PLC shows it (e.g. 2026-11-21 14:05:00) */
      written: v.optional(v.string()),
      failure: v.optional(v.object({ reason: v.picklist(RTC_SYNC_FAILURES), message: v.string() })),
    }),
  ),
});
export type RtcStatus = v.InferOutput<typeof rtcStatusSchema>;
