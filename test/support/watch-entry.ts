// A register watch entry as the daemon keeps it, for the tests of the watch (unit, integration,
// browser): on COM1 (interface id 0), area code 1 DT (2 FL, 3 LD, 4 X, 5 Y, 6 R), type as the
// logger's value codes; `o` sets the fields a test is about.
import type { WatchEntry } from '../../device/model/watch.ts';

export const watchEntry = (o: Partial<WatchEntry> = {}): WatchEntry => ({
  name: '',
  if: 0,
  plc_addr: 0,
  area: 1,
  reg_addr: '0',
  type: 0,
  str_len: 48,
  endian: 'little',
  decimal: 0,
  format: 'value',
  ...o,
});
