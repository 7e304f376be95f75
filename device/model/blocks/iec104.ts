// The PLC buffers of one IEC 60870-5-104 connection entry (pew_60870 `connections`, one entry =
// one redundancy group; docs/iec104.md "The PLC side"), as data, and their codecs. All words lie in
// the entry's `area` (DT, FL, LD):
//   - the monitor ring at plc_buffer_m (plc_buffer_m_depth words): word 0 the write index W the PLC
//     fills next, then records of RECORD_WORDS words; the PLC writes events, the unit reads them;
//   - the read index at plc_buffer_rbm (1 word): R, the slot the unit reads next;
//   - the command buffer at plc_buffer_c (CONTROL_BUFFER words): one command at a time, the unit
//     writes it (the request number last), the PLC answers in its own words.
// The codecs are pure: decodeRecord never throws (a record is whatever the PLC left in memory),
// encodeRecord and encodeCommand throw a RangeError on a value the layout cannot carry (a caller's
// mistake). The engine (device/iec104/plc-side.ts), the simulator's PLC program, `npm run plc --
// iec`, docs/services.md and the tests read the layout from here.

import type { EventType, MonitorPoint, PlcCommand, PlcCommandAnswer, PlcRefusal } from '../../iec104/points.ts';
import type { ElementValue } from '../../protocol/iec104/elements.ts';
import { CONTROL_BUFFER, MONITOR_RECORD_WORDS } from '../sections/iec.ts';
import type { BlockWord } from './convention.ts';

export const RECORD_WORDS = MONITOR_RECORD_WORDS;
export const RING_HEAD_WORDS = 1;
export const COMMAND_WORDS = CONTROL_BUFFER;

/** The monitor types of a record, by their type identification (points.ts EVENT_TYPES). */
export const RECORD_TYPES = { single: 1, double: 3, step: 5, bitstring: 7, normalized: 9, scaled: 11, float: 13, totals: 15 } as const;
export type RecordTypeName = keyof typeof RECORD_TYPES;

/** The command types the command buffer carries (without and with time tag). */
export const COMMAND_TYPES = {
  single: [45, 58],
  double: [46, 59],
  regulating: [47, 60],
  normalized: [48, 61],
  scaled: [49, 62],
  float: [50, 63],
  bitstring: [51, 64],
} as const;

/** The result word of the command buffer (w2), written by the PLC. */
export const COMMAND_RESULT = { accepted: 0, unknown_ioa: 1, not_now: 2, out_of_range: 3 } as const;

const QUALITY_TEXT = 'quality octet as on the wire: IV 0x80, NT 0x40, SB 0x20, BL 0x10, OV 0x01 (not for single and double points)';

/** The ring's head: word 0 of plc_buffer_m. */
export const RING_HEAD: readonly BlockWord[] = [
  { offset: 0, name: 'write_index', dir: 'plc', meaning: 'W: the slot the PLC fills next (0 to capacity - 1); the PLC advances it after writing the record' },
];

/** One record of the ring: slot s sits at plc_buffer_m + 1 + 5 s. */
export const RING_RECORD: readonly BlockWord[] = [
  {
    offset: 0,
    name: 'type_group',
    dir: 'plc',
    meaning: 'low byte: type identification; high byte: interrogation group 1-16 the point also answers in (0: station interrogation only)',
    values: RECORD_TYPES,
  },
  { offset: 1, name: 'ioa_low', dir: 'plc', meaning: 'information object address, bits 0-15' },
  {
    offset: 2,
    name: 'ioa_high_quality',
    dir: 'plc',
    meaning: `low byte: information object address bits 16-23; high byte: the ${QUALITY_TEXT}; for integrated totals the counter's last octet: sequence 0-31, CY 0x20, CA 0x40, IV 0x80`,
  },
  {
    offset: 3,
    name: 'value_low',
    dir: 'plc',
    meaning:
      'value bits 0-15: single 0/1, double 0-3, step position int16 -64..63, normalized and scaled int16, float IEEE 754 single (low word), bitstring and integrated totals (low word)',
  },
  {
    offset: 4,
    name: 'value_high',
    dir: 'plc',
    meaning:
      'value bits 16-31: float, bitstring and integrated totals (high word); step position: bit 0 transient; normalized and scaled: 0 or 0xFFFF (sign); otherwise 0',
  },
];

/** The read index: the one word at plc_buffer_rbm. */
export const READ_INDEX: readonly BlockWord[] = [
  {
    offset: 0,
    name: 'read_index',
    dir: 'unit',
    meaning: 'R: the slot the unit reads next; the PLC may fill slot W only while (W + 1) mod capacity ≠ R (otherwise the ring is full)',
  },
];

/** The command buffer at plc_buffer_c (CONTROL_BUFFER words). */
export const COMMAND_BUFFER: readonly BlockWord[] = [
  {
    offset: 0,
    name: 'request',
    dir: 'unit',
    meaning: 'request number 1-65535 (never 0), written last, after the rest of the command: a new number is a new command',
  },
  { offset: 1, name: 'answer', dir: 'plc', meaning: 'the request number, once the PLC has decided (the result word is then valid)' },
  { offset: 2, name: 'result', dir: 'plc', meaning: 'the decision: 0 accepted, anything else refused', values: COMMAND_RESULT },
  { offset: 3, name: 'done', dir: 'plc', meaning: 'the request number, once the accepted action is finished (activation termination)' },
  { offset: 4, name: 'type', dir: 'unit', meaning: 'type identification 45-51, 58-64 (with time tag)' },
  { offset: 5, name: 'ioa_low', dir: 'unit', meaning: 'information object address, bits 0-15' },
  { offset: 6, name: 'ioa_high', dir: 'unit', meaning: 'information object address, bits 16-23' },
  {
    offset: 7,
    name: 'qualifier',
    dir: 'unit',
    meaning: 'QU (0-31) of single, double and regulating step commands; QL (0-127) of set-points; 0 for a bitstring',
  },
  {
    offset: 8,
    name: 'value_low',
    dir: 'unit',
    meaning: 'value bits 0-15: single 0/1, double 1 off 2 on, regulating step 1 lower 2 higher, normalized and scaled int16, float and bitstring low word',
  },
  {
    offset: 9,
    name: 'value_high',
    dir: 'unit',
    meaning: 'value bits 16-31: float and bitstring high word; normalized and scaled 0 or 0xFFFF (sign); otherwise 0',
  },
  {
    offset: 10,
    name: 'time_ms',
    dir: 'unit',
    meaning: "the command's time tag (UTC): milliseconds of the minute 0-59999; all four words 0 without a time tag",
  },
  { offset: 11, name: 'time_minute_hour', dir: 'unit', meaning: 'low byte minute 0-59, high byte hour 0-23' },
  { offset: 12, name: 'time_day_month', dir: 'unit', meaning: 'low byte day 1-31, high byte month 1-12' },
  { offset: 13, name: 'time_year', dir: 'unit', meaning: 'year 0-99 (2000-2099)' },
  { offset: 14, name: 'originator', dir: 'unit', meaning: "the control station's originator address 0-255" },
  { offset: 15, name: 'connection', dir: 'unit', meaning: 'the connection entry (redundancy group) 0-3 the command came from' },
  ...Array.from({ length: COMMAND_WORDS - 16 }, (_, i) => ({ offset: 16 + i, name: `reserved_${16 + i}`, dir: 'unit' as const, meaning: 'written 0' })),
];

export interface IecBuffer {
  /** the name in docs/services.md's generated part and in the library */
  name: string;
  /** the connection entry's field holding the start */
  field: 'plc_buffer_m' | 'plc_buffer_rbm' | 'plc_buffer_c';
  /** the name of the first word in the word column (m+0, s+3, …) */
  base: string;
  /** where `base` is, from the field's start */
  at: string;
  words: readonly BlockWord[];
}

export const IEC_BUFFERS: readonly IecBuffer[] = [
  { name: 'iec104_ring_head', field: 'plc_buffer_m', base: 'm', at: 'm = plc_buffer_m', words: RING_HEAD },
  { name: 'iec104_ring_record', field: 'plc_buffer_m', base: 's', at: 's = plc_buffer_m + 1 + 5 × slot', words: RING_RECORD },
  { name: 'iec104_read_index', field: 'plc_buffer_rbm', base: 'r', at: 'r = plc_buffer_rbm', words: READ_INDEX },
  { name: 'iec104_command', field: 'plc_buffer_c', base: 'c', at: 'c = plc_buffer_c', words: COMMAND_BUFFER },
];

// ---- the ring ---------------------------------------------------------------------------------

/** How many records a ring of `depth` words holds (0 below one record). */
export const ringCapacity = (depth: number): number => Math.max(0, Math.floor((depth - RING_HEAD_WORDS) / RECORD_WORDS));

/** The word offset of slot `slot` from plc_buffer_m. */
export const slotOffset = (slot: number): number => RING_HEAD_WORDS + slot * RECORD_WORDS;

/** The slots R..W-1 (wrapping) as at most two runs of neighbouring slots: [first slot, count]. */
export function pendingRuns(read: number, write: number, capacity: number): [number, number][] {
  if (read === write) return [];
  if (read < write) return [[read, write - read]];
  return write === 0
    ? [[read, capacity - read]]
    : [
        [read, capacity - read],
        [0, write],
      ];
}

/** How many records wait between R and W. */
export const pendingCount = (read: number, write: number, capacity: number): number => (write - read + capacity) % capacity;

/** Whether the PLC may fill slot W (the ring is not full). */
export const ringHasRoom = (read: number, write: number, capacity: number): boolean => (write + 1) % capacity !== read;

// ---- records ------------------------------------------------------------------------------------

export type RecordErrorCode = 'short_record' | 'bad_word' | 'unknown_type' | 'bad_group' | 'bad_ioa' | 'bad_quality' | 'bad_value';
export type RecordResult = { ok: true; value: MonitorPoint } | { ok: false; error: { code: RecordErrorCode; message: string } };

const RECORD_TYPES_BY_ID: Readonly<Record<number, RecordTypeName>> = Object.fromEntries(Object.entries(RECORD_TYPES).map(([k, n]) => [n, k as RecordTypeName]));
const SIQ_MASK = 0xf0; // IV NT SB BL
const QDS_MASK = 0xf1; // IV NT SB BL OV

const bad = (code: RecordErrorCode, message: string): RecordResult => ({ ok: false, error: { code, message } });
const int16 = (w: number): number => (w << 16) >> 16;
const isWord = (w: unknown): w is number => typeof w === 'number' && Number.isInteger(w) && w >= 0 && w <= 0xffff;

function floatOfWords(low: number, high: number): number {
  const b = new DataView(new ArrayBuffer(4));
  b.setUint16(0, low, true);
  b.setUint16(2, high, true);
  return b.getFloat32(0, true);
}

function wordsOfFloat(x: number): [number, number] {
  const b = new DataView(new ArrayBuffer(4));
  b.setFloat32(0, x, true);
  return [b.getUint16(0, true), b.getUint16(2, true)];
}

/** An int16 in w3 with w4 its sign extension (0, or 0xFFFF for a negative value); otherwise undefined. */
function int16Of(w3: number, w4: number): number | undefined {
  const v = int16(w3);
  return w4 === (v < 0 ? 0xffff : 0) ? v : undefined;
}

function elementOf(type: number, q: number, w3: number, w4: number): ElementValue | string {
  const v32 = (w3 | (w4 << 16)) >>> 0;
  const qds = () => (q & ~QDS_MASK ? `quality 0x${q.toString(16)} has reserved bits set` : undefined);
  const siq = () => (q & ~SIQ_MASK ? `quality 0x${q.toString(16)} has bits a single or double point cannot carry` : undefined);
  switch (type) {
    case 1:
      return siq() ?? (v32 > 1 ? `single point ${v32} is not 0 or 1` : { kind: 'siq', value: v32 === 1, quality: q });
    case 3:
      return siq() ?? (v32 > 3 ? `double point ${v32} is not 0-3` : { kind: 'diq', value: v32, quality: q });
    case 5: {
      const v = int16(w3);
      if (v < -64 || v > 63) return `step position ${v} is not in -64..63`;
      if (w4 > 1) return `step position word 4 is ${w4}: only bit 0 (transient) may be set`;
      return qds() ?? { kind: 'vti_qds', value: v, transient: w4 === 1, quality: q };
    }
    case 7:
      return qds() ?? { kind: 'bsi_qds', value: v32, quality: q };
    case 9:
    case 11: {
      const v = int16Of(w3, w4);
      if (v === undefined) return `value words ${w3}, ${w4} are no int16 (word 4 must be 0, or 0xFFFF for a negative value)`;
      return qds() ?? { kind: type === 9 ? 'nva_qds' : 'sva_qds', value: v, quality: q };
    }
    case 13: {
      const v = floatOfWords(w3, w4);
      if (!Number.isFinite(v)) return `float value ${v} is not a number the station can send`;
      return qds() ?? { kind: 'r32_qds', value: v, quality: q };
    }
    case 15:
      return { kind: 'bcr', value: v32 | 0, sequence: q & 0x1f, carry: (q & 0x20) !== 0, adjusted: (q & 0x40) !== 0, invalid: (q & 0x80) !== 0 };
    default:
      return `type ${type} is no event type`;
  }
}

/**
 * One record of the ring (words[at..at+4]) as a monitor point read at `now`; a typed error for a
 * record the station cannot send. Never throws and never reads past `at + 4`.
 */
export function decodeRecord(words: readonly number[], at: number, now: number): RecordResult {
  if (!Number.isInteger(at) || at < 0 || at + RECORD_WORDS > words.length) return bad('short_record', 'fewer than 5 words');
  const w = words.slice(at, at + RECORD_WORDS);
  if (!w.every(isWord)) return bad('bad_word', 'a word is not 0-65535');
  const [w0, w1, w2, w3, w4] = w as [number, number, number, number, number];
  const type = w0 & 0xff;
  const group = w0 >> 8;
  if (!(type in RECORD_TYPES_BY_ID)) return bad('unknown_type', `type ${type} is no event type`);
  if (group > 16) return bad('bad_group', `group ${group} is not 0-16`);
  const ioa = w1 | ((w2 & 0xff) << 16);
  if (ioa === 0) return bad('bad_ioa', 'information object address 0');
  const element = elementOf(type, w2 >> 8, w3, w4);
  if (typeof element === 'string') return bad(element.startsWith('quality') ? 'bad_quality' : 'bad_value', element);
  return { ok: true, value: { type: type as EventType, ioa, element, group, at: now } };
}

/** The element kind each event type carries. */
export const RECORD_KIND: Readonly<Record<EventType, ElementValue['kind']>> = {
  1: 'siq',
  3: 'diq',
  5: 'vti_qds',
  7: 'bsi_qds',
  9: 'nva_qds',
  11: 'sva_qds',
  13: 'r32_qds',
  15: 'bcr',
};

function range(ok: boolean, message: string): asserts ok {
  if (!ok) throw new RangeError(message);
}
const inInt = (n: number, min: number, max: number) => Number.isInteger(n) && n >= min && n <= max;

/** The five words of a record (the simulator and tests write events with it); RangeError on a point the layout cannot carry. */
export function encodeRecord(p: Pick<MonitorPoint, 'type' | 'ioa' | 'group' | 'element'>): number[] {
  range(RECORD_KIND[p.type] === p.element.kind, `type ${p.type} does not carry a ${p.element.kind} element`);
  range(inInt(p.ioa, 1, 0xffffff), `IOA ${p.ioa} not in 1-16777215`);
  range(inInt(p.group, 0, 16), `group ${p.group} not in 0-16`);
  const e = p.element;
  let q = 0;
  let value: [number, number];
  const u32 = (n: number): [number, number] => [n & 0xffff, (n >>> 16) & 0xffff];
  switch (e.kind) {
    case 'siq':
    case 'diq':
      range(inInt(e.quality, 0, 255) && (e.quality & ~SIQ_MASK) === 0, `quality 0x${e.quality.toString(16)} not IV/NT/SB/BL`);
      range(e.kind === 'siq' || inInt(e.value, 0, 3), 'double point not in 0-3');
      q = e.quality;
      value = [Number(e.value), 0];
      break;
    case 'vti_qds':
      range(inInt(e.value, -64, 63), `step position ${e.value} not in -64..63`);
      q = e.quality;
      value = [e.value & 0xffff, e.transient ? 1 : 0];
      break;
    case 'bsi_qds':
      range(inInt(e.value, 0, 0xffffffff), 'bitstring not 32 bits');
      q = e.quality;
      value = u32(e.value);
      break;
    case 'nva_qds':
    case 'sva_qds':
      range(inInt(e.value, -32768, 32767), `${e.value} is no int16`);
      q = e.quality;
      value = u32(e.value);
      break;
    case 'r32_qds':
      range(Number.isFinite(e.value), 'float value not finite');
      q = e.quality;
      value = wordsOfFloat(e.value);
      break;
    case 'bcr':
      range(inInt(e.value, -0x80000000, 0x7fffffff) && inInt(e.sequence, 0, 31), 'counter not int32 or sequence not 0-31');
      q = e.sequence | (e.carry ? 0x20 : 0) | (e.adjusted ? 0x40 : 0) | (e.invalid ? 0x80 : 0);
      value = u32(e.value);
      break;
    default:
      throw new RangeError(`${e.kind} is no monitor element`);
  }
  if (e.kind !== 'bcr') range(inInt(q, 0, 255) && (q & ~QDS_MASK) === 0, `quality 0x${q.toString(16)} has reserved bits`);
  return [p.type | (p.group << 8), p.ioa & 0xffff, (p.ioa >>> 16) | (q << 8), value[0], value[1]];
}

// ---- commands -----------------------------------------------------------------------------------

/** The element kind each command type carries. */
export const COMMAND_KIND: Readonly<Record<number, ElementValue['kind']>> = {
  45: 'sco',
  46: 'dco',
  47: 'rco',
  48: 'nva_qos',
  49: 'sva_qos',
  50: 'r32_qos',
  51: 'bsi',
  58: 'sco',
  59: 'dco',
  60: 'rco',
  61: 'nva_qos',
  62: 'sva_qos',
  63: 'r32_qos',
  64: 'bsi',
};

/** The time tag words w10-w13 of an epoch time (UTC fields). */
function timeWords(at: number): number[] {
  const d = new Date(at);
  range(Number.isFinite(at) && d.getUTCFullYear() >= 2000 && d.getUTCFullYear() <= 2099, `time tag ${at} not in 2000-2099`);
  return [
    d.getUTCSeconds() * 1000 + d.getUTCMilliseconds(),
    d.getUTCMinutes() | (d.getUTCHours() << 8),
    d.getUTCDate() | ((d.getUTCMonth() + 1) << 8),
    d.getUTCFullYear() - 2000,
  ];
}

/**
 * The 26 words of the command buffer for `cmd`, w1-w3 (the PLC's answer words) cleared. The unit
 * writes words 1-25 first and the request number (word 0) after them. RangeError on a command the
 * layout cannot carry.
 */
export function encodeCommand(cmd: PlcCommand): number[] {
  const kind = COMMAND_KIND[cmd.type];
  range(kind !== undefined, `type ${cmd.type} is no command type`);
  range(kind === cmd.element.kind, `type ${cmd.type} does not carry a ${cmd.element.kind} element`);
  range(inInt(cmd.seq, 1, 0xffff), `request number ${cmd.seq} not in 1-65535`);
  range(inInt(cmd.ioa, 1, 0xffffff), `IOA ${cmd.ioa} not in 1-16777215`);
  range(inInt(cmd.originator, 0, 255) && inInt(cmd.group, 0, 3), 'originator or connection entry out of range');
  const e = cmd.element;
  let qualifier = 0;
  let value = 0;
  switch (e.kind) {
    case 'sco':
      qualifier = e.qualifier;
      value = e.value ? 1 : 0;
      break;
    case 'dco':
    case 'rco':
      range(inInt(e.value, 0, 3), `${e.kind} value ${e.value} not in 0-3`);
      qualifier = e.qualifier;
      value = e.value;
      break;
    case 'nva_qos':
    case 'sva_qos':
      range(inInt(e.value, -32768, 32767), `${e.value} is no int16`);
      qualifier = e.ql;
      value = e.value;
      break;
    case 'r32_qos': {
      qualifier = e.ql;
      const [lo, hi] = wordsOfFloat(e.value);
      value = (lo | (hi << 16)) >>> 0;
      break;
    }
    case 'bsi':
      range(inInt(e.value, 0, 0xffffffff), 'bitstring not 32 bits');
      value = e.value;
      break;
    default:
      throw new RangeError(`${e.kind} is no command element`);
  }
  range(inInt(qualifier, 0, 127), `qualifier ${qualifier} not in 0-127`);
  const time = cmd.at === undefined ? [0, 0, 0, 0] : timeWords(cmd.at);
  range(cmd.at === undefined || cmd.type >= 58, `type ${cmd.type} carries no time tag`);
  const words = [
    cmd.seq,
    0,
    0,
    0,
    cmd.type,
    cmd.ioa & 0xffff,
    cmd.ioa >>> 16,
    qualifier,
    value & 0xffff,
    (value >>> 16) & 0xffff,
    ...time,
    cmd.originator,
    cmd.group,
  ];
  while (words.length < COMMAND_WORDS) words.push(0);
  return words;
}

/** A command read back from the 26 words (the simulator's PLC and the tests); undefined when the words hold none. */
export interface CommandWords {
  request: number;
  type: number;
  ioa: number;
  qualifier: number;
  /** the 32-bit value as the PLC sees it: w8 | w9 << 16, unsigned */
  value: number;
  /** the time tag (epoch ms, UTC), when the words carry one */
  at?: number;
  originator: number;
  connection: number;
}

export function decodeCommandWords(words: readonly number[]): CommandWords | undefined {
  if (words.length < COMMAND_WORDS || !words.slice(0, COMMAND_WORDS).every(isWord)) return undefined;
  const w = (i: number) => words[i] as number;
  if (w(0) === 0 || COMMAND_KIND[w(4)] === undefined) return undefined;
  const timed = w(10) !== 0 || w(11) !== 0 || w(12) !== 0 || w(13) !== 0;
  const at = timed ? Date.UTC(2000 + w(13), (w(12) >> 8) - 1, w(12) & 0xff, w(11) >> 8, w(11) & 0xff, 0, w(10)) : undefined;
  return {
    request: w(0),
    type: w(4),
    ioa: w(5) | ((w(6) & 0xff) << 16),
    qualifier: w(7),
    value: (w(8) | (w(9) << 16)) >>> 0,
    ...(at !== undefined && Number.isFinite(at) ? { at } : {}),
    originator: w(14),
    connection: w(15),
  };
}

/** The refusal a result word other than 0 stands for. */
export function refusalOf(result: number): PlcRefusal {
  return result === COMMAND_RESULT.unknown_ioa
    ? 'unknown_ioa'
    : result === COMMAND_RESULT.not_now
      ? 'not_now'
      : result === COMMAND_RESULT.out_of_range
        ? 'out_of_range'
        : 'other';
}

/** The result word for a refusal (the simulator's PLC writes it). */
export const RESULT_OF_REFUSAL: Readonly<Record<PlcRefusal, number>> = { unknown_ioa: 1, not_now: 2, out_of_range: 3, other: 255 };

/**
 * What the answer words (w1 answer, w2 result, w3 done: `words` from offset 0 of the buffer) say
 * about request `seq`: nothing yet, refused, accepted, or accepted and done. Never throws.
 */
export function readAnswer(words: readonly number[], seq: number): PlcCommandAnswer | undefined {
  const answer = words[1];
  const result = words[2];
  const done = words[3];
  if (answer !== seq || !isWord(result)) return undefined;
  if (result !== COMMAND_RESULT.accepted) return { seq, kind: 'refused', reason: refusalOf(result) };
  return done === seq ? { seq, kind: 'done' } : { seq, kind: 'accepted' };
}

/** The buffers as JSON for programs (the library example): name, the entry's field, where, words. */
export function iecBuffersJson(): string {
  const words = (b: IecBuffer) =>
    b.words.map((w) => ({ offset: w.offset, name: w.name, written_by: w.dir, meaning: w.meaning, ...(w.values ? { values: w.values } : {}) }));
  return `${JSON.stringify(
    {
      section: 'pew_60870',
      per: 'connection entry (connections[0-3]), in its area (DT, FL, LD)',
      record_words: RECORD_WORDS,
      capacity: 'floor((plc_buffer_m_depth - 1) / 5)',
      command_results: COMMAND_RESULT,
      buffers: IEC_BUFFERS.map((b) => ({ name: b.name, field: b.field, at: b.at, words: words(b) })),
    },
    null,
    2,
  )}\n`;
}
