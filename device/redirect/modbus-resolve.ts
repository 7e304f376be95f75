// A Modbus request through a redirect thread, resolved to PLC operations (spec §3 Port, gateway):
//
//   gateway (mb_translation)  each mapping entry publishes its PLC range from `register_area_mapped`
//                             on, in the table of its `type`: 0 holding (FC3/6/16), 1 input (FC4),
//                             2 coil (FC1/5/15), 3 discrete input (FC2); words for 0/1, 16 bits per
//                             word for 2/3 (the relays Y, R, L, X of WY, WR, WL, WX)
//   plain thread on a Modbus  the client's addresses are the PLC's own (the Panasonic map,
//   interface                 mewtocol.md §8), checked against the restrictions like MEWTOCOL
//
// Every address must resolve and be granted for the operation, else exception 02 and nothing is
// sent to the PLC. Unknown function codes are exception 01 (the decoder's answer).

import { COIL, DISCRETE, mappedWidth, type Restriction } from '../model/sections/redirect.ts';
import {
  BIT_AREA_WORDS,
  type BitArea,
  MODBUS_EXCEPTION,
  type ModbusRequest,
  type ModbusTable,
  modbusTableOf,
  modbusToPlc,
  type WordArea,
} from '../protocol/index.ts';
import { allowed, type Op } from './access.ts';

export type PlcOp =
  | { kind: 'words'; op: Op; area: WordArea; start: number; count: number; values?: number[] }
  | { kind: 'bits'; op: Op; area: BitArea; index: number; count: number; values?: boolean[] };

const TABLE_TYPE: Record<ModbusTable, number> = { holding: 0, input: 1, coil: COIL, discrete: DISCRETE };
const BIT_OF: Partial<Record<WordArea, BitArea>> = { WX: 'X', WY: 'Y', WR: 'R', WL: 'L' };
const WORD_OF = BIT_AREA_WORDS;

type Addr = { area: WordArea; word: number; bit?: number };

function span(req: ModbusRequest): { address: number; count: number; op: Op; values?: (number | boolean)[] } {
  switch (req.fc) {
    case 1:
    case 2:
    case 3:
    case 4:
      return { address: req.address, count: req.quantity, op: 'read' };
    case 5:
      return { address: req.address, count: 1, op: 'write', values: [req.value] };
    case 6:
      return { address: req.address, count: 1, op: 'write', values: [req.value] };
    case 15:
      return { address: req.address, count: req.values.length, op: 'write', values: req.values };
    case 16:
      return { address: req.address, count: req.values.length, op: 'write', values: req.values };
  }
}

function viaGateway(mapping: readonly Restriction[], table: ModbusTable, address: number): Addr | undefined {
  const type = TABLE_TYPE[table];
  const bits = type === COIL || type === DISCRETE;
  const r = mapping.find(
    (e) => e.type === type && e.read_write !== 'BLK' && address >= e.register_area_mapped && address < e.register_area_mapped + mappedWidth(e),
  );
  if (!r) return undefined;
  const off = address - r.register_area_mapped;
  return bits ? { area: r.area, word: r.register_area_start + (off >> 4), bit: off & 15 } : { area: r.area, word: r.register_area_start + off };
}

function viaPanasonicMap(table: ModbusTable, address: number): Addr | undefined {
  const ref = modbusToPlc(table, address);
  if (!ref) return undefined;
  return 'address' in ref ? { area: ref.area, word: ref.address } : { area: WORD_OF[ref.area], word: ref.word, bit: ref.bit };
}

/** PLC operations for the request (consecutive addresses merged), or the exception to answer. */
export function resolveModbus(req: ModbusRequest, mapping: readonly Restriction[], gateway: boolean): PlcOp[] | number {
  const table = modbusTableOf(req.fc)!;
  const s = span(req);
  const ops: PlcOp[] = [];
  for (let i = 0; i < s.count; i++) {
    const a = gateway ? viaGateway(mapping, table, s.address + i) : viaPanasonicMap(table, s.address + i);
    if (!a || !allowed(mapping, a.area, a.word, 1, s.op)) return MODBUS_EXCEPTION.ILLEGAL_DATA_ADDRESS;
    const value = s.values?.[i];
    const last = ops[ops.length - 1];
    if (a.bit === undefined) {
      if (last?.kind === 'words' && last.area === a.area && last.start + last.count === a.word) {
        last.count++;
        if (value !== undefined) last.values!.push(value as number);
      } else ops.push({ kind: 'words', op: s.op, area: a.area, start: a.word, count: 1, ...(value !== undefined ? { values: [value as number] } : {}) });
    } else {
      const bitArea = BIT_OF[a.area];
      if (!bitArea) return MODBUS_EXCEPTION.ILLEGAL_DATA_ADDRESS;
      const index = a.word * 16 + a.bit;
      if (last?.kind === 'bits' && last.area === bitArea && last.index + last.count === index) {
        last.count++;
        if (value !== undefined) last.values!.push(value as boolean);
      } else ops.push({ kind: 'bits', op: s.op, area: bitArea, index, count: 1, ...(value !== undefined ? { values: [value as boolean] } : {}) });
    }
  }
  return ops;
}
