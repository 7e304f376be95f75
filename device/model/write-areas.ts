// The PLC words the REST API may write (pew_api `write_areas`, security.md REST-2): a list the
// administrator types as `DT100-199, WR0-3 WY5`: a word area, the first word and optionally the
// last, separated by commas or spaces. None by default. A bit area's bits lie in the words of its
// word view (R 10F is word WR 10), so a list of words covers the bit writes too. The inputs (WX)
// are never writable. Pure: the schema (sections/rest.ts) and the REST port (device/rest) read it.
import type { ErrorCode, IssueParams } from './issues.ts';
import { AREA_MAX, WORD_AREAS, type WordArea } from './plc.ts';

/** The word areas a write may name: every one but the inputs. */
export const WRITABLE_AREAS = WORD_AREAS.filter((a) => a !== 'WX');
export const WRITE_AREAS_MAX = 256;

export interface WriteArea {
  area: WordArea;
  start: number;
  end: number;
}

const ENTRY = /^([A-Za-z]{2})(\d{1,7})(?:-(\d{1,7}))?$/;

const entriesOf = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

/** What is wrong with the list, or undefined when every entry is good. */
export function writeAreasProblem(text: string): { code: ErrorCode; params?: IssueParams } | undefined {
  for (const entry of entriesOf(text)) {
    const m = ENTRY.exec(entry);
    if (!m) return { code: 'invalid_write_area', params: { entry } };
    const area = m[1]!.toUpperCase();
    if (!(WRITABLE_AREAS as readonly string[]).includes(area)) return { code: 'invalid_value', params: { allowed: WRITABLE_AREAS } };
    const start = Number(m[2]);
    const end = m[3] === undefined ? start : Number(m[3]);
    const max = AREA_MAX[area as WordArea];
    if (start > max || end > max) return { code: 'address_out_of_range', params: { min: 0, max } };
    if (start > end) return { code: 'start_after_end' };
  }
  return undefined;
}

/** The entries of a checked list (an entry that does not parse is left out). */
export function writeAreasOf(text: string): WriteArea[] {
  return entriesOf(text).flatMap((entry) => {
    const m = ENTRY.exec(entry);
    const area = (m?.[1] ?? '').toUpperCase();
    if (!m || !(WRITABLE_AREAS as readonly string[]).includes(area)) return [];
    const start = Number(m[2]);
    return [{ area: area as WordArea, start, end: m[3] === undefined ? start : Number(m[3]) }];
  });
}

/** Whether words `first`..`last` of `area` all lie inside one entry or several adjoining ones. */
export function mayWrite(areas: readonly WriteArea[], area: WordArea, first: number, last: number): boolean {
  let next = first;
  // entries may overlap or adjoin: walk forward while an entry covers the next word
  for (let moved = true; moved && next <= last; ) {
    moved = false;
    for (const a of areas)
      if (a.area === area && a.start <= next && a.end >= next) {
        next = a.end + 1;
        moved = true;
      }
  }
  return next > last;
}
