// The logger's read planner (architecture: device/logger, "pure: data points → fewest block
// reads"). Every cycle the logger reads its data points; one block read is one request frame on
// the link, so the plan with the fewest requests is the fastest on a serial line. A read may
// bridge a gap between points (reading words nobody asked for) when that saves a request; among
// plans with equally few requests the one reading fewer words wins (shorter frames).
//
// Per (interface, station, area) the points are sorted by first word and split into consecutive
// runs, each run one read spanning its first word to its last; an exact dynamic programme picks the
// runs with the fewest reads, then the fewest words. Consecutive runs are enough: when a read
// would leave out a point lying between two of its points, either that point fits inside the
// read's span (taking it in costs nothing) or it reaches past the span and then contains the
// read's last point (which can move to that point's read at no cost). The test compares the plan
// with an exhaustive search over every grouping of small inputs, and minimumReads — computed
// independently by a greedy sweep — with the plan's length.
//
// A point's words never split across reads. A point wider than its limit (limit 0: the protocol
// cannot reach the area, e.g. FL over Modbus) gets a read of its own: the link refuses it before
// anything is sent and the point's value is empty, like any failed read.

import { INTERNAL_ID, type PROTOCOLS } from '../model/plc.ts';
import type { Pew } from '../model/sections/pew.ts';
import { mewMaxWords } from '../protocol/mewtocol-plan.ts';
import { MEW7_MAX_READ_WORDS } from '../protocol/mewtocol7-commands.ts';
import { MODBUS_LIMITS } from '../protocol/modbus-pdu.ts';
import type { BlockRead, LogWordArea, PointSource } from './types.ts';

export type Protocol = (typeof PROTOCOLS)[number];
/** Most words one read request of an area may carry on an interface (readLimit for its protocol). */
export type LimitOf = (interfaceId: number, area: LogWordArea) => number;

// MEWTOCOL7 reads these with MMRD; FL goes as MEWTOCOL-COM (device/com/mewtocol-driver.ts)
const MEW7_AREAS: readonly LogWordArea[] = ['DT', 'LD', 'WX', 'WY', 'WR'];

/** The protocol the reads of an interface speak (the unit's INTERNAL memory answers as Modbus). */
export function interfaceProtocol(pew: Pick<Pew, 'interfaces'>, id: number): Protocol {
  if (id === INTERNAL_ID) return 'MODBUS';
  const p = pew.interfaces.find((i) => i.id === id)?.protocol;
  return p === 'MEWTOCOL7' || p === 'MODBUS' ? p : 'MEWTOCOL';
}

/**
 * Words per read request, as the link's drivers split them (device/com):
 * MEWTOCOL RD/RCC with `%` frames (the driver's header) 27; MEWTOCOL7 MMRD 1019, FL over
 * MEWTOCOL-COM 27; Modbus FC3 (DT) and FC4 (LD) 125 registers, WX/WY/WR as 16 inputs or coils
 * each within FC2/FC1's 2000 bits (125 words), FL 0 (no Modbus address).
 */
export function readLimit(protocol: Protocol, area: LogWordArea): number {
  if (protocol === 'MEWTOCOL7' && MEW7_AREAS.includes(area)) return MEW7_MAX_READ_WORDS;
  if (protocol !== 'MODBUS') return mewMaxWords('read', area);
  switch (area) {
    case 'DT':
      return MODBUS_LIMITS[3];
    case 'LD':
      return MODBUS_LIMITS[4];
    case 'WX':
      return Math.floor(MODBUS_LIMITS[2] / 16);
    case 'WY':
    case 'WR':
      return Math.floor(MODBUS_LIMITS[1] / 16);
    case 'FL':
      return 0;
  }
}

interface Group {
  interfaceId: number;
  station: number;
  area: LogWordArea;
  limit: number;
  points: PointSource[];
}

const end = (p: PointSource): number => p.word + p.words - 1;

/** Points by (interface, station, area), each group sorted by first word, then last word, then input order. */
function groups(points: readonly PointSource[], limitOf: LimitOf): Group[] {
  const byKey = new Map<string, Group>();
  for (const p of points) {
    const k = `${p.interfaceId}|${p.station}|${p.area}`;
    let g = byKey.get(k);
    if (!g) byKey.set(k, (g = { interfaceId: p.interfaceId, station: p.station, area: p.area, limit: limitOf(p.interfaceId, p.area), points: [] }));
    g.points.push(p);
  }
  const out = [...byKey.values()].sort((a, b) => a.interfaceId - b.interfaceId || a.station - b.station || (a.area < b.area ? -1 : a.area > b.area ? 1 : 0));
  for (const g of out) g.points.sort((a, b) => a.word - b.word || end(a) - end(b)); // stable: input order last
  return out;
}

const read = (g: Group, run: readonly PointSource[]): BlockRead => {
  const start = run[0]!.word;
  return { interfaceId: g.interfaceId, station: g.station, area: g.area, start, count: Math.max(...run.map(end)) - start + 1, points: run.map((p) => p.key) };
};

/** The fewest reads (then the fewest words) covering one group's points that fit the limit. */
function planGroup(g: Group, fitting: readonly PointSource[]): BlockRead[] {
  const n = fitting.length;
  // best[i]: reads and words covering the first i points; from[i]: where the last run starts
  const reads = new Array<number>(n + 1).fill(Infinity);
  const words = new Array<number>(n + 1).fill(Infinity);
  const from = new Array<number>(n + 1).fill(0);
  reads[0] = 0;
  words[0] = 0;
  for (let i = 1; i <= n; i++) {
    let last = -Infinity;
    for (let j = i - 1; j >= 0; j--) {
      const p = fitting[j]!;
      last = Math.max(last, end(p));
      const span = last - p.word + 1;
      if (span > g.limit) break; // runs starting earlier only grow
      const r = reads[j]! + 1;
      const w = words[j]! + span;
      if (r < reads[i]! || (r === reads[i] && w < words[i]!)) {
        reads[i] = r;
        words[i] = w;
        from[i] = j;
      }
    }
  }
  const out: BlockRead[] = [];
  for (let i = n; i > 0; i = from[i]!) out.push(read(g, fitting.slice(from[i]!, i)));
  return out.reverse();
}

/**
 * Block reads covering every point exactly once: per (interface, station, area) the fewest
 * requests, then the fewest words, no read longer than `limitOf(interfaceId, area)` words.
 * Reads come sorted by interface, station, area and first word; a read's `points` by first word.
 */
export function planReads(points: readonly PointSource[], limitOf: LimitOf): BlockRead[] {
  return groups(points, limitOf).flatMap((g) => {
    const alone = g.points.filter((p) => p.words > g.limit).map((p) => read(g, [p]));
    return [
      ...planGroup(
        g,
        g.points.filter((p) => p.words <= g.limit),
      ),
      ...alone,
    ].sort((a, b) => a.start - b.start);
  });
}

/**
 * The least number of requests that can cover the points, by a greedy sweep independent of
 * planReads: per group, the leftmost point not yet covered opens a read of `limit` words from its
 * first word, which takes every uncovered point lying wholly inside it. No plan does with fewer:
 * any read covering that leftmost point covers no point outside the greedy one's span.
 */
export function minimumReads(points: readonly PointSource[], limitOf: LimitOf): number {
  let total = 0;
  for (const g of groups(points, limitOf)) {
    total += g.points.filter((p) => p.words > g.limit).length;
    let open = g.points.filter((p) => p.words <= g.limit);
    while (open.length > 0) {
      const last = open[0]!.word + g.limit - 1;
      open = open.filter((p) => end(p) > last);
      total++;
    }
  }
  return total;
}
