// Modbus response PDUs, both directions: a server (simulated PLC, gateway) encodes them, a client
// decodes them, checked against its request when given (byte count, echo of address and value).
// modbusResponseShape tells which requests get responses that no check can tell apart.

import { encodeModbusException, MODBUS_LIMITS, type ModbusRequest, type ModbusResponse, packBits, readU16, unpackBits, writeU16 } from './modbus-pdu.ts';
import { check, fail, isInt, ok, type Result } from './result.ts';

/** The response PDU (exceptions included). Throws RangeError for values Modbus cannot carry. */
export function encodeModbusResponse(res: ModbusResponse): Uint8Array {
  if ('exception' in res) return encodeModbusException(res.fc, res.exception);
  switch (res.fc) {
    case 1:
    case 2: {
      check(res.bits.length >= 1 && res.bits.length <= MODBUS_LIMITS[res.fc], `FC${res.fc}: ${res.bits.length} bits not in 1-2000`);
      const data = packBits(res.bits);
      const out = new Uint8Array(2 + data.length);
      out[0] = res.fc;
      out[1] = data.length;
      out.set(data, 2);
      return out;
    }
    case 3:
    case 4: {
      check(res.registers.length >= 1 && res.registers.length <= MODBUS_LIMITS[res.fc], `FC${res.fc}: ${res.registers.length} registers not in 1-125`);
      check(
        res.registers.every((v) => isInt(v, 0, 0xffff)),
        'registers must be 16-bit words',
      );
      const out = new Uint8Array(2 + res.registers.length * 2);
      out[0] = res.fc;
      out[1] = res.registers.length * 2;
      res.registers.forEach((v, i) => writeU16(out, 2 + i * 2, v));
      return out;
    }
    case 5:
    case 6:
    case 15:
    case 16: {
      const second = res.fc === 5 ? (res.value ? 0xff00 : 0) : res.fc === 6 ? res.value : res.quantity;
      check(isInt(res.address, 0, 0xffff) && isInt(second, 0, 0xffff), `FC${res.fc}: address or value out of range`);
      const out = new Uint8Array([res.fc, 0, 0, 0, 0]);
      writeU16(out, 1, res.address);
      writeU16(out, 3, second);
      return out;
    }
  }
}

type RsResult = Result<ModbusResponse>;

/** Client side: the typed response; with `req`, also checks it answers that request. Never throws. */
export function decodeModbusResponse(pdu: Uint8Array, req?: ModbusRequest): RsResult {
  const raw = pdu[0];
  if (raw === undefined) return fail('bad_length', 'empty PDU');
  const fc = raw & 0x7f;
  if (req && fc !== req.fc) return fail('mismatch', `response FC${fc} to a FC${req.fc} request`);
  if (raw & 0x80) return pdu.length === 2 ? ok({ fc, exception: pdu[1] as number }) : fail('bad_length', 'exception PDU must be 2 bytes');
  const len = (n: number): RsResult | undefined =>
    pdu.length === n ? undefined : fail('bad_length', `FC${fc} response must be ${n} bytes, got ${pdu.length}`);
  switch (fc) {
    case 1:
    case 2: {
      const count = pdu[1] ?? 0;
      const e = len(2 + count);
      if (e) return e;
      if (count === 0) return fail('bad_length', 'empty bit data');
      let n = count * 8;
      if (req && 'quantity' in req) {
        if (count !== Math.ceil(req.quantity / 8)) return fail('mismatch', `byte count ${count} for ${req.quantity} bits`);
        n = req.quantity;
      }
      return ok({ fc, bits: unpackBits(pdu.subarray(2), n) });
    }
    case 3:
    case 4: {
      const count = pdu[1] ?? 0;
      const e = len(2 + count);
      if (e) return e;
      if (count === 0 || count % 2 !== 0) return fail('bad_length', `byte count ${count} is not a whole number of registers`);
      if (req && 'quantity' in req && count !== req.quantity * 2) return fail('mismatch', `byte count ${count} for ${req.quantity} registers`);
      return ok({ fc, registers: Array.from({ length: count / 2 }, (_, i) => readU16(pdu, 2 + i * 2)) });
    }
    case 5:
    case 6:
    case 15:
    case 16: {
      const e = len(5);
      if (e) return e;
      const address = readU16(pdu, 1);
      const second = readU16(pdu, 3);
      let res: ModbusResponse;
      if (fc === 5) {
        if (second !== 0xff00 && second !== 0) return fail('bad_value', `FC5 echo value 0x${second.toString(16)}`);
        res = { fc, address, value: second === 0xff00 };
      } else if (fc === 6) res = { fc, address, value: second };
      else res = { fc, address, quantity: second };
      if (req && !echoes(req, res)) return fail('mismatch', `FC${fc} echo does not match the request`);
      return ok(res);
    }
    default:
      return fail('unsupported_function', `function code ${fc} not supported`);
  }
}

/**
 * What the normal response to `req` looks like: function code and byte count for reads (`3:2`),
 * the echo for writes (`6:100:7`). A read's response names no address, so two reads of the same
 * shape get responses that decodeModbusResponse cannot tell apart; reads of different shapes, and
 * writes of different address or value, never do.
 */
export function modbusResponseShape(req: ModbusRequest): string {
  switch (req.fc) {
    case 1:
    case 2:
      return `${req.fc}:${Math.ceil(req.quantity / 8)}`;
    case 3:
    case 4:
      return `${req.fc}:${req.quantity * 2}`;
    case 5:
      return `5:${req.address}:${req.value ? 1 : 0}`;
    case 6:
      return `6:${req.address}:${req.value}`;
    case 15:
    case 16:
      return `${req.fc}:${req.address}:${req.values.length}`;
  }
}

function echoes(req: ModbusRequest, res: ModbusResponse): boolean {
  if (!('address' in req) || !('address' in res) || req.address !== res.address) return false;
  if (req.fc === 5 && res.fc === 5) return req.value === res.value;
  if (req.fc === 6 && res.fc === 6) return req.value === res.value;
  if ((req.fc === 15 || req.fc === 16) && (res.fc === 15 || res.fc === 16)) return req.values.length === res.quantity;
  return false;
}

/** The normal response a server gives to a write request (the echo); undefined for reads. */
export function modbusWriteEcho(req: ModbusRequest): ModbusResponse | undefined {
  switch (req.fc) {
    case 5:
    case 6:
      return { fc: req.fc, address: req.address, value: req.value } as ModbusResponse;
    case 15:
    case 16:
      return { fc: req.fc, address: req.address, quantity: req.values.length };
    default:
      return undefined;
  }
}
