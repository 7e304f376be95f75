// A row as an InfluxDB line and as a MongoDB document (documents.ts). MongoDB has no server on
// these machines: the document is checked here with the driver's own BSON types.

import { BSON } from 'mongodb';
import { describe, expect, it } from 'vitest';
import type { DbRow } from '../service-runtime/db-row.ts';
import { influxFieldConflicts, influxFieldType, influxLine, influxRefusal, mongoDocument } from './documents.ts';

const row: DbRow = {
  key: '018bcfe56800-0a1b2c3d',
  at: 1_700_000_000_123,
  columns: [
    ['level', 'f64'],
    ['count', 'i32'],
    ['total', 'u32'],
    ['big', 'i64'],
    ['huge', 'u64'],
    ['pump', 'bool'],
    ['batch', 'string'],
    ['stamp', 'datetime'],
  ],
  values: [21, 42, 4_000_000_000, '-9007199254740993', '18446744073709551615', true, 'say "hi" \\ ok', '2024-05-06 07:08:09'],
};

describe('NoSQL documents', () => {
  it('InfluxDB: measurement, the tag, typed fields, the time in ms', () => {
    const r = { ...row, columns: row.columns.filter(([n]) => n !== 'huge'), values: row.values.filter((_, i) => i !== 4) };
    expect(influxLine('tank', { name: 'site', value: 'north' }, r)).toBe(
      'tank,site=north level=21,count=42i,total=4000000000i,big=-9007199254740993i,pump=true,' +
        'batch="say \\"hi\\" \\\\ ok",stamp="2024-05-06 07:08:09" 1700000000123',
    );
    expect(influxLine('tank', undefined, { ...r, columns: [['level', 'f64']], values: [1.5] })).toBe('tank level=1.5 1700000000123');
  });

  it('InfluxDB cannot hold an unsigned 64-bit value above 2^63-1, NaN or infinity', () => {
    expect(influxRefusal('u64', '18446744073709551615')).toMatch(/above InfluxDB's largest integer/);
    expect(influxRefusal('u64', '9223372036854775807')).toBe('');
    expect(influxRefusal('f64', Number.NaN)).toMatch(/no InfluxDB field value/);
  });

  it('MongoDB: _id the row key, a date, Long, Decimal128 and Double as BSON types', () => {
    const doc = mongoDocument(BSON, row);
    expect(doc._id).toBe('018bcfe56800-0a1b2c3d');
    expect(doc.time_stamp).toEqual(new Date(1_700_000_000_123));
    const back = BSON.deserialize(BSON.serialize(doc), { promoteValues: false });
    expect(back.level).toBeInstanceOf(BSON.Double); // whole, still a double
    expect(back.count).toBeInstanceOf(BSON.Int32);
    expect(back.total).toEqual(BSON.Long.fromString('4000000000'));
    expect(back.big.toString()).toBe('-9007199254740993');
    expect(back.huge).toBeInstanceOf(BSON.Decimal128);
    expect(back.huge.toString()).toBe('18446744073709551615');
    expect(BSON.deserialize(BSON.serialize(doc))).toMatchObject({ pump: true, batch: 'say "hi" \\ ok', stamp: '2024-05-06 07:08:09' });
  });
});

describe('InfluxDB field types (what the NoSQL test checks a measurement against)', () => {
  it('each kind is the type its line writes', () => {
    expect(row.columns.map(([, k]) => influxFieldType(k))).toEqual(['float', 'integer', 'integer', 'integer', 'integer', 'boolean', 'string', 'string']);
  });

  it('a field of another type is a conflict; a field the measurement lacks, or one of the same type, is none', () => {
    expect(influxFieldConflicts(row.columns, [])).toBe('');
    expect(
      influxFieldConflicts(row.columns, [
        ['level', 'float'],
        ['other', 'string'],
      ]),
    ).toBe('');
    expect(
      influxFieldConflicts(row.columns, [
        ['level', 'integer'],
        ['pump', 'boolean'],
        ['count', 'float'],
        ['count', 'integer'],
      ]),
    ).toBe('field level is integer, the data point writes float; field count is float, the data point writes integer');
  });
});
