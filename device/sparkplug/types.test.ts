import { describe, expect, it } from 'vitest';
import { LOG_TYPE_CODES } from '../model/sections/logfile.ts';
import { acceptedFields, DATATYPES, fromSparkplug, pointDataType, toSparkplug, valueField } from './types.ts';

const point = (type: number, extra: object = {}) => ({ type, area: 1, enable_scal: false, ...extra }) as Parameters<typeof pointDataType>[0];

describe('Sparkplug datatypes of the logger types (payloads-metric-datatype-value-type, payloads-metric-datatype-value)', () => {
  it('every logger type, a bit point and a scaled point have a datatype and a value field', () => {
    const names = LOG_TYPE_CODES.map((t) => pointDataType(point(t)));
    expect(names).toEqual([2, 6, 6, 6, 3, 7, 7, 9, 9, 4, 8, 12, 13, 12, 10, 10]);
    expect(pointDataType(point(4, { area: 6 }))).toBe(DATATYPES.Boolean);
    expect(pointDataType(point(0, { enable_scal: true }))).toBe(DATATYPES.Double);
    expect(pointDataType(point(13, { enable_scal: true }))).toBe(DATATYPES.String);
    expect(LOG_TYPE_CODES.map((t) => valueField(pointDataType(point(t))))).toEqual([
      'int_value',
      'int_value',
      'int_value',
      'int_value',
      'int_value',
      'long_value',
      'long_value',
      'float_value',
      'float_value',
      'long_value',
      'long_value',
      'string_value',
      'long_value',
      'string_value',
      'double_value',
      'double_value',
    ]);
  });

  it('UInt32 is sent in long_value and taken from int_value or long_value', () => {
    expect(valueField(DATATYPES.UInt32)).toBe('long_value');
    expect(acceptedFields(DATATYPES.UInt32)).toEqual(['int_value', 'long_value']);
    expect(acceptedFields(DATATYPES.Int16)).toEqual(['int_value']);
  });

  it('logged values as Sparkplug values: 64-bit as bigint, dt as ms since 1970, bits as Boolean, failed reads null', () => {
    expect(toSparkplug(DATATYPES.Int16, -5)).toBe(-5);
    expect(toSparkplug(DATATYPES.Int64, -(2n ** 63n))).toBe(-(2n ** 63n));
    expect(toSparkplug(DATATYPES.UInt64, 2n ** 64n - 1n)).toBe(2n ** 64n - 1n);
    expect(toSparkplug(DATATYPES.DateTime, '2001-01-01 00:00:10')).toBe(978307210000n);
    expect(toSparkplug(DATATYPES.DateTime, 'bad')).toBeNull();
    expect(toSparkplug(DATATYPES.Boolean, 1)).toBe(true);
    expect(toSparkplug(DATATYPES.Boolean, 0)).toBe(false);
    expect(toSparkplug(DATATYPES.Double, 2.5)).toBe(2.5);
    expect(toSparkplug(DATATYPES.String, 'ab')).toBe('ab');
    expect(toSparkplug(DATATYPES.Float, null)).toBeNull();
    expect(toSparkplug(DATATYPES.Int32, 'x')).toBeNull();
  });

  it('command values: in range of the type, of a suiting kind, never for scaled points (operational-behavior-data-commands-dcmd-metric-value)', () => {
    expect(fromSparkplug(point(0), -32768)).toEqual({ ok: true, value: -32768 });
    expect(fromSparkplug(point(0), 32768)).toEqual({ ok: false, reason: 'range' });
    expect(fromSparkplug(point(1), -1)).toEqual({ ok: false, reason: 'range' });
    expect(fromSparkplug(point(5), 2 ** 32 - 1)).toEqual({ ok: true, value: 2 ** 32 - 1 });
    expect(fromSparkplug(point(5), 2n ** 32n)).toEqual({ ok: false, reason: 'range' });
    expect(fromSparkplug(point(9), -(2n ** 63n))).toEqual({ ok: true, value: -(2n ** 63n) });
    expect(fromSparkplug(point(10), 2n ** 64n)).toEqual({ ok: false, reason: 'range' });
    expect(fromSparkplug(point(0), 1.5)).toEqual({ ok: false, reason: 'range' });
    expect(fromSparkplug(point(0), 'x')).toEqual({ ok: false, reason: 'type' });
    expect(fromSparkplug(point(7), 1.5)).toEqual({ ok: true, value: 1.5 });
    expect(fromSparkplug(point(7), Number.NaN)).toEqual({ ok: false, reason: 'range' });
    expect(fromSparkplug(point(7), 1e39)).toEqual({ ok: false, reason: 'range' });
    expect(fromSparkplug(point(14), Number.POSITIVE_INFINITY)).toEqual({ ok: false, reason: 'range' });
    expect(fromSparkplug(point(13), 'abc')).toEqual({ ok: true, value: 'abc' });
    expect(fromSparkplug(point(12), 978307210000n)).toEqual({ ok: true, value: '2001-01-01 00:00:10' });
    expect(fromSparkplug(point(12), 978307200000n - 1000n)).toEqual({ ok: false, reason: 'range' });
    expect(fromSparkplug(point(12), 978307210001n)).toEqual({ ok: false, reason: 'range' });
    expect(fromSparkplug(point(0, { area: 6 }), true)).toEqual({ ok: true, value: 1 });
    expect(fromSparkplug(point(0, { area: 6 }), 1)).toEqual({ ok: false, reason: 'type' });
    expect(fromSparkplug(point(0, { enable_scal: true }), 1)).toEqual({ ok: false, reason: 'scaled' });
  });
});
