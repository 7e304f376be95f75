// What a virtual PLC answers to one Modbus request PDU (RTU and TCP carry the same PDU), on its
// memory through the Panasonic Modbus map of mewtocol.md §8: coils Y and R, discrete inputs X,
// holding registers DT, input registers WL and LD. An element the map or the memory does not have
// gives exception 02 and nothing is written; an unknown function code gives exception 01.
import {
  decodeModbusRequest,
  encodeModbusException,
  encodeModbusResponse,
  MODBUS_EXCEPTION,
  type ModbusFamily,
  type ModbusRequest,
  type ModbusResponse,
  type ModbusTable,
  modbusTableOf,
  modbusToPlc,
} from '../../device/protocol/index.ts';
import { type BitAreaName, MemoryError, type PlcMemory, type WordAreaName } from './memory.ts';
import type { CpuModel } from './profiles.ts';

/** The Modbus table of each model: its own where mewtocol.md §8 has one, else FP-Sigma's (same generation as FP0R/FP2). */
export const MODBUS_FAMILY_OF: Record<CpuModel, ModbusFamily> = {
  FP7: 'FP7',
  'FP-X': 'FP-X',
  'FP-XH': 'FP-XH',
  FP0: 'FP-Sigma',
  FP0R: 'FP-Sigma',
  FP2: 'FP-Sigma',
};

class AddressError extends Error {}

type BitRef = { area: BitAreaName; bit: number };
type WordRef = { area: WordAreaName; address: number };

/** The relay bit a coil or discrete input reaches; throws when the map or the memory has none. */
function bitAt(plc: PlcMemory, table: ModbusTable, address: number): BitRef {
  const ref = modbusToPlc(table, address, MODBUS_FAMILY_OF[plc.profile.model]);
  if (!ref || !('word' in ref)) throw new AddressError();
  const at = { area: ref.area, bit: ref.word * 16 + ref.bit };
  plc.readBits(at.area, at.bit, 1); // inside the memory of this model
  return at;
}

/** The data word a register reaches; throws when the map or the memory has none. */
function wordAt(plc: PlcMemory, table: ModbusTable, address: number): WordRef {
  const ref = modbusToPlc(table, address, MODBUS_FAMILY_OF[plc.profile.model]);
  if (!ref || !('address' in ref)) throw new AddressError();
  plc.readWords(ref.area, ref.address, 1);
  return ref;
}

const readBit = (plc: PlcMemory, at: BitRef) => plc.readBits(at.area, at.bit, 1)[0]!;
const readWord = (plc: PlcMemory, at: WordRef) => plc.readWords(at.area, at.address, 1)[0]!;

const range = (start: number, n: number) => Array.from({ length: n }, (_, i) => start + i);

function respond(plc: PlcMemory, req: ModbusRequest): ModbusResponse {
  const table = modbusTableOf(req.fc)!;
  switch (req.fc) {
    case 1:
    case 2:
      return { fc: req.fc, bits: range(req.address, req.quantity).map((a) => readBit(plc, bitAt(plc, table, a))) };
    case 3:
    case 4:
      return { fc: req.fc, registers: range(req.address, req.quantity).map((a) => readWord(plc, wordAt(plc, table, a))) };
    case 5:
    case 15: {
      const values = req.fc === 5 ? [req.value] : req.values;
      const refs = values.map((_, i) => bitAt(plc, table, req.address + i)); // all checked first: all or nothing
      refs.forEach((r, i) => plc.writeBits(r.area, r.bit, [values[i]!]));
      return req.fc === 5 ? { fc: 5, address: req.address, value: req.value } : { fc: 15, address: req.address, quantity: values.length };
    }
    case 6:
    case 16: {
      const values = req.fc === 6 ? [req.value] : req.values;
      const refs = values.map((_, i) => wordAt(plc, table, req.address + i));
      refs.forEach((r, i) => plc.writeWords(r.area, r.address, [values[i]!]));
      return req.fc === 6 ? { fc: 6, address: req.address, value: req.value } : { fc: 16, address: req.address, quantity: values.length };
    }
  }
}

/** The response PDU to one request PDU. */
export function answerModbus(plc: PlcMemory, pdu: Uint8Array): Uint8Array {
  const req = decodeModbusRequest(pdu);
  if (!req.ok) return encodeModbusException(req.error.fc ?? pdu[0] ?? 0, req.error.exception ?? MODBUS_EXCEPTION.ILLEGAL_FUNCTION);
  try {
    return encodeModbusResponse(respond(plc, req.value));
  } catch (e) {
    if (e instanceof AddressError || e instanceof MemoryError) return encodeModbusException(req.value.fc, MODBUS_EXCEPTION.ILLEGAL_DATA_ADDRESS);
    throw e;
  }
}
