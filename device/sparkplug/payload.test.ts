import spp from 'sparkplug-payload';
import { describe, expect, it } from 'vitest';
import {
  asksRebirth,
  type CommandMetric,
  commandValue,
  dbirthMessage,
  ddataMessage,
  ddeathMessage,
  loadPayloads,
  MAX_COMMAND_BYTES,
  type MetricValue,
  nbirthMessage,
  ndeathMessage,
} from './payload.ts';
import { DATATYPES, type DataType, type DataTypeName, type SparkplugValue } from './types.ts';

const tahu = spp.get('spBv1.0')!;
const codec = await loadPayloads();
const T = 1_764_800_000_123; // a payload timestamp, ms
/** A Tahu value as a bigint: its 64-bit values are Long objects (Int64 comes back unsigned: read it as two's complement). */
const big = (v: unknown, signed = false): bigint => (signed ? BigInt.asIntN(64, BigInt(String(v))) : BigInt(String(v)));

// every scalar datatype with its extremes and a negative where it has one
const CASES: [DataTypeName, SparkplugValue][] = [
  ['Int8', -128],
  ['Int8', 127],
  ['Int8', -1],
  ['Int16', -32768],
  ['Int16', 32767],
  ['Int32', -2147483648],
  ['Int32', 2147483647],
  ['Int64', -(2n ** 63n)],
  ['Int64', 2n ** 63n - 1n],
  ['Int64', -2n],
  ['UInt8', 255],
  ['UInt16', 65535],
  ['UInt32', 4294967295],
  ['UInt32', 0],
  ['UInt64', 2n ** 64n - 1n],
  ['UInt64', 0n],
  ['Float', 1.100000023841858],
  ['Float', -3.4028234663852886e38],
  ['Double', -0.1],
  ['Double', 1.7976931348623157e308],
  ['Boolean', true],
  ['Boolean', false],
  ['String', 'Füllstand ✓'],
  ['DateTime', 978307210000n],
  ['Text', ''],
  ['UUID', '123e4567-e89b-12d3-a456-426614174000'],
];
const values = (): MetricValue[] =>
  CASES.map(([type, value], i) => ({
    metric: { name: `F/${type}${i}`, alias: i + 1, datatype: DATATYPES[type], unit: i === 0 ? '°C' : '' },
    value,
    timestamp: T - i,
  }));
/** What Tahu decoded, as our values. */
function tahuValue(type: string, v: unknown): SparkplugValue {
  if (type === 'Int64') return big(v, true);
  if (type === 'UInt64' || type === 'DateTime') return big(v);
  if (type === 'UInt32') return Number(big(v));
  return v as SparkplugValue;
}

describe('Sparkplug B payloads, decoded by Tahu (sparkplug-payload)', () => {
  it('NBIRTH: seq 0, bdSeq Int64, Node Control/Rebirth Boolean false without alias, timestamps (topics-nbirth-seq-num, payloads-nbirth-bdseq, topics-nbirth-bdseq-matching, operational-behavior-data-commands-ncmd-rebirth-name, payloads-name-birth-data-requirement, topics-nbirth-timestamp)', () => {
    const p = tahu.decodePayload(codec.encode(nbirthMessage({ timestamp: T, bdSeq: 255 })));
    expect(big(p.seq)).toBe(0n);
    expect(big(p.timestamp)).toBe(BigInt(T));
    expect(p.metrics!.map((m) => [m.name, m.type, String(m.value), big(m.timestamp), m.alias])).toEqual([
      ['bdSeq', 'Int64', '255', BigInt(T), undefined],
      ['Node Control/Rebirth', 'Boolean', 'false', BigInt(T), undefined],
    ]);
  });

  it('DBIRTH: every datatype with name, alias, value, timestamp, engUnit (payloads-alias-birth-requirement, topics-dbirth-metrics, payloads-metric-datatype-req, payloads-metric-propertyvalue-type-req)', () => {
    const p = tahu.decodePayload(codec.encode(dbirthMessage({ timestamp: T, seq: 1, values: values() })));
    expect(big(p.seq)).toBe(1n);
    const got = p.metrics!.map((m) => [m.name, big(m.alias), m.type, tahuValue(m.type, m.value), big(m.timestamp)]);
    expect(got).toEqual(CASES.map(([type, value], i) => [`F/${type}${i}`, BigInt(i + 1), type, value, BigInt(T - i)]));
    expect(p.metrics![0]!.properties).toEqual({ engUnit: { type: 'String', value: '°C' } });
    expect(p.metrics![1]!.properties).toBeUndefined();
  });

  it('a failed read is sent as is_null without a value (operational-behavior-data-publish-nbirth-values)', () => {
    const p = tahu.decodePayload(
      codec.encode(
        dbirthMessage({
          timestamp: T,
          seq: 2,
          values: [{ metric: { name: 'F/x', alias: 1, datatype: DATATYPES.Float, unit: '' }, value: null, timestamp: T }],
        }),
      ),
    );
    expect(p.metrics![0]).toMatchObject({ name: 'F/x', type: 'Float', value: null });
  });

  it('DDATA: aliases only, no name, datatype kept, is_historical when set (payloads-alias-data-cmd-requirement, payloads-ddata-seq)', () => {
    const vs = values().slice(6, 9);
    vs[1]!.historical = true;
    const p = tahu.decodePayload(codec.encode(ddataMessage({ timestamp: T, seq: 255, values: vs })));
    expect(big(p.seq)).toBe(255n);
    expect(p.metrics!.map((m) => [m.name, big(m.alias), m.type, tahuValue(m.type, m.value), m.isHistorical ?? false])).toEqual([
      [undefined, 7n, 'Int32', 2147483647, false],
      [undefined, 8n, 'Int64', -(2n ** 63n), true],
      [undefined, 9n, 'Int64', 2n ** 63n - 1n, false],
    ]);
  });

  it('NDEATH: bdSeq only, no seq (topics-ndeath-payload, topics-ndeath-seq, payloads-ndeath-bdseq); DDEATH: seq, no metrics (payloads-ddeath-seq)', () => {
    const n = tahu.decodePayload(codec.encode(ndeathMessage({ timestamp: T, bdSeq: 4 })));
    expect(n.seq).toBeUndefined();
    expect(n.metrics!.map((m) => [m.name, m.type, String(m.value)])).toEqual([['bdSeq', 'Int64', '4']]);
    const d = tahu.decodePayload(codec.encode(ddeathMessage({ timestamp: T, seq: 9 })));
    expect([big(d.seq), d.metrics]).toEqual([9n, []]);
  });

  it('refuses to build what it would send wrong: seq outside 0..255, a value out of range or of the wrong kind', () => {
    const one = (datatype: DataType, value: SparkplugValue) => [{ metric: { name: 'a', alias: 1, datatype, unit: '' }, value, timestamp: T }];
    expect(() => ddataMessage({ timestamp: T, seq: 256, values: [] })).toThrow(RangeError);
    expect(() => ddeathMessage({ timestamp: T, seq: -1 })).toThrow(RangeError);
    expect(() => ddataMessage({ timestamp: T, seq: 0, values: one(DATATYPES.Int8, 128) })).toThrow(RangeError);
    expect(() => ddataMessage({ timestamp: T, seq: 0, values: one(DATATYPES.UInt64, -1n) })).toThrow(RangeError);
    expect(() => ddataMessage({ timestamp: T, seq: 0, values: one(DATATYPES.Int32, 1.5) })).toThrow(RangeError);
    expect(() => ddataMessage({ timestamp: T, seq: 0, values: one(DATATYPES.Int64, '5') })).toThrow(TypeError);
    expect(() => ddataMessage({ timestamp: T, seq: 0, values: one(DATATYPES.String, 5) })).toThrow(TypeError);
    expect(() => ddataMessage({ timestamp: T, seq: 0, values: one(DATATYPES.Boolean, 1) })).toThrow(TypeError);
  });
});

/** A DCMD as a host would send it, encoded by Tahu. */
const tahuCommand = (metrics: object[]) => tahu.encodePayload({ timestamp: T, metrics } as never);
function decoded(bytes: Uint8Array) {
  const r = codec.decodeCommand(bytes);
  if (!r.ok) throw new Error(`refused: ${r.reason} ${r.message}`);
  return r.command;
}

describe('NCMD/DCMD decoding', () => {
  it('every datatype written by Tahu comes back as the value sent (operational-behavior-data-commands-dcmd-metric-value, payloads-dcmd-timestamp)', () => {
    for (const [type, value] of CASES) {
      const sent = typeof value === 'bigint' ? value.toString() : value; // Tahu takes 64-bit values as text or Long
      const c = decoded(tahuCommand([{ name: 'F/x', alias: 3, type, value: type.endsWith('64') || type === 'DateTime' ? longOf(value as bigint) : sent }]));
      expect(c.timestamp).toBe(BigInt(T));
      expect(c.metrics[0]).toMatchObject({ name: 'F/x', alias: 3n, datatype: DATATYPES[type], isNull: false });
      expect(commandValue(DATATYPES[type], c.metrics[0]!), `${type} ${value}`).toEqual({ ok: true, value });
    }
  });

  it('UInt32 in int_value as the specification writes it, Int8/16 in their own width (what other senders do)', async () => {
    const m = (field: string, value: unknown, datatype?: number): CommandMetric => ({
      isNull: false,
      values: [{ field, value } as never],
      ...(datatype ? { datatype } : {}),
    });
    expect(commandValue(DATATYPES.UInt32, m('int_value', 4294967295))).toEqual({ ok: true, value: 4294967295 });
    expect(commandValue(DATATYPES.UInt32, m('long_value', 4294967296n))).toEqual({ ok: false, reason: 'range' });
    expect(commandValue(DATATYPES.Int8, m('int_value', 255))).toEqual({ ok: true, value: -1 });
    expect(commandValue(DATATYPES.Int8, m('int_value', 0xffffff80))).toEqual({ ok: true, value: -128 });
    expect(commandValue(DATATYPES.Int8, m('int_value', 256))).toEqual({ ok: false, reason: 'range' });
    expect(commandValue(DATATYPES.Int8, m('int_value', 0xffffff7f))).toEqual({ ok: false, reason: 'range' });
    expect(commandValue(DATATYPES.Int16, m('int_value', 0x8000))).toEqual({ ok: true, value: -32768 });
    expect(commandValue(DATATYPES.UInt8, m('int_value', 256))).toEqual({ ok: false, reason: 'range' });
    expect(commandValue(DATATYPES.UInt16, m('int_value', 65535))).toEqual({ ok: true, value: 65535 });
    expect(commandValue(DATATYPES.Int32, m('int_value', 0x80000000))).toEqual({ ok: true, value: -2147483648 });
    // the wrong field, a datatype other than the metric's, null, two values
    expect(commandValue(DATATYPES.Int16, m('string_value', '5'))).toEqual({ ok: false, reason: 'field' });
    expect(commandValue(DATATYPES.Float, m('double_value', 1.5))).toEqual({ ok: false, reason: 'field' });
    expect(commandValue(DATATYPES.Int16, m('int_value', 5, DATATYPES.Int32))).toEqual({ ok: false, reason: 'datatype' });
    expect(commandValue(DATATYPES.Int16, { isNull: true, values: [] })).toEqual({ ok: false, reason: 'null' });
    expect(commandValue(DATATYPES.Int16, { isNull: false, values: [] })).toEqual({ ok: false, reason: 'field' });
    expect(
      commandValue(DATATYPES.UInt32, {
        isNull: false,
        values: [
          { field: 'int_value', value: 1 },
          { field: 'long_value', value: 2n },
        ],
      }),
    ).toEqual({ ok: false, reason: 'field' });
  });

  it('the rebirth request: Node Control/Rebirth as Boolean true, by name (operational-behavior-data-commands-ncmd-rebirth-verb, -name, -value)', () => {
    expect(asksRebirth(decoded(tahuCommand([{ name: 'Node Control/Rebirth', type: 'Boolean', value: true }])))).toBe(true);
    expect(asksRebirth(decoded(tahuCommand([{ name: 'Node Control/Rebirth', type: 'Boolean', value: false }])))).toBe(false);
    expect(asksRebirth(decoded(tahuCommand([{ name: 'Node Control/Rebirth', type: 'String', value: 'true' }])))).toBe(false);
    expect(asksRebirth(decoded(tahuCommand([{ name: 'Node Control/Reboot', type: 'Boolean', value: true }])))).toBe(false);
  });

  it('refuses, without throwing: too large before decoding, malformed bytes, a non-scalar datatype', () => {
    expect(codec.decodeCommand(new Uint8Array(MAX_COMMAND_BYTES + 1))).toMatchObject({ ok: false, reason: 'too_large' });
    expect(codec.decodeCommand(new Uint8Array([0x12, 0x05, 0x0a]))).toMatchObject({ ok: false, reason: 'malformed' });
    expect(codec.decodeCommand(new Uint8Array([0x0f]))).toMatchObject({ ok: false, reason: 'malformed' });
    expect(codec.decodeCommand(tahuCommand([{ name: 'F/x', type: 'Template', value: { metrics: [] } }]))).toMatchObject({
      ok: false,
      reason: 'unsupported_datatype',
    });
    expect(codec.decodeCommand(tahuCommand([{ name: 'F/x', type: 'Bytes', value: new Uint8Array([1]) }]))).toMatchObject({
      ok: false,
      reason: 'unsupported_datatype',
    });
    expect(codec.decodeCommand(new Uint8Array(0))).toEqual({ ok: true, command: { metrics: [] } });
  });
});

/** A bigint as the Long Tahu's encoder takes for 64-bit values (signedness does not change the bits). */
function longOf(v: bigint) {
  const u = BigInt.asUintN(64, v);
  return { low: Number(u & 0xffffffffn) | 0, high: Number(u >> 32n) | 0, unsigned: true };
}
