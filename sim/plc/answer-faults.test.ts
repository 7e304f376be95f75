import { describe, expect, it } from 'vitest';
import {
  asciiToBytes,
  bytesToAscii,
  decodeMew7Frame,
  decodeMewFrame,
  decodeRtuFrame,
  decodeTcpFrame,
  encodeMew7Frame,
  encodeRtuFrame,
  encodeTcpFrame,
} from '../../device/protocol/index.ts';
import { breakCheck, garble } from './answer-faults.ts';

const diff = (a: Uint8Array, b: Uint8Array) => Array.from(a).flatMap((x, i) => (x === b[i] ? [] : [i]));

describe('spoiling an answer', () => {
  it('bad_check changes only the check code of MEWTOCOL-COM frames, `&` frames included', () => {
    const frame = asciiToBytes('%01$RC021\r'); // mewtocol.md §6
    expect(bytesToAscii(breakCheck(frame, 'mew'))).toBe('%01$RC032\r');
    expect(decodeMewFrame(bytesToAscii(breakCheck(frame, 'mew')))).toMatchObject({ ok: false, error: { code: 'bcc' } });
    expect(bytesToAscii(breakCheck(asciiToBytes('%01$RD00FF&\r'), 'mew'))).toBe('%01$RD0000&\r');
    expect(bytesToAscii(frame)).toBe('%01$RC021\r'); // the original is untouched
  });

  it('bad_check breaks the MEWTOCOL7 CRC, the RTU CRC and the Modbus/TCP transaction id', () => {
    const m7 = asciiToBytes(encodeMew7Frame({ station: 'EEE', frameNo: 0, marker: '$', text: '30STRD00', more: false }));
    expect(diff(m7, breakCheck(m7, 'mew7'))).toEqual([m7.length - 5, m7.length - 4, m7.length - 3, m7.length - 2]);
    expect(decodeMew7Frame(bytesToAscii(breakCheck(m7, 'mew7')))).toMatchObject({ ok: false, error: { code: 'crc' } });
    const rtu = encodeRtuFrame(1, new Uint8Array([3, 2, 0, 7]));
    expect(decodeRtuFrame(breakCheck(rtu, 'rtu'))).toMatchObject({ ok: false, error: { code: 'crc' } });
    const tcp = encodeTcpFrame({ transaction: 0x0100, unit: 1, pdu: new Uint8Array([3, 2, 0, 7]) });
    expect(decodeTcpFrame(breakCheck(tcp, 'tcp'))).toMatchObject({ ok: true, value: { transaction: 0x0101 } });
  });

  it('garble flips one payload byte right before the check code', () => {
    expect(bytesToAscii(garble(asciiToBytes('%01$RC021\r'), 'mew'))).toBe('%01$RC121\r');
    const m7 = asciiToBytes(encodeMew7Frame({ station: 1, frameNo: 2, marker: '$', text: '00MMRD0100', more: true }));
    expect(diff(m7, garble(m7, 'mew7'))).toEqual([m7.length - 7]);
    const rtu = encodeRtuFrame(1, new Uint8Array([3, 2, 0, 7]));
    expect(diff(rtu, garble(rtu, 'rtu'))).toEqual([4]);
    expect(decodeRtuFrame(garble(rtu, 'rtu')).ok).toBe(false);
    const tcp = encodeTcpFrame({ transaction: 1, unit: 1, pdu: new Uint8Array([3, 2, 0, 7]) });
    expect(decodeTcpFrame(garble(tcp, 'tcp'))).toMatchObject({ ok: true, value: { pdu: new Uint8Array([3, 2, 0, 6]) } });
  });
});
