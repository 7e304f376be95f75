// What the monitor makes of a frame: each protocol's requests, answers against their requests,
// error codes with their table keys, unreadable frames with the reason; and any bytes at all never
// throw (the decoder reads what peers send).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAPTURE_PROTOCOLS } from '../model/monitor.ts';
import { encodeApdu, encodeAsdu } from '../protocol/iec104/index.ts';
import { asciiToBytes, encodeRtuFrame, encodeTcpFrame, mewCommandFrames } from '../protocol/index.ts';
import { decodeFrame } from './decode.ts';

const text = (b: Uint8Array) => String.fromCharCode(...b);
const mew = (body: string) => {
  let x = 0;
  for (const c of body) x ^= c.charCodeAt(0);
  return `${body}${x.toString(16).toUpperCase().padStart(2, '0')}\r`;
};

describe('decoded frames', () => {
  it('MEWTOCOL: a read, its answer with values, an error with its key, a broken BCC', () => {
    const req = mewCommandFrames(1, { cmd: 'RD', area: 'DT', start: 100, count: 2 })[0]!;
    expect(decodeFrame('mewtocol', req, false)).toEqual({ what: 'request', station: '1', command: 'RD', area: 'DT', start: 100, count: 2 });
    expect(decodeFrame('mewtocol', mew('%01$RD34120700'), true, req)).toEqual({
      what: 'answer',
      station: '1',
      command: 'RD',
      area: 'DT',
      start: 100,
      count: 2,
      values: [0x1234, 7],
    });
    expect(decodeFrame('mewtocol', mew('%01!61'), true, req)).toEqual({
      what: 'error',
      station: '1',
      error: { table: 'mewtocol', code: 61, key: 'data_error' },
    });
    expect(decodeFrame('mewtocol', '%01$RD341200\r', true, req)).toMatchObject({ what: 'unreadable', problem: 'bcc' });
    // an answer that does not fit the request before it (a late one): shown as it is, no values
    expect(decodeFrame('mewtocol', mew('%01$RD3412'), true, req)).toEqual({ what: 'answer', station: '1', command: 'RD' });
    const wd = mewCommandFrames('EE', { cmd: 'WD', area: 'DT', start: 5, words: [1, 2, 3] })[0]!;
    expect(decodeFrame('mewtocol', wd, false)).toMatchObject({ what: 'request', command: 'WD', area: 'DT', start: 5, count: 3, values: [1, 2, 3] });
  });

  it('Modbus RTU and TCP: requests, answers against their request, exceptions with their key', () => {
    const q = encodeRtuFrame(3, Uint8Array.of(3, 0, 10, 0, 2));
    const a = encodeRtuFrame(3, Uint8Array.of(3, 4, 0x12, 0x34, 0, 7));
    expect(decodeFrame('modbus_rtu', text(q), false)).toEqual({
      what: 'request',
      station: '3',
      command: 'FC3',
      area: 'holding_registers',
      start: 10,
      count: 2,
    });
    expect(decodeFrame('modbus_rtu', text(a), true, text(q))).toMatchObject({ what: 'answer', command: 'FC3', start: 10, values: [0x1234, 7] });
    expect(decodeFrame('modbus_rtu', text(encodeRtuFrame(3, Uint8Array.of(0x83, 2))), true, text(q))).toMatchObject({
      what: 'error',
      error: { table: 'modbus', code: 2, key: 'illegal_data_address' },
    });
    const bad = Uint8Array.from(a);
    bad[3]! ^= 1;
    expect(decodeFrame('modbus_rtu', text(bad), true, text(q))).toMatchObject({ what: 'unreadable', problem: 'crc' });
    const t = encodeTcpFrame({ transaction: 9, unit: 1, pdu: Uint8Array.of(15, 0, 0, 0, 3, 1, 5) });
    expect(decodeFrame('modbus_tcp', text(t), false)).toMatchObject({ what: 'request', command: 'FC15', area: 'coils', id: 9, count: 3, values: [1, 0, 1] });
  });

  it('IEC 104: U, S and I frames with the ASDU type, cause, address and objects', () => {
    expect(decodeFrame('iec104', text(encodeApdu({ format: 'U', fn: 'testfr_act' })), false)).toEqual({ what: 'iec', command: 'U', iec: { u: 'testfr_act' } });
    expect(decodeFrame('iec104', text(encodeApdu({ format: 'S', nr: 12 })), false)).toEqual({ what: 'iec', command: 'S', iec: { nr: 12 } });
    const asdu = encodeAsdu({
      type: 1,
      sq: false,
      cot: { cause: 3, negative: false, test: false },
      originator: 0,
      ca: 7,
      objects: [{ ioa: 1001, element: { kind: 'siq', value: true, quality: 0 } }],
    });
    expect(decodeFrame('iec104', text(encodeApdu({ format: 'I', ns: 4, nr: 2, asdu })), false)).toEqual({
      what: 'iec',
      command: 'I',
      station: '7',
      iec: { ns: 4, nr: 2, typeId: 1, type: 'M_SP_NA_1', cot: 3, negative: false, test: false, objects: 1, ioas: [1001] },
      values: [1],
    });
  });

  it('MEWTOCOL7: an MMRD request', () => {
    const f = '>@EEE00#30MMRD0D0000000100002';
    const r = decodeFrame('mewtocol7', f, false);
    expect(r.what === 'request' || r.what === 'unreadable').toBe(true);
  });

  it('any bytes, any protocol, with or without a request: never throws', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CAPTURE_PROTOCOLS),
        fc.uint8Array({ maxLength: 300 }),
        fc.boolean(),
        fc.option(fc.uint8Array({ maxLength: 300 })),
        (p, b, reply, req) => {
          const d = decodeFrame(p, text(b), reply, req === null ? undefined : text(req));
          expect(typeof d.what).toBe('string');
        },
      ),
      { numRuns: 3000 },
    );
    for (const p of CAPTURE_PROTOCOLS) expect(decodeFrame(p, '', true, '').what).toBe('unreadable');
    expect(decodeFrame('mewtocol', text(asciiToBytes('%01$RD\r')), true)).toBeDefined();
  });
});
