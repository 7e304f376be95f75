// The PLC's registers of the clock sync (spec §3 pew_rtc, §9 RTC control register offset 5, the
// block at rtc_control_rtc_r, DT300 by default), on the service control interface (pew.interface_plc).
// Layout (docs/rtc.md):
//
//   DT n     request, written by the PLC: ≠ 0 asks for a sync now; the unit acknowledges by writing
//            0 after the sync and the words below (polled every rtc_polling seconds)
//   DT n+1   result of the last sync: 1 written, 2 failed (the PLC refused the clock write)
//   DT n+2   syncs done, counting up from 0 and wrapping after 65535
//   DT n+3   trigger of the last sync: 1 by time, 2 by the PLC's request, 3 from the console
//   DT n+4   minutes the written time is ahead of UTC, 16-bit two's complement (0 when written as UTC)
import type { RtcStatus } from '../model/rtc-status.ts';

export type SyncTrigger = NonNullable<RtcStatus['lastSync']>['trigger'];

export const REQUEST = 0;
export const RESULT = 1;
export const RESULT_OK = 1;
export const RESULT_FAILED = 2;
export const TRIGGER_CODE: Readonly<Record<SyncTrigger, number>> = { time: 1, plc: 2, request: 3 };

/** Words n+1 … n+4 after a sync. */
export function reportWords(ok: boolean, count: number, trigger: SyncTrigger, offsetMinutes: number): number[] {
  return [ok ? RESULT_OK : RESULT_FAILED, count & 0xffff, TRIGGER_CODE[trigger], offsetMinutes & 0xffff];
}
