import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Apdu, encodeApdu } from './apci.ts';
import { createIec104Framer, type FramerEvent } from './framer.ts';

const bytes = (s: string) => Uint8Array.from(s.split(' ').map((x) => parseInt(x, 16)));
const apdus = (ev: FramerEvent[]) => ev.flatMap((e) => (e.type === 'apdu' ? [e.apdu] : []));

describe('IEC 104 stream framer', () => {
  it('cuts frames by the length octet, back to back and split anywhere', () => {
    const wire = bytes('68 04 07 00 00 00 68 0e 00 00 00 00 64 01 06 00 01 00 00 00 00 14 68 04 01 00 02 00');
    for (let cut = 1; cut <= wire.length; cut++) {
      const f = createIec104Framer();
      const ev: FramerEvent[] = [];
      for (let i = 0; i < wire.length; i += cut) ev.push(...f.push(wire.subarray(i, i + cut)));
      expect(apdus(ev).map((a) => a.format)).toEqual(['U', 'I', 'S']);
      expect(ev.every((e) => e.type === 'apdu')).toBe(true);
      expect(f.buffered()).toBe(0);
    }
  });

  it('a bad start octet, a length below 4 or above 253 is fatal and dropped; a garbage run is reported once', () => {
    const f = createIec104Framer();
    expect(f.push(bytes('00 01 02 03'))).toEqual([{ type: 'error', code: 'bad_start', message: 'start octet 0x00, 0x68 expected', fatal: true }]);
    expect(f.push(bytes('68 03'))).toEqual([{ type: 'error', code: 'bad_length', message: 'APDU length 3 not in 4-253', fatal: true }]);
    expect(f.push(bytes('68 fe'))[0]).toMatchObject({ code: 'bad_length', fatal: true });
    expect(f.buffered()).toBe(0);
    expect(apdus(f.push(bytes('68 04 43 00 00 00')))).toEqual([{ format: 'U', fn: 'testfr_act' }]);
  });

  it('a frame of good length with a bad control field is an error and framing goes on', () => {
    const f = createIec104Framer();
    const ev = f.push(bytes('68 04 0f 00 00 00 68 04 83 00 00 00'));
    expect(ev[0]).toMatchObject({ type: 'error', code: 'bad_control', fatal: true });
    expect(apdus(ev)).toEqual([{ format: 'U', fn: 'testfr_con' }]);
  });

  it('a length-253 frame (the largest) passes whole', () => {
    const f = createIec104Framer();
    const a: Apdu = { format: 'I', ns: 1, nr: 2, asdu: new Uint8Array(249).fill(7) };
    expect(apdus(f.push(encodeApdu(a)))).toEqual([a]);
  });

  it('property: random octets in random chunks never throw and never hold more than one APDU', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 600 }), { maxLength: 12 }), (parts) => {
        const f = createIec104Framer();
        for (const p of parts) {
          for (const e of f.push(p)) if (e.type === 'apdu') expect(e.bytes.length).toBe((e.bytes[1] as number) + 2);
          expect(f.buffered()).toBeLessThanOrEqual(255);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: valid frames survive any chunking; a 0x68 stream of garbage in between only costs errors', () => {
    const frame = fc.oneof(
      fc.record({ format: fc.constant('I' as const), ns: fc.nat(32767), nr: fc.nat(32767), asdu: fc.uint8Array({ minLength: 1, maxLength: 249 }) }),
      fc.record({ format: fc.constant('S' as const), nr: fc.nat(32767) }),
    );
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 40 }), (list, cut) => {
        const wire = Uint8Array.from(list.flatMap((a) => [...encodeApdu(a)]));
        const f = createIec104Framer();
        const ev: FramerEvent[] = [];
        for (let i = 0; i < wire.length; i += cut) ev.push(...f.push(wire.subarray(i, i + cut)));
        expect(apdus(ev)).toEqual(list);
      }),
    );
  });
});
