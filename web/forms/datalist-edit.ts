// Pure edits of the data point list of the SQL and NoSQL clients (spec §3 "SQL and NoSQL data
// points", §9 datalist without PLC 100) and how a point's address is written (DT100, WR5, R10A).
import * as v from 'valibot';
import { DATA_AREA_MAX, type DataPoint, dataPointSchema, MAX_DATAPOINTS, wordsOf } from '../../device/model/sections/datapoint.ts';

const RELAY_AREAS = new Set(['X', 'Y', 'R']);

/**
 * The address as a technician writes it: a word of a relay area is WX/WY/WR n, a BOOL there the
 * relay itself (word and hex bit: R10A); a BOOL in a word area gets its bit after a dot (DT100.3).
 */
export function pointAddress(p: Pick<DataPoint, 'area' | 'address' | 'bit' | 'type'>): string {
  const relay = RELAY_AREAS.has(p.area);
  if (p.type !== 'BOOL') return `${relay ? 'W' : ''}${p.area}${p.address}`;
  return relay ? `${p.area}${p.address}${Number(p.bit).toString(16).toUpperCase()}` : `${p.area}${p.address}.${p.bit}`;
}

/** The first free name `value1`, `value2` … (column names compare without case, as the model does). */
function freeName(points: readonly DataPoint[]): string {
  const used = new Set(points.map((p) => String(p.name).toLowerCase()));
  let n = points.length + 1;
  while (used.has(`value${n}`)) n++;
  return `value${n}`;
}

/**
 * The list with one more point, or 'full' at the limit (spec §8 "Max. number of data points
 * reached"). The new point continues the last one: same area, type and word order, at the next
 * free word when that still fits the area; otherwise the schema's defaults.
 */
export function addPoint(points: readonly DataPoint[]): DataPoint[] | 'full' {
  if (points.length >= MAX_DATAPOINTS) return 'full';
  const fresh = v.getDefaults(dataPointSchema) as DataPoint;
  const last = points.at(-1);
  const next = { ...fresh, name: freeName(points) };
  // the last point may hold a value still being typed (text in a number field): then defaults
  const words = last ? wordsOf(last.type) : undefined;
  const areaMax = last ? DATA_AREA_MAX[last.area] : undefined;
  if (last && words && areaMax !== undefined && typeof last.address === 'number') {
    const address = last.address + words;
    if (address <= areaMax - words + 1) {
      const decimal = typeof last.decimal === 'number' ? last.decimal : fresh.decimal;
      Object.assign(next, { area: last.area, type: last.type, endian: last.endian, decimal, address });
    }
  }
  return [...points, next];
}

/** The list without point `j`; the rows after it move up (their number is their place). */
export const removePoint = (points: readonly DataPoint[], j: number): DataPoint[] => points.filter((_, k) => k !== j);
