import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeApdu, encodeApdu, octetsHex } from './apci.ts';
import { type Asdu, decodeAsdu, encodeAsdu, type InfoObject, mirrorAsdu } from './asdu.ts';
import { COT } from './cot.ts';
import type { Cp56 } from './cp56.ts';
import type { ElementKind, ElementValue } from './elements.ts';
import { servedType, TYPES, typeId } from './types.ts';

const bytes = (s: string) => Uint8Array.from(s.split(' ').map((x) => parseInt(x, 16)));
const act = { cause: COT.activation, negative: false, test: false };
const T: Cp56 = { ms: 30500, minute: 44, hour: 1, day: 2, weekday: 3, month: 12, year: 26, invalid: false, summer: false };

describe('IEC 104 ASDU', () => {
  it('C_IC_NA_1 station interrogation: 64 01 06 00 01 00 00 00 00 14', () => {
    const a: Asdu = { type: 100, sq: false, cot: act, originator: 0, ca: 1, objects: [{ ioa: 0, element: { kind: 'qoi', qoi: 20 } }] };
    expect(octetsHex(encodeAsdu(a))).toBe('64 01 06 00 01 00 00 00 00 14');
    expect(decodeAsdu(bytes('64 01 06 00 01 00 00 00 00 14'))).toEqual({ ok: true, value: a });
  });

  it('M_ME_TF_1 spontaneous 1.0 at IOA 1 with CP56Time2a 2026-12-02 01:44:30.500 (Wednesday), in an I-frame', () => {
    const a: Asdu = {
      type: typeId('M_ME_TF_1'),
      sq: false,
      cot: { cause: COT.spontaneous, negative: false, test: false },
      originator: 0,
      ca: 1,
      objects: [{ ioa: 1, element: { kind: 'r32_qds', value: 1, quality: 0 }, time: T }],
    };
    const wire = '68 19 02 00 02 00 24 01 03 00 01 00 01 00 00 00 00 80 3f 00 24 77 2c 01 62 0c 1a';
    expect(octetsHex(encodeApdu({ format: 'I', ns: 1, nr: 1, asdu: encodeAsdu(a) }))).toBe(wire);
    const frame = decodeApdu(bytes(wire));
    expect(frame.ok && frame.value.format === 'I' && decodeAsdu(frame.value.asdu)).toEqual({ ok: true, value: a });
  });

  it('C_SC_NA_1 select ON at IOA 1000 (SCO 0x81), and the negative unknown-IOA answer mirrors it', () => {
    const a: Asdu = {
      type: 45,
      sq: false,
      cot: act,
      originator: 3,
      ca: 0x0102,
      objects: [{ ioa: 1000, element: { kind: 'sco', value: true, qualifier: 0, select: true } }],
    };
    expect(octetsHex(encodeAsdu(a))).toBe('2d 01 06 03 02 01 e8 03 00 81');
    expect(octetsHex(mirrorAsdu(encodeAsdu(a), COT.unknown_ioa, true))).toBe('2d 01 6f 03 02 01 e8 03 00 81');
    expect(octetsHex(mirrorAsdu(bytes('2d 01 86 03 02 01 e8 03 00 81'), COT.activation_con, false))).toBe('2d 01 87 03 02 01 e8 03 00 81'); // T bit kept
  });

  it('SQ=1: one IOA, then the elements at consecutive addresses', () => {
    const d = decodeAsdu(bytes('01 83 14 00 01 00 64 00 00 01 00 81'));
    expect(d).toMatchObject({ ok: true, value: { sq: true, cot: { cause: 20 } } });
    expect(d.ok && d.value.objects).toEqual([
      { ioa: 100, element: { kind: 'siq', value: true, quality: 0 } },
      { ioa: 101, element: { kind: 'siq', value: false, quality: 0 } },
      { ioa: 102, element: { kind: 'siq', value: true, quality: 0x80 } },
    ]);
    expect(octetsHex(encodeAsdu(d.ok ? d.value : (undefined as never)))).toBe('01 83 14 00 01 00 64 00 00 01 00 81');
  });

  it('a short or inconsistent ASDU is a typed error carrying the header for the answer', () => {
    const err = (s: string) => {
      const d = decodeAsdu(bytes(s));
      expect(d.ok).toBe(false);
      return d.ok ? undefined : d.error;
    };
    expect(err('64 01 06')).toEqual({ code: 'short_asdu', message: 'ASDU of 3 octets, the header alone has 6' });
    expect(err('64 02 06 00 01 00 00 00 00 14')).toMatchObject({ code: 'length_mismatch', header: { type: 100, count: 2, ca: 1 }, ioa: 0 });
    expect(err('64 01 06 00 01 00 00 00 00')).toMatchObject({ code: 'length_mismatch' }); // one octet short
    expect(err('64 01 06 00 01 00 00 00 00 14 00')).toMatchObject({ code: 'length_mismatch' }); // one octet over
    expect(err('02 01 03 00 01 00 01 00 00 01 00 00 00')).toMatchObject({ code: 'unknown_type', header: { type: 2 }, ioa: 1 }); // CP24 type: not 104
    expect(err('26 01 03 00 01 00 01 00 00')).toMatchObject({ code: 'unknown_type', header: { type: 38 } }); // not served
    expect(err('00 01 06 00 01 00')).toMatchObject({ code: 'unknown_type' });
    expect(err('01 00 03 00 01 00')).toMatchObject({ code: 'bad_count' });
    expect(err('01 82 14 00 01 00 ff ff ff 01 01')).toMatchObject({ code: 'bad_ioa' });
    expect(err('67 01 06 00 01 00 00 00 00 00 00 00 00 01 0d 1a')).toMatchObject({ code: 'bad_time' }); // C_CS_NA_1, month 13
    expect(err('67 01 06 00 01 00 00 00 00 00 00 00 00 00 0c 1a')).toMatchObject({ code: 'bad_time' }); // day 0
    expect(err(`01 01 03 00 01 00 01 00 00 01${' 00'.repeat(244)}`)).toMatchObject({ code: 'too_long' });
  });

  it('encoding refuses what the frame cannot carry (a program error)', () => {
    const base: Asdu = { type: 1, sq: false, cot: act, originator: 0, ca: 1, objects: [{ ioa: 1, element: { kind: 'siq', value: true, quality: 0 } }] };
    expect(() => encodeAsdu({ ...base, type: 2 })).toThrow(RangeError);
    expect(() => encodeAsdu({ ...base, type: 30 })).toThrow(/needs a time tag/);
    expect(() => encodeAsdu({ ...base, objects: [{ ioa: 1, element: { kind: 'diq', value: 1, quality: 0 } }] })).toThrow(/carries siq/);
    expect(() => encodeAsdu({ ...base, objects: [] })).toThrow(RangeError);
    expect(() => encodeAsdu({ ...base, objects: [{ ioa: 2 ** 24, element: { kind: 'siq', value: true, quality: 0 } }] })).toThrow(RangeError);
    expect(() => encodeAsdu({ ...base, sq: true, objects: [1, 3].map((ioa) => ({ ioa, element: { kind: 'siq', value: true, quality: 0 } })) })).toThrow(
      /consecutive/,
    );
    const many = Array.from({ length: 40 }, (_, i): InfoObject => ({ ioa: i, element: { kind: 'r32_qds', value: 1, quality: 0 }, time: T }));
    expect(() => encodeAsdu({ ...base, type: 36, objects: many })).toThrow(/at most 249/);
  });
});

const cp56: fc.Arbitrary<Cp56> = fc.record({
  ms: fc.integer({ min: 0, max: 59999 }),
  minute: fc.integer({ min: 0, max: 59 }),
  hour: fc.integer({ min: 0, max: 23 }),
  day: fc.integer({ min: 1, max: 31 }),
  weekday: fc.integer({ min: 0, max: 7 }),
  month: fc.integer({ min: 1, max: 12 }),
  year: fc.integer({ min: 0, max: 99 }),
  invalid: fc.boolean(),
  summer: fc.boolean(),
});
const int16 = fc.integer({ min: -32768, max: 32767 });
const u32 = fc.integer({ min: 0, max: 0xffffffff });
const qds = fc.constantFrom(0, 0x01, 0x10, 0x20, 0x40, 0x80, 0xf1);
const siqq = fc.constantFrom(0, 0x10, 0x20, 0x40, 0x80, 0xf0);
const ql = fc.integer({ min: 0, max: 127 });
const qu = fc.integer({ min: 0, max: 31 });

function element(kind: ElementKind): fc.Arbitrary<ElementValue> {
  const r = <T extends object>(fields: { [K in keyof T]: fc.Arbitrary<T[K]> }) =>
    fc.record({ kind: fc.constant(kind), ...fields }) as unknown as fc.Arbitrary<ElementValue>;
  switch (kind) {
    case 'siq':
      return r({ value: fc.boolean(), quality: siqq });
    case 'diq':
      return r({ value: fc.integer({ min: 0, max: 3 }), quality: siqq });
    case 'vti_qds':
      return r({ value: fc.integer({ min: -64, max: 63 }), transient: fc.boolean(), quality: qds });
    case 'bsi_qds':
      return r({ value: u32, quality: qds });
    case 'nva_qds':
    case 'sva_qds':
      return r({ value: int16, quality: qds });
    case 'r32_qds':
      return r({ value: fc.float(), quality: qds });
    case 'bcr':
      return r({
        value: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        sequence: fc.integer({ min: 0, max: 31 }),
        carry: fc.boolean(),
        adjusted: fc.boolean(),
        invalid: fc.boolean(),
      });
    case 'scd_qds':
      return r({ status: fc.nat(0xffff), change: fc.nat(0xffff), quality: qds });
    case 'nva':
      return r({ value: int16 });
    case 'sco':
      return r({ value: fc.boolean(), qualifier: qu, select: fc.boolean() });
    case 'dco':
    case 'rco':
      return r({ value: fc.integer({ min: 0, max: 3 }), qualifier: qu, select: fc.boolean() });
    case 'nva_qos':
    case 'sva_qos':
      return r({ value: int16, ql, select: fc.boolean() });
    case 'r32_qos':
      return r({ value: fc.float(), ql, select: fc.boolean() });
    case 'bsi':
      return r({ value: u32 });
    case 'coi':
      return r({ cause: fc.integer({ min: 0, max: 127 }), localChange: fc.boolean() });
    case 'qoi':
      return r({ qoi: fc.nat(255) });
    case 'qcc':
      return r({ request: fc.nat(63), freeze: fc.nat(3) });
    case 'none':
      return r({});
    case 'cp56':
      return r({ time: cp56 });
    case 'qrp':
      return r({ qrp: fc.nat(255) });
    case 'tsc':
      return r({ counter: fc.nat(0xffff) });
  }
}

const served = TYPES.filter((t) => servedType(t.id));

const asdu: fc.Arbitrary<Asdu> = fc.constantFrom(...served).chain((t) => {
  const max = Math.min(127, Math.floor((249 - 6 - 3) / t.size) || 127);
  return fc
    .record({
      type: fc.constant(t.id),
      sq: fc.boolean(),
      cot: fc.record({ cause: fc.nat(63), negative: fc.boolean(), test: fc.boolean() }),
      originator: fc.nat(255),
      ca: fc.nat(0xffff),
      first: fc.nat(0xffff00),
      objects: fc.array(
        fc.record({ element: element(t.element as ElementKind), time: t.time === 'cp56' ? cp56 : fc.constant(undefined), ioa: fc.nat(0xffffff) }),
        {
          minLength: 1,
          maxLength: Math.min(max, Math.floor((249 - 6) / (t.size + 3))),
        },
      ),
    })
    .map(({ first, objects, ...h }) => ({
      ...h,
      objects: objects.map((o, i) => ({ ioa: h.sq ? first + i : o.ioa, element: o.element, ...(o.time ? { time: o.time } : {}) })),
    }));
});

describe('IEC 104 ASDU properties', () => {
  it('every served type: encode then decode gives the ASDU back, SQ 0 and 1', () => {
    fc.assert(
      fc.property(asdu, (a) => {
        expect(decodeAsdu(encodeAsdu(a))).toEqual({ ok: true, value: a });
      }),
      { numRuns: 1000 },
    );
  });

  it('any octets, and any served type with a wrong count or length: a value or a typed error, never an exception', () => {
    const codes = ['short_asdu', 'too_long', 'unknown_type', 'bad_count', 'length_mismatch', 'bad_ioa', 'bad_time'];
    const check = (b: Uint8Array) => {
      const d = decodeAsdu(b);
      if (!d.ok) expect(codes).toContain(d.error.code);
      else expect(decodeAsdu(encodeAsdu(d.value))).toEqual(d);
    };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 260 }), check), { numRuns: 500 });
    const near = fc
      .tuple(fc.constantFrom(...served), fc.nat(255), fc.uint8Array({ maxLength: 250 }))
      .map(([t, vsq, rest]) => Uint8Array.from([t.id, vsq, ...rest]));
    fc.assert(fc.property(near, check), { numRuns: 2000 });
  });
});
