import { describe, expect, it } from 'vitest';
import {
  asciiToBytes,
  bytesToAscii,
  createMew7StreamDecoder,
  createMewStreamDecoder,
  decodeMew7Reply,
  decodeMewReply,
  decodeModbusResponse,
  decodeRtuFrame,
  decodeStrdData,
  decodeTcpFrame,
  encodeMew7Message,
  encodeMew7Request,
  encodeModbusRequest,
  encodeRtuFrame,
  encodeTcpFrame,
  type MewRequest,
  type ModbusRequest,
  mewCommandFrames,
} from '../../device/protocol/index.ts';
import { manualTimers } from '../wire.ts';
import { createPlcEndpoint, faultDelayMs, type PlcProtocol, type PlcTransport } from './endpoint.ts';
import type { CpuModel } from './profiles.ts';
import { VirtualPlc } from './virtual-plc.ts';

function setup(model: CpuModel, protocol: PlcProtocol, transport: PlcTransport = 'serial', station = 1) {
  const t = manualTimers();
  const plc = new VirtualPlc({ model, station, scanMs: 5 });
  const sent: Uint8Array[] = [];
  let closed = 0;
  const ep = createPlcEndpoint(plc, { protocol, transport, send: (b) => sent.push(b), close: () => closed++, timers: t });
  /** what the PLC sent since the last call, after `ms` */
  const after = (ms: number) => {
    t.advance(ms);
    return sent.splice(0);
  };
  const say = (text: string) => ep.receive(asciiToBytes(text));
  return { t, plc, ep, after, say, closed: () => closed };
}
const texts = (b: Uint8Array[]) => b.map(bytesToAscii);

/** The host's side of a MEWTOCOL exchange: sends the command frames and each next-frame request, collects the reply. */
function exchange(s: ReturnType<typeof setup>, req: MewRequest, header: '%' | '<' = '%') {
  const host = createMewStreamDecoder();
  const frames = mewCommandFrames(1, req, { header });
  let wire = 0;
  s.say(frames.shift()!);
  for (;;) {
    const got = s.after(5);
    expect(got.length).toBe(1);
    wire++;
    const events = host.push(got[0]!);
    const e = events[0];
    if (e?.type === 'message') return { message: e.message, frames: e.frames, plcFrames: wire };
    if (e?.type === 'continue')
      s.say(e.reply); // the PLC sent part of a long reply
    else if (e?.type === 'next')
      s.say(frames.shift()!); // the PLC asks for the next frame of a long command
    else throw new Error(`unexpected ${JSON.stringify(events)}`);
  }
}

describe('PLC endpoint, MEWTOCOL-COM', () => {
  it('answers its station after the scan time with the captured RD reply', () => {
    const s = setup('FP-X', 'MEWTOCOL');
    s.plc.memory.writeWords('DT', 1105, [0x0063, 0x3344, 0x000a]);
    s.say('%01#RDD0110501107');
    s.say('57\r');
    expect(s.after(4.9)).toEqual([]);
    expect(texts(s.after(0.1))).toEqual(['%01$RD630044330A0062\r']);
    expect(s.plc.describe()).toMatchObject({ requests: 1, answers: 1 });
  });

  it('answers EE as EE, ignores other stations and skips noise', () => {
    const s = setup('FP-XH', 'MEWTOCOL', 'serial', 7);
    s.say('%01#RT01\r');
    s.say('\x00\xff garbage ');
    s.say('%EE#RT00\r');
    const got = texts(s.after(10));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatch(/^%EE\$RT20/);
    s.say('%07#RCSX0000**\r');
    expect(texts(s.after(10))).toEqual(['%07$RC027\r']); // %01$RC0 has BCC 21 (mewtocol.md §6); '1' ^ '7' = 06
  });

  it('a wrong BCC gets !40, a malformed frame !41, an unknown command !42', () => {
    const s = setup('FP-X', 'MEWTOCOL');
    s.say('%01#RT02\r');
    expect(texts(s.after(5))).toEqual(['%01!4001\r']);
    s.say('%01\r'); // too short to be a frame
    expect(texts(s.after(5))).toEqual(['%01!4100\r']);
    s.say('%02#RT02\r'); // not ours, wrong BCC or not: no answer
    s.say('%01#ZZ**\r');
    expect(texts(s.after(5))).toEqual(['%01!4203\r']);
  });

  it('splits a 60-word RD reply with % into frames, each next one on request', () => {
    const s = setup('FP-X', 'MEWTOCOL');
    const words = Array.from({ length: 60 }, (_, i) => (i * 0x0101 + 7) & 0xffff);
    s.plc.memory.writeWords('DT', 200, words);
    const r = exchange(s, { cmd: 'RD', area: 'DT', start: 200, count: 60 });
    expect(r.frames).toBe(3); // 'RD' + 240 chars in 111-char chunks
    expect(r.plcFrames).toBe(3);
    expect(r.message.kind === 'response' && decodeMewReply({ cmd: 'RD', area: 'DT', start: 200, count: 60 }, r.message.text)).toEqual({
      ok: true,
      value: { kind: 'words', words },
    });
    // with < the reply fits one frame
    expect(exchange(s, { cmd: 'RD', area: 'DT', start: 200, count: 60 }, '<').frames).toBe(1);
  });

  it('collects a multi-frame WD command, asking for each next frame', () => {
    const s = setup('FP-XH', 'MEWTOCOL');
    const words = Array.from({ length: 40 }, (_, i) => 1000 + i);
    const r = exchange(s, { cmd: 'WD', area: 'DT', start: 10, words });
    expect(r.message).toEqual({ kind: 'response', header: '%', station: 1, text: 'WD' });
    expect(s.plc.memory.readWords('DT', 10, 40)).toEqual(words);
  });

  it('a next-frame request with nothing left to send is a procedure error', () => {
    const s = setup('FP-X', 'MEWTOCOL');
    s.say('%01**&\r');
    expect(texts(s.after(5))).toEqual(['%01!4302\r']);
  });

  it('reset() drops answers not sent yet', () => {
    const s = setup('FP-X', 'MEWTOCOL');
    s.say('%01#RT**\r');
    s.ep.reset();
    expect(s.after(50)).toEqual([]);
  });
});

describe('PLC endpoint, MEWTOCOL7 on FP7', () => {
  it('answers STRD; the reply decodes as an FP7 CPS41E', () => {
    const s = setup('FP7', 'MEWTOCOL');
    s.say(encodeMew7Message({ kind: 'command', station: 'EEE', frameNo: 0x12, text: encodeMew7Request({ cmd: 'STRD' }) })[0]!);
    const got = texts(s.after(5));
    expect(got).toHaveLength(1);
    const e = createMew7StreamDecoder().push(got[0]!)[0];
    expect(e?.type === 'message' && e.message).toMatchObject({ kind: 'response', station: 'EEE', frameNo: 0x12 });
    const text = e?.type === 'message' ? e.message.text : '';
    const status = decodeStrdData(text.slice('30STRD'.length));
    expect(status.ok && status.value).toMatchObject({ cpu: { name: 'FP7' }, modelName: 'CPS41E', mode: { run: true } });
  });

  it('sends a long MMRD reply in numbered frames and still speaks MEWTOCOL-COM on the same port', () => {
    const s = setup('FP7', 'MEWTOCOL', 'serial', 3);
    const words = Array.from({ length: 1500 }, (_, i) => i);
    s.plc.memory.writeWords('DT', 5000, words);
    const req = { cmd: 'MMRD', area: 'DT', address: 5000, count: 1500 } as const;
    s.say(encodeMew7Message({ kind: 'command', station: 3, frameNo: 0, text: encodeMew7Request(req) })[0]!);
    const host = createMew7StreamDecoder();
    let frames = 0;
    for (;;) {
      const got = texts(s.after(5));
      expect(got).toHaveLength(1);
      frames++;
      const e = host.push(got[0]!)[0];
      if (e?.type === 'continue') {
        s.say(e.reply);
        continue;
      }
      expect(e?.type === 'message' && decodeMew7Reply(req, e.message.text)).toEqual({ ok: true, value: { kind: 'words', words } });
      break;
    }
    expect(frames).toBe(2);
    s.say('%03#RDD0500105001**\r');
    expect(texts(s.after(5))[0]).toMatch(/^%03\$RD0100..\r$/); // DT5001 = 1
  });

  it('answers an unknown MEWTOCOL7 command with !42 and a wrong CRC with !40', () => {
    const s = setup('FP7', 'MEWTOCOL');
    s.say(encodeMew7Message({ kind: 'command', station: 1, frameNo: 5, text: '99ABCD' })[0]!);
    const [e] = createMew7StreamDecoder().push(texts(s.after(5))[0]!);
    expect(e?.type === 'message' && e.message).toEqual({ kind: 'error', station: 1, frameNo: 5, text: '42' });
    s.say('>@00100#30STRD000000\r');
    const [b] = createMew7StreamDecoder().push(texts(s.after(5))[0]!);
    expect(b?.type === 'message' && b.message).toEqual({ kind: 'error', station: 1, frameNo: 0, text: '40' });
  });

  it.each(['FP-X', 'FP0R', 'FP2'] as const)('%s ignores > frames entirely', (model) => {
    const s = setup(model, 'MEWTOCOL');
    s.say('>@EEE00#30STRD0043F1\r');
    expect(s.after(50)).toEqual([]);
    expect(s.plc.describe().requests).toBe(0);
    s.say('%01#RT**\r');
    expect(texts(s.after(5))[0]).toMatch(/^%01\$RT/);
  });
});

const rtuAsk = (s: ReturnType<typeof setup>, unit: number, req: ModbusRequest) => {
  s.ep.receive(encodeRtuFrame(unit, encodeModbusRequest(req)));
  return s.after(5);
};
const rtuAnswer = (got: Uint8Array[], req: ModbusRequest) => {
  expect(got).toHaveLength(1);
  const f = decodeRtuFrame(got[0]!);
  if (!f.ok) throw new Error(f.error.message);
  return { unit: f.value.unit, response: decodeModbusResponse(f.value.pdu, req) };
};

describe('PLC endpoint, Modbus RTU', () => {
  it('answers FC16 and FC3 to its unit id', () => {
    const s = setup('FP0R', 'MODBUS', 'serial', 17);
    const write: ModbusRequest = { fc: 16, address: 100, values: [11, 22, 0xffff] };
    expect(rtuAnswer(rtuAsk(s, 17, write), write)).toEqual({ unit: 17, response: { ok: true, value: { fc: 16, address: 100, quantity: 3 } } });
    const read: ModbusRequest = { fc: 3, address: 99, quantity: 5 };
    expect(rtuAnswer(rtuAsk(s, 17, read), read)).toEqual({ unit: 17, response: { ok: true, value: { fc: 3, registers: [0, 11, 22, 0xffff, 0] } } });
  });

  it('other units are not answered; unit 0 writes without an answer; a wrong CRC is not heard', () => {
    const s = setup('FP0R', 'MODBUS', 'serial', 1);
    expect(rtuAsk(s, 2, { fc: 3, address: 0, quantity: 1 })).toEqual([]);
    expect(rtuAsk(s, 0, { fc: 6, address: 5, value: 77 })).toEqual([]);
    expect(rtuAsk(s, 0, { fc: 3, address: 5, quantity: 1 })).toEqual([]);
    expect(s.plc.memory.readWords('DT', 5, 1)).toEqual([77]);
    const bad = encodeRtuFrame(1, encodeModbusRequest({ fc: 6, address: 6, value: 1 }));
    bad[bad.length - 1]! ^= 0x55;
    s.ep.receive(bad);
    expect(s.after(50)).toEqual([]);
    expect(s.plc.memory.readWords('DT', 6, 1)).toEqual([0]);
    const read: ModbusRequest = { fc: 3, address: 5, quantity: 1 };
    expect(rtuAnswer(rtuAsk(s, 1, read), read).response).toEqual({ ok: true, value: { fc: 3, registers: [77] } });
  });

  it('answers a function of unknown length with exception 01 after the silence', () => {
    const s = setup('FP-X', 'MODBUS', 'serial', 1);
    s.ep.receive(encodeRtuFrame(1, new Uint8Array([0x2b, 0x0e, 0x01, 0x00])));
    expect(s.after(3)).toEqual([]);
    const got = s.after(10);
    expect(got.map((b) => Array.from(b))).toEqual([Array.from(encodeRtuFrame(1, new Uint8Array([0xab, 0x01])))]);
  });
});

describe('PLC endpoint, Modbus/TCP', () => {
  it('echoes the transaction id and unit, answers FC16 and FC3', () => {
    const s = setup('FP-X', 'MODBUS', 'tcp', 1);
    s.ep.receive(encodeTcpFrame({ transaction: 0x1234, unit: 255, pdu: encodeModbusRequest({ fc: 16, address: 0, values: [5, 6] }) }));
    s.ep.receive(encodeTcpFrame({ transaction: 0x1235, unit: 255, pdu: encodeModbusRequest({ fc: 3, address: 0, quantity: 2 }) }));
    const got = s.after(5).map((b) => decodeTcpFrame(b));
    expect(got.map((f) => f.ok && { t: f.value.transaction, u: f.value.unit, r: decodeModbusResponse(f.value.pdu) })).toEqual([
      { t: 0x1234, u: 255, r: { ok: true, value: { fc: 16, address: 0, quantity: 2 } } },
      { t: 0x1235, u: 255, r: { ok: true, value: { fc: 3, registers: [5, 6] } } },
    ]);
  });

  it('asks to close a connection whose stream is out of step', () => {
    const s = setup('FP-X', 'MODBUS', 'tcp', 1);
    s.ep.receive(new Uint8Array([0, 1, 0, 9, 0, 6, 1, 3]));
    expect(s.closed()).toBe(1);
    expect(s.after(10)).toEqual([]);
  });
});

describe('PLC endpoint faults', () => {
  it('silent: no answer and nothing executed, for the given number of requests only', () => {
    const s = setup('FP-X', 'MEWTOCOL');
    s.plc.setFault({ kind: 'silent', count: 2 });
    s.say('%01#WDD00001000010100**\r');
    s.say('%01#RT**\r');
    expect(s.after(50)).toEqual([]);
    expect(s.plc.memory.readWords('DT', 1, 1)).toEqual([0]);
    expect(s.plc.fault).toEqual({ kind: 'none' });
    s.say('%01#RT**\r');
    expect(s.after(5)).toHaveLength(1);
    expect(s.plc.describe()).toMatchObject({ requests: 3, answers: 1, fault: { kind: 'none' } });
  });

  it('error: MEWTOCOL answers the code, Modbus the exception, and the request is not executed', () => {
    const m = setup('FP-X', 'MEWTOCOL');
    m.plc.setFault({ kind: 'error', code: 53 });
    m.say('%01#WDD00001000010100**\r');
    expect(texts(m.after(5))).toEqual(['%01!5303\r']); // like %01!60 (BCC 03, mewtocol.md §6)
    expect(m.plc.memory.readWords('DT', 1, 1)).toEqual([0]);
    const r = setup('FP-X', 'MODBUS', 'serial', 1);
    r.plc.setFault({ kind: 'error', code: 6, count: 1 });
    const write: ModbusRequest = { fc: 6, address: 1, value: 9 };
    expect(rtuAnswer(rtuAsk(r, 1, write), write).response).toEqual({ ok: true, value: { fc: 6, exception: 6 } });
    expect(r.plc.memory.readWords('DT', 1, 1)).toEqual([0]);
    expect(rtuAnswer(rtuAsk(r, 1, write), write).response).toEqual({ ok: true, value: { fc: 6, address: 1, value: 9 } });
  });

  it('bad_check: the answer fails its BCC / CRC / transaction id, the request is executed', () => {
    const m = setup('FP-X', 'MEWTOCOL');
    m.plc.setFault({ kind: 'bad_check' });
    m.say('%01#WDD00001000010100**\r');
    const got = texts(m.after(5));
    expect(got[0]).toMatch(/^%01\$WD..\r$/);
    expect(got[0]).not.toBe('%01$WD13\r');
    expect(createMewStreamDecoder().push(got[0]!)[0]).toMatchObject({ type: 'error', code: 'bcc' });
    expect(m.plc.memory.readWords('DT', 1, 1)).toEqual([1]);
    const r = setup('FP-X', 'MODBUS', 'serial', 1);
    r.plc.setFault({ kind: 'bad_check' });
    const [frame] = rtuAsk(r, 1, { fc: 3, address: 0, quantity: 1 });
    expect(decodeRtuFrame(frame!)).toMatchObject({ ok: false, error: { code: 'crc' } });
    const t = setup('FP-X', 'MODBUS', 'tcp', 1);
    t.plc.setFault({ kind: 'bad_check' });
    t.ep.receive(encodeTcpFrame({ transaction: 8, unit: 1, pdu: encodeModbusRequest({ fc: 3, address: 0, quantity: 1 }) }));
    const [adu] = t.after(5);
    expect(decodeTcpFrame(adu!)).toMatchObject({ ok: true, value: { transaction: 9 } });
  });

  it('garble: one byte of the answer differs, length and shape are kept', () => {
    const s = setup('FP-X', 'MEWTOCOL');
    s.say('%01#RT**\r');
    const [good] = texts(s.after(5));
    s.plc.setFault({ kind: 'garble', count: 1 });
    s.say('%01#RT**\r');
    const [bad] = texts(s.after(5));
    expect(bad).toHaveLength(good!.length);
    expect([...bad!].filter((c, i) => c !== good![i])).toHaveLength(1);
    expect(createMewStreamDecoder().push(bad!)[0]).toMatchObject({ type: 'error', code: 'bcc' });
    const r = setup('FP-X', 'MODBUS', 'serial', 1);
    r.plc.setFault({ kind: 'garble' });
    const [frame] = rtuAsk(r, 1, { fc: 3, address: 0, quantity: 2 });
    expect(frame).toHaveLength(9);
    expect(decodeRtuFrame(frame!).ok).toBe(false);
  });

  it('slow: the answer comes the extra delay later', () => {
    const s = setup('FP-X', 'MEWTOCOL');
    s.plc.setFault({ kind: 'slow', delayMs: 300 });
    s.say('%01#RT**\r');
    expect(s.after(304)).toEqual([]);
    expect(s.after(1)).toHaveLength(1);
  });

  it('slow with maxDelayMs: each answer a random delay in the range, and the answers still leave in the order of their requests', () => {
    const t = manualTimers();
    const plc = new VirtualPlc({ model: 'FP-X', scanMs: 5 });
    const draws = [0.99, 0];
    const sent: string[] = [];
    const ep = createPlcEndpoint(plc, {
      protocol: 'MEWTOCOL',
      transport: 'serial',
      send: (b) => sent.push(bytesToAscii(b)),
      timers: t,
      random: () => draws.shift()!,
    });
    plc.setFault({ kind: 'slow', delayMs: 100, maxDelayMs: 200 });
    ep.receive(asciiToBytes('%01#RDD0000000000**\r')); // due at 5 + 199 ms
    ep.receive(asciiToBytes('%01#RT**\r')); // due at 5 + 100 ms: waits for the one before
    t.advance(200);
    expect(sent).toEqual([]);
    t.advance(5);
    expect(sent.map((x) => x.slice(0, 6))).toEqual(['%01$RD', '%01$RT']);
    expect(faultDelayMs({ kind: 'slow', delayMs: 10, maxDelayMs: 30 }, () => 0.5)).toBe(20);
    expect(faultDelayMs({ kind: 'slow', delayMs: 10 }, () => 0.5)).toBe(10);
    expect(faultDelayMs({ kind: 'none' })).toBe(0);
  });

  it('refuses impossible faults', () => {
    const plc = new VirtualPlc({ model: 'FP-X' });
    expect(() => plc.setFault({ kind: 'error', code: 0 })).toThrow(/error code/);
    expect(() => plc.setFault({ kind: 'slow', delayMs: -1 })).toThrow(/delay/);
    expect(() => plc.setFault({ kind: 'slow', delayMs: 100, maxDelayMs: 50 })).toThrow(/longest delay 50 ms/);
    expect(() => plc.setFault({ kind: 'garble', count: 0.5 })).toThrow(/count/);
    expect(() => plc.setFault({ kind: 'fire' } as never)).toThrow(/unknown fault "fire"/);
  });
});
