// Which PLC words a redirect thread lets a client touch (spec §3 Port, restrictions): every word of
// a request must lie in a granting entry of its area (RO grants reads, R/W reads and writes) and in
// no BLK entry of that area (BLK wins over an overlapping grant). A thread without entries grants
// nothing: a client reaches exactly what the technician allowed.
import type { Restriction } from '../model/sections/redirect.ts';
import type { WordArea } from '../protocol/index.ts';

export type Op = 'read' | 'write';

const grants = (r: Restriction, op: Op) => r.read_write === 'R/W' || (r.read_write === 'RO' && op === 'read');

/** True when the words `start`…`start+count-1` of `area` may be read (or written). */
export function allowed(mapping: readonly Restriction[], area: WordArea, start: number, count: number, op: Op): boolean {
  if (!(Number.isInteger(start) && Number.isInteger(count) && start >= 0 && count >= 1)) return false;
  const end = start + count - 1;
  const same = mapping.filter((r) => r.area === area && r.register_area_start <= r.register_area_end);
  if (same.some((r) => r.read_write === 'BLK' && r.register_area_start <= end && start <= r.register_area_end)) return false;
  // the granting entries, in address order, must cover start…end without a gap
  let next = start;
  for (const r of same.filter((x) => grants(x, op)).sort((a, b) => a.register_area_start - b.register_area_start)) {
    if (r.register_area_start > next) break;
    if (r.register_area_end >= next) next = r.register_area_end + 1;
    if (next > end) return true;
  }
  return false;
}
