// The station's process image (docs/iec104.md "The station"): the last value of every monitor point
// the PLC side reported, by IOA, and how the station encodes those values: spontaneous ASDUs with
// CP56Time2a (types 30-37) and the answers of interrogations and reads (types 1-15 without time
// tag, SQ = 0, as many objects of one type as fit in an ASDU of 249 octets).
// A value is never sent as good when it may be stale: while the PLC does not answer, every value
// goes out with IV (invalid) and NT (not topical) set; once it answers again, a value not read since
// goes out with NT until the PLC side reports it anew. Integrated totals have no NT bit: their IV
// bit marks both cases.

import { ASDU_MAX_LENGTH } from '../protocol/iec104/apci.ts';
import { ASDU_HEADER, encodeAsdu, type InfoObject, IOA_LENGTH, IOA_MAX, VSQ_MAX } from '../protocol/iec104/asdu.ts';
import { COT } from '../protocol/iec104/cot.ts';
import { type Cp56, cp56FromEpochMs } from '../protocol/iec104/cp56.ts';
import { type ElementValue, QUALITY } from '../protocol/iec104/elements.ts';
import { servedType } from '../protocol/iec104/types.ts';
import { check, isInt } from '../protocol/result.ts';
import { EVENT_TYPES, type EventType, type MonitorPoint } from './points.ts';

/** The CP56Time2a type of each monitor type: spontaneous events carry the time they were read. */
export const TIME_TAGGED: Readonly<Record<EventType, number>> = { 1: 30, 3: 31, 5: 32, 7: 33, 9: 34, 11: 35, 13: 36, 15: 37 };

/** How far an image value can be trusted when it is sent. */
export type Freshness = 'fresh' | 'not_topical' | 'invalid';

/** The element with the quality bits its freshness demands (IV and NT; the invalid bit of a counter). */
export function withQuality(e: ElementValue, f: Freshness): ElementValue {
  if (f === 'fresh') return e;
  if (e.kind === 'bcr') return { ...e, invalid: true };
  if ('quality' in e) return { ...e, quality: e.quality | QUALITY.NT | (f === 'invalid' ? QUALITY.IV : 0) } as ElementValue;
  return e;
}

const FIRST_CP56 = Date.UTC(2000, 0, 1);
const LAST_CP56 = Date.UTC(2100, 0, 1) - 1;

/** The time tag of an instant; an instant CP56Time2a cannot carry (a unit clock never set, before
 * 2000) goes out as 2000-01-01 00:00 with the IV bit of the time tag set. */
export function timeTag(epochMs: number): Cp56 {
  if (Number.isFinite(epochMs) && epochMs >= FIRST_CP56 && epochMs <= LAST_CP56) return cp56FromEpochMs(Math.floor(epochMs));
  return cp56FromEpochMs(FIRST_CP56, { invalid: true });
}

/** Throws a RangeError on a point the station cannot carry: the PLC side builds points from the PLC's
 * words, so a bad one is a program error, and it must never reach the image an interrogation reads. */
export function checkPoint(p: MonitorPoint): void {
  check(Object.hasOwn(EVENT_TYPES, p.type), `monitor type ${p.type} is not one of ${Object.keys(EVENT_TYPES).join(', ')}`);
  check(isInt(p.ioa, 1, IOA_MAX), `IOA ${p.ioa} not in 1-${IOA_MAX}`);
  check(isInt(p.group, 0, 16), `interrogation group ${p.group} not in 0-16`);
  // the encoder checks the element's kind against the type and every value's range
  encodeAsdu({
    type: p.type,
    sq: false,
    cot: { cause: COT.spontaneous, negative: false, test: false },
    originator: 0,
    ca: 1,
    objects: [{ ioa: p.ioa, element: p.element }],
  });
}

export interface AsduAddressing {
  ca: number;
  originator: number;
  test: boolean;
}

/** A spontaneous ASDU (COT 3) of one point with its time tag. */
export function spontaneousAsdu(p: { type: EventType; ioa: number }, element: ElementValue, at: number, to: AsduAddressing): Uint8Array {
  return encodeAsdu({
    type: TIME_TAGGED[p.type],
    sq: false,
    cot: { cause: COT.spontaneous, negative: false, test: to.test },
    originator: to.originator,
    ca: to.ca,
    objects: [{ ioa: p.ioa, element, time: timeTag(at) }],
  });
}

/** How many objects of a type without time tag fit in one ASDU with SQ = 0. */
export function objectsPerAsdu(type: number): number {
  const t = servedType(type);
  check(t !== undefined, `type ${type} is not served`);
  return Math.min(VSQ_MAX, Math.floor((ASDU_MAX_LENGTH - ASDU_HEADER) / (IOA_LENGTH + t.size)));
}

/** Answer ASDUs for points (already in the order to send): consecutive points of one type share an
 * ASDU (SQ = 0) up to what fits; the cause is the interrogation's (20-41) or 5 for a read. */
export function answerAsdus(points: readonly { type: EventType; ioa: number; element: ElementValue }[], cause: number, to: AsduAddressing): Uint8Array[] {
  const out: Uint8Array[] = [];
  let i = 0;
  while (i < points.length) {
    const type = (points[i] as { type: EventType }).type;
    const max = objectsPerAsdu(type);
    const objects: InfoObject[] = [];
    while (i < points.length && objects.length < max && (points[i] as { type: EventType }).type === type) {
      const p = points[i++] as { ioa: number; element: ElementValue };
      objects.push({ ioa: p.ioa, element: p.element });
    }
    out.push(encodeAsdu({ type, sq: false, cot: { cause, negative: false, test: to.test }, originator: to.originator, ca: to.ca, objects }));
  }
  return out;
}

interface Entry {
  point: MonitorPoint;
  stale: boolean; // the PLC stopped answering after this value was read
}

/** One point as an answer sends it: its value with the quality its freshness demands. */
export interface AnsweredPoint {
  type: EventType;
  ioa: number;
  group: number;
  element: ElementValue;
}

export class ProcessImage {
  private readonly entries = new Map<number, Entry>();
  private plcOk = true;

  get size(): number {
    return this.entries.size;
  }

  get plcAnswers(): boolean {
    return this.plcOk;
  }

  /** Stores a fresh value (checked first); answers whether the IOA held a stale value before. */
  set(p: MonitorPoint): boolean {
    checkPoint(p);
    const before = this.entries.get(p.ioa);
    this.entries.set(p.ioa, { point: { ...p }, stale: false });
    return before?.stale === true;
  }

  /** The PLC stopped answering (false) or answers again (true). Going down makes every value stale. */
  setPlc(ok: boolean): void {
    if (!ok) for (const e of this.entries.values()) e.stale = true;
    this.plcOk = ok;
  }

  freshness(e: Entry): Freshness {
    return !this.plcOk ? 'invalid' : e.stale ? 'not_topical' : 'fresh';
  }

  get(ioa: number): AnsweredPoint | undefined {
    const e = this.entries.get(ioa);
    return e && this.answered(e);
  }

  /** The points a filter picks, by type then IOA (the order the answer ASDUs group them in). */
  pick(filter: (p: MonitorPoint) => boolean): AnsweredPoint[] {
    const out: AnsweredPoint[] = [];
    for (const e of this.entries.values()) if (filter(e.point)) out.push(this.answered(e));
    return out.sort((a, b) => a.type - b.type || a.ioa - b.ioa);
  }

  private answered(e: Entry): AnsweredPoint {
    const p = e.point;
    return { type: p.type, ioa: p.ioa, group: p.group, element: withQuality(p.element, this.freshness(e)) };
  }
}
