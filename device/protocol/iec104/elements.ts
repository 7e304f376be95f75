// Information elements of IEC 60870-5-101 clause 7.2.6, one codec per element kind of the type table
// (types.ts). Quality is one octet of QDS bits: OV 0x01, BL 0x10, SB 0x20, NT 0x40, IV 0x80 (SIQ and
// DIQ carry BL/SB/NT/IV in the same bits; OV is not part of them). Values are the raw numbers of the
// wire: a normalized value is its int16 (value / 32768 is the fraction, see normalizedToRaw).
// Decoders read exactly `size` octets from `at` (the ASDU codec has checked they are there) and
// never fail; encoders throw a RangeError on a value the element cannot carry.

import { check, isInt } from '../result.ts';
import { CP56_LENGTH, type Cp56, decodeCp56, encodeCp56 } from './cp56.ts';

export const QUALITY = { OV: 0x01, BL: 0x10, SB: 0x20, NT: 0x40, IV: 0x80 } as const;
const QDS_MASK = 0xf1;
const SIQ_MASK = 0xf0;

export type ElementValue =
  | { kind: 'siq'; value: boolean; quality: number }
  | { kind: 'diq'; value: number; quality: number } // 0 intermediate, 1 off, 2 on, 3 indeterminate
  | { kind: 'vti_qds'; value: number; transient: boolean; quality: number } // -64..63
  | { kind: 'bsi_qds'; value: number; quality: number } // 0..2^32-1
  | { kind: 'nva_qds'; value: number; quality: number } // int16
  | { kind: 'sva_qds'; value: number; quality: number } // int16
  | { kind: 'r32_qds'; value: number; quality: number } // IEEE 754 single
  | { kind: 'bcr'; value: number; sequence: number; carry: boolean; adjusted: boolean; invalid: boolean } // int32, sequence 0-31
  | { kind: 'scd_qds'; status: number; change: number; quality: number } // 16 bits each
  | { kind: 'nva'; value: number } // int16
  | { kind: 'sco'; value: boolean; qualifier: number; select: boolean } // qualifier (QU) 0-31
  | { kind: 'dco'; value: number; qualifier: number; select: boolean } // 0-3
  | { kind: 'rco'; value: number; qualifier: number; select: boolean } // 0-3: 1 lower, 2 higher
  | { kind: 'nva_qos'; value: number; ql: number; select: boolean } // ql 0-127
  | { kind: 'sva_qos'; value: number; ql: number; select: boolean }
  | { kind: 'r32_qos'; value: number; ql: number; select: boolean }
  | { kind: 'bsi'; value: number }
  | { kind: 'coi'; cause: number; localChange: boolean } // cause 0-127: 0 power on, 1 manual reset, 2 remote reset
  | { kind: 'qoi'; qoi: number } // 20 station, 21-36 groups 1-16
  | { kind: 'qcc'; request: number; freeze: number } // request 0-63 (5 general, 1-4 groups), freeze 0-3
  | { kind: 'none' }
  | { kind: 'cp56'; time: Cp56 }
  | { kind: 'qrp'; qrp: number } // 1 general reset, 2 reset of the event buffer
  | { kind: 'tsc'; counter: number }; // 0-65535

export type ElementKind = ElementValue['kind'];
type Of<K extends ElementKind> = Extract<ElementValue, { kind: K }>;

interface Codec<K extends ElementKind> {
  size: number;
  encode(v: Of<K>, b: Uint8Array, at: number): void;
  decode(b: Uint8Array, at: number): Of<K>;
}

const u8 = (b: Uint8Array, at: number) => b[at] as number;
const u16 = (b: Uint8Array, at: number) => u8(b, at) | (u8(b, at + 1) << 8);
const i16 = (b: Uint8Array, at: number) => (u16(b, at) << 16) >> 16;
const u32 = (b: Uint8Array, at: number) => (u16(b, at) | (u16(b, at + 2) << 16)) >>> 0;
const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
function put16(b: Uint8Array, at: number, v: number) {
  b[at] = v & 0xff;
  b[at + 1] = (v >> 8) & 0xff;
}
function put32(b: Uint8Array, at: number, v: number) {
  put16(b, at, v & 0xffff);
  put16(b, at + 2, (v >>> 16) & 0xffff);
}
const quality = (q: number, mask: number) => {
  check(isInt(q, 0, 255) && (q & ~mask) === 0, `quality 0x${q.toString(16)} has bits outside 0x${mask.toString(16)}`);
  return q;
};
const int16 = (v: number) => check(isInt(v, -32768, 32767), `${v} is no int16`);
const selectQl = (ql: number, select: boolean) => {
  check(isInt(ql, 0, 127), `QL ${ql} not in 0-127`);
  return ql | (select ? 0x80 : 0);
};

function command<K extends 'sco' | 'dco' | 'rco'>(kind: K, max: number): Codec<K> {
  return {
    size: 1,
    encode(x, b, at) {
      const v = x as Of<'sco' | 'dco' | 'rco'>;
      check(isInt(Number(v.value), 0, max) && isInt(v.qualifier, 0, 31), `${kind} value or qualifier out of range`);
      b[at] = Number(v.value) | (v.qualifier << 2) | (v.select ? 0x80 : 0);
    },
    decode(b, at) {
      const x = u8(b, at);
      const value = kind === 'sco' ? (x & 1) === 1 : x & 3;
      return { kind, value, qualifier: (x >> 2) & 0x1f, select: (x & 0x80) !== 0 } as Of<K>;
    },
  };
}

function setpoint<K extends 'nva_qos' | 'sva_qos'>(kind: K): Codec<K> {
  return {
    size: 3,
    encode(x, b, at) {
      const v = x as Of<'nva_qos' | 'sva_qos'>;
      int16(v.value);
      put16(b, at, v.value);
      b[at + 2] = selectQl(v.ql, v.select);
    },
    decode: (b, at) => ({ kind, value: i16(b, at), ql: u8(b, at + 2) & 0x7f, select: (u8(b, at + 2) & 0x80) !== 0 }) as Of<K>,
  };
}

function measured<K extends 'nva_qds' | 'sva_qds'>(kind: K): Codec<K> {
  return {
    size: 3,
    encode(x, b, at) {
      const v = x as Of<'nva_qds' | 'sva_qds'>;
      int16(v.value);
      put16(b, at, v.value);
      b[at + 2] = quality(v.quality, QDS_MASK);
    },
    decode: (b, at) => ({ kind, value: i16(b, at), quality: u8(b, at + 2) & QDS_MASK }) as Of<K>,
  };
}

const CODECS: { [K in ElementKind]: Codec<K> } = {
  siq: {
    size: 1,
    encode: (v, b, at) => void (b[at] = (v.value ? 1 : 0) | quality(v.quality, SIQ_MASK)),
    decode: (b, at) => ({ kind: 'siq', value: (u8(b, at) & 1) === 1, quality: u8(b, at) & SIQ_MASK }),
  },
  diq: {
    size: 1,
    encode(v, b, at) {
      check(isInt(v.value, 0, 3), `double point ${v.value} not in 0-3`);
      b[at] = v.value | quality(v.quality, SIQ_MASK);
    },
    decode: (b, at) => ({ kind: 'diq', value: u8(b, at) & 3, quality: u8(b, at) & SIQ_MASK }),
  },
  vti_qds: {
    size: 2,
    encode(v, b, at) {
      check(isInt(v.value, -64, 63), `step position ${v.value} not in -64..63`);
      b[at] = (v.value & 0x7f) | (v.transient ? 0x80 : 0);
      b[at + 1] = quality(v.quality, QDS_MASK);
    },
    decode: (b, at) => ({ kind: 'vti_qds', value: ((u8(b, at) & 0x7f) << 25) >> 25, transient: (u8(b, at) & 0x80) !== 0, quality: u8(b, at + 1) & QDS_MASK }),
  },
  bsi_qds: {
    size: 5,
    encode(v, b, at) {
      check(isInt(v.value, 0, 0xffffffff), `bitstring ${v.value} not in 32 bits`);
      put32(b, at, v.value);
      b[at + 4] = quality(v.quality, QDS_MASK);
    },
    decode: (b, at) => ({ kind: 'bsi_qds', value: u32(b, at), quality: u8(b, at + 4) & QDS_MASK }),
  },
  nva_qds: measured('nva_qds'),
  sva_qds: measured('sva_qds'),
  r32_qds: {
    size: 5,
    encode(v, b, at) {
      view(b).setFloat32(at, v.value, true);
      b[at + 4] = quality(v.quality, QDS_MASK);
    },
    decode: (b, at) => ({ kind: 'r32_qds', value: view(b).getFloat32(at, true), quality: u8(b, at + 4) & QDS_MASK }),
  },
  bcr: {
    size: 5,
    encode(v, b, at) {
      check(isInt(v.value, -0x80000000, 0x7fffffff) && isInt(v.sequence, 0, 31), 'counter not int32 or sequence not in 0-31');
      put32(b, at, v.value);
      b[at + 4] = v.sequence | (v.carry ? 0x20 : 0) | (v.adjusted ? 0x40 : 0) | (v.invalid ? 0x80 : 0);
    },
    decode(b, at) {
      const f = u8(b, at + 4);
      return { kind: 'bcr', value: u32(b, at) | 0, sequence: f & 0x1f, carry: (f & 0x20) !== 0, adjusted: (f & 0x40) !== 0, invalid: (f & 0x80) !== 0 };
    },
  },
  scd_qds: {
    size: 5,
    encode(v, b, at) {
      check(isInt(v.status, 0, 0xffff) && isInt(v.change, 0, 0xffff), 'status or change detection not 16 bits');
      put16(b, at, v.status);
      put16(b, at + 2, v.change);
      b[at + 4] = quality(v.quality, QDS_MASK);
    },
    decode: (b, at) => ({ kind: 'scd_qds', status: u16(b, at), change: u16(b, at + 2), quality: u8(b, at + 4) & QDS_MASK }),
  },
  nva: {
    size: 2,
    encode(v, b, at) {
      int16(v.value);
      put16(b, at, v.value);
    },
    decode: (b, at) => ({ kind: 'nva', value: i16(b, at) }),
  },
  sco: command('sco', 1),
  dco: command('dco', 3),
  rco: command('rco', 3),
  nva_qos: setpoint('nva_qos'),
  sva_qos: setpoint('sva_qos'),
  r32_qos: {
    size: 5,
    encode(v, b, at) {
      view(b).setFloat32(at, v.value, true);
      b[at + 4] = selectQl(v.ql, v.select);
    },
    decode: (b, at) => ({ kind: 'r32_qos', value: view(b).getFloat32(at, true), ql: u8(b, at + 4) & 0x7f, select: (u8(b, at + 4) & 0x80) !== 0 }),
  },
  bsi: {
    size: 4,
    encode(v, b, at) {
      check(isInt(v.value, 0, 0xffffffff), `bitstring ${v.value} not in 32 bits`);
      put32(b, at, v.value);
    },
    decode: (b, at) => ({ kind: 'bsi', value: u32(b, at) }),
  },
  coi: {
    size: 1,
    encode(v, b, at) {
      check(isInt(v.cause, 0, 127), `COI cause ${v.cause} not in 0-127`);
      b[at] = v.cause | (v.localChange ? 0x80 : 0);
    },
    decode: (b, at) => ({ kind: 'coi', cause: u8(b, at) & 0x7f, localChange: (u8(b, at) & 0x80) !== 0 }),
  },
  qoi: {
    size: 1,
    encode(v, b, at) {
      check(isInt(v.qoi, 0, 255), `QOI ${v.qoi} not in 0-255`);
      b[at] = v.qoi;
    },
    decode: (b, at) => ({ kind: 'qoi', qoi: u8(b, at) }),
  },
  qcc: {
    size: 1,
    encode(v, b, at) {
      check(isInt(v.request, 0, 63) && isInt(v.freeze, 0, 3), 'QCC request or freeze out of range');
      b[at] = v.request | (v.freeze << 6);
    },
    decode: (b, at) => ({ kind: 'qcc', request: u8(b, at) & 0x3f, freeze: u8(b, at) >> 6 }),
  },
  none: { size: 0, encode: () => {}, decode: () => ({ kind: 'none' }) },
  cp56: {
    size: CP56_LENGTH,
    encode: (v, b, at) => void encodeCp56(v.time, b, at),
    // the ASDU codec checks the time tag first (decodeCp56 can fail); here it is known to be good
    decode: (b, at) => ({ kind: 'cp56', time: (decodeCp56(b, at) as { ok: true; value: Cp56 }).value }),
  },
  qrp: {
    size: 1,
    encode(v, b, at) {
      check(isInt(v.qrp, 0, 255), `QRP ${v.qrp} not in 0-255`);
      b[at] = v.qrp;
    },
    decode: (b, at) => ({ kind: 'qrp', qrp: u8(b, at) }),
  },
  tsc: {
    size: 2,
    encode(v, b, at) {
      check(isInt(v.counter, 0, 0xffff), `TSC ${v.counter} not in 0-65535`);
      put16(b, at, v.counter);
    },
    decode: (b, at) => ({ kind: 'tsc', counter: u16(b, at) }),
  },
};

export const elementSize = (kind: ElementKind): number => CODECS[kind].size;
export const ELEMENT_KINDS = Object.keys(CODECS) as ElementKind[];

export function encodeElement(v: ElementValue, b: Uint8Array, at: number): void {
  (CODECS[v.kind] as Codec<ElementKind>).encode(v, b, at);
}
export function decodeElement(kind: ElementKind, b: Uint8Array, at: number): ElementValue {
  return CODECS[kind].decode(b, at);
}

/** A normalized value's int16 for a fraction in -1..1 (1 gives 32767, the largest the element carries). */
export const normalizedToRaw = (f: number): number => Math.max(-32768, Math.min(32767, Math.round(f * 32768)));
export const rawToNormalized = (raw: number): number => raw / 32768;
