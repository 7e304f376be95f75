// Test support for the redirect rules: restriction entries in one line, and the per-word oracle the
// property tests compare the daemon's rules with (each word's rights written out one by one, BLK
// words removed whatever the order: the slow, obvious reading of spec §3).
import type { Restriction } from '../model/sections/redirect.ts';
import type { Op } from './access.ts';

export const entry = (
  area: Restriction['area'],
  start: number,
  end: number,
  read_write: Restriction['read_write'],
  type: Restriction['type'] = 0,
  mapped = 0,
): Restriction => ({ type, area, register_area_start: start, register_area_end: end, register_area_mapped: mapped, read_write });

export type Rights = Map<string, 'RO' | 'R/W'>;

/** word key (`DT:5`) → rights: grants first (R/W over RO), then every BLK word removed. */
export function rightsOf(mapping: readonly Restriction[]): Rights {
  const m: Rights = new Map();
  for (const r of mapping) {
    if (r.read_write === 'BLK') continue;
    for (let w = r.register_area_start; w <= r.register_area_end; w++) {
      const k = `${r.area}:${w}`;
      if (r.read_write === 'R/W' || !m.has(k)) m.set(k, r.read_write);
    }
  }
  for (const r of mapping) if (r.read_write === 'BLK') for (let w = r.register_area_start; w <= r.register_area_end; w++) m.delete(`${r.area}:${w}`);
  return m;
}

/** Whether one word may be read (or written) by the oracle's rights. */
export function granted(rights: Rights, area: string, word: number, op: Op): boolean {
  const r = rights.get(`${area}:${word}`);
  return r === 'R/W' || (r === 'RO' && op === 'read');
}
