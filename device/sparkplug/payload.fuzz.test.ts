// Fuzz test of the NCMD/DCMD decoder (issue 39 "Bad input and faults"): whatever bytes a host or an
// attacker publishes — random, valid commands cut short, templates nested deeper than Tahu's decoder
// survives, a value in the wrong field, values out of range — decodeCommand answers a command or a
// refusal, never throws, and commandValue only gives values inside the metric's datatype.
//
// FUZZ_SEED=<n> replays another seed (fast-check prints seed and path of a failure).
import fc from 'fast-check';
import spp from 'sparkplug-payload';
import { describe, expect, it } from 'vitest';
import { type CommandResult, commandValue, loadPayloads } from './payload.ts';
import { acceptedFields, DATATYPES, type DataType, type DataTypeName, intKind } from './types.ts';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261204;
const runs = (numRuns: number) => ({ numRuns, seed: SEED });
const tahu = spp.get('spBv1.0')!;
const codec = await loadPayloads();
const REFUSALS = ['too_large', 'malformed', 'too_many_metrics', 'unsupported_datatype'];
const VALUE_REFUSALS = ['datatype', 'field', 'null', 'range'];
const SCALARS = Object.values(DATATYPES) as DataType[];

/** A decode result keeps its promises: a known refusal, or metrics whose values, read for any datatype, are in range or refused. */
function check(r: CommandResult): void {
  if (!r.ok) {
    expect(REFUSALS).toContain(r.reason);
    return;
  }
  for (const m of r.command.metrics)
    for (const dt of SCALARS) {
      const v = commandValue(dt, m);
      if (!v.ok) {
        expect(VALUE_REFUSALS).toContain(v.reason);
        continue;
      }
      const int = intKind(dt);
      if (int) {
        const n = BigInt(v.value as number | bigint);
        const min = int.signed ? -(1n << BigInt(int.bits - 1)) : 0n;
        const max = (int.signed ? 1n << BigInt(int.bits - 1) : 1n << BigInt(int.bits)) - 1n;
        expect(n >= min && n <= max, `${dt} ${n}`).toBe(true);
      }
    }
}
const decode = (bytes: Uint8Array): CommandResult => {
  const r = codec.decodeCommand(bytes); // a throw fails the test
  check(r);
  return r;
};

// protobuf by hand, for what no encoder writes: wire types, lengths and nesting of our choosing
const varint = (n: number): number[] => {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
};
const field = (no: number, body: Uint8Array): Uint8Array => Uint8Array.from([...varint((no << 3) | 2), ...varint(body.length), ...body]);
const cat = (...parts: Uint8Array[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));
/** A metric whose template_value (18) holds a template (its metrics: 2) holding such a metric, `depth` levels; no datatype. */
function nestedByHand(depth: number): Uint8Array {
  let metric = field(1, new TextEncoder().encode('leaf'));
  for (let i = 0; i < depth; i++) metric = cat(field(1, new TextEncoder().encode(`t${i}`)), field(18, field(2, metric)));
  return field(2, metric); // Payload.metrics
}
/** The same with Tahu's encoder: Template metrics nested `depth` deep (datatype 19 on each). */
function nestedByTahu(depth: number): Uint8Array {
  let metric: object = { name: 'leaf', type: 'Int32', value: 1 };
  for (let i = 0; i < depth; i++)
    metric = { name: `t${i}`, type: 'Template', value: { version: '1', isDefinition: false, templateRef: 'T', metrics: [metric] } };
  return tahu.encodePayload({ timestamp: 1, metrics: [metric] } as never);
}

const NAMES = Object.keys(DATATYPES) as DataTypeName[];
/** A valid DCMD by Tahu with a few scalar metrics of any datatype. */
const tahuCommandArb = fc
  .array(
    fc.record({
      type: fc.constantFrom(...NAMES.filter((n) => !n.endsWith('64') && n !== 'DateTime')),
      int: fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }),
      float: fc.double(),
      text: fc.string({ maxLength: 20 }),
      bool: fc.boolean(),
      alias: fc.integer({ min: 0, max: 1000 }),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((ms) =>
    tahu.encodePayload({
      timestamp: 1_764_800_000_000,
      metrics: ms.map((m) => ({
        name: `F/${m.type}`,
        alias: m.alias,
        type: m.type,
        value: ['String', 'Text', 'UUID'].includes(m.type) ? m.text : m.type === 'Boolean' ? m.bool : ['Float', 'Double'].includes(m.type) ? m.float : m.int,
      })),
    } as never),
  );

describe('NCMD/DCMD decoder under fuzz', () => {
  it('random bytes: a command or a known refusal, never a throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        decode(bytes);
      }),
      runs(3000),
    );
  });

  it('valid commands cut short or with a byte changed: a command or a known refusal', () => {
    fc.assert(
      fc.property(tahuCommandArb, fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 }), (bytes, cut, at, b) => {
        decode(bytes.slice(0, cut % (bytes.length + 1)));
        const changed = bytes.slice();
        changed[at % changed.length] = b;
        decode(changed);
      }),
      runs(1000),
    );
  });

  it('templates nested 30 to 40 deep by Tahu are refused, 200 of them in a row', () => {
    const payloads = Array.from({ length: 200 }, (_, i) => nestedByTahu(30 + (i % 11)));
    const results = payloads.map(decode);
    expect(results.every((r) => !r.ok && r.reason === 'unsupported_datatype')).toBe(true);
  });

  it('templates nested 2000 deep without a datatype are skipped unread: the metric has no value to take', () => {
    const r = decode(nestedByHand(2000));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.command.metrics).toHaveLength(1);
    expect(r.command.metrics[0]!.values).toEqual([]);
    expect(commandValue(DATATYPES.Int32, r.command.metrics[0]!)).toEqual({ ok: false, reason: 'field' });
  });

  it('a value in the wrong field for the metric is refused (field or datatype), whatever the value', () => {
    fc.assert(
      fc.property(tahuCommandArb, fc.constantFrom(...SCALARS), (bytes, dt) => {
        const r = decode(bytes);
        if (!r.ok) return;
        for (const m of r.command.metrics) {
          const v = commandValue(dt, m);
          if (m.datatype !== dt) expect(v).toEqual({ ok: false, reason: 'datatype' });
        }
      }),
      runs(500),
    );
  });

  it('a datatype with a value in a field it does not travel in is refused as field', () => {
    const fields = {
      int_value: 7,
      long_value: { low: 7, high: 0, unsigned: true },
      float_value: 1.5,
      double_value: 2.5,
      boolean_value: true,
      string_value: 'x',
    };
    fc.assert(
      fc.property(fc.constantFrom(...SCALARS), fc.constantFrom(...(Object.keys(fields) as (keyof typeof fields)[])), (dt, f) => {
        const r = decode(codec.encode({ metrics: [{ alias: { low: 1, high: 0, unsigned: true }, datatype: dt, [f]: fields[f] }] }));
        if (!r.ok) throw new Error(r.reason);
        const v = commandValue(dt, r.command.metrics[0]!);
        if (!acceptedFields(dt).includes(f)) expect(v).toEqual({ ok: false, reason: 'field' });
        else expect(v.ok).toBe(true);
      }),
      runs(300),
    );
  });

  it('integers of any size in int_value and long_value: taken only inside the datatype (checked by decode)', () => {
    const intTypes = SCALARS.filter((dt) => intKind(dt));
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constantFrom(...intTypes), (long, int, dt) => {
        // a metric with both forms and no datatype, and one with each alone
        for (const value of [{ long_value: { low: Number(long & 0xffffffffn) | 0, high: Number(long >> 32n) | 0, unsigned: true } }, { int_value: int }]) {
          const bytes = codec.encode({ metrics: [{ alias: { low: 1, high: 0, unsigned: true }, datatype: dt, ...value }] });
          const r = decode(bytes);
          expect(r.ok).toBe(true);
        }
      }),
      runs(1000),
    );
  });
});
