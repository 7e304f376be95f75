// PLC real-time clock update (spec §3 "RTC (pew_rtc)", §9 RTC control register offset 5).
import type * as v from 'valibot';
import { controlRegister, dtAddress } from '../common.ts';
import { bool, int, num, obj } from '../fields.ts';
import { defineSection } from '../section.ts';

export const RTC_REGISTERS = 5; // spec §9: RTC control register offset
// spec §9 leaves the RTC default open; 300-304 lies clear of the other service defaults
// (FTP 200, SMTP 230, HTTP 240, MQTT 260, SQL 350, TLS 360, NoSQL 370)
export const RTC_DEFAULT_REGISTER = 300;
// calendar registers of FP0R/FP-X/FP-XH (DT90054-DT90057: min/s, day/h, year/month, weekday);
// other CPUs keep their clock elsewhere, so the address is editable
export const RTC_DEFAULT_CLOCK_DT = 90054;

export const rtcSchema = obj({
  rtc_by_plc: bool(false), // the unit sets the PLC clock (the service switch)
  rtc_sync_as_utc: bool(false), // write UTC instead of the unit's local time
  rtc_polling: num(1, 120, 5), // spec §9: poll time 1-120 s
  rtc_control_rtc_r: controlRegister(RTC_DEFAULT_REGISTER, RTC_REGISTERS),
  rtc_address_dt: dtAddress(RTC_DEFAULT_CLOCK_DT), // spec §9: DT 0-999424
  rtc_update_by_time: int(0, 10080, 600), // spec §9: update time 0-10080 min, default 600; 0 = only on PLC request
});
export type Rtc = v.InferOutput<typeof rtcSchema>;

export const pew_rtc = defineSection({
  key: 'pew_rtc',
  index: 4,
  schema: rtcSchema,
  passwords: [],
  registers: (r) => (r.rtc_by_plc ? [{ path: 'rtc_control_rtc_r', start: r.rtc_control_rtc_r, length: RTC_REGISTERS }] : []),
});
