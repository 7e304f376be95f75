// Modbus TCP: ADU = MBAP header (transaction id 2, protocol id 2 = 0, length 2 = unit id + PDU
// bytes, unit id 1) + PDU, big-endian. The stream decoder cuts frames by the MBAP length. A header
// with a protocol id other than 0 or an impossible length means the stream is out of step: it is
// reported (`fatal: true`, a server closes such a connection) and everything buffered is dropped.
// It never throws and holds at most one ADU (260 bytes).

import { MODBUS_MAX_PDU } from './modbus-pdu.ts';
import { check, fail, isInt, ok, type Result } from './result.ts';

export const MBAP_LENGTH = 7;
export const TCP_MAX_ADU = MBAP_LENGTH + MODBUS_MAX_PDU; // 260

export interface TcpFrame {
  transaction: number;
  unit: number;
  pdu: Uint8Array;
}

export function encodeTcpFrame(f: TcpFrame): Uint8Array {
  check(isInt(f.transaction, 0, 0xffff) && isInt(f.unit, 0, 255), 'transaction id or unit out of range');
  check(f.pdu.length >= 1 && f.pdu.length <= MODBUS_MAX_PDU, `PDU of ${f.pdu.length} bytes`);
  const out = new Uint8Array(MBAP_LENGTH + f.pdu.length);
  out[0] = f.transaction >> 8;
  out[1] = f.transaction & 0xff;
  // bytes 2-3: protocol id 0
  out[4] = (f.pdu.length + 1) >> 8;
  out[5] = (f.pdu.length + 1) & 0xff;
  out[6] = f.unit;
  out.set(f.pdu, MBAP_LENGTH);
  return out;
}

/** Checks an MBAP header; the ADU length it announces, or an error. */
function headerLength(b: Uint8Array): Result<number> {
  const protocol = ((b[2] as number) << 8) | (b[3] as number);
  const length = ((b[4] as number) << 8) | (b[5] as number);
  if (protocol !== 0) return fail('bad_protocol', `MBAP protocol id ${protocol}, 0 expected`);
  if (length < 2 || length > MODBUS_MAX_PDU + 1) return fail('bad_length', `MBAP length ${length} not in 2-254`);
  return ok(6 + length);
}

export function decodeTcpFrame(adu: Uint8Array): Result<TcpFrame> {
  if (adu.length < MBAP_LENGTH + 1) return fail('bad_length', `Modbus TCP frame of ${adu.length} bytes`);
  const len = headerLength(adu);
  if (!len.ok) return len;
  if (len.value !== adu.length) return fail('bad_length', `MBAP announces ${len.value} bytes, frame has ${adu.length}`);
  return ok({ transaction: ((adu[0] as number) << 8) | (adu[1] as number), unit: adu[6] as number, pdu: adu.slice(MBAP_LENGTH) });
}

export type TcpEvent = ({ type: 'frame' } & TcpFrame) | { type: 'error'; code: string; message: string; fatal: true };

export interface TcpDecoder {
  push(bytes: Uint8Array): TcpEvent[];
  reset(): void;
  buffered(): number;
}

export function createTcpDecoder(): TcpDecoder {
  const buf = new Uint8Array(TCP_MAX_ADU);
  let n = 0;
  let need = MBAP_LENGTH; // bytes to collect before the next decision

  return {
    push(bytes) {
      const out: TcpEvent[] = [];
      for (const b of bytes) {
        buf[n++] = b;
        if (n < need) continue;
        if (need === MBAP_LENGTH) {
          const len = headerLength(buf);
          if (!len.ok) {
            out.push({ type: 'error', ...len.error, fatal: true });
            n = 0;
            continue;
          }
          need = len.value;
          if (n < need) continue;
        }
        out.push({ type: 'frame', transaction: ((buf[0] as number) << 8) | (buf[1] as number), unit: buf[6] as number, pdu: buf.slice(MBAP_LENGTH, n) });
        n = 0;
        need = MBAP_LENGTH;
      }
      return out;
    },
    reset() {
      n = 0;
      need = MBAP_LENGTH;
    },
    buffered: () => n,
  };
}
