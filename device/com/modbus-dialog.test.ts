import { describe, expect, it } from 'vitest';
import { encodeRtuFrame, encodeTcpFrame, type ModbusRequest } from '../protocol/index.ts';
import { type AnswerKey, keysOverlap } from './dialog.ts';
import { modbusBroadcastDialog, modbusDialog } from './modbus-dialog.ts';

const FC3 = (address: number, quantity = 1): ModbusRequest => ({ fc: 3, address, quantity });
const rtu = (unit: number, ...pdu: number[]) => encodeRtuFrame(unit, Uint8Array.from(pdu));

describe('Modbus dialogs: whose answer is it', () => {
  it('RTU: reads of the same function and byte count overlap; writes overlap only with the same echo', () => {
    const key = (req: ModbusRequest, unit = 1) => modbusDialog(unit, req, { kind: 'rtu' }).answerKey as AnswerKey;
    expect(keysOverlap(key(FC3(100)), key(FC3(200)))).toBe(true);
    expect(keysOverlap(key(FC3(100)), key(FC3(100, 2)))).toBe(false);
    expect(keysOverlap(key(FC3(100)), key({ fc: 4, address: 100, quantity: 1 }))).toBe(false);
    expect(keysOverlap(key(FC3(100)), key(FC3(100), 2))).toBe(false);
    // 9 and 16 coils both answer in 2 bytes
    expect(keysOverlap(key({ fc: 1, address: 0, quantity: 9 }), key({ fc: 1, address: 50, quantity: 16 }))).toBe(true);
    expect(keysOverlap(key({ fc: 6, address: 5, value: 1 }), key({ fc: 6, address: 5, value: 2 }))).toBe(false);
    expect(keysOverlap(key({ fc: 6, address: 5, value: 1 }), key({ fc: 6, address: 5, value: 1 }))).toBe(true);
  });

  it('TCP: the transaction id tells every answer apart', () => {
    const a = modbusDialog(1, FC3(100), { kind: 'tcp', transaction: 7 });
    const b = modbusDialog(1, FC3(100), { kind: 'tcp', transaction: 8 });
    expect(keysOverlap(a.answerKey!, b.answerKey!)).toBe(false);
    expect(keysOverlap(a.answerKey!, a.resync!(0)!.answerKey!)).toBe(false);
  });

  it('RTU resync reads: FC3 from DT0 of 1…32 registers to the same unit, keys of their own', () => {
    const d = modbusDialog(3, FC3(100, 5), { kind: 'rtu' });
    const all = Array.from({ length: 40 }, (_, n) => d.resync!(n)).filter((r) => r !== undefined);
    expect(all).toHaveLength(32);
    expect(Array.from(all[0]!.request.slice(0, 6))).toEqual([3, 3, 0, 0, 0, 1]);
    expect(new Set(all.map((r) => r.answerKey!.shape)).size).toBe(32);
  });

  it('RTU: drops and counts another unit’s, function’s or byte count’s answer; an exception to its own function is its own', () => {
    const d = modbusDialog(1, FC3(100), { kind: 'rtu' });
    const others = [rtu(2, 3, 2, 0, 101), rtu(1, 4, 2, 0, 101), rtu(1, 3, 4, 0, 1, 0, 2), rtu(1, 0x86, 2)];
    for (const o of others) expect(d.feed(o)).toEqual({ done: false });
    expect(d.strays?.()).toBe(4);
    expect(() => d.feed(rtu(1, 0x83, 2))).toThrow(expect.objectContaining({ reason: 'plc_error', code: 2 }));
    const e = modbusDialog(1, FC3(100), { kind: 'rtu' });
    expect(e.feed(rtu(1, 3, 2, 0, 101))).toEqual({ done: true, value: { fc: 3, registers: [101] } });
  });

  it('RTU: told n answers of its function are owed, it takes the first n exceptions as theirs, the next as its own (LATE-2)', () => {
    const d = modbusDialog(1, FC3(100), { kind: 'rtu' });
    expect(d.answerKey?.errors).toBe('fc3');
    expect(modbusDialog(1, { fc: 4, address: 0, quantity: 1 }, { kind: 'rtu' }).answerKey?.errors).toBe('fc4');
    d.owedBefore?.(2);
    expect(d.feed(rtu(1, 0x83, 4))).toEqual({ done: false });
    expect(d.feed(rtu(1, 0x83, 4))).toEqual({ done: false });
    expect(d.strays?.()).toBe(2);
    expect(() => d.feed(rtu(1, 0x83, 2))).toThrow(expect.objectContaining({ reason: 'plc_error', code: 2 }));
    const e = modbusDialog(1, FC3(100), { kind: 'rtu' });
    e.owedBefore?.(1);
    expect(e.feed(rtu(1, 3, 2, 0, 101))).toEqual({ done: true, value: { fc: 3, registers: [101] } }); // a normal answer is checked by its byte count
    const t = modbusDialog(1, FC3(100), { kind: 'tcp', transaction: 9 });
    expect(t.answerKey?.errors).toBeUndefined(); // the transaction id tells exceptions apart too
    expect(t.owedBefore).toBeUndefined();
  });

  it('TCP: drops and counts another transaction’s or unit’s answer; a stream out of step is a bad reply', () => {
    const d = modbusDialog(1, FC3(100), { kind: 'tcp', transaction: 9 });
    d.feed(encodeTcpFrame({ transaction: 8, unit: 1, pdu: Uint8Array.of(3, 2, 0, 1) }));
    d.feed(encodeTcpFrame({ transaction: 9, unit: 2, pdu: Uint8Array.of(3, 2, 0, 1) }));
    expect(d.strays?.()).toBe(2);
    expect(d.feed(encodeTcpFrame({ transaction: 9, unit: 1, pdu: Uint8Array.of(3, 2, 0, 101) }))).toEqual({
      done: true,
      value: { fc: 3, registers: [101] },
    });
    const broken = modbusDialog(1, FC3(100), { kind: 'tcp', transaction: 9 });
    expect(() => broken.feed(Uint8Array.of(0, 9, 0, 7, 0, 5, 1, 3))).toThrow(expect.objectContaining({ reason: 'bad_reply' }));
  });

  it('a broadcast takes no answer: whatever comes is a stray', () => {
    const d = modbusBroadcastDialog(Uint8Array.of(6, 0, 1, 0, 2));
    expect(d.answerKey).toBeUndefined();
    expect(d.feed(rtu(1, 6, 0, 1, 0, 2))).toEqual({ done: false });
    expect(d.strays?.()).toBe(1);
  });
});
