import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Apdu, decodeApdu, encodeApdu, octetsHex, SEQ_MODULO, seqAdd, seqDistance, U_FUNCTIONS, type UFunction } from './apci.ts';

const bytes = (s: string) => Uint8Array.from(s.split(' ').map((x) => parseInt(x, 16)));

describe('IEC 104 APCI', () => {
  it('the U-frames of every 104 trace: STARTDT act 68 04 07 00 00 00 and the others', () => {
    const want: Record<UFunction, string> = {
      startdt_act: '68 04 07 00 00 00',
      startdt_con: '68 04 0b 00 00 00',
      stopdt_act: '68 04 13 00 00 00',
      stopdt_con: '68 04 23 00 00 00',
      testfr_act: '68 04 43 00 00 00',
      testfr_con: '68 04 83 00 00 00',
    };
    for (const fn of Object.keys(U_FUNCTIONS) as UFunction[]) {
      expect(octetsHex(encodeApdu({ format: 'U', fn }))).toBe(want[fn]);
      expect(decodeApdu(bytes(want[fn]))).toEqual({ ok: true, value: { format: 'U', fn } });
    }
  });

  it('S-frame N(R) 2 is 68 04 01 00 04 00; I-frame N(S) 0 N(R) 0 carries its ASDU', () => {
    expect(octetsHex(encodeApdu({ format: 'S', nr: 2 }))).toBe('68 04 01 00 04 00');
    const gi = bytes('64 01 06 00 01 00 00 00 00 14');
    expect(octetsHex(encodeApdu({ format: 'I', ns: 0, nr: 0, asdu: gi }))).toBe('68 0e 00 00 00 00 64 01 06 00 01 00 00 00 00 14');
    expect(decodeApdu(bytes('68 0e 02 00 06 00 64 01 06 00 01 00 00 00 00 14'))).toEqual({ ok: true, value: { format: 'I', ns: 1, nr: 3, asdu: gi } });
  });

  it('15-bit sequence numbers: 32767 is fe ff, and the numbers wrap to 0', () => {
    expect(octetsHex(encodeApdu({ format: 'S', nr: 32767 }))).toBe('68 04 01 00 fe ff');
    expect(octetsHex(encodeApdu({ format: 'I', ns: 32767, nr: 128, asdu: bytes('01') })).slice(0, 17)).toBe('68 05 fe ff 00 01');
    expect(seqAdd(32767, 1)).toBe(0);
    expect(seqAdd(0, -1)).toBe(32767);
    expect(seqDistance(32766, 2)).toBe(4);
    expect(seqDistance(5, 5)).toBe(0);
    expect(() => encodeApdu({ format: 'I', ns: SEQ_MODULO, nr: 0, asdu: bytes('01') })).toThrow(RangeError);
  });

  it('bad control fields and lengths are typed errors', () => {
    const bad = (s: string, code: string) => expect(decodeApdu(bytes(s))).toMatchObject({ ok: false, error: { code } });
    bad('68 04 00 00 00 00', 'bad_control'); // I-format without an ASDU
    bad('68 05 00 00 01 00 07', 'bad_control'); // I-format, bit 0 of octet 3 set
    bad('68 04 01 01 00 00', 'bad_control'); // S-format, octet 2 not 0
    bad('68 04 01 00 01 00', 'bad_control'); // S-format, bit 0 of octet 3 set
    bad('68 05 01 00 00 00 00', 'bad_control'); // S-format with an ASDU
    bad('68 04 03 00 00 00', 'bad_control'); // U-format without a function
    bad('68 04 0f 00 00 00', 'bad_control'); // U-format with two functions
    bad('68 04 07 00 00 01', 'bad_control'); // U-format, octet 4 not 0
    bad('67 04 07 00 00 00', 'bad_start');
    bad('68 05 07 00 00 00', 'bad_length');
    bad('68 02 07 00', 'bad_length');
  });

  it('property: encode then decode gives the frame back', () => {
    const seq = fc.integer({ min: 0, max: SEQ_MODULO - 1 });
    const apdu: fc.Arbitrary<Apdu> = fc.oneof(
      fc.record({ format: fc.constant('I' as const), ns: seq, nr: seq, asdu: fc.uint8Array({ minLength: 1, maxLength: 249 }) }),
      fc.record({ format: fc.constant('S' as const), nr: seq }),
      fc.record({ format: fc.constant('U' as const), fn: fc.constantFrom(...(Object.keys(U_FUNCTIONS) as UFunction[])) }),
    );
    fc.assert(
      fc.property(apdu, (a) => {
        expect(decodeApdu(encodeApdu(a))).toEqual({ ok: true, value: a });
      }),
    );
  });

  it('property: any bytes decode to a frame or a typed error, never an exception', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        const d = decodeApdu(b);
        if (!d.ok) expect(['bad_start', 'bad_length', 'bad_control']).toContain(d.error.code);
        else expect(octetsHex(encodeApdu(d.value))).toBe(octetsHex(b));
      }),
    );
  });
});
