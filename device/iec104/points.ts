// What the parts of the IEC 104 controlled station hand each other (docs/iec104.md "The station"):
// - the PLC side (plc-side.ts, the layout tables in device/model/blocks/iec104.ts) reads monitor
//   events from the PLC's ring buffer and carries commands into the PLC's command buffer;
// - the station (station.ts) keeps the process image, answers interrogations, reads, clock syncs
//   and commands, and turns events into ASDUs;
// - the transport (listener.ts, group.ts) carries ASDUs over the TCP connections of a redundancy
//   group.
// One connection entry of pew_60870 is one redundancy group: its own PLC buffers, its own event
// queue, the TCP connections its ip1..ip2 admits.

import type { ElementValue } from '../protocol/iec104/elements.ts';

/** The monitor types a PLC event may carry, by their type identification without time tag; spontaneous events go out with CP56Time2a (30-37). */
export const EVENT_TYPES = {
  1: 'M_SP_NA_1', // single point
  3: 'M_DP_NA_1', // double point
  5: 'M_ST_NA_1', // step position
  7: 'M_BO_NA_1', // bitstring of 32 bits
  9: 'M_ME_NA_1', // normalized value
  11: 'M_ME_NB_1', // scaled value
  13: 'M_ME_NC_1', // short floating point
  15: 'M_IT_NA_1', // integrated totals
} as const;
export type EventType = keyof typeof EVENT_TYPES;

/** One monitor value: a record of the PLC's ring buffer, or the station's image of an IOA. */
export interface MonitorPoint {
  type: EventType;
  ioa: number; // 1-16777215
  /** the information element with its quality (kind siq, diq, vti_qds, bsi_qds, nva_qds, sva_qds, r32_qds or bcr, after `type`) */
  element: ElementValue;
  /** the interrogation group 1-16 the point also answers in; 0: only the station interrogation */
  group: number;
  /** when the unit read the event from the PLC (epoch ms, the unit's clock): the CP56Time2a of the spontaneous ASDU */
  at: number;
}

/** A command of a control station, as the PLC side writes it into the command buffer (an execute; a select stays in the station). */
export interface PlcCommand {
  /** the request number the PLC echoes (1-65535, never 0) */
  seq: number;
  /** the type identification as received (45-51, 58-64) */
  type: number;
  ioa: number;
  /** the element as received (kind sco, dco, rco, nva_qos, sva_qos, r32_qos or bsi) */
  element: ElementValue;
  /** the command's time tag (58-64), epoch ms; undefined without one */
  at?: number;
  originator: number;
  /** which connection entry (redundancy group, 0-3) it came from */
  group: number;
}

/** What the PLC answered to a command: accepted (ACTCON positive), refused (ACTCON negative), done (ACTTERM). */
export type PlcCommandAnswer =
  | { seq: number; kind: 'accepted' }
  | { seq: number; kind: 'refused'; reason: PlcRefusal }
  | { seq: number; kind: 'done' }
  /** the PLC did not answer within the connection's `timeout`, or the link to it is down */
  | { seq: number; kind: 'no_answer' };

/** Why the PLC refused a command (the result word of the command buffer). */
export type PlcRefusal = 'unknown_ioa' | 'not_now' | 'out_of_range' | 'other';
