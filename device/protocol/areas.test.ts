import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BIT_ADDRESS_RE } from '../model/fields.ts';
import { AREA_MAX as MODEL_AREA_MAX, MODBUS_ADDRESS_MAX as MODEL_MODBUS_MAX, WORD_AREAS as MODEL_WORD_AREAS } from '../model/plc.ts';
import {
  AREA_MAX,
  bitIndex,
  formatBitAddress,
  formatBitOffset,
  fromBitIndex,
  inArea,
  MODBUS_ADDRESS_MAX,
  parseBitAddress,
  parseBitOffset,
  parseWordAddress,
  WORD_AREAS,
} from './areas.ts';
import { MODBUS_FAMILIES, type ModbusTable, modbusTableOf, modbusToPlc, PANASONIC_MODBUS_MAP, type PlcRef, plcToModbus } from './panasonic-modbus.ts';

describe('areas and limits (spec §3, §9)', () => {
  it('the same areas and limits as device/model', () => {
    expect([...WORD_AREAS]).toEqual([...MODEL_WORD_AREAS]);
    expect(AREA_MAX).toEqual(MODEL_AREA_MAX);
    expect(MODBUS_ADDRESS_MAX).toBe(MODEL_MODBUS_MAX);
    expect(AREA_MAX).toEqual({ DT: 999424, LD: 16384, FL: 32765, WR: 2048, WL: 1024, WY: 512, WX: 512 });
  });

  it('word addresses', () => {
    expect(parseWordAddress('DT100')).toEqual({ ok: true, value: { area: 'DT', address: 100 } });
    expect(parseWordAddress('dt999424')).toEqual({ ok: true, value: { area: 'DT', address: 999424 } });
    expect(parseWordAddress('DT999425')).toMatchObject({ ok: false, error: { code: 'address_out_of_range' } });
    expect(parseWordAddress('WX513')).toMatchObject({ ok: false, error: { code: 'address_out_of_range' } });
    expect(parseWordAddress('QQ1')).toMatchObject({ ok: false, error: { code: 'invalid_area' } });
    expect(parseWordAddress('DT1A')).toMatchObject({ ok: false, error: { code: 'invalid_characters' } });
    expect(inArea('WR', 2040, 9)).toBe(true);
    expect(inArea('WR', 2040, 10)).toBe(false);
  });
});

describe('bit addresses (spec §5, mewtocol.md §2.1)', () => {
  it.each([
    ['R10F', { area: 'R', word: 10, bit: 15 }],
    ['X5', { area: 'X', word: 0, bit: 5 }],
    ['X1A', { area: 'X', word: 1, bit: 10 }],
    ['Y1', { area: 'Y', word: 0, bit: 1 }],
    ['Y10F', { area: 'Y', word: 10, bit: 15 }],
    ['R100A', { area: 'R', word: 100, bit: 10 }],
    ['L0F', { area: 'L', word: 0, bit: 15 }],
    ['R999F', { area: 'R', word: 999, bit: 15 }],
  ])('%s', (text, expected) => {
    expect(parseBitAddress(text)).toEqual({ ok: true, value: expected });
    expect(formatBitAddress(expected as never)).toBe(text);
  });

  it('rejects what spec §5 rejects, like device/model', () => {
    for (const bad of ['F', 'G', '1G', 'A0', '12345', '', '1000F'])
      expect(parseBitOffset(bad)).toMatchObject({ ok: false, error: { code: 'invalid_bit_address' } });
    expect(parseBitAddress('X513F')).toMatchObject({ ok: false, error: { code: 'address_out_of_range' } }); // WX 512
    expect(parseBitAddress('Q10')).toMatchObject({ ok: false, error: { code: 'invalid_area' } });
  });

  it('property: parseBitOffset accepts exactly what BIT_ADDRESS_RE of device/model accepts', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9A-Ga-g]{0,5}$/), (s) => {
        expect(parseBitOffset(s).ok).toBe(BIT_ADDRESS_RE.test(s));
      }),
      { numRuns: 1000 },
    );
  });

  it('property: format/parse round trip and the bit index (Y10F = 175)', () => {
    expect(bitIndex(10, 15)).toBe(175);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 15 }), (word, bit) => {
        expect(parseBitOffset(formatBitOffset(word, bit))).toEqual({ ok: true, value: { word, bit } });
        expect(fromBitIndex(bitIndex(word, bit))).toEqual({ word, bit });
      }),
    );
  });
});

describe('Panasonic Modbus mapping (mewtocol.md §8)', () => {
  it('the rules and range ends of the tables', () => {
    expect(modbusToPlc('coil', 0)).toEqual({ area: 'Y', word: 0, bit: 0 });
    expect(modbusToPlc('coil', 0x07ff)).toEqual({ area: 'Y', word: 127, bit: 15 }); // FP7 Y127F
    expect(modbusToPlc('coil', 0x0800)).toEqual({ area: 'R', word: 0, bit: 0 });
    expect(modbusToPlc('coil', 0x87ff)).toEqual({ area: 'R', word: 2047, bit: 15 }); // FP7 R2047F
    expect(modbusToPlc('coil', 0x06df, 'FP-XH')).toEqual({ area: 'Y', word: 109, bit: 15 }); // Y109F
    expect(modbusToPlc('coil', 0x06e0, 'FP-XH')).toBeUndefined();
    expect(modbusToPlc('coil', 0x27ff, 'FP-XH')).toEqual({ area: 'R', word: 511, bit: 15 });
    expect(modbusToPlc('discrete', 0x1fff)).toEqual({ area: 'X', word: 511, bit: 15 });
    expect(modbusToPlc('holding', 65535)).toEqual({ area: 'DT', address: 65535 });
    expect(modbusToPlc('holding', 0xfffd, 'FP-XH')).toBeUndefined(); // DT65532 is the last
    expect(modbusToPlc('holding', 0x7ffc, 'FP-Sigma')).toEqual({ area: 'DT', address: 32764 });
    expect(modbusToPlc('input', 5)).toEqual({ area: 'WL', address: 5 });
    expect(modbusToPlc('input', 2000)).toEqual({ area: 'LD', address: 0 });
    expect(modbusToPlc('input', 0x47cf)).toEqual({ area: 'LD', address: 16383 });
    expect(modbusToPlc('input', 1500)).toBeUndefined(); // between WL and LD
    expect(plcToModbus({ area: 'R', word: 1, bit: 0 })).toEqual({ table: 'coil', address: 2048 + 16 });
    expect(plcToModbus({ area: 'LD', address: 255 }, 'FP-X')).toEqual({ table: 'input', address: 2255 });
    expect(plcToModbus({ area: 'LD', address: 256 }, 'FP-X')).toBeUndefined();
    expect(plcToModbus({ area: 'FL', address: 0 })).toBeUndefined(); // not exposed
    expect(plcToModbus({ area: 'WR', address: 0 })).toBeUndefined();
    expect(modbusTableOf(16)).toBe('holding');
    expect(modbusTableOf(2)).toBe('discrete');
    expect(modbusTableOf(8)).toBeUndefined();
  });

  it('property: both directions are inverse over every family and table', () => {
    const table = fc.constantFrom<ModbusTable>('coil', 'discrete', 'holding', 'input');
    fc.assert(
      fc.property(fc.constantFrom(...MODBUS_FAMILIES), table, fc.integer({ min: 0, max: 65535 }), (family, t, address) => {
        const ref = modbusToPlc(t, address, family);
        const inTable = PANASONIC_MODBUS_MAP[family].some((s) => s.table === t && address >= s.first && address <= s.last);
        expect(ref !== undefined).toBe(inTable);
        if (ref) expect(plcToModbus(ref as PlcRef, family)).toEqual({ table: t, address });
      }),
      { numRuns: 2000 },
    );
  });
});
