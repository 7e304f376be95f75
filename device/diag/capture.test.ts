// The capture ring and its taps: nothing kept while off, frames cut by each protocol's framing
// whatever the chunks, answers paired with their request, the bounds, the reader that falls
// behind, and the capture's own end.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeApdu } from '../protocol/iec104/index.ts';
import { asciiToBytes, encodeRtuFrame, encodeTcpFrame } from '../protocol/index.ts';
import { Capture, RING_BYTES, RING_RECORDS } from './capture.ts';

let now = 1_000;
const clock = { now: () => now };

afterEach(() => {
  vi.useRealTimers();
});

describe('the capture', () => {
  it('keeps nothing from a tap nobody captures; a capture of one source leaves the others alone', () => {
    const c = new Capture(clock);
    const com1 = c.tap('COM1', 'mewtocol', 'in');
    const com2 = c.tap('COM2', 'mewtocol', 'in');
    expect(com1.frames).toBe(false);
    com1.frame('out', asciiToBytes('%01#RT**\r'));
    expect(c.held().records).toBe(0);
    c.start({ sources: ['COM1'], level: 'frames', minutes: 10, by: 'admin' });
    expect(com1.frames && com1.events).toBe(true);
    expect(com2.frames || com2.events).toBe(false);
    c.stop();
    expect(com1.frames || com1.events).toBe(false);
    // started, stopped: two events, no frame
    expect(c.read(0, 100).records.map((r) => r.event)).toEqual(['capture_started', 'capture_stopped']);
  });

  it('level events keeps events only', () => {
    const c = new Capture(clock);
    const t = c.tap('port:9094', 'mewtocol', 'out');
    c.start({ sources: ['port:9094'], level: 'events', minutes: 1, by: 'u' });
    expect(t.frames).toBe(false);
    t.event('client_connected', undefined, '10.0.0.5:40000');
    expect(c.read(0, 10).records.map((r) => r.event)).toEqual(['capture_started', 'client_connected']);
  });

  it.each([
    ['mewtocol', [asciiToBytes('%01#RDD0001000011**\r'), asciiToBytes('%01$RD341200\r')]],
    [
      'modbus_tcp',
      [
        encodeTcpFrame({ transaction: 5, unit: 1, pdu: Uint8Array.of(3, 0, 0, 0, 2) }),
        encodeTcpFrame({ transaction: 5, unit: 1, pdu: Uint8Array.of(3, 4, 0, 1, 0, 2) }),
      ],
    ],
    ['modbus_rtu', [encodeRtuFrame(1, Uint8Array.of(3, 0, 0, 0, 2)), encodeRtuFrame(1, Uint8Array.of(3, 4, 0, 1, 0, 2))]],
    ['iec104', [encodeApdu({ format: 'U', fn: 'startdt_act' }), encodeApdu({ format: 'U', fn: 'startdt_con' })]],
  ] as const)('%s: cuts whole frames from any chunking and pairs the answer with its request', (protocol, [request, answer]) => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 12 }), (cuts) => {
        const c = new Capture(clock);
        const answers = protocol === 'iec104' ? undefined : 'in';
        const t = c.tap('COM1', protocol, answers);
        c.start({ sources: ['COM1'], level: 'raw', minutes: 10, by: 'a' });
        now = 1_000;
        t.frame('out', request);
        now = 1_025;
        // the answer in pieces as a serial line delivers it
        let at = 0;
        for (const n of cuts) {
          if (at >= answer.length) break;
          t.frame('in', answer.subarray(at, at + n));
          at += n;
        }
        if (at < answer.length) t.frame('in', answer.subarray(at));
        const frames = c.read(0, 10).records.filter((r) => r.kind === 'frame');
        expect(frames.map((r) => [r.dir, r.data])).toEqual([
          ['out', String.fromCharCode(...request)],
          ['in', String.fromCharCode(...answer)],
        ]);
        if (answers) {
          expect(frames[1]).toMatchObject({ reply: true, rttMs: 25, request: String.fromCharCode(...request) });
        } else expect(frames[1]!.rttMs).toBeUndefined();
      }),
      { numRuns: 50 },
    );
  });

  it('two frames in one chunk are two records; the round trips pair by transaction id on Modbus/TCP, in order per client', () => {
    const c = new Capture(clock);
    const t = c.tap('port:502', 'modbus_tcp', 'out');
    c.start({ sources: ['port:502'], level: 'frames', minutes: 10, by: 'a' });
    const q = (id: number) => encodeTcpFrame({ transaction: id, unit: 1, pdu: Uint8Array.of(3, 0, 0, 0, 1) });
    const a = (id: number) => encodeTcpFrame({ transaction: id, unit: 1, pdu: Uint8Array.of(3, 2, 0, id) });
    now = 0;
    t.frame('in', Uint8Array.from([...q(1), ...q(2)]), '10.0.0.5:1');
    now = 10;
    t.frame('out', a(2), '10.0.0.5:1');
    now = 30;
    t.frame('out', a(1), '10.0.0.5:1');
    const frames = c.read(0, 10).records.filter((r) => r.kind === 'frame');
    expect(frames.map((r) => [r.dir, r.rttMs])).toEqual([
      ['in', undefined],
      ['in', undefined],
      ['out', 10],
      ['out', 30],
    ]);
  });

  it('a PLC link pairs the answer with the last request only: a request given up is answered by nobody', () => {
    const c = new Capture(clock);
    const t = c.tap('COM1', 'mewtocol', 'in');
    c.start({ sources: ['COM1'], level: 'frames', minutes: 10, by: 'a' });
    now = 0;
    t.frame('out', asciiToBytes('%01#RDD0001000011**\r'));
    now = 100;
    t.frame('out', asciiToBytes('%01#RT**\r'));
    now = 110;
    t.frame('in', asciiToBytes('%01$RD341200\r'));
    const ans = c.read(0, 10).records.at(-1)!;
    expect(ans).toMatchObject({ rttMs: 10, request: '%01#RT**\r' });
  });

  it('noise without a frame end is cut at FRAME_MAX and never grows a record without bound', () => {
    const c = new Capture(clock);
    const t = c.tap('COM1', 'mewtocol', 'in');
    c.start({ sources: ['COM1'], level: 'frames', minutes: 10, by: 'a' });
    for (let i = 0; i < 100; i++) t.frame('in', new Uint8Array(100).fill(0x41));
    const frames = c.read(0, 100).records.filter((r) => r.kind === 'frame');
    expect(frames.length).toBe(2);
    expect(frames.every((r) => (r.data?.length ?? 0) <= 4096 + 100)).toBe(true);
  });

  it('holds at most RING_RECORDS records and RING_BYTES bytes; a reader behind the ring is told what it lost', () => {
    const c = new Capture(clock);
    const t = c.tap('port:9094', 'mewtocol', 'out');
    c.start({ sources: ['port:9094'], level: 'frames', minutes: 10, by: 'a' });
    const frame = asciiToBytes(`%01#WDD0000000009${'0'.repeat(40)}**\r`);
    const n = Math.ceil(RING_BYTES / frame.length) + 100;
    for (let i = 0; i < n; i++) t.frame('in', frame, 'p');
    expect(c.held().bytes).toBeLessThanOrEqual(RING_BYTES);
    for (let i = 0; i < RING_RECORDS; i++) t.event('client_connected', undefined, 'p');
    expect(c.held().records).toBe(RING_RECORDS);
    const r = c.read(0, 10);
    expect(r.lost).toBe(0); // a read from the oldest held loses nothing
    const behind = c.read(1, 10);
    expect(behind.lost).toBeGreaterThanOrEqual(n);
    expect(behind.records[0]!.seq).toBe(behind.lost + 2); // records 2 … seq-1 gone after the cursor 1
    // a reader in step loses nothing and gets what came after its cursor
    const newest = c.read(0, RING_RECORDS).next;
    expect(c.read(newest, 10)).toMatchObject({ lost: 0, records: [], next: newest });
    t.event('client_closed', undefined, 'p');
    expect(c.read(newest, 10)).toMatchObject({ lost: 0, records: [expect.objectContaining({ event: 'client_closed' })] });
    // a cursor from before a restart of the daemon (ahead of every record) reads from the oldest held
    expect(c.read(newest + 1_000_000, 1).records[0]!.seq).toBe(c.read(0, 1).records[0]!.seq);
  });

  it('ends by itself after its minutes, with the reason; a new capture replaces one that runs', () => {
    vi.useFakeTimers();
    const c = new Capture(clock, 1000);
    const t = c.tap('COM1', 'mewtocol', 'in');
    c.start({ sources: ['COM1'], level: 'frames', minutes: 2, by: 'a' });
    vi.advanceTimersByTime(1999);
    expect(c.state().on).toBe(true);
    vi.advanceTimersByTime(1);
    expect(c.state()).toMatchObject({ on: false, ended: 'timeout' });
    expect(t.frames).toBe(false);
    expect(c.read(0, 10).records.at(-1)).toMatchObject({ event: 'capture_stopped', args: { why: 'timeout' } });
    c.start({ sources: ['COM1'], level: 'frames', minutes: 1, by: 'a' });
    c.start({ sources: ['COM2'], level: 'frames', minutes: 1, by: 'b' });
    expect(t.frames).toBe(false);
    expect(c.state()).toMatchObject({ on: true, sources: ['COM2'], by: 'b' });
    c.close();
  });
});
