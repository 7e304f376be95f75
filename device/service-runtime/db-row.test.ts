// A row of data points (db-row.ts): the logger's decoding, the CSV's rounding, bits, the refusals.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { PlcError } from '../com/dialog.ts';
import { encodeValue } from '../logger/values.ts';
import { type DataPoint, dataPointSchema } from '../model/sections/datapoint.ts';
import { columnKind, readRow, rowValue } from './db-row.ts';

const point = (over: Partial<DataPoint>): DataPoint => ({ ...(v.getDefaults(dataPointSchema) as DataPoint), name: 'p', ...over });

describe('database rows', () => {
  it("decodes with the logger's code and rounds floats to the point's decimals", () => {
    expect(rowValue(point({ type: 'REAL', decimal: 1 }), 0, encodeValue(7, 1.25, 'little'))).toBe(1.3);
    expect(rowValue(point({ type: 'DINT', endian: 'big' }), 0, encodeValue(4, -5, 'big'))).toBe(-5);
    expect(rowValue(point({ type: 'UINT64' }), 0, encodeValue(10, 2n ** 64n - 1n, 'little'))).toBe('18446744073709551615');
    expect(rowValue(point({ type: 'BOOL', bit: 15 }), 0, [0x8000])).toBe(true);
    expect(rowValue(point({ type: 'INT', enable_scal: true, scale_plc_max: 10, scale_log_max: 1, decimal: 2 }), 0, [5])).toBe(0.5);
    expect(columnKind(point({ type: 'INT', enable_scal: true }))).toBe('f64');
  });

  it('a STRING longer than 48 characters is bad_string, naming the point', () => {
    expect(() => rowValue(point({ type: 'STRING' }), 3, [60, 49, ...Array(24).fill(0x4141)])).toThrow(
      expect.objectContaining({ code: 'bad_string', point: 3 }),
    );
    expect(rowValue(point({ type: 'STRING' }), 0, [48, 2, 0x6968, ...Array(23).fill(0)])).toBe('hi');
  });

  it('a read the PLC refuses is plc_area for the first point of that read', async () => {
    const src = {
      points: [point({ name: 'a', address: 10 }), point({ name: 'b', address: 60000 })],
      interfaceId: 0,
      station: 0,
      limitOf: () => 27,
      readWords: async (_a: string, start: number, count: number) => {
        if (start >= 60000) throw new PlcError('plc_error', 'address error', 61);
        return Array(count).fill(7);
      },
    };
    await expect(readRow(src, 1)).rejects.toMatchObject({ code: 'plc_area', point: 1 });
    const ok = await readRow({ ...src, points: [src.points[0]!] }, 2);
    expect(ok).toMatchObject({ at: 2, columns: [['a', 'i16']], values: [7] });
    expect(ok.key).toMatch(/^000000000002-[0-9a-f]{8}$/);
  });
});
