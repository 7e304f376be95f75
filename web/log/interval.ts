// The log interval warning (spec §3 "a log interval warning flag"): a log file whose cycle is
// shorter than the time its reads take cannot keep its cycle. The reads are counted the way the
// logger plans them (device/logger/points.ts resolves the points, device/logger/planner.ts plans the
// fewest block reads with each protocol's per-request limit), and each request is timed from the
// interface's settings:
//
//   serial (COM1, COM2, COM3): the request and the reply frame, each character costing
//     start + data + parity + stop bits at the baud rate; Modbus RTU adds the 3.5-character silence
//     after each of the two frames; plus the PLC's scan (it answers at the end of a scan) and the
//     interface's `wait` after the answer.
//   COM4 (Ethernet): a LAN round trip plus the scan and `wait`; the frame time is negligible.
//   INTERNAL: the unit's own memory, a fraction of a millisecond.
//
// The links run side by side, requests on one link one after the other (docs/plc-links.md "Transaction
// queue"), so a record takes as long as its busiest interface. The figure is a lower bound: retries,
// other users of the same link (other log files, services, redirections) and timeouts add to it.

import { type Protocol, planReads, readLimit } from '../../device/logger/planner.ts';
import { filePoints } from '../../device/logger/points.ts';
import type { BlockRead, LogWordArea, PointSource } from '../../device/logger/types.ts';
import { ETHERNET_ID, INTERNAL_ID } from '../../device/model/plc.ts';
import type { LogFile } from '../../device/model/sections/logfile.ts';
import type { ComInterface } from '../../device/model/sections/pew.ts';

/** The PLC answers at the end of its scan: a few ms for a small program (the virtual PLCs use 5). */
export const SCAN_MS = 5;
/** A request and its answer across a LAN and the PLC's TCP stack. */
export const ETHERNET_MS = 2;
/** A read of the unit's own memory. */
export const INTERNAL_MS = 0.5;
const RTU_SILENCE_CHARS = 3.5; // Modbus RTU: 3.5 characters of silence end a frame

// the triggers that record every `cycle` seconds: fixed cycle, specified time, condition (spec §3)
const CYCLIC_TRIGGERS: readonly number[] = [1, 2, 3];
const MEW7_AREAS: readonly string[] = ['DT', 'LD', 'WX', 'WY', 'WR'];

/** Bits on the wire per character: start, data, parity, stop. */
export const charBits = (i: Pick<ComInterface, 'bits' | 'parity' | 'stopbits'>): number => 1 + i.bits + (i.parity === 'none' ? 0 : 1) + i.stopbits;

// Frame layouts (mewtocol.md §1, §5; Modbus RTU), written out here rather than encoding frames, so
// the page's chunk does not carry the protocol encoders; interval.test.ts checks every size against
// the encoders of device/protocol.
//   MEWTOCOL-COM: `%` + station(2) + marker + text + BCC(2) + CR = text + 7; RD text `RD` + area
//     code + 5 + 5 digits (13), RCC `RCC` + area + 4 + 4 digits (12); reply text `RD`/`RC` + 4 per word.
//   MEWTOCOL7: `>@` + station(3) + frame no.(2) + marker + text + CRC(4) + CR = text + 13; MMRD text
//     `00MMRDD001G0` + area(2) + 9 + 4 digits (27); reply text `00MMRD` + 4 per word.
//   Modbus RTU: unit + function + address(2) + quantity(2) + CRC(2) = 8 bytes; reply unit + function
//     + byte count + 2 bytes per register (or per 16 coils) + CRC(2).
const MEW_FRAME = 7;
const MEW7_FRAME = 13;

/** Characters (ASCII protocols) or bytes (Modbus RTU) of a read request of `count` words and of its reply. */
export function frameSizes(protocol: Protocol, area: LogWordArea, count: number): { request: number; reply: number } {
  if (protocol === 'MODBUS') return { request: 8, reply: 5 + 2 * count };
  if (protocol === 'MEWTOCOL7' && MEW7_AREAS.includes(area)) return { request: MEW7_FRAME + 27, reply: MEW7_FRAME + 6 + 4 * count };
  // MEWTOCOL-COM (also MEWTOCOL7's FL): RD for data areas, RCC for relay words
  const data = area === 'DT' || area === 'LD' || area === 'FL';
  return { request: MEW_FRAME + (data ? 13 : 12), reply: MEW_FRAME + 2 + 4 * count };
}

/** Milliseconds one read request of `count` words takes on an interface (see the head of this file). */
export function requestMs(i: ComInterface, area: LogWordArea, count: number): number {
  if (i.id === INTERNAL_ID) return INTERNAL_MS + i.wait;
  if (i.id === ETHERNET_ID) return ETHERNET_MS + SCAN_MS + i.wait;
  const { request, reply } = frameSizes(i.protocol, area, count);
  const chars = request + reply + (i.protocol === 'MODBUS' ? 2 * RTU_SILENCE_CHARS : 0);
  return (chars * charBits(i) * 1000) / i.baudrate + SCAN_MS + i.wait;
}

export interface ReadEstimate {
  /** requests sent per record */
  requests: number;
  /** ms a record's reads take: the busiest interface's sum */
  ms: number;
  interfaces: { interfaceId: number; requests: number; ms: number }[];
}

/**
 * The reads one record of a log file needs. Reads through an interface that is missing or not
 * enabled, and reads its protocol cannot make (FL over Modbus), are refused at once and cost nothing.
 */
export function estimateReads(file: LogFile, fileIndex: number, interfaces: readonly ComInterface[]): ReadEstimate {
  return estimatePoints(filePoints(file, fileIndex).points, interfaces);
}

/** estimateReads of a log file's resolved points: they and the interfaces are all it depends on. */
function estimatePoints(points: readonly PointSource[], interfaces: readonly ComInterface[]): ReadEstimate {
  const byId = new Map(interfaces.map((i) => [i.id as number, i]));
  const limitOf = (id: number, area: LogWordArea) => {
    const i = byId.get(id);
    return i ? readLimit(i.protocol, area) : 0;
  };
  const reads: BlockRead[] = planReads(points, limitOf);
  const per = new Map<number, { interfaceId: number; requests: number; ms: number }>();
  for (const r of reads) {
    const i = byId.get(r.interfaceId);
    if (!i?.enabled || limitOf(r.interfaceId, r.area) < r.count) continue;
    const e = per.get(r.interfaceId) ?? { interfaceId: r.interfaceId, requests: 0, ms: 0 };
    e.requests++;
    e.ms += requestMs(i, r.area, r.count);
    per.set(r.interfaceId, e);
  }
  const list = [...per.values()].sort((a, b) => a.interfaceId - b.interfaceId);
  return { requests: list.reduce((n, e) => n + e.requests, 0), ms: Math.max(0, ...list.map((e) => e.ms)), interfaces: list };
}

const samePoint = (a: PointSource, b: PointSource): boolean =>
  a.key === b.key &&
  a.interfaceId === b.interfaceId &&
  a.station === b.station &&
  a.area === b.area &&
  a.word === b.word &&
  a.words === b.words &&
  a.bit === b.bit;

/**
 * estimateReads for one log file at a time, keeping its last answer: the file's points are resolved
 * again at each call (about a millisecond for 700), and when they and the interfaces (the same
 * list) are as before, the reads are not planned again. An edit of a point's name, unit or scaling
 * on /log (700 points) then costs no new plan (4 ms a key at CPU 4×).
 */
export function readEstimator(): (file: LogFile, fileIndex: number, interfaces: readonly ComInterface[]) => ReadEstimate {
  let last: { points: readonly PointSource[]; interfaces: readonly ComInterface[]; estimate: ReadEstimate } | undefined;
  return (file, fileIndex, interfaces) => {
    const points = filePoints(file, fileIndex).points;
    const same =
      last !== undefined && last.interfaces === interfaces && last.points.length === points.length && points.every((p, k) => samePoint(p, last!.points[k]!));
    if (!same) last = { points, interfaces, estimate: estimatePoints(points, interfaces) };
    return last!.estimate;
  };
}

/** The log file records by its cycle and one record's reads take longer than the cycle. */
export const cycleExceeded = (file: Pick<LogFile, 'trigger' | 'cycle'>, e: Pick<ReadEstimate, 'ms'>): boolean =>
  CYCLIC_TRIGGERS.includes(file.trigger) && e.ms > file.cycle * 1000;

/** The estimate when the log file records by its cycle and its reads take longer than the cycle. */
export function intervalWarning(file: LogFile, fileIndex: number, interfaces: readonly ComInterface[]): ReadEstimate | undefined {
  if (!CYCLIC_TRIGGERS.includes(file.trigger)) return undefined;
  const e = estimateReads(file, fileIndex, interfaces);
  return cycleExceeded(file, e) ? e : undefined;
}
