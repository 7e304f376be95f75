// IEC 60870-5-104 APCI: the start octet 0x68, the length of what follows (4 control octets plus the
// ASDU, 4-253) and three frame formats told apart by the first control octet:
//   I  (bit 0 = 0): N(S) in octets 1-2 and N(R) in octets 3-4, each 15 bits shifted left by one;
//   S  (bits 1-0 = 01): octet 2 = 0, N(R) in octets 3-4;
//   U  (bits 1-0 = 11): exactly one of STARTDT/STOPDT/TESTFR act/con in bits 2-7, octets 2-4 = 0.
// Sequence numbers count modulo 32768 (15 bits); seqAdd/seqDistance are the only arithmetic on them.

import { check, fail, isInt, ok, type Result } from '../result.ts';

export const APCI_START = 0x68;
export const APCI_HEADER = 6; // start, length, 4 control octets
export const APDU_MAX_LENGTH = 253; // the length octet's maximum: 4 control octets + ASDU of up to 249
export const ASDU_MAX_LENGTH = APDU_MAX_LENGTH - 4;
export const SEQ_MODULO = 32768; // 15-bit N(S)/N(R)

export const U_FUNCTIONS = {
  startdt_act: 0x04,
  startdt_con: 0x08,
  stopdt_act: 0x10,
  stopdt_con: 0x20,
  testfr_act: 0x40,
  testfr_con: 0x80,
} as const;
export type UFunction = keyof typeof U_FUNCTIONS;

export type Apdu = { format: 'I'; ns: number; nr: number; asdu: Uint8Array } | { format: 'S'; nr: number } | { format: 'U'; fn: UFunction };

export const seqAdd = (seq: number, n: number): number => (((seq + n) % SEQ_MODULO) + SEQ_MODULO) % SEQ_MODULO;
/** Frames from `from` forward to `to`, modulo 32768 (0-32767). */
export const seqDistance = (from: number, to: number): number => seqAdd(to, -from);

function frame(control: readonly number[], asdu?: Uint8Array): Uint8Array {
  const n = asdu ? asdu.length : 0;
  const out = new Uint8Array(APCI_HEADER + n);
  out[0] = APCI_START;
  out[1] = 4 + n;
  out.set(control, 2);
  if (asdu) out.set(asdu, APCI_HEADER);
  return out;
}

export function encodeApdu(a: Apdu): Uint8Array {
  switch (a.format) {
    case 'I':
      check(isInt(a.ns, 0, SEQ_MODULO - 1) && isInt(a.nr, 0, SEQ_MODULO - 1), 'N(S) or N(R) not in 0-32767');
      check(a.asdu.length >= 1 && a.asdu.length <= ASDU_MAX_LENGTH, `ASDU of ${a.asdu.length} octets (1-${ASDU_MAX_LENGTH})`);
      return frame([(a.ns << 1) & 0xfe, a.ns >> 7, (a.nr << 1) & 0xfe, a.nr >> 7], a.asdu);
    case 'S':
      check(isInt(a.nr, 0, SEQ_MODULO - 1), 'N(R) not in 0-32767');
      return frame([0x01, 0x00, (a.nr << 1) & 0xfe, a.nr >> 7]);
    case 'U':
      check(a.fn in U_FUNCTIONS, `unknown U function ${a.fn}`);
      return frame([U_FUNCTIONS[a.fn] | 0x03, 0, 0, 0]);
  }
}

const U_BY_BITS = new Map<number, UFunction>(Object.entries(U_FUNCTIONS).map(([k, v]) => [v, k as UFunction]));

/** Decodes the control octets and ASDU of one APDU given its length octet's worth of bytes (`body`, 4-253 octets). */
export function decodeApduBody(body: Uint8Array): Result<Apdu> {
  if (body.length < 4 || body.length > APDU_MAX_LENGTH) return fail('bad_length', `APDU length ${body.length} not in 4-${APDU_MAX_LENGTH}`);
  const c1 = body[0] as number;
  const c2 = body[1] as number;
  const c3 = body[2] as number;
  const c4 = body[3] as number;
  if ((c1 & 0x01) === 0) {
    if (c3 & 0x01) return fail('bad_control', 'I-format with bit 0 of the third control octet set');
    if (body.length === 4) return fail('bad_control', 'I-format without an ASDU');
    return ok({ format: 'I', ns: (c1 >> 1) | (c2 << 7), nr: (c3 >> 1) | (c4 << 7), asdu: body.slice(4) });
  }
  if (body.length !== 4) return fail('bad_control', `${c1 & 0x02 ? 'U' : 'S'}-format of length ${body.length}, 4 expected`);
  if ((c1 & 0x03) === 0x01) {
    if (c1 !== 0x01 || c2 !== 0 || c3 & 0x01) return fail('bad_control', 'S-format with reserved bits set');
    return ok({ format: 'S', nr: (c3 >> 1) | (c4 << 7) });
  }
  const fn = U_BY_BITS.get(c1 & 0xfc);
  if (fn === undefined || c2 !== 0 || c3 !== 0 || c4 !== 0) return fail('bad_control', `U-format control field ${octetsHex(body.subarray(0, 4))}`);
  return ok({ format: 'U', fn });
}

/** Decodes one whole APDU (start octet, length, control, ASDU). */
export function decodeApdu(bytes: Uint8Array): Result<Apdu> {
  if (bytes.length < APCI_HEADER) return fail('bad_length', `APDU of ${bytes.length} octets`);
  if (bytes[0] !== APCI_START) return fail('bad_start', `start octet 0x${(bytes[0] as number).toString(16)}, 0x68 expected`);
  if (bytes[1] !== bytes.length - 2) return fail('bad_length', `length octet ${bytes[1]}, frame has ${bytes.length - 2} octets after it`);
  return decodeApduBody(bytes.subarray(2));
}

export const octetsHex = (b: Uint8Array): string => [...b].map((x) => x.toString(16).padStart(2, '0')).join(' ');
