// The data point rules, checked through the SQL section (NoSQL shares them: see nosql.test.ts).

import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { expectAccepted, expectMaxLength, expectRange, expectRejected } from '../testing.ts';
import { type DataPoint, dataPointSchema, wordsOf } from './datapoint.ts';
import { pew_sql } from './sql.ts';

const point = (over: Partial<DataPoint> = {}): DataPoint => ({ ...(v.getDefaults(dataPointSchema) as DataPoint), name: 'temp', ...over });
const one = (over: Partial<DataPoint>) => (x: any) => (x.datalist = [point(over)]);
const at = (f: string) => `datalist.0.${f}`;

describe('SQL/NoSQL data points', () => {
  it('defaults: DT 0, INT, little endian, 0 decimals, scaling off', () => {
    expect(v.getDefaults(dataPointSchema)).toMatchObject({ name: '', area: 'DT', address: 0, type: 'INT', endian: 'little', decimal: 0, enable_scal: false });
    expectAccepted(pew_sql, one({}));
  });

  it('datalist holds at most 100 points (spec §9)', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => point({ name: `p${i}` }));
    expectAccepted(pew_sql, (x) => (x.datalist = many(100)));
    expectRejected(pew_sql, (x) => (x.datalist = many(101)), 'datalist', 'too_many', { max: 100 });
  });

  it('column name: required, 70 characters, starts with a letter, unique (spec §5, §9)', () => {
    expectRejected(pew_sql, one({ name: '' }), at('name'), 'required');
    expectMaxLength(pew_sql, (x, s) => (x.datalist = [point({ name: s })]), at('name'), 70);
    expectRejected(pew_sql, one({ name: '1st' }), at('name'), 'must_start_with_letter');
    expectRejected(pew_sql, one({ name: 'a b' }), at('name'), 'invalid_characters');
    expectRejected(pew_sql, one({ name: 'x;drop' }), at('name'), 'invalid_characters');
    expectRejected(pew_sql, (x) => (x.datalist = [point({ name: 'Temp' }), point({ name: 'temp' })]), 'datalist.1.name', 'duplicate');
    // the columns the unit writes itself beside the points (docs/services.md "SQL rows")
    expectRejected(pew_sql, one({ name: 'time_stamp' }), at('name'), 'name_reserved', { name: 'time_stamp' });
    expectRejected(pew_sql, one({ name: 'Row_Key' }), at('name'), 'name_reserved', { name: 'Row_Key' });
  });

  it('unit 7 characters (spec §9)', () => {
    expectMaxLength(pew_sql, (x, s) => (x.datalist = [point({ unit: s })]), at('unit'), 7);
  });

  it('decimals 0-9, 0-18 for 64-bit types (spec §9)', () => {
    // the field takes 0-18; the 9 of the narrower types is a rule on the point
    expectAccepted(pew_sql, one({ type: 'INT', decimal: 9 }));
    expectRejected(pew_sql, one({ type: 'REAL', decimal: 10 }), at('decimal'), 'out_of_range', { min: 0, max: 9 });
    expectRejected(pew_sql, one({ type: 'INT', decimal: -1 }), at('decimal'), 'out_of_range');
    expectRange(pew_sql, (x, n) => (x.datalist = [point({ type: 'LREAL', decimal: n })]), at('decimal'), 0, 18);
    expectAccepted(pew_sql, one({ type: 'UINT64', decimal: 18 }));
  });

  it('data formats and endianness of spec §3', () => {
    for (const type of ['HEX32', 'REALEX', 'LREALEX', 'ASCII', 'DT', 'STRING', 'BOOL'] as const) expectAccepted(pew_sql, one({ type }));
    expectRejected(pew_sql, one({ type: 'WORD' as never }), at('type'), 'invalid_value');
    for (const endian of ['big', 'middle', 'mixed'] as const) expectAccepted(pew_sql, one({ endian }));
    expectRejected(pew_sql, one({ endian: 'pdp' as never }), at('endian'), 'invalid_value');
    expectRange(pew_sql, (x, n) => (x.datalist = [point({ type: 'BOOL', bit: n })]), at('bit'), 0, 15);
  });

  it('the whole value lies inside its area (spec §9 area limits)', () => {
    expect([wordsOf('INT'), wordsOf('REAL'), wordsOf('LREAL'), wordsOf('STRING')]).toEqual([1, 2, 4, 26]);
    expectAccepted(pew_sql, one({ address: 999424 }));
    expectRejected(pew_sql, one({ address: 999425 }), at('address'), 'out_of_range', { min: 0, max: 999424 });
    expectAccepted(pew_sql, one({ type: 'DINT', address: 999423 }));
    expectRejected(pew_sql, one({ type: 'DINT', address: 999424 }), at('address'), 'address_out_of_range', { min: 0, max: 999423 });
    expectAccepted(pew_sql, one({ type: 'STRING', address: 999399 }));
    expectRejected(pew_sql, one({ type: 'STRING', address: 999400 }), at('address'), 'address_out_of_range', { max: 999399 });
    expectAccepted(pew_sql, one({ area: 'R', address: 2048 }));
    expectRejected(pew_sql, one({ area: 'R', address: 2049 }), at('address'), 'address_out_of_range', { max: 2048 });
    expectRejected(pew_sql, one({ area: 'X', type: 'LREAL', address: 510 }), at('address'), 'address_out_of_range', { max: 509 });
    expectAccepted(pew_sql, one({ area: 'X', type: 'LREAL', address: 509 }));
    expectRejected(pew_sql, one({ area: 'WX' as never }), at('area'), 'invalid_value');
  });

  it('scaling: PLC span must not be empty or reversed; log ends may be reversed', () => {
    const scal = { enable_scal: true, scale_plc_min: 0, scale_plc_max: 27648, scale_log_min: 100, scale_log_max: -20.5 };
    expectAccepted(pew_sql, one(scal));
    expectRejected(pew_sql, one({ ...scal, scale_plc_max: 0 }), at('scale_plc_min'), 'start_after_end');
    expectRejected(pew_sql, one({ ...scal, scale_plc_min: 1, scale_plc_max: 0 }), at('scale_plc_min'), 'start_after_end');
    expectAccepted(pew_sql, one({ scale_plc_min: 5, scale_plc_max: 5 })); // ignored while scaling is off
    const max = Number.MAX_SAFE_INTEGER;
    expectRange(pew_sql, (x, n) => (x.datalist = [point({ scale_log_max: n })]), at('scale_log_max'), -max, max);
  });
});
