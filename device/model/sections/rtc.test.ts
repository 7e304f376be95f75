import { describe, expect, it } from 'vitest';
import { defaultsOf } from '../section.ts';
import { expectAccepted, expectRange, expectRejected } from '../testing.ts';
import { pew_rtc } from './rtc.ts';

describe('pew_rtc', () => {
  it('defaults: off, update every 600 min, control register 300 (spec §9)', () => {
    const d = defaultsOf(pew_rtc);
    expect(d).toEqual({
      rtc_by_plc: false,
      rtc_sync_as_utc: false,
      rtc_polling: 5,
      rtc_control_rtc_r: 300,
      rtc_address_dt: 90054,
      rtc_update_by_time: 600,
    });
    expectAccepted(pew_rtc, () => {});
  });

  it('the 5-register control block must fit the DT area (spec §9 offset 5)', () => {
    expectAccepted(pew_rtc, (x) => (x.rtc_control_rtc_r = 999424 - 4));
    expectRejected(pew_rtc, (x) => (x.rtc_control_rtc_r = 999424 - 3), 'rtc_control_rtc_r', 'address_out_of_range', { min: 0, max: 999420 });
    expectRejected(pew_rtc, (x) => (x.rtc_control_rtc_r = -1), 'rtc_control_rtc_r', 'address_out_of_range');
    expectRejected(pew_rtc, (x) => (x.rtc_control_rtc_r = 1.5), 'rtc_control_rtc_r', 'not_integer');
  });

  it('poll 1-120 s, update time 0-10080 min, clock address in DT 0-999424 (spec §9)', () => {
    expectRange(pew_rtc, (x, n) => (x.rtc_polling = n), 'rtc_polling', 1, 120, 0.5);
    expectRange(pew_rtc, (x, n) => (x.rtc_update_by_time = n), 'rtc_update_by_time', 0, 10080);
    expectRange(pew_rtc, (x, n) => (x.rtc_address_dt = n), 'rtc_address_dt', 0, 999424);
  });

  it('reserves its control block only when the PLC clock service is on', () => {
    const d = defaultsOf(pew_rtc);
    expect(pew_rtc.registers!(d)).toEqual([]);
    expect(pew_rtc.registers!({ ...d, rtc_by_plc: true, rtc_control_rtc_r: 400 })).toEqual([{ path: 'rtc_control_rtc_r', start: 400, length: 5 }]);
  });

  it('unknown keys and wrong types are refused', () => {
    expectRejected(pew_rtc, (x) => (x.rtc_offset = 1), 'rtc_offset', 'unknown_key');
    expectRejected(pew_rtc, (x) => (x.rtc_by_plc = 'yes'), 'rtc_by_plc', 'type', { expected: 'boolean' });
  });
});
