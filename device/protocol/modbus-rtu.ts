// Modbus RTU: ADU = unit id (1) + PDU + CRC-16 (poly 0xA001 reflected, init 0xFFFF, low byte
// first). RTU has no delimiter; the stream decoder finds frame ends from the function code — on a
// request stream the length follows from the function code (and the byte count of FC15/16), on a
// response stream from the byte count (FC1–4) or the fixed echo length — and confirms each frame by
// its CRC. A CRC mismatch or an unknown function code drops one byte and tries again (resync), so
// it never throws and never holds more than one maximal ADU (256 bytes). A caller with timers can
// report the 3.5-character silence with `gap()`: what is buffered then is whole frames or garbage.
// On a shared RS-485 line a request-side decoder also hears other slaves' replies; those fail
// the request length rules or the CRC and are reported as `resync`.
//
//   crc16Modbus(bytes)           the CRC value (`01 03 00 00 00 0A` → 0xCDC5, sent as C5 CD)
//   encodeRtuFrame(unit, pdu) / decodeRtuFrame(adu)
//   createRtuDecoder('request' | 'response', { waitForGap })
import { check, fail, isInt, ok, type Result } from './result.ts';

export const RTU_MAX_ADU = 256;

export function crc16Modbus(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffff;
  for (let i = start; i < end; i++) {
    crc ^= bytes[i] as number;
    for (let b = 0; b < 8; b++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

export interface RtuFrame {
  unit: number;
  pdu: Uint8Array;
}

export function encodeRtuFrame(unit: number, pdu: Uint8Array): Uint8Array {
  check(isInt(unit, 0, 255), `unit ${unit} not a byte`);
  check(pdu.length >= 1 && pdu.length <= RTU_MAX_ADU - 3, `PDU of ${pdu.length} bytes`);
  const out = new Uint8Array(pdu.length + 3);
  out[0] = unit;
  out.set(pdu, 1);
  const crc = crc16Modbus(out, 0, pdu.length + 1);
  out[pdu.length + 1] = crc & 0xff;
  out[pdu.length + 2] = crc >> 8;
  return out;
}

const crcOk = (b: Uint8Array, len: number) => {
  const crc = crc16Modbus(b, 0, len - 2);
  return b[len - 2] === (crc & 0xff) && b[len - 1] === crc >> 8;
};

export function decodeRtuFrame(adu: Uint8Array): Result<RtuFrame> {
  if (adu.length < 4 || adu.length > RTU_MAX_ADU) return fail('bad_length', `RTU frame of ${adu.length} bytes`);
  if (!crcOk(adu, adu.length)) return fail('crc', 'CRC does not match');
  return ok({ unit: adu[0] as number, pdu: adu.slice(1, -2) });
}

export type RtuSide = 'request' | 'response';

// ADU length from the first bytes: a number, 0 = need more bytes, -1 = unknown function code
const NEED = 0;
const UNKNOWN = -1;
const REQUEST_FIXED: Readonly<Record<number, number>> = { 1: 8, 2: 8, 3: 8, 4: 8, 5: 8, 6: 8, 7: 4, 8: 8, 11: 4, 12: 4, 17: 4, 22: 10, 24: 6 };
const RESPONSE_FIXED: Readonly<Record<number, number>> = { 5: 8, 6: 8, 7: 5, 8: 8, 11: 8, 15: 8, 16: 8, 22: 10 };
const RESPONSE_COUNTED = new Set([1, 2, 3, 4, 12, 17, 20, 21, 23]);

/** The ADU length implied by the first bytes of `b` (see NEED / UNKNOWN). */
export function rtuFrameLength(b: Uint8Array, n: number, side: RtuSide): number {
  if (n < 2) return NEED;
  const fc = b[1] as number;
  const at = (i: number, extra: number) => (n > i ? (b[i] as number) + extra : NEED);
  if (side === 'request') {
    if (REQUEST_FIXED[fc]) return REQUEST_FIXED[fc];
    if (fc === 15 || fc === 16) return at(6, 9); // unit fc addr(2) qty(2) count(1) data CRC(2)
    if (fc === 20 || fc === 21) return at(2, 5);
    if (fc === 23) return at(10, 13);
    return UNKNOWN;
  }
  if (fc & 0x80) return 5;
  if (RESPONSE_FIXED[fc]) return RESPONSE_FIXED[fc];
  if (RESPONSE_COUNTED.has(fc)) return at(2, 5);
  if (fc === 24) return n > 3 ? (((b[2] as number) << 8) | (b[3] as number)) + 6 : NEED;
  return UNKNOWN;
}

export type RtuEvent = { type: 'frame'; unit: number; pdu: Uint8Array } | { type: 'error'; code: 'resync' | 'truncated'; message: string };

export interface RtuDecoder {
  push(bytes: Uint8Array): RtuEvent[];
  /** The line was silent for 3.5 chars: what is buffered is taken as whole frames (CRC ok) or dropped. */
  gap(): RtuEvent[];
  reset(): void;
  buffered(): number;
}

export interface RtuDecoderOptions {
  /**
   * The caller reports silences with `gap()`: a frame with a function code of unknown length then
   * waits for the gap (and can be answered, e.g. with exception 1) instead of being slid over.
   */
  waitForGap?: boolean;
}

export function createRtuDecoder(side: RtuSide, opts: RtuDecoderOptions = {}): RtuDecoder {
  const buf = new Uint8Array(RTU_MAX_ADU);
  let n = 0;
  let dropped = 0;

  const drop = (k: number) => {
    buf.copyWithin(0, k, n);
    n -= k;
  };
  const flushDropped = (out: RtuEvent[]) => {
    if (dropped) out.push({ type: 'error', code: 'resync', message: `${dropped} byte(s) dropped to find a frame` });
    dropped = 0;
  };
  const emit = (len: number, out: RtuEvent[]) => {
    flushDropped(out);
    out.push({ type: 'frame', unit: buf[0] as number, pdu: buf.slice(1, len - 2) });
    drop(len);
  };

  function scan(out: RtuEvent[]): void {
    for (;;) {
      const len = rtuFrameLength(buf, n, side);
      if (len === UNKNOWN && opts.waitForGap && n < RTU_MAX_ADU) return;
      if (len === NEED || (len > 0 && len <= RTU_MAX_ADU && n < len)) return;
      if (len > 0 && len <= RTU_MAX_ADU && crcOk(buf, len)) emit(len, out);
      else {
        drop(1); // unknown function, impossible length or CRC mismatch: slide one byte
        dropped++;
      }
    }
  }

  return {
    push(bytes) {
      const out: RtuEvent[] = [];
      for (const b of bytes) {
        buf[n++] = b; // scan() always leaves n < RTU_MAX_ADU, so there is room
        scan(out);
      }
      flushDropped(out);
      return out;
    },
    gap() {
      // no more bytes belong to what is buffered: take whole frames where they are, drop the rest
      const out: RtuEvent[] = [];
      while (n > 0) {
        const len = rtuFrameLength(buf, n, side);
        if (n >= 4 && crcOk(buf, n) && (len <= 0 || len === n)) emit(n, out);
        else if (len >= 4 && len <= n && crcOk(buf, len)) emit(len, out);
        else {
          drop(1);
          dropped++;
        }
      }
      if (dropped) out.push({ type: 'error', code: 'truncated', message: `${dropped} byte(s) before the gap are no frame` });
      dropped = 0;
      return out;
    },
    reset() {
      n = 0;
      dropped = 0;
    },
    buffered: () => n,
  };
}
