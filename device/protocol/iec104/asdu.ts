// The IEC 104 ASDU: type identification (1 octet), variable structure qualifier (SQ in bit 7, number
// of objects 1-127 in bits 0-6), cause of transmission (cause in bits 0-5, P/N in bit 6, T test in
// bit 7; then the originator address), the common address (2 octets) and the information objects:
// with SQ = 0 each object has its 3-octet IOA, with SQ = 1 one IOA is followed by `number` elements
// at consecutive addresses. Decoding is total: a short ASDU, a number that does not match the length,
// a type the unit does not serve or a bad time tag gives an error with a stable code; once the
// six header octets are there the error carries the header, so the station can answer it (COT 44-47).

import { check, fail, isInt, ok, type Result } from '../result.ts';
import { ASDU_MAX_LENGTH } from './apci.ts';
import { CP56_LENGTH, type Cp56, decodeCp56, encodeCp56 } from './cp56.ts';
import { decodeElement, type ElementValue, elementSize, encodeElement } from './elements.ts';
import { servedType } from './types.ts';

export const ASDU_HEADER = 6; // type, VSQ, COT (2), common address (2)
export const IOA_LENGTH = 3;
export const IOA_MAX = 0xffffff;
export const VSQ_MAX = 127;
export const CA_BROADCAST = 0xffff; // the global common address (interrogation, counter interrogation, clock sync)

export interface Cot {
  cause: number; // 0-63 (cot.ts)
  negative: boolean; // P/N
  test: boolean; // T
}

export interface AsduHeader {
  type: number;
  sq: boolean;
  count: number; // VSQ number of objects
  cot: Cot;
  originator: number;
  ca: number;
}

export interface InfoObject {
  ioa: number;
  element: ElementValue;
  time?: Cp56; // present exactly for the CP56Time2a types
}

export interface Asdu {
  type: number;
  sq: boolean;
  cot: Cot;
  originator: number;
  ca: number;
  objects: InfoObject[];
}

export interface AsduError {
  code: 'short_asdu' | 'too_long' | 'unknown_type' | 'bad_count' | 'length_mismatch' | 'bad_ioa' | 'bad_time';
  message: string;
  header?: AsduHeader; // once the six header octets could be read
  ioa?: number; // the first IOA, when the ASDU holds one
}

export function decodeHeader(b: Uint8Array): AsduHeader | undefined {
  if (b.length < ASDU_HEADER) return undefined;
  const vsq = b[1] as number;
  const cot = b[2] as number;
  return {
    type: b[0] as number,
    sq: (vsq & 0x80) !== 0,
    count: vsq & 0x7f,
    cot: { cause: cot & 0x3f, negative: (cot & 0x40) !== 0, test: (cot & 0x80) !== 0 },
    originator: b[3] as number,
    ca: (b[4] as number) | ((b[5] as number) << 8),
  };
}

const readIoa = (b: Uint8Array, at: number) => (b[at] as number) | ((b[at + 1] as number) << 8) | ((b[at + 2] as number) << 16);

export function decodeAsdu(b: Uint8Array): Result<Asdu, AsduError> {
  const header = decodeHeader(b);
  if (!header) return fail('short_asdu', `ASDU of ${b.length} octets, the header alone has ${ASDU_HEADER}`);
  const ioa = b.length >= ASDU_HEADER + IOA_LENGTH ? readIoa(b, ASDU_HEADER) : undefined;
  const err = (code: AsduError['code'], message: string) => fail<AsduError>(code, message, { header, ...(ioa === undefined ? {} : { ioa }) });
  if (b.length > ASDU_MAX_LENGTH) return err('too_long', `ASDU of ${b.length} octets, at most ${ASDU_MAX_LENGTH}`);
  const t = servedType(header.type);
  if (!t) return err('unknown_type', `type identification ${header.type} is not served`);
  if (header.count === 0) return err('bad_count', 'VSQ number of objects 0');
  const size = t.size;
  const expected = ASDU_HEADER + (header.sq ? IOA_LENGTH + header.count * size : header.count * (IOA_LENGTH + size));
  if (b.length !== expected)
    return err('length_mismatch', `${t.name} with ${header.count} object(s) (SQ=${header.sq ? 1 : 0}) needs ${expected} octets, ASDU has ${b.length}`);
  const base = elementSize(t.element);
  const objects: InfoObject[] = [];
  let at = ASDU_HEADER;
  const first = readIoa(b, at);
  if (header.sq && first + header.count - 1 > IOA_MAX) return err('bad_ioa', `a sequence of ${header.count} from IOA ${first} passes ${IOA_MAX}`);
  if (header.sq) at += IOA_LENGTH;
  for (let i = 0; i < header.count; i++) {
    let address = first + i;
    if (!header.sq) {
      address = readIoa(b, at);
      at += IOA_LENGTH;
    }
    if (t.element === 'cp56') {
      const c = decodeCp56(b, at);
      if (!c.ok) return err('bad_time', c.error.message);
    }
    const obj: InfoObject = { ioa: address, element: decodeElement(t.element, b, at) };
    if (t.time === 'cp56') {
      const c = decodeCp56(b, at + base);
      if (!c.ok) return err('bad_time', `IOA ${address}: ${c.error.message}`);
      obj.time = c.value;
    }
    objects.push(obj);
    at += size;
  }
  return ok({ type: header.type, sq: header.sq, cot: header.cot, originator: header.originator, ca: header.ca, objects });
}

export function encodeAsdu(a: Asdu): Uint8Array {
  const t = servedType(a.type);
  check(t !== undefined, `type identification ${a.type} is not served`);
  const n = a.objects.length;
  check(n >= 1 && n <= VSQ_MAX, `${n} objects (1-${VSQ_MAX})`);
  check(isInt(a.cot.cause, 0, 63) && isInt(a.originator, 0, 255) && isInt(a.ca, 0, 0xffff), 'cause, originator or common address out of range');
  const size = t.size;
  const length = ASDU_HEADER + (a.sq ? IOA_LENGTH + n * size : n * (IOA_LENGTH + size));
  check(length <= ASDU_MAX_LENGTH, `${t.name} with ${n} objects needs ${length} octets, at most ${ASDU_MAX_LENGTH}`);
  const b = new Uint8Array(length);
  b[0] = a.type;
  b[1] = n | (a.sq ? 0x80 : 0);
  b[2] = a.cot.cause | (a.cot.negative ? 0x40 : 0) | (a.cot.test ? 0x80 : 0);
  b[3] = a.originator;
  b[4] = a.ca & 0xff;
  b[5] = a.ca >> 8;
  let at = ASDU_HEADER;
  const writeIoa = (ioa: number) => {
    check(isInt(ioa, 0, IOA_MAX), `IOA ${ioa} not in 0-${IOA_MAX}`);
    b[at] = ioa & 0xff;
    b[at + 1] = (ioa >> 8) & 0xff;
    b[at + 2] = ioa >> 16;
    at += IOA_LENGTH;
  };
  const first = (a.objects[0] as InfoObject).ioa;
  if (a.sq) writeIoa(first);
  a.objects.forEach((o, i) => {
    check(o.element.kind === t.element, `${t.name} carries ${t.element}, not ${o.element.kind}`);
    check((t.time === 'cp56') === (o.time !== undefined), `${t.name} ${t.time === 'cp56' ? 'needs' : 'has no'} a time tag`);
    if (a.sq) check(o.ioa === first + i, `SQ=1 needs consecutive IOAs, object ${i} has ${o.ioa}`);
    else writeIoa(o.ioa);
    encodeElement(o.element, b, at);
    if (o.time) encodeCp56(o.time, b, at + size - CP56_LENGTH);
    at += size;
  });
  return b;
}

/** A copy of a received ASDU with its cause changed (the standard's answers mirror the request:
 * ACTCON, ACTTERM, and the negative COT 44-47 with P/N set). Works on ASDUs that failed to decode. */
export function mirrorAsdu(b: Uint8Array, cause: number, negative: boolean): Uint8Array {
  check(b.length >= ASDU_HEADER && isInt(cause, 0, 63), 'mirror needs an ASDU header and a cause 0-63');
  const out = b.slice(0, Math.min(b.length, ASDU_MAX_LENGTH));
  out[2] = ((out[2] as number) & 0x80) | cause | (negative ? 0x40 : 0);
  return out;
}
