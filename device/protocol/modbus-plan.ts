// Split planning for Modbus: a long read or write becomes the fewest requests within the
// per-function limits (FC1/2 2000 bits, FC3/4 125 registers, FC15 1968 bits, FC16 123 registers).
import { MODBUS_LIMITS, type ModbusRequest } from './modbus-pdu.ts';
import { check, isInt } from './result.ts';

function checkSpan(address: number, quantity: number): void {
  check(isInt(quantity, 1, 0x10000) && isInt(address, 0, 0x10000 - quantity), `address ${address}+${quantity} beyond 65535`);
}

/** Reads of `quantity` bits (FC1/2) or registers (FC3/4) from `address`, in address order. */
export function planModbusRead(fc: 1 | 2 | 3 | 4, address: number, quantity: number, maxPerRequest: number = MODBUS_LIMITS[fc]): ModbusRequest[] {
  checkSpan(address, quantity);
  const per = Math.min(maxPerRequest, MODBUS_LIMITS[fc]);
  check(per >= 1, 'maxPerRequest below 1');
  const out: ModbusRequest[] = [];
  for (let at = address; at < address + quantity; at += per) out.push({ fc, address: at, quantity: Math.min(per, address + quantity - at) });
  return out;
}

/** Writes of `values` from `address` with FC15 (bits) or FC16 (registers), in address order. */
export function planModbusWrite(fc: 15, address: number, values: readonly boolean[], maxPerRequest?: number): ModbusRequest[];
export function planModbusWrite(fc: 16, address: number, values: readonly number[], maxPerRequest?: number): ModbusRequest[];
export function planModbusWrite(
  fc: 15 | 16,
  address: number,
  values: readonly (boolean | number)[],
  maxPerRequest: number = MODBUS_LIMITS[fc],
): ModbusRequest[] {
  checkSpan(address, values.length);
  const per = Math.min(maxPerRequest, MODBUS_LIMITS[fc]);
  check(per >= 1, 'maxPerRequest below 1');
  const out: ModbusRequest[] = [];
  for (let i = 0; i < values.length; i += per) {
    const chunk = values.slice(i, i + per);
    out.push(fc === 15 ? { fc, address: address + i, values: chunk as boolean[] } : { fc, address: address + i, values: chunk as number[] });
  }
  return out;
}
