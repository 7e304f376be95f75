// `npm run plc -- iec event <COMn> <type> <ioa> <value> [name=value…]`: puts one IEC 104 monitor
// event into a virtual PLC's ring buffer as a PLC program would (docs/iec104.md "The PLC side"):
// reads the unit's read index R and the write index W, writes the record into slot W when the ring
// has room, then W + 1. The buffers are the unit's defaults for a connection entry unless named
// (area=, rbm=, ring=, depth=, as the entry's area, plc_buffer_rbm, plc_buffer_m, plc_buffer_m_depth).
import * as v from 'valibot';
import type { EventType } from '../device/iec104/points.ts';
import { encodeRecord, RECORD_TYPES, type RecordTypeName } from '../device/model/blocks/iec104.ts';
import { connectionSchema, IEC_AREAS, type IecConnection, MONITOR_DEPTH_MAX, MONITOR_DEPTH_MIN } from '../device/model/sections/iec.ts';
import type { ElementValue } from '../device/protocol/iec104/elements.ts';
import { type IecLayout, ringWrite } from './plc/iec104-program.ts';
import { SIM_PLC_PATH } from './plc-routes.ts';

export const IEC_USAGE = `iec event <COMn> <type> <ioa> <value> [quality=N] [group=N] [transient=1]
                                    [area=DT|FL|LD] [rbm=N] [ring=N] [depth=N]
                                    one IEC 104 event into the PLC's monitor ring, e.g.
                                    iec event COM1 scaled 100 -42, iec event COM1 single 200 1 quality=0x80;
                                    type: ${Object.keys(RECORD_TYPES).join(', ')} or its number`;

export interface IecEventLine {
  connector: string;
  layout: IecLayout;
  record: number[];
}

const D = v.getDefaults(connectionSchema) as IecConnection;

function num(text: string, what: string): number {
  const n = /^-?0x[0-9a-f]+$/i.test(text) ? Number.parseInt(text, 16) : Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new Error(`iec event: ${what} "${text}" is not a number`);
  return n;
}

function whole(text: string, what: string, min: number, max: number): number {
  const n = num(text, what);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`iec event: ${what} ${text} is not a whole number ${min}-${max}`);
  return n;
}

function elementOf(type: EventType, value: number, quality: number, transient: boolean): ElementValue {
  switch (type) {
    case 1:
      return { kind: 'siq', value: value !== 0, quality };
    case 3:
      return { kind: 'diq', value, quality };
    case 5:
      return { kind: 'vti_qds', value, transient, quality };
    case 7:
      return { kind: 'bsi_qds', value, quality };
    case 9:
      return { kind: 'nva_qds', value, quality };
    case 11:
      return { kind: 'sva_qds', value, quality };
    case 13:
      return { kind: 'r32_qds', value, quality };
    case 15:
      // the quality word of a counter is its last octet: sequence, CY, CA, IV
      return { kind: 'bcr', value, sequence: quality & 31, carry: (quality & 0x20) !== 0, adjusted: (quality & 0x40) !== 0, invalid: (quality & 0x80) !== 0 };
  }
}

/** The event a command line stands for (the words after `iec`); throws with what is wrong. */
export function iecEventLine(args: readonly string[]): IecEventLine {
  const [sub, connector = '', typeText = '', ioaText = '', valueText, ...opts] = args;
  if (sub !== 'event') throw new Error(`iec: unknown command "${sub ?? ''}" (iec event …)`);
  if (!/^COM\d$/i.test(connector)) throw new Error('iec event: give a connector, e.g. iec event COM1 scaled 100 42');
  const byName = RECORD_TYPES[typeText as RecordTypeName] as number | undefined;
  const type = (byName ?? (/^\d+$/.test(typeText) ? Number(typeText) : undefined)) as EventType | undefined;
  if (type === undefined || !(Object.values(RECORD_TYPES) as number[]).includes(type))
    throw new Error(`iec event: type "${typeText}" is not one of ${Object.keys(RECORD_TYPES).join(', ')} (or 1, 3, 5, 7, 9, 11, 13, 15)`);
  const ioa = whole(ioaText, 'IOA', 1, 0xffffff);
  if (valueText === undefined) throw new Error('iec event: give a value, e.g. iec event COM1 scaled 100 42');
  const named: Record<string, string> = {};
  for (const o of opts) {
    const m = /^(quality|group|transient|area|rbm|ring|depth)=(.+)$/.exec(o);
    if (!m) throw new Error(`iec event: "${o}" is not one of quality=, group=, transient=, area=, rbm=, ring=, depth=`);
    named[m[1]!] = m[2]!;
  }
  const area = (named.area ?? D.area).toUpperCase();
  if (!(IEC_AREAS as readonly string[]).includes(area)) throw new Error(`iec event: area ${area} is not one of ${IEC_AREAS.join(', ')}`);
  const layout: IecLayout = {
    area: area as IecLayout['area'],
    read_index: named.rbm !== undefined ? whole(named.rbm, 'rbm', 0, 99999) : D.plc_buffer_rbm,
    ring: named.ring !== undefined ? whole(named.ring, 'ring', 0, 99999) : D.plc_buffer_m,
    depth: named.depth !== undefined ? whole(named.depth, 'depth', MONITOR_DEPTH_MIN, MONITOR_DEPTH_MAX) : D.plc_buffer_m_depth,
  };
  const value = type === 13 ? num(valueText, 'value') : whole(valueText, 'value', -0x80000000, 0xffffffff);
  const quality = named.quality !== undefined ? whole(named.quality, 'quality', 0, 255) : 0;
  const group = named.group !== undefined ? whole(named.group, 'group', 0, 16) : 0;
  const element = elementOf(type, value, quality, named.transient === '1' || named.transient === 'true');
  try {
    return { connector: connector.toUpperCase(), layout, record: encodeRecord({ type, ioa, group, element }) };
  } catch (e) {
    throw new Error(`iec event: ${(e as Error).message}`);
  }
}

/** Word access to a virtual PLC (the simulator's memory routes, or a PlcMemory in tests). */
export interface WordIo {
  read(address: string, count: number): Promise<number[]>;
  write(address: string, values: number[]): Promise<void>;
}

/** Puts the event into the ring; answers the slot it took, or undefined when the ring is full. */
export async function pushIecEvent(line: IecEventLine, io: WordIo): Promise<number | undefined> {
  const { layout } = line;
  const [read = 0] = await io.read(`${layout.area}${layout.read_index}`, 1);
  const [write = 0] = await io.read(`${layout.area}${layout.ring}`, 1);
  const plan = ringWrite(layout, read, write, line.record);
  if (!plan.room) return undefined;
  for (const w of plan.writes) await io.write(`${layout.area}${w.start}`, w.words);
  return write;
}

/**
 * Word access through the simulator's memory routes (GET and POST …/<COMn>/memory, sim/plc-routes.ts);
 * an answer that is not ok throws with the route's message.
 */
export function routesWordIo(base: string, connector: string, fetchFn: typeof fetch = fetch): WordIo {
  const at = `${base}${SIM_PLC_PATH}/${encodeURIComponent(connector)}/memory`;
  const call = async (url: string, init?: RequestInit): Promise<{ values?: number[] }> => {
    const res = await fetchFn(url, init);
    const body = (await res.json()) as { values?: number[]; error?: { message: string } };
    if (!res.ok) throw new Error(body.error?.message ?? `HTTP ${res.status}`);
    return body;
  };
  return {
    read: async (address, count) => (await call(`${at}?address=${encodeURIComponent(address)}&count=${count}`)).values ?? [],
    write: async (address, values) => {
      await call(at, { method: 'POST', body: JSON.stringify({ address, values }), headers: { 'content-type': 'application/json' } });
    },
  };
}
