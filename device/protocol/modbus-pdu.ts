// Modbus PDUs (function code + data), both directions, for clients (encode request, decode
// response) and servers (decode request, encode response or exception). Function codes 1, 2, 3, 4,
// 5, 6, 15, 16 — the ones Panasonic FP PLCs serve (mewtocol.md §8) — with the quantity limits of
// the Modbus application protocol: FC1/2 1–2000 bits, FC3/4 1–125 registers, FC15 1–1968 bits,
// FC16 1–123 registers, address + quantity ≤ 65536.
//
//   encodeModbusRequest(req) / decodeModbusRequest(pdu)    decode errors carry `exception`: what a
//                                                          server answers (1 function, 2 address, 3 value)
//   encodeModbusResponse(res) / decodeModbusResponse(pdu, req?)  responses include exceptions
//   encodeModbusException(fc, code)                        `fc | 0x80`, code
import { check, fail, isInt, ok, type ProtocolError, type Result } from './result.ts';

export type ModbusRequest =
  | { fc: 1 | 2 | 3 | 4; address: number; quantity: number } // read coils / discrete inputs / holding / input registers
  | { fc: 5; address: number; value: boolean } // write single coil
  | { fc: 6; address: number; value: number } // write single register
  | { fc: 15; address: number; values: boolean[] } // write multiple coils
  | { fc: 16; address: number; values: number[] }; // write multiple registers

export type ModbusFunctionCode = ModbusRequest['fc'];

export type ModbusResponse =
  | { fc: 1 | 2; bits: boolean[] }
  | { fc: 3 | 4; registers: number[] }
  | { fc: 5; address: number; value: boolean }
  | { fc: 6; address: number; value: number }
  | { fc: 15 | 16; address: number; quantity: number }
  | ModbusExceptionResponse;

/** An exception response: `fc` is the request's function code (without 0x80). */
export interface ModbusExceptionResponse {
  fc: number;
  exception: number;
}

export const isModbusException = (r: ModbusResponse): r is ModbusExceptionResponse => 'exception' in r;

/** Quantity limits per function code. */
export const MODBUS_LIMITS = { 1: 2000, 2: 2000, 3: 125, 4: 125, 15: 1968, 16: 123 } as const;
export const MODBUS_MAX_PDU = 253;

export const MODBUS_EXCEPTION = {
  ILLEGAL_FUNCTION: 1,
  ILLEGAL_DATA_ADDRESS: 2,
  ILLEGAL_DATA_VALUE: 3,
  SERVER_DEVICE_FAILURE: 4,
  ACKNOWLEDGE: 5,
  SERVER_DEVICE_BUSY: 6,
  MEMORY_PARITY_ERROR: 8,
  GATEWAY_PATH_UNAVAILABLE: 10,
  GATEWAY_TARGET_FAILED: 11, // gateway target device failed to respond
} as const;

const EXCEPTION_TEXT: Readonly<Record<number, { key: string; text: string }>> = {
  1: { key: 'illegal_function', text: 'Illegal function' },
  2: { key: 'illegal_data_address', text: 'Illegal data address' },
  3: { key: 'illegal_data_value', text: 'Illegal data value' },
  4: { key: 'server_device_failure', text: 'Server device failure' },
  5: { key: 'acknowledge', text: 'Acknowledge' },
  6: { key: 'server_device_busy', text: 'Server device busy' },
  8: { key: 'memory_parity_error', text: 'Memory parity error' },
  10: { key: 'gateway_path_unavailable', text: 'Gateway path unavailable' },
  11: { key: 'gateway_target_failed', text: 'Gateway target device failed to respond' },
};

export const modbusExceptionInfo = (code: number): { key: string; text: string } =>
  EXCEPTION_TEXT[code] ?? { key: 'unknown_exception', text: `Unknown exception ${code}` };

/** A request decode failure; `exception` is the code a server answers (absent: do not answer). */
export interface ModbusRequestError extends ProtocolError {
  fc?: number;
  exception?: number;
}

const u16 = (p: Uint8Array, i: number) => (((p[i] ?? 0) << 8) | (p[i + 1] ?? 0)) >>> 0;
const put16 = (out: Uint8Array, i: number, v: number) => {
  out[i] = (v >> 8) & 0xff;
  out[i + 1] = v & 0xff;
};

/** Bits packed LSB first, 8 per byte (FC1/2 responses, FC15 requests). */
export function packBits(bits: readonly boolean[]): Uint8Array {
  const out = new Uint8Array(Math.ceil(bits.length / 8));
  bits.forEach((b, i) => {
    if (b) out[i >> 3] = (out[i >> 3] as number) | (1 << (i & 7));
  });
  return out;
}

export function unpackBits(bytes: Uint8Array, count: number): boolean[] {
  const out: boolean[] = [];
  for (let i = 0; i < count; i++) out.push((((bytes[i >> 3] ?? 0) >> (i & 7)) & 1) === 1);
  return out;
}

function checkSpan(fc: number, address: number, quantity: number, max: number): void {
  check(isInt(quantity, 1, max), `FC${fc}: quantity ${quantity} not in 1-${max}`);
  check(isInt(address, 0, 0x10000 - quantity), `FC${fc}: address ${address}+${quantity} beyond 65535`);
}

/** The request PDU. Throws RangeError for values Modbus cannot carry. */
export function encodeModbusRequest(req: ModbusRequest): Uint8Array {
  switch (req.fc) {
    case 1:
    case 2:
    case 3:
    case 4: {
      checkSpan(req.fc, req.address, req.quantity, MODBUS_LIMITS[req.fc]);
      const out = new Uint8Array([req.fc, 0, 0, 0, 0]);
      put16(out, 1, req.address);
      put16(out, 3, req.quantity);
      return out;
    }
    case 5:
    case 6: {
      checkSpan(req.fc, req.address, 1, 1);
      const value = req.fc === 5 ? (req.value ? 0xff00 : 0) : req.value;
      check(isInt(value, 0, 0xffff), `FC6: value ${value} not a 16-bit word`);
      const out = new Uint8Array([req.fc, 0, 0, 0, 0]);
      put16(out, 1, req.address);
      put16(out, 3, value);
      return out;
    }
    case 15:
    case 16: {
      checkSpan(req.fc, req.address, req.values.length, MODBUS_LIMITS[req.fc]);
      let data: Uint8Array;
      if (req.fc === 15) data = packBits(req.values);
      else {
        check(
          req.values.every((v) => isInt(v, 0, 0xffff)),
          'FC16: values must be 16-bit words',
        );
        data = new Uint8Array(req.values.length * 2);
        req.values.forEach((v, i) => put16(data, i * 2, v));
      }
      const out = new Uint8Array(6 + data.length);
      out[0] = req.fc;
      put16(out, 1, req.address);
      put16(out, 3, req.values.length);
      out[5] = data.length;
      out.set(data, 6);
      return out;
    }
  }
}

type RqResult = Result<ModbusRequest, ModbusRequestError>;
const rqFail = (fc: number | undefined, exception: number | undefined, code: string, message: string): RqResult =>
  fail<ModbusRequestError>(code, message, { ...(fc !== undefined ? { fc } : {}), ...(exception !== undefined ? { exception } : {}) });

/** Server side: the typed request, or the exception to answer. Never throws. */
export function decodeModbusRequest(pdu: Uint8Array): RqResult {
  const fc = pdu[0];
  if (fc === undefined) return rqFail(undefined, undefined, 'bad_length', 'empty PDU');
  // 0 and 0x80-0xFF are no request a client may send: exception 01 like any unknown function
  if (fc === 0 || fc >= 0x80) return rqFail(fc, MODBUS_EXCEPTION.ILLEGAL_FUNCTION, 'bad_function', `function code ${fc} is not a request`);
  const bad = (m: string) => rqFail(fc, MODBUS_EXCEPTION.ILLEGAL_DATA_VALUE, 'bad_value', m);
  const address = u16(pdu, 1);
  const second = u16(pdu, 3);
  const span = (q: number, max: number): RqResult | undefined => {
    if (q < 1 || q > max) return bad(`quantity ${q} not in 1-${max}`);
    if (address + q > 0x10000) return rqFail(fc, MODBUS_EXCEPTION.ILLEGAL_DATA_ADDRESS, 'bad_address', `address ${address}+${q} beyond 65535`);
    return undefined;
  };
  switch (fc) {
    case 1:
    case 2:
    case 3:
    case 4:
      if (pdu.length !== 5) return bad(`FC${fc} PDU must be 5 bytes`);
      return span(second, MODBUS_LIMITS[fc]) ?? ok({ fc, address, quantity: second });
    case 5:
      if (pdu.length !== 5) return bad('FC5 PDU must be 5 bytes');
      if (second !== 0xff00 && second !== 0) return bad(`FC5 value 0x${second.toString(16)} is neither FF00 nor 0000`);
      return ok({ fc, address, value: second === 0xff00 });
    case 6:
      if (pdu.length !== 5) return bad('FC6 PDU must be 5 bytes');
      return ok({ fc, address, value: second });
    case 15:
    case 16: {
      const count = pdu[5] ?? -1;
      const need = fc === 15 ? Math.ceil(second / 8) : second * 2;
      const e = span(second, MODBUS_LIMITS[fc]);
      if (pdu.length < 6 || count !== need || pdu.length !== 6 + count) return bad(`FC${fc}: byte count does not match quantity and length`);
      if (e) return e;
      const data = pdu.subarray(6);
      if (fc === 15) return ok({ fc, address, values: unpackBits(data, second) });
      return ok({ fc, address, values: Array.from({ length: second }, (_, i) => u16(data, i * 2)) });
    }
    default:
      return rqFail(fc, MODBUS_EXCEPTION.ILLEGAL_FUNCTION, 'unsupported_function', `function code ${fc} not supported`);
  }
}

/**
 * The exception PDU to a request with function code `fc`. Total: a server hands it whatever byte a
 * client sent, so it never throws. The function byte is `0x80 | fc` for 1-127; for 0 and 0x80-0xFF
 * (no valid request) it is `0x80 | (fc & 0x7F)`, i.e. the byte itself with the high bit set. A code
 * outside 1-255 becomes 04 (server device failure).
 */
export function encodeModbusException(fc: number, code: number): Uint8Array {
  const f = Number.isInteger(fc) ? (fc & 0x7f) | 0x80 : 0x80;
  return new Uint8Array([f, isInt(code, 1, 255) ? code : MODBUS_EXCEPTION.SERVER_DEVICE_FAILURE]);
}

export { put16 as writeU16, u16 as readU16 };
