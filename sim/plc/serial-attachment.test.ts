import { describe, expect, it } from 'vitest';
import { asciiToBytes, bytesToAscii, decodeModbusResponse, decodeRtuFrame, encodeModbusRequest, encodeRtuFrame } from '../../device/protocol/index.ts';
import type { SerialSettings } from '../../hw/types.ts';
import { manualTimers, type SerialFraming, wireMs } from '../wire.ts';
import type { PlcProtocol } from './endpoint.ts';
import { SerialPlcAttachment } from './serial-attachment.ts';
import { VirtualPlc } from './virtual-plc.ts';

const f9600: SerialFraming = { baud: 9600, bits: 8, parity: 'odd', stopbits: 1 };
const s9600: SerialSettings = { baudRate: 9600, dataBits: 8, parity: 'odd', stopBits: 1, rtscts: false };
const SCAN = 5;

function setup(protocol: PlcProtocol = 'MEWTOCOL', framing = f9600) {
  const t = manualTimers();
  const plc = new VirtualPlc({ model: 'FP-XH', station: 1, scanMs: SCAN });
  const att = new SerialPlcAttachment(plc, { protocol, framing, timers: t });
  return { t, plc, att };
}

function listen(ch: { onData(h: (b: Uint8Array) => void): void }) {
  const got: { at: number; bytes: Uint8Array }[] = [];
  return {
    got,
    text: () => got.map((g) => bytesToAscii(g.bytes)).join(''),
    handler: (now: () => number) => ch.onData((b) => got.push({ at: now(), bytes: b })),
  };
}

const RD = '%01#RDD0010000103**\r'; // 21 chars
const RD_REPLY = '%01$RD0A000B000C000D00'; // + BCC + CR = 25 chars

describe('a virtual PLC on an in-process serial wire', () => {
  it('answers an RD after the wire time of the request, the scan time and the wire time of the answer', () => {
    const { t, plc, att } = setup();
    plc.memory.writeWords('DT', 100, [10, 11, 12, 13]);
    const ch = att.open(s9600);
    const l = listen(ch);
    l.handler(t.now);
    ch.write(asciiToBytes(RD));
    const total = wireMs(RD.length, f9600) + SCAN + wireMs(RD_REPLY.length + 3, f9600); // 24.06 + 5 + 28.65 ms
    t.advance(total - 0.01);
    expect(l.got).toEqual([]);
    t.advance(0.02);
    expect(l.text()).toMatch(new RegExp(`^${RD_REPLY.replace('$', '\\$')}[0-9A-F]{2}\r$`));
    expect(l.got[0]!.at).toBeCloseTo(total, 6);
    expect(att.counters).toEqual({ toPlc: RD.length, toHost: RD_REPLY.length + 3 });
    // at 115200 the same exchange is 12 times faster on the wire
    const fast = setup('MEWTOCOL', { ...f9600, baud: 115200 });
    const ch2 = fast.att.open({ ...s9600, baudRate: 115200 });
    const l2 = listen(ch2);
    l2.handler(fast.t.now);
    ch2.write(asciiToBytes(RD));
    fast.t.advance(100);
    expect(l2.got[0]!.at).toBeCloseTo(wireMs(RD.length + RD_REPLY.length + 3, { ...f9600, baud: 115200 }) + SCAN, 6);
  });

  it('a host at another baud rate or parity gets no answer it could read; the PLC can be reconfigured at run time', () => {
    for (const wrong of [{ baudRate: 19200 }, { baudRate: 4800 }, { parity: 'even' as const }, { dataBits: 7 as const }]) {
      const { t, att } = setup();
      const ch = att.open({ ...s9600, ...wrong });
      const l = listen(ch);
      l.handler(t.now);
      ch.write(asciiToBytes('%01#RT**\r'));
      t.advance(500);
      expect(l.text(), JSON.stringify(wrong)).not.toContain('$RT');
    }
    const { t, att } = setup();
    const ch = att.open({ ...s9600, baudRate: 19200 });
    const l = listen(ch);
    l.handler(t.now);
    att.framing = { ...f9600, baud: 19200 };
    ch.write(asciiToBytes('%01#RT**\r'));
    t.advance(100);
    expect(l.text()).toMatch(/^%01\$RT20/);
  });

  it('unplugged: bytes are lost both ways, the channel stays open; plugged again it answers', () => {
    const { t, plc, att } = setup();
    const ch = att.open(s9600);
    const l = listen(ch);
    l.handler(t.now);
    ch.write(asciiToBytes('%01#RT**\r'));
    t.advance(12); // the request has arrived, the answer is on its way
    att.unplug();
    t.advance(200);
    ch.write(asciiToBytes('%01#RT**\r'));
    t.advance(200);
    expect(l.got).toEqual([]);
    expect(plc.describe()).toMatchObject({ requests: 1, answers: 1 });
    expect(ch.isOpen).toBe(true);
    expect(att.plugged).toBe(false);
    att.plug();
    ch.write(asciiToBytes('%01#RT**\r'));
    t.advance(100);
    expect(l.text()).toMatch(/^%01\$RT/);
  });

  it('close() stops delivery; one host end at a time; reopening works', async () => {
    const { t, att } = setup();
    const ch = att.open(s9600);
    const l = listen(ch);
    l.handler(t.now);
    expect(() => att.open(s9600)).toThrow(/already open/);
    ch.write(asciiToBytes('%01#RT**\r'));
    t.advance(15);
    await ch.close();
    t.advance(100);
    expect(l.got).toEqual([]);
    expect(ch.isOpen).toBe(false);
    ch.write(asciiToBytes('%01#RT**\r'));
    const again = att.open(s9600);
    const l2 = listen(again);
    l2.handler(t.now);
    again.write(asciiToBytes('%01#RT**\r'));
    t.advance(100);
    expect(l2.text()).toMatch(/^%01\$RT[0-9A-F]+\r$/);
  });

  it('speaks Modbus RTU at the wire speed', () => {
    const { t, plc, att } = setup('MODBUS', { baud: 19200, bits: 8, parity: 'even', stopbits: 1 });
    plc.memory.writeWords('DT', 7, [0x1234]);
    const ch = att.open({ baudRate: 19200, dataBits: 8, parity: 'even', stopBits: 1, rtscts: false });
    const l = listen(ch);
    l.handler(t.now);
    const req = { fc: 3, address: 7, quantity: 1 } as const;
    ch.write(encodeRtuFrame(1, encodeModbusRequest(req)));
    t.advance(50);
    const f = decodeRtuFrame(l.got[0]!.bytes);
    expect(f.ok && decodeModbusResponse(f.value.pdu, req)).toEqual({ ok: true, value: { fc: 3, registers: [0x1234] } });
    expect(l.got[0]!.at).toBeCloseTo(wireMs(8 + 7, { baud: 19200, bits: 8, parity: 'even', stopbits: 1 }) + SCAN, 6);
  });
});
