import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTcpDecoder, decodeTcpFrame, encodeTcpFrame, TCP_MAX_ADU, type TcpEvent } from './modbus-tcp.ts';

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join(' ');
const bytes = (s: string) => Uint8Array.from(s.split(' ').map((x) => parseInt(x, 16)));

describe('Modbus TCP (MBAP)', () => {
  it('the textbook read: transaction 1, protocol 0, length 6, unit 1, FC3 from 0 for 10', () => {
    const adu = encodeTcpFrame({ transaction: 1, unit: 1, pdu: bytes('03 00 00 00 0a') });
    expect(hex(adu)).toBe('00 01 00 00 00 06 01 03 00 00 00 0a');
    expect(decodeTcpFrame(adu)).toEqual({ ok: true, value: { transaction: 1, unit: 1, pdu: bytes('03 00 00 00 0a') } });
    expect(decodeTcpFrame(bytes('00 01 00 01 00 06 01 03 00 00 00 0a'))).toMatchObject({ ok: false, error: { code: 'bad_protocol' } });
    expect(decodeTcpFrame(bytes('00 01 00 00 00 07 01 03 00 00 00 0a'))).toMatchObject({ ok: false, error: { code: 'bad_length' } });
  });

  it('stream: frames cut by the MBAP length, back to back and split anywhere', () => {
    const a = encodeTcpFrame({ transaction: 0x1234, unit: 255, pdu: bytes('03 00 00 00 0a') });
    const b = encodeTcpFrame({ transaction: 2, unit: 1, pdu: bytes('83 02') });
    const wire = Uint8Array.from([...a, ...b]);
    const d = createTcpDecoder();
    const ev = [d.push(wire.subarray(0, 3)), d.push(wire.subarray(3, 13)), d.push(wire.subarray(13))].flat();
    expect(ev).toEqual([
      { type: 'frame', transaction: 0x1234, unit: 255, pdu: bytes('03 00 00 00 0a') },
      { type: 'frame', transaction: 2, unit: 1, pdu: bytes('83 02') },
    ]);
  });

  it('a bad header is fatal: reported, buffer dropped', () => {
    const d = createTcpDecoder();
    expect(d.push(bytes('00 01 00 05 00 06 01'))).toEqual([{ type: 'error', code: 'bad_protocol', message: 'MBAP protocol id 5, 0 expected', fatal: true }]);
    expect(d.buffered()).toBe(0);
    expect(d.push(bytes('00 01 00 00 01 00 01'))[0]).toMatchObject({ code: 'bad_length', fatal: true });
  });

  it('property: any frame sequence in random chunks comes out whole', () => {
    const frame = fc.record({
      transaction: fc.integer({ min: 0, max: 65535 }),
      unit: fc.integer({ min: 0, max: 255 }),
      pdu: fc.uint8Array({ minLength: 1, maxLength: 253 }),
    });
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 50 }), (list, cut) => {
        const wire = Uint8Array.from(list.flatMap((f) => [...encodeTcpFrame(f)]));
        const d = createTcpDecoder();
        const ev: TcpEvent[] = [];
        for (let i = 0; i < wire.length; i += cut) ev.push(...d.push(wire.subarray(i, i + cut)));
        expect(ev).toEqual(list.map((f) => ({ type: 'frame', ...f })));
      }),
    );
  });

  it('property: random bytes never throw and never buffer more than one ADU', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 700 }), { maxLength: 10 }), (parts) => {
        const d = createTcpDecoder();
        for (const p of parts) {
          d.push(p);
          expect(d.buffered()).toBeLessThan(TCP_MAX_ADU);
        }
      }),
      { numRuns: 300 },
    );
  });
});
