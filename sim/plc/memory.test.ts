import { describe, expect, it } from 'vitest';
import { AREA_MAX } from '../../device/model/plc.ts';
import { MemoryError, PlcMemory } from './memory.ts';
import { CPU_MODELS, CPU_PROFILES } from './profiles.ts';

describe('virtual PLC memory', () => {
  it('sizes each area for the CPU model, never beyond the limits of spec §9', () => {
    for (const m of CPU_MODELS) {
      for (const [area, size] of Object.entries(CPU_PROFILES[m].areas))
        expect(size - 1, `${m} ${area}`).toBeLessThanOrEqual(AREA_MAX[area as keyof typeof AREA_MAX]);
    }
    expect(new PlcMemory('FP7').size('DT')).toBe(AREA_MAX.DT + 1);
    expect(new PlcMemory('FP-XH').size('DT')).toBe(65533); // mewtocol.md §8: DT0-DT65532
  });

  it('reads back the words written, 16 bits each', () => {
    const m = new PlcMemory('FP-X');
    m.writeWords('DT', 1105, [0x63, 0x3344, 0x1000a]);
    expect(m.readWords('DT', 1104, 5)).toEqual([0, 0x63, 0x3344, 0x000a, 0]);
    expect(m.writes).toBe(1);
  });

  it('sees X/Y/R/L bits as the bits of WX/WY/WR/WL (bit index = word × 16 + bit)', () => {
    const m = new PlcMemory('FP-X');
    m.writeBits('Y', 0x10 * 16 + 0xf, [true]); // Y10F
    expect(m.readWords('WY', 16, 1)).toEqual([0x8000]);
    m.writeWords('WR', 2, [0b101]);
    expect(m.readBits('R', 32, 4)).toEqual([true, false, true, false]);
    m.writeBits('R', 32, [false]);
    expect(m.readWords('WR', 2, 1)).toEqual([0b100]);
  });

  it('refuses any access outside the area', () => {
    const m = new PlcMemory('FP0');
    expect(() => m.readWords('DT', 1659, 2)).toThrow(MemoryError);
    expect(() => m.readWords('DT', -1, 1)).toThrow(MemoryError);
    expect(() => m.readWords('FL', 0, 1)).toThrow(MemoryError); // FP0 has no file registers
    expect(() => m.writeBits('X', 7 * 16, [true])).toThrow(MemoryError);
    expect(m.readWords('DT', 1659, 1)).toEqual([0]);
  });
});
