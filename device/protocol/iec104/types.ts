// The type identifications of IEC 60870-5-101/104 in one table: the ASDU codec, the station's
// runtime, the interoperability list of docs/iec104.md (clause 9) and the library zip's JSON are
// all read from here. `element` names the information element codec (elements.ts), `size` is the
// octets of one information element including its time tag (without the IOA); `time` says which
// time tag follows the element. `support`: 'yes' the unit serves the type; 'no' a 104 type the unit
// does not serve; 'not_in_104' a type the 104 companion standard does not use (CP24Time2a types,
// C_TS_NA_1, C_CD_NA_1), listed because the interoperability list marks every type.

import type { ElementKind } from './elements.ts';

export type Direction = 'monitor' | 'control' | 'system_monitor' | 'system_control' | 'parameter' | 'file';
export type TimeTag = 'none' | 'cp24' | 'cp56';
export type Support = 'yes' | 'no' | 'not_in_104';

export interface TypeInfo {
  id: number;
  name: string;
  description: string;
  direction: Direction;
  element: ElementKind | null; // null: no codec (a type the unit does not serve)
  size: number;
  time: TimeTag;
  support: Support;
}

type Row = [id: number, name: string, description: string, element: ElementKind | null, size: number, time: TimeTag, support: Support];

const MONITOR: Row[] = [
  [1, 'M_SP_NA_1', 'Single-point information', 'siq', 1, 'none', 'yes'],
  [2, 'M_SP_TA_1', 'Single-point information with time tag', null, 4, 'cp24', 'not_in_104'],
  [3, 'M_DP_NA_1', 'Double-point information', 'diq', 1, 'none', 'yes'],
  [4, 'M_DP_TA_1', 'Double-point information with time tag', null, 4, 'cp24', 'not_in_104'],
  [5, 'M_ST_NA_1', 'Step position information', 'vti_qds', 2, 'none', 'yes'],
  [6, 'M_ST_TA_1', 'Step position information with time tag', null, 5, 'cp24', 'not_in_104'],
  [7, 'M_BO_NA_1', 'Bitstring of 32 bit', 'bsi_qds', 5, 'none', 'yes'],
  [8, 'M_BO_TA_1', 'Bitstring of 32 bit with time tag', null, 8, 'cp24', 'not_in_104'],
  [9, 'M_ME_NA_1', 'Measured value, normalized value', 'nva_qds', 3, 'none', 'yes'],
  [10, 'M_ME_TA_1', 'Measured value, normalized value with time tag', null, 6, 'cp24', 'not_in_104'],
  [11, 'M_ME_NB_1', 'Measured value, scaled value', 'sva_qds', 3, 'none', 'yes'],
  [12, 'M_ME_TB_1', 'Measured value, scaled value with time tag', null, 6, 'cp24', 'not_in_104'],
  [13, 'M_ME_NC_1', 'Measured value, short floating point number', 'r32_qds', 5, 'none', 'yes'],
  [14, 'M_ME_TC_1', 'Measured value, short floating point number with time tag', null, 8, 'cp24', 'not_in_104'],
  [15, 'M_IT_NA_1', 'Integrated totals', 'bcr', 5, 'none', 'yes'],
  [16, 'M_IT_TA_1', 'Integrated totals with time tag', null, 8, 'cp24', 'not_in_104'],
  [17, 'M_EP_TA_1', 'Event of protection equipment with time tag', null, 6, 'cp24', 'not_in_104'],
  [18, 'M_EP_TB_1', 'Packed start events of protection equipment with time tag', null, 7, 'cp24', 'not_in_104'],
  [19, 'M_EP_TC_1', 'Packed output circuit information of protection equipment with time tag', null, 7, 'cp24', 'not_in_104'],
  [20, 'M_PS_NA_1', 'Packed single-point information with status change detection', 'scd_qds', 5, 'none', 'yes'],
  [21, 'M_ME_ND_1', 'Measured value, normalized value without quality descriptor', 'nva', 2, 'none', 'yes'],
  [30, 'M_SP_TB_1', 'Single-point information with time tag CP56Time2a', 'siq', 8, 'cp56', 'yes'],
  [31, 'M_DP_TB_1', 'Double-point information with time tag CP56Time2a', 'diq', 8, 'cp56', 'yes'],
  [32, 'M_ST_TB_1', 'Step position information with time tag CP56Time2a', 'vti_qds', 9, 'cp56', 'yes'],
  [33, 'M_BO_TB_1', 'Bitstring of 32 bit with time tag CP56Time2a', 'bsi_qds', 12, 'cp56', 'yes'],
  [34, 'M_ME_TD_1', 'Measured value, normalized value with time tag CP56Time2a', 'nva_qds', 10, 'cp56', 'yes'],
  [35, 'M_ME_TE_1', 'Measured value, scaled value with time tag CP56Time2a', 'sva_qds', 10, 'cp56', 'yes'],
  [36, 'M_ME_TF_1', 'Measured value, short floating point number with time tag CP56Time2a', 'r32_qds', 12, 'cp56', 'yes'],
  [37, 'M_IT_TB_1', 'Integrated totals with time tag CP56Time2a', 'bcr', 12, 'cp56', 'yes'],
  [38, 'M_EP_TD_1', 'Event of protection equipment with time tag CP56Time2a', null, 10, 'cp56', 'no'],
  [39, 'M_EP_TE_1', 'Packed start events of protection equipment with time tag CP56Time2a', null, 11, 'cp56', 'no'],
  [40, 'M_EP_TF_1', 'Packed output circuit information of protection equipment with time tag CP56Time2a', null, 11, 'cp56', 'no'],
];

const CONTROL: Row[] = [
  [45, 'C_SC_NA_1', 'Single command', 'sco', 1, 'none', 'yes'],
  [46, 'C_DC_NA_1', 'Double command', 'dco', 1, 'none', 'yes'],
  [47, 'C_RC_NA_1', 'Regulating step command', 'rco', 1, 'none', 'yes'],
  [48, 'C_SE_NA_1', 'Set point command, normalized value', 'nva_qos', 3, 'none', 'yes'],
  [49, 'C_SE_NB_1', 'Set point command, scaled value', 'sva_qos', 3, 'none', 'yes'],
  [50, 'C_SE_NC_1', 'Set point command, short floating point number', 'r32_qos', 5, 'none', 'yes'],
  [51, 'C_BO_NA_1', 'Bitstring of 32 bit', 'bsi', 4, 'none', 'yes'],
  [58, 'C_SC_TA_1', 'Single command with time tag CP56Time2a', 'sco', 8, 'cp56', 'yes'],
  [59, 'C_DC_TA_1', 'Double command with time tag CP56Time2a', 'dco', 8, 'cp56', 'yes'],
  [60, 'C_RC_TA_1', 'Regulating step command with time tag CP56Time2a', 'rco', 8, 'cp56', 'yes'],
  [61, 'C_SE_TA_1', 'Set point command, normalized value with time tag CP56Time2a', 'nva_qos', 10, 'cp56', 'yes'],
  [62, 'C_SE_TB_1', 'Set point command, scaled value with time tag CP56Time2a', 'sva_qos', 10, 'cp56', 'yes'],
  [63, 'C_SE_TC_1', 'Set point command, short floating point number with time tag CP56Time2a', 'r32_qos', 12, 'cp56', 'yes'],
  [64, 'C_BO_TA_1', 'Bitstring of 32 bit with time tag CP56Time2a', 'bsi', 11, 'cp56', 'yes'],
];

const SYSTEM_MONITOR: Row[] = [[70, 'M_EI_NA_1', 'End of initialization', 'coi', 1, 'none', 'yes']];

const SYSTEM_CONTROL: Row[] = [
  [100, 'C_IC_NA_1', 'Interrogation command', 'qoi', 1, 'none', 'yes'],
  [101, 'C_CI_NA_1', 'Counter interrogation command', 'qcc', 1, 'none', 'yes'],
  [102, 'C_RD_NA_1', 'Read command', 'none', 0, 'none', 'yes'],
  [103, 'C_CS_NA_1', 'Clock synchronization command', 'cp56', 7, 'none', 'yes'],
  [104, 'C_TS_NA_1', 'Test command', null, 2, 'none', 'not_in_104'],
  [105, 'C_RP_NA_1', 'Reset process command', 'qrp', 1, 'none', 'yes'],
  [106, 'C_CD_NA_1', 'Delay acquisition command', null, 2, 'none', 'not_in_104'],
  [107, 'C_TS_TA_1', 'Test command with time tag CP56Time2a', 'tsc', 9, 'cp56', 'yes'],
];

const PARAMETER: Row[] = [
  [110, 'P_ME_NA_1', 'Parameter of measured value, normalized value', null, 3, 'none', 'no'],
  [111, 'P_ME_NB_1', 'Parameter of measured value, scaled value', null, 3, 'none', 'no'],
  [112, 'P_ME_NC_1', 'Parameter of measured value, short floating point number', null, 5, 'none', 'no'],
  [113, 'P_AC_NA_1', 'Parameter activation', null, 1, 'none', 'no'],
];

const FILE: Row[] = [
  [120, 'F_FR_NA_1', 'File ready', null, 6, 'none', 'no'],
  [121, 'F_SR_NA_1', 'Section ready', null, 7, 'none', 'no'],
  [122, 'F_SC_NA_1', 'Call directory, select file, call file, call section', null, 4, 'none', 'no'],
  [123, 'F_LS_NA_1', 'Last section, last segment', null, 5, 'none', 'no'],
  [124, 'F_AF_NA_1', 'Ack file, ack section', null, 4, 'none', 'no'],
  [125, 'F_SG_NA_1', 'Segment', null, 4, 'none', 'no'], // plus the segment's octets
  [126, 'F_DR_TA_1', 'Directory', null, 13, 'cp56', 'no'],
  [127, 'F_SC_NB_1', 'Query log, request archive file', null, 16, 'none', 'no'],
];

const GROUPS: [Direction, Row[]][] = [
  ['monitor', MONITOR],
  ['control', CONTROL],
  ['system_monitor', SYSTEM_MONITOR],
  ['system_control', SYSTEM_CONTROL],
  ['parameter', PARAMETER],
  ['file', FILE],
];

export const TYPES: readonly TypeInfo[] = GROUPS.flatMap(([direction, rows]) =>
  rows.map(([id, name, description, element, size, time, support]) => ({ id, name, description, direction, element, size, time, support })),
);

const BY_ID = new Map(TYPES.map((t) => [t.id, t]));
const BY_NAME = new Map(TYPES.map((t) => [t.name, t]));

export const typeInfo = (id: number): TypeInfo | undefined => BY_ID.get(id);
/** A type the unit serves (has a codec); undefined for every other id. */
export function servedType(id: number): (TypeInfo & { element: ElementKind }) | undefined {
  const t = BY_ID.get(id);
  return t && t.support === 'yes' && t.element !== null ? (t as TypeInfo & { element: ElementKind }) : undefined;
}
/** The id of a type by its standard name; throws on a name not in the table (a program error). */
export function typeId(name: string): number {
  const t = BY_NAME.get(name);
  if (!t) throw new RangeError(`unknown type name ${name}`);
  return t.id;
}
