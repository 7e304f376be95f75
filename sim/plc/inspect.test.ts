import { describe, expect, it } from 'vitest';
import { InspectError, readPlcMemory, writePlcMemory } from './inspect.ts';
import { PlcMemory } from './memory.ts';

describe("inspecting a virtual PLC's memory by address", () => {
  it('reads and writes words at word addresses', () => {
    const m = new PlcMemory('FP-X');
    m.writeWords('DT', 101, [7, 8]);
    expect(readPlcMemory(m, 'DT100', 4)).toEqual([0, 7, 8, 0]);
    writePlcMemory(m, 'DT5', [1, 2]);
    expect(m.readWords('DT', 5, 2)).toEqual([1, 2]);
    writePlcMemory(m, 'dt7', [-1]);
    expect(readPlcMemory(m, 'DT7')).toEqual([0xffff]);
    writePlcMemory(m, 'LD3', [42]);
    expect(m.readWords('LD', 3, 1)).toEqual([42]);
  });

  it('reads and writes bits at bit addresses, seen in the word view', () => {
    const m = new PlcMemory('FP-XH');
    writePlcMemory(m, 'R10', [true]); // word 1, bit 0
    expect(m.readWords('WR', 1, 1)).toEqual([1]);
    writePlcMemory(m, 'Y1F', [true, true]); // Y1F and Y20
    expect(readPlcMemory(m, 'WY1', 2)).toEqual([0x8000, 0x0001]);
    expect(readPlcMemory(m, 'Y1E', 3)).toEqual([false, true, true]);
  });

  it.each([
    ['QQ1', /^QQ1: "QQ1" does not start with X, Y, R or L$/],
    ['XY1', /^XY1: "Y1" is not a bit address/],
    ['DT1A', /address must be decimal digits/],
    ['R1G', /is not a bit address/],
    ['DT999425', /DT999425 beyond 999424/],
  ])('refuses the address %s', (address, message) => {
    const m = new PlcMemory('FP7');
    expect(() => readPlcMemory(m, address)).toThrow(InspectError);
    expect(() => readPlcMemory(m, address)).toThrow(message);
  });

  it("refuses what lies outside the model's memory and values of the wrong kind", () => {
    const m = new PlcMemory('FP0'); // DT0-DT1659, no LD
    expect(() => readPlcMemory(m, 'DT1659', 2)).toThrow("DT1659: DT1659..1660 is outside the PLC's memory");
    expect(() => writePlcMemory(m, 'LD0', [1])).toThrow(InspectError);
    expect(() => writePlcMemory(m, 'DT0', [true])).toThrow('DT0 is a word address');
    expect(() => writePlcMemory(m, 'DT0', [70000])).toThrow('DT0 is a word address');
    expect(() => writePlcMemory(m, 'R0', [1])).toThrow('R0 is a bit address');
    expect(() => writePlcMemory(m, 'R0', [])).toThrow('no values');
    expect(() => readPlcMemory(m, 'DT0', 0)).toThrow('count 0');
    expect(m.writes).toBe(0);
  });
});
