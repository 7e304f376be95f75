import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { DATA_AREA_MAX, type DataPoint, datalistIssues, dataPointSchema, MAX_DATAPOINTS, SQL_OWN_COLUMNS } from '../../device/model/sections/datapoint.ts';
import { addPoint, pointAddress, removePoint } from './datalist-edit.ts';

const point = (over: Partial<DataPoint>): DataPoint => ({ ...(v.getDefaults(dataPointSchema) as DataPoint), ...over });

describe('the data point list edits of /sql and /db', () => {
  it('writes addresses as technicians do: words, relay words, relays with a hex bit, bits of a word', () => {
    expect(pointAddress(point({ area: 'DT', address: 100, type: 'REAL' }))).toBe('DT100');
    expect(pointAddress(point({ area: 'R', address: 5, type: 'INT' }))).toBe('WR5');
    expect(pointAddress(point({ area: 'R', address: 10, bit: 10, type: 'BOOL' }))).toBe('R10A');
    expect(pointAddress(point({ area: 'X', address: 0, bit: 15, type: 'BOOL' }))).toBe('X0F');
    expect(pointAddress(point({ area: 'DT', address: 7, bit: 3, type: 'BOOL' }))).toBe('DT7.3');
  });

  it('a new point has a free name and continues after the last one in its area', () => {
    const first = addPoint([]);
    expect(first).toEqual([point({ name: 'value1' })]);
    const list = [point({ name: 'value2', area: 'FL', address: 10, type: 'LREAL', endian: 'big', decimal: 12 })];
    const next = addPoint(list);
    expect(next).not.toBe('full');
    expect((next as DataPoint[])[1]).toEqual(point({ name: 'value3', area: 'FL', address: 14, type: 'LREAL', endian: 'big', decimal: 12 }));
    expect(datalistIssues(next as DataPoint[], SQL_OWN_COLUMNS)).toEqual([]);
  });

  it('at the end of an area or with a half-typed address the new point takes the defaults', () => {
    const end = [point({ name: 'a', area: 'LD', address: DATA_AREA_MAX.LD - 1, type: 'DINT' })];
    expect((addPoint(end) as DataPoint[])[1]).toEqual(point({ name: 'value2' }));
    const typing = [point({ name: 'a', address: '12x' as unknown as number })];
    expect((addPoint(typing) as DataPoint[])[1]).toEqual(point({ name: 'value2' }));
  });

  it('refuses a point past the limit of spec §9 (100)', () => {
    let list: DataPoint[] = [];
    for (let i = 0; i < MAX_DATAPOINTS; i++) list = addPoint(list) as DataPoint[];
    expect(list).toHaveLength(MAX_DATAPOINTS);
    expect(datalistIssues(list, SQL_OWN_COLUMNS)).toEqual([]);
    expect(addPoint(list)).toBe('full');
  });

  it('deleting a point moves the later ones up', () => {
    const list = ['a', 'b', 'c'].map((name) => point({ name }));
    expect(removePoint(list, 1).map((p) => p.name)).toEqual(['a', 'c']);
    expect(list).toHaveLength(3);
  });
});
