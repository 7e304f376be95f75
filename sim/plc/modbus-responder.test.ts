import { describe, expect, it } from 'vitest';
import { decodeModbusResponse, encodeModbusRequest, type ModbusRequest } from '../../device/protocol/index.ts';
import { PlcMemory } from './memory.ts';
import { answerModbus } from './modbus-responder.ts';

const ask = (plc: PlcMemory, req: ModbusRequest) => {
  const r = decodeModbusResponse(answerModbus(plc, encodeModbusRequest(req)), req);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('virtual PLC, Modbus (Panasonic map)', () => {
  it('holding registers are DT; input registers are WL and LD (LD n at 2000 + n)', () => {
    const plc = new PlcMemory('FP-X');
    expect(ask(plc, { fc: 16, address: 100, values: [7, 8, 9] })).toEqual({ fc: 16, address: 100, quantity: 3 });
    expect(plc.readWords('DT', 100, 3)).toEqual([7, 8, 9]);
    expect(ask(plc, { fc: 6, address: 32764, value: 0xbeef })).toEqual({ fc: 6, address: 32764, value: 0xbeef });
    plc.writeWords('LD', 5, [42]);
    plc.writeWords('WL', 1, [43]);
    expect(ask(plc, { fc: 4, address: 2005, quantity: 1 })).toEqual({ fc: 4, registers: [42] });
    expect(ask(plc, { fc: 4, address: 1, quantity: 1 })).toEqual({ fc: 4, registers: [43] });
    expect(ask(plc, { fc: 3, address: 100, quantity: 2 })).toEqual({ fc: 3, registers: [7, 8] });
  });

  it('coils are Y (word × 16 + bit) and R (2048 + word × 16 + bit); discrete inputs are X', () => {
    const plc = new PlcMemory('FP7');
    expect(ask(plc, { fc: 5, address: 0x10 * 16 + 0xf, value: true })).toMatchObject({ fc: 5 }); // Y10F
    expect(plc.readWords('WY', 16, 1)).toEqual([0x8000]);
    ask(plc, { fc: 15, address: 2048 + 3 * 16, values: [true, false, true] }); // R30..R32
    expect(plc.readBits('R', 48, 3)).toEqual([true, false, true]);
    plc.writeBits('X', 5, [true]);
    expect(ask(plc, { fc: 2, address: 4, quantity: 3 })).toEqual({ fc: 2, bits: [false, true, false] });
  });

  it('answers exception 02 outside the map or the memory and writes nothing; 01 for unknown functions', () => {
    const plc = new PlcMemory('FP-X');
    expect(ask(plc, { fc: 3, address: 32764, quantity: 2 })).toEqual({ fc: 3, exception: 2 }); // DT32765 is not mapped
    expect(ask(plc, { fc: 16, address: 32763, values: [1, 2, 3] })).toEqual({ fc: 16, exception: 2 });
    expect(plc.readWords('DT', 32763, 2)).toEqual([0, 0]);
    const fp0 = new PlcMemory('FP0'); // FP-Sigma map reaches DT32764, the FP0 has DT0-1659
    expect(ask(fp0, { fc: 3, address: 1660, quantity: 1 })).toEqual({ fc: 3, exception: 2 });
    expect(Array.from(answerModbus(plc, new Uint8Array([0x2b, 0x0e, 0x01, 0x00])))).toEqual([0xab, 0x01]);
  });
});
