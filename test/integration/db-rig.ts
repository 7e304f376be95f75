// What the SQL and NoSQL engine tests share: a daemon whose COM1 holds a virtual FP-XH (the
// service control interface and the data points' interface), data points of every type with their
// values placed in PLC memory (the logger's encoder), and the PLC side of a database block.
import * as v from 'valibot';
import { encodeValue } from '../../device/logger/values.ts';
import type { ControlBlock } from '../../device/model/blocks/convention.ts';
import { type DataPoint, dataPointSchema } from '../../device/model/sections/datapoint.ts';
import type { LogType } from '../../device/model/sections/logfile.ts';
import { readBlock, setBlock } from '../../sim/plc/blocks.ts';
import type { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { until } from './logger-rig.ts';
import { COM1 } from './mqtt-rig.ts';

export const point = (over: Partial<DataPoint>): DataPoint => ({ ...(v.getDefaults(dataPointSchema) as DataPoint), ...over });

/** A data point, its PLC value (log type code and value for the encoder), and what a database should hold. */
export interface TypedPoint {
  p: DataPoint;
  plc?: { type: LogType; value: number | bigint | string; words?: number[] };
  /** the value expected back, as text (numbers compared as numbers) */
  want: string | number | boolean;
}

/** One point of every type (INT … LREAL, STRING, BOOL, scaled), at DT1000 onwards and R5. */
export const EVERY_TYPE: TypedPoint[] = [
  { p: point({ name: 'i_int', type: 'INT', address: 1000 }), plc: { type: 0, value: -1234 }, want: '-1234' },
  { p: point({ name: 'i_uint', type: 'UINT', address: 1001 }), plc: { type: 1, value: 54321 }, want: '54321' },
  { p: point({ name: 'i_hex', type: 'HEX', address: 1002 }), plc: { type: 2, value: 0xbeef }, want: '48879' },
  { p: point({ name: 'i_bin', type: 'BIN', address: 1003 }), plc: { type: 3, value: 5 }, want: '5' },
  { p: point({ name: 'i_dint', type: 'DINT', address: 1004 }), plc: { type: 4, value: -123456789 }, want: '-123456789' },
  { p: point({ name: 'i_udint', type: 'UDINT', address: 1006 }), plc: { type: 5, value: 4000000000 }, want: '4000000000' },
  { p: point({ name: 'i_hex32', type: 'HEX32', address: 1008 }), plc: { type: 6, value: 0xdeadbeef }, want: '3735928559' },
  { p: point({ name: 'r_real', type: 'REAL', address: 1010, decimal: 2 }), plc: { type: 7, value: 21.456 }, want: 21.46 },
  { p: point({ name: 'r_realex', type: 'REALEX', address: 1012, decimal: 3 }), plc: { type: 8, value: 12345.678 }, want: 12350 },
  { p: point({ name: 'r_lreal', type: 'LREAL', address: 1014, decimal: 9 }), plc: { type: 14, value: Math.PI }, want: 3.141592654 },
  { p: point({ name: 'r_lrealex', type: 'LREALEX', address: 1018, decimal: 5 }), plc: { type: 15, value: 6.02214076e23 }, want: 6.02214e23 },
  { p: point({ name: 'i_int64', type: 'INT64', address: 1022 }), plc: { type: 9, value: -9007199254740993n }, want: '-9007199254740993' },
  { p: point({ name: 'i_uint64', type: 'UINT64', address: 1026 }), plc: { type: 10, value: 18446744073709551615n }, want: '18446744073709551615' },
  { p: point({ name: 't_ascii', type: 'ASCII', address: 1030 }), plc: { type: 11, value: 'AB' }, want: 'AB' },
  { p: point({ name: 't_dt', type: 'DT', address: 1031 }), plc: { type: 12, value: '2024-05-06 07:08:09' }, want: '2024-05-06 07:08:09' },
  { p: point({ name: 't_string', type: 'STRING', address: 1040 }), plc: { type: 13, value: 'Tank 1 "ok"' }, want: 'Tank 1 "ok"' },
  { p: point({ name: 'b_on', type: 'BOOL', address: 1070, bit: 3 }), plc: { type: 1, value: 0b1000 }, want: true },
  { p: point({ name: 'b_off', type: 'BOOL', area: 'R', address: 5, bit: 2 }), want: false },
  {
    p: point({
      name: 's_scaled',
      type: 'INT',
      address: 1071,
      decimal: 1,
      enable_scal: true,
      scale_plc_min: 0,
      scale_plc_max: 4000,
      scale_log_min: 0,
      scale_log_max: 100,
    }),
    plc: { type: 0, value: 1999 },
    want: 50, // 1999 / 40 = 49.975, rounded to one decimal
  },
];

/** Places every point's PLC value in the PLC's memory. */
export function placeValues(plc: VirtualPlc, points: readonly TypedPoint[]): void {
  for (const t of points) if (t.plc) plc.memory.writeWords('DT', t.p.address, t.plc.words ?? encodeValue(t.plc.type, t.plc.value, 'little'));
}

/** A value as a database gave it back (text) against what the point should hold. */
export function sameValue(got: unknown, want: TypedPoint['want']): boolean {
  if (typeof want === 'boolean') return want ? ['true', '1', 't'].includes(String(got)) : ['false', '0', 'f'].includes(String(got));
  if (typeof want === 'number') return Math.abs(Number(got) - want) <= Math.abs(want) * 1e-12;
  return String(got) === want;
}

/** The PLC side of a database block at `dt`. */
export function dbBlock(plc: VirtualPlc, block: ControlBlock, dt: number) {
  const read = () => readBlock(plc.memory, block, dt);
  return {
    read,
    /** asks for a row and waits until the request is finished (the counter moved) or the row waits */
    async insert(opts: { waiting?: boolean } = {}): Promise<Record<string, number>> {
      const before = read().counter!;
      setBlock(plc.memory, block, dt, { request: 1 });
      await until(() => read().request === 0, 15_000, 'request taken');
      if (opts.waiting) await until(() => read().state === 4, 15_000, 'row waiting');
      else await until(() => read().counter === ((before + 1) & 0xffff), 15_000, 'request finished');
      return read();
    },
  };
}

export { COM1 };
