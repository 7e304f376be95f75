// How Panasonic FP PLCs expose their areas over Modbus (mewtocol.md §8), as data and a pure
// mapping both ways. Addresses are the 0-based protocol addresses ("data on bus").
//   coils (FC1/5/15):        Y = word×16+bit; R = 2048 + word×16+bit
//   discrete inputs (FC2):   X = word×16+bit
//   holding registers (FC3/6/16): DT n = n
//   input registers (FC4):   WL n = n; LD n = 2000 + n
// The extent differs per family (table below); WX/WY/WR as words, FL and L are not exposed.
import { type BitArea, bitIndex, fromBitIndex, type WordArea } from './areas.ts';

export type ModbusTable = 'coil' | 'discrete' | 'holding' | 'input';
export const MODBUS_FAMILIES = ['FP-Sigma', 'FP-X', 'FP-XH', 'FP7'] as const;
export type ModbusFamily = (typeof MODBUS_FAMILIES)[number];

/** A PLC element: a relay bit or a data word. */
export type PlcRef = { area: BitArea; word: number; bit: number } | { area: WordArea; address: number };

interface Segment {
  table: ModbusTable;
  area: 'Y' | 'R' | 'X' | 'DT' | 'WL' | 'LD';
  first: number; // Modbus address of element 0
  last: number; // last Modbus address of the segment
}

const seg = (table: ModbusTable, area: Segment['area'], first: number, last: number): Segment => ({ table, area, first, last });

// mewtocol.md §8 address tables: FP-Sigma [FPS], FP-X [FPE], FP-XH [FPXH], FP7 [FP7MB]
export const PANASONIC_MODBUS_MAP: Readonly<Record<ModbusFamily, readonly Segment[]>> = {
  'FP-Sigma': [
    seg('coil', 'Y', 0, 0x049f),
    seg('coil', 'R', 0x0800, 0x17ff),
    seg('discrete', 'X', 0, 0x049f),
    seg('holding', 'DT', 0, 0x7ffc),
    seg('input', 'WL', 0, 0x7f),
    seg('input', 'LD', 0x07d0, 0x08cf),
  ],
  'FP-X': [
    seg('coil', 'Y', 0, 2047),
    seg('coil', 'R', 2048, 9998),
    seg('discrete', 'X', 0, 9998),
    seg('holding', 'DT', 0, 32764),
    seg('input', 'WL', 0, 127),
    seg('input', 'LD', 2000, 2255),
  ],
  'FP-XH': [
    seg('coil', 'Y', 0, 0x06df),
    seg('coil', 'R', 0x0800, 0x27ff),
    seg('discrete', 'X', 0, 0x06df),
    seg('holding', 'DT', 0, 0xfffc),
    seg('input', 'WL', 0, 0x7f),
    seg('input', 'LD', 0x07d0, 0x08cf),
  ],
  FP7: [
    seg('coil', 'Y', 0, 0x07ff),
    seg('coil', 'R', 0x0800, 0x87ff),
    seg('discrete', 'X', 0, 0x1fff),
    seg('holding', 'DT', 0, 0xffff),
    seg('input', 'WL', 0, 0x03ff),
    seg('input', 'LD', 0x07d0, 0x47cf),
  ],
};

/** The table a function code works on (§8: 1/5/15 coils, 2 inputs, 3/6/16 holding, 4 input registers). */
export function modbusTableOf(fc: number): ModbusTable | undefined {
  return ({ 1: 'coil', 5: 'coil', 15: 'coil', 2: 'discrete', 3: 'holding', 6: 'holding', 16: 'holding', 4: 'input' } as const)[fc as 1];
}

const isBit = (a: Segment['area']): a is 'X' | 'Y' | 'R' => a === 'X' || a === 'Y' || a === 'R';

/** The PLC element a Modbus address reaches, or undefined outside the family's table. */
export function modbusToPlc(table: ModbusTable, address: number, family: ModbusFamily = 'FP7'): PlcRef | undefined {
  const s = PANASONIC_MODBUS_MAP[family].find((x) => x.table === table && address >= x.first && address <= x.last);
  if (!s || !Number.isInteger(address)) return undefined;
  const index = address - s.first;
  return isBit(s.area) ? { area: s.area, ...fromBitIndex(index) } : { area: s.area, address: index };
}

/** The Modbus table and address of a PLC element, or undefined when the family does not expose it. */
export function plcToModbus(ref: PlcRef, family: ModbusFamily = 'FP7'): { table: ModbusTable; address: number } | undefined {
  const index = 'bit' in ref ? (ref.bit >= 0 && ref.bit <= 15 ? bitIndex(ref.word, ref.bit) : -1) : ref.address;
  const s = PANASONIC_MODBUS_MAP[family].find((x) => x.area === ref.area);
  if (!s || !Number.isInteger(index) || index < 0 || s.first + index > s.last) return undefined;
  return { table: s.table, address: s.first + index };
}
