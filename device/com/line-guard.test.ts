// The line guard through a whole link (queue, driver, dialogs) to a virtual PLC whose answers the
// test lets onto the line one at a time, in order, whenever it likes: late, early, or never. The
// timers are fake, so what happens after a timeout is exact and no test waits on the clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ByteChannel, Clock } from '../../hw/types.ts';
import { createPlcEndpoint } from '../../sim/plc/endpoint.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { manualTimers } from '../../sim/wire.ts';
import { asciiToBytes, encodeRtuFrame, encodeTcpFrame } from '../protocol/index.ts';
import { createLogger } from '../system/log.ts';
import { charMs, OWED_MAX, QUIET_MAX_MS, QUIET_MIN_MS, quietMsOf } from './line-guard.ts';
import { Link } from './link.ts';
import type { LinkConfig, LinkStats, Protocol } from './link-types.ts';
import { driverFor } from './links.ts';

const TIMEOUT = 100;
const clock: Clock = { now: () => Date.now() };
const log = createLogger({ clock, sink: null });
const value = (a: number) => a + 1;

type Line = 'MEWTOCOL' | 'MEWTOCOL7' | 'MODBUS RTU' | 'MODBUS TCP' | 'MEWTOCOL TCP';

/**
 * A link to a virtual PLC (station 1, DTa = a + 1) through a line the test drives: the PLC's answers
 * wait in `outbox` until `release()` puts the next one on the line; `inject` puts other bytes on it.
 */
function rig(line: Line, baudRate = 115200) {
  const protocol: Protocol = line.startsWith('MODBUS') ? 'MODBUS' : line === 'MEWTOCOL7' ? 'MEWTOCOL7' : 'MEWTOCOL';
  const tcp = line.endsWith('TCP');
  const plc = new VirtualPlc({ model: protocol === 'MEWTOCOL7' ? 'FP7' : 'FP-XH', scanMs: 0 });
  plc.memory.writeWords(
    'DT',
    0,
    Array.from({ length: 300 }, (_, a) => value(a)),
  );
  const plcTimers = manualTimers();
  const outbox: Uint8Array[] = [];
  const sent: Uint8Array[] = [];
  const endpoint = createPlcEndpoint(plc, {
    protocol: protocol === 'MODBUS' ? 'MODBUS' : 'MEWTOCOL',
    transport: tcp ? 'tcp' : 'serial',
    timers: plcTimers,
    send: (b) => outbox.push(b),
  });
  let onData: (b: Uint8Array) => void = () => {};
  const channel: ByteChannel = {
    write: (b) => {
      sent.push(b.slice());
      endpoint.receive(b);
      plcTimers.advance(0);
    },
    onData: (h) => {
      onData = h;
    },
    onClose: () => {},
    close: async () => {},
    isOpen: true,
  };
  const cfg: LinkConfig = {
    id: tcp ? 5 : 0,
    name: tcp ? 'COM4' : 'COM1',
    kind: tcp ? 'tcp' : 'serial',
    protocol,
    serial: { baudRate, dataBits: 8, parity: 'odd', stopBits: 1, rtscts: false },
    autobaud: false,
    timeoutMs: TIMEOUT,
    waitMs: 0,
    ipPort: '127.0.0.1:9094',
    station: 1,
  };
  const link = new Link(cfg, { driver: driverFor(cfg), clock, log, open: async () => channel });
  return {
    link,
    plc,
    /** requests the PLC got, as text (ASCII protocols) */
    sent: () => sent.map((b) => String.fromCharCode(...b)),
    outbox,
    /** the PLC's next answer onto the line */
    release() {
      const b = outbox.shift();
      if (b) onData(b);
      return b !== undefined;
    },
    inject: (b: Uint8Array | string) => onData(typeof b === 'string' ? asciiToBytes(b) : b),
    stats: (): LinkStats => link.status().stats,
  };
}

/** The outcome of a promise, once it has one: its value or its error. */
function outcome<T>(p: Promise<T>): { done: boolean; value?: T; error?: unknown } {
  const o: { done: boolean; value?: T; error?: unknown } = { done: false };
  p.then(
    (v) => Object.assign(o, { done: true, value: v }),
    (e) => Object.assign(o, { done: true, error: e }),
  );
  return o;
}

const tick = (ms = 0) => vi.advanceTimersByTimeAsync(ms);
/** a MEWTOCOL-COM frame with its BCC */
const mew = (text: string) => {
  let x = 0;
  for (const c of text) x ^= c.charCodeAt(0);
  return `${text}${x.toString(16).toUpperCase().padStart(2, '0')}\r`;
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a late answer (the line guard)', () => {
  /** lets the PLC's answers onto the line one by one, in order, until `done` */
  async function releaseUntil(r: ReturnType<typeof rig>, done: () => boolean) {
    for (let i = 0; i < 20 && !done(); i++) {
      r.release();
      await tick(1);
    }
  }

  it.each([
    ['MEWTOCOL', 1],
    ['MODBUS RTU', 1],
    ['MEWTOCOL TCP', 1],
    ['MEWTOCOL7', 0], // MMRD answers carry their frame number
    ['MODBUS TCP', 0], // the transaction id tells the answers apart
  ] as const)('%s: is taken neither by the retry nor by the next request, and is counted (resync reads: %i)', async (line, resyncs) => {
    const r = rig(line);
    const a = outcome(r.link.readWords('DT', 100, 1, 'a'));
    const b = outcome(r.link.readWords('DT', 200, 1, 'b'));
    await tick();
    expect(r.sent()).toHaveLength(1);
    await tick(TIMEOUT + 10); // the first request is given up; its answer comes only now
    expect(r.sent()).toHaveLength(2); // the resync read, or the retry where answers carry an id
    await releaseUntil(r, () => a.done && b.done);
    expect(a).toEqual({ done: true, value: [value(100)] });
    expect(b).toEqual({ done: true, value: [value(200)] });
    expect(r.stats()).toMatchObject({ timeouts: 1, lateAnswers: 1, mismatched: 0, resyncs });
    expect(r.stats().answers + r.stats().lateAnswers).toBe(r.plc.answers);
    await r.link.close();
  });

  it.each([
    ['MEWTOCOL', /^%01#RT/],
    ['MODBUS RTU', /^\x01\x03\x00\x00\x00\x02/], // FC3 of one register would answer like the read itself: two
  ] as const)('%s: the resync read goes to the same station, with a key no owed answer has', async (line, resync) => {
    const r = rig(line);
    const a = outcome(r.link.readWords('DT', 100, 1, 'a'));
    await tick(TIMEOUT + 10);
    expect(r.sent().at(-1)).toMatch(resync);
    await releaseUntil(r, () => a.done); // the late answer, the resync read's, then the retry's
    expect(a).toEqual({ done: true, value: [value(100)] });
    expect(r.stats()).toMatchObject({ timeouts: 1, lateAnswers: 1, resyncs: 1, mismatched: 0 });
    await r.link.close();
  });

  it('MEWTOCOL: one that comes while the line is idle is counted there, and the next request needs no resync', async () => {
    const r = rig('MEWTOCOL');
    const w = outcome(r.link.writeWords('DT', 5, [value(5)], 'w')); // a write is not retried
    await tick(TIMEOUT + 10);
    expect(w.error).toMatchObject({ reason: 'no_answer' });
    expect(r.release()).toBe(true); // its acknowledgement, late
    expect(r.stats()).toMatchObject({ lateAnswers: 1, mismatched: 0 });
    const w2 = outcome(r.link.writeWords('DT', 6, [value(6)], 'w'));
    await tick(5);
    expect(r.release()).toBe(true);
    await tick();
    expect(w2).toEqual({ done: true, value: undefined });
    expect(r.stats()).toMatchObject({ resyncs: 0, lateAnswers: 1, answers: 1 });
    expect(r.sent().at(-1)).toMatch(/^%01#WDD0000600006/);
    await r.link.close();
  });

  it('MEWTOCOL: a resync read that goes unanswered fails the attempt, and the next one reads with another key', async () => {
    const r = rig('MEWTOCOL');
    const a = outcome(r.link.readWords('DT', 100, 1, 'a'));
    await tick(TIMEOUT + 10); // first try given up; the resync read (RT) is on the line
    expect(r.sent().at(-1)).toMatch(/^%01#RT/);
    await tick(TIMEOUT + 10); // no answer to it either: the read fails after its two attempts
    expect(a.error).toMatchObject({ reason: 'no_answer' });
    const b = outcome(r.link.readWords('DT', 200, 1, 'b'));
    await tick(5);
    // RT and RD:4 are owed: this resync reads two words of DT0; every earlier answer comes before its own
    expect(r.sent().at(-1)).toMatch(/^%01#RDD0000000001/);
    await releaseUntil(r, () => b.done);
    expect(b).toEqual({ done: true, value: [value(200)] });
    expect(r.stats()).toMatchObject({ lateAnswers: 2, resyncs: 2, mismatched: 0 });
    await r.link.close();
  });

  it('MEWTOCOL: in step, an unreadable answer is the request’s own: the retry goes out without a resync read', async () => {
    const r = rig('MEWTOCOL');
    r.plc.setFault({ kind: 'bad_check', count: 1 });
    const a = outcome(r.link.readWords('DT', 100, 1, 'a'));
    await tick();
    r.release(); // with a wrong BCC
    await tick(5);
    expect(r.sent()).toEqual([r.sent()[0], r.sent()[0]]);
    r.release();
    await tick();
    expect(a).toEqual({ done: true, value: [value(100)] });
    expect(r.stats()).toMatchObject({ errors: 1, resyncs: 0, lateAnswers: 0 });
    await r.link.close();
  });

  it('MEWTOCOL: a late error reply of a given-up request fails neither the next request nor gives it a value', async () => {
    const r = rig('MEWTOCOL');
    const w = outcome(r.link.writeWords('DT', 5, [value(5)], 'w')); // a write is not retried
    await tick(TIMEOUT + 10);
    expect(w.error).toMatchObject({ reason: 'no_answer' });
    r.outbox.shift(); // the write's answer comes late, as an error reply, once the read is on the line
    const b = outcome(r.link.readWords('DT', 200, 1, 'b'));
    await tick(5);
    expect(r.sent().at(-1)).toMatch(/^%01#RDD0020000200/); // another shape than the write's: no resync read
    r.inject(mew('%01!61'));
    await tick();
    expect(b.done).toBe(false); // the write's error, not the read's
    r.release();
    await tick();
    expect(b).toEqual({ done: true, value: [value(200)] });
    expect(r.stats()).toMatchObject({ lateAnswers: 1, mismatched: 0, errors: 0, answers: 1 });
    await r.link.close();
  });

  it('MEWTOCOL: while an answer is owed that never comes, the request’s own error reply costs a timeout and a resync read, then fails it', async () => {
    const r = rig('MEWTOCOL');
    const w = outcome(r.link.writeWords('DT', 5, [value(5)], 'w'));
    await tick(TIMEOUT + 10);
    r.outbox.shift(); // the PLC never answers the write
    const b = outcome(r.link.readWords('DT', 200, 1, 'b'));
    await tick(5);
    r.outbox.shift();
    r.inject(mew('%01!61')); // the read's own error: it cannot be told from the write's
    await tick();
    expect(b.done).toBe(false);
    await tick(TIMEOUT + 10); // given up: the retry goes behind a resync read
    expect(r.sent().at(-1)).toMatch(/^%01#RT/);
    r.release();
    await tick(5);
    expect(r.sent().at(-1)).toMatch(/^%01#RDD0020000200/);
    r.outbox.shift();
    r.inject(mew('%01!61')); // in step now: the error is the read's
    await tick();
    expect(w.error).toMatchObject({ reason: 'no_answer' });
    expect(b.error).toMatchObject({ reason: 'plc_error', code: 61 });
    expect(r.stats()).toMatchObject({ resyncs: 1, lateAnswers: 1 });
    await r.link.close();
  });

  /** a read of DT100 that fails after both attempts (its own and the resync read's): FC3 answers of 2 and 4 bytes owed */
  async function givenUpRead(r: ReturnType<typeof rig>) {
    const a = outcome(r.link.readWords('DT', 100, 1, 'a'));
    await tick(TIMEOUT + 10);
    expect(r.sent().at(-1)).toMatch(/^\x01\x03\x00\x00\x00\x02/); // the resync read, FC3 too
    await tick(TIMEOUT + 10);
    expect(a.error).toMatchObject({ reason: 'no_answer' });
    r.outbox.shift(); // the read's answer comes late, as an exception, once the next read is on the line
  }

  it('MODBUS RTU: a late exception of a given-up read fails not the next read of the same function, which gets its own answer (LATE-2)', async () => {
    const r = rig('MODBUS RTU');
    await givenUpRead(r);
    const b = outcome(r.link.readWords('DT', 200, 3, 'b'));
    await tick(5);
    expect(r.sent().at(-1)).toMatch(/^\x01\x03\x00\xc8\x00\x03/); // another byte count than the owed: no resync read
    r.inject(encodeRtuFrame(1, Uint8Array.of(0x83, 2)));
    await tick();
    expect(b.done).toBe(false); // the given-up read's exception, not this read's
    await releaseUntil(r, () => b.done); // the resync read's answer, late, then its own
    expect(b).toEqual({ done: true, value: [value(200), value(201), value(202)] });
    expect(r.stats()).toMatchObject({ lateAnswers: 2, mismatched: 0, errors: 0, resyncs: 1 });
    await r.link.close();
  });

  it('MODBUS RTU: while an answer of its function is owed that never comes, the read’s own exception costs a timeout and a resync read, then fails it', async () => {
    const r = rig('MODBUS RTU');
    await givenUpRead(r);
    r.outbox.shift(); // nor the resync read's: the PLC never answers either
    const b = outcome(r.link.readWords('DT', 200, 3, 'b'));
    await tick(5);
    r.outbox.shift();
    r.inject(encodeRtuFrame(1, Uint8Array.of(0x83, 2))); // b's own exception: it cannot be told from the owed ones'
    await tick();
    expect(b.done).toBe(false);
    await tick(TIMEOUT + 10); // given up: the retry goes behind a resync read of 4 registers (2, 4 and 6 bytes are owed)
    expect(r.sent().at(-1)).toMatch(/^\x01\x03\x00\x00\x00\x04/);
    r.release();
    await tick(5);
    expect(r.sent().at(-1)).toMatch(/^\x01\x03\x00\xc8\x00\x03/);
    r.outbox.shift();
    r.inject(encodeRtuFrame(1, Uint8Array.of(0x83, 2))); // in step now: the exception is the read's
    await tick();
    expect(b.error).toMatchObject({ reason: 'plc_error', code: 2 });
    await r.link.close();
  });

  it('MODBUS RTU: an owed answer of another function leaves the read’s exception its own', async () => {
    const r = rig('MODBUS RTU');
    const w = outcome(r.link.writeWords('DT', 5, [value(5)], 'w')); // FC6, not retried
    await tick(TIMEOUT + 10);
    expect(w.error).toMatchObject({ reason: 'no_answer' });
    r.outbox.shift();
    const b = outcome(r.link.readWords('DT', 200, 1, 'b'));
    await tick(5);
    r.outbox.shift();
    r.inject(encodeRtuFrame(1, Uint8Array.of(0x83, 2)));
    await tick();
    expect(b.error).toMatchObject({ reason: 'plc_error', code: 2 });
    expect(r.stats()).toMatchObject({ timeouts: 1, lateAnswers: 0 });
    await r.link.close();
  });

  it('MODBUS TCP: a late exception carries its transaction id: the next read of the same function drops it and gets its own answer', async () => {
    const r = rig('MODBUS TCP');
    const a = outcome(r.link.readWords('DT', 100, 1, 'a'));
    await tick(TIMEOUT + 10); // given up: the retry is on the line (a transaction of its own)
    const late = r.outbox.shift()!;
    r.inject(encodeTcpFrame({ transaction: (late[0]! << 8) | late[1]!, unit: 1, pdu: Uint8Array.of(0x83, 2) }));
    await tick();
    expect(a.done).toBe(false);
    r.release();
    await tick();
    expect(a).toEqual({ done: true, value: [value(100)] });
    expect(r.stats()).toMatchObject({ lateAnswers: 1, errors: 0, resyncs: 0 });
    await r.link.close();
  });

  it('MEWTOCOL: after a timeout the next request waits until the line has been quiet for quietMs', async () => {
    const r = rig('MEWTOCOL', 9600);
    const quiet = quietMsOf('serial', { baudRate: 9600, dataBits: 8, parity: 'odd', stopBits: 1, rtscts: false }, 9600, TIMEOUT);
    expect(quiet).toBeCloseTo((4 * 11) / 9.6); // four characters at 9600 8O1
    const a = outcome(r.link.readWords('DT', 100, 1, 'a'));
    await tick(TIMEOUT);
    // the late answer comes a byte every 2 ms: nothing is sent while it comes
    const late = r.outbox.shift()!;
    for (const [i, byte] of late.entries()) {
      if (i > 0) await tick(2);
      r.inject(Uint8Array.of(byte));
      expect(r.sent()).toHaveLength(1);
    }
    await tick(Math.ceil(quiet) - 1);
    expect(r.sent()).toHaveLength(1);
    await tick(1);
    expect(r.sent()).toHaveLength(2);
    // it was recognised while the line drained: no resync needed, the retry went out
    expect(r.sent()[1]).toBe(r.sent()[0]);
    expect(r.stats()).toMatchObject({ lateAnswers: 1, resyncs: 0 });
    r.release();
    await tick();
    expect(a).toEqual({ done: true, value: [value(100)] });
    await r.link.close();
  });
});

describe('answers checked against their request', () => {
  it.each([
    ['MEWTOCOL', [mew('%02$RD6500'), mew('%01$RC6500'), mew('%01$RD65006600'), mew('<01$RD6500')]],
    [
      'MODBUS RTU',
      [
        encodeRtuFrame(2, Uint8Array.of(3, 2, 0, 101)), // another unit
        encodeRtuFrame(1, Uint8Array.of(4, 2, 0, 101)), // another function
        encodeRtuFrame(1, Uint8Array.of(3, 4, 0, 101, 0, 102)), // another byte count
        encodeRtuFrame(1, Uint8Array.of(0x84, 2)), // an exception to another function
      ],
    ],
    [
      'MODBUS TCP',
      [
        encodeTcpFrame({ transaction: 77, unit: 1, pdu: Uint8Array.of(3, 2, 0, 101) }), // another transaction
        encodeTcpFrame({ transaction: 1, unit: 9, pdu: Uint8Array.of(3, 2, 0, 101) }), // another unit
        encodeTcpFrame({ transaction: 1, unit: 1, pdu: Uint8Array.of(4, 2, 0, 101) }), // another function
      ],
    ],
    ['MEWTOCOL7', ['>@EEE0F$00MMRD6500****\r', '>@00200$00MMRD6500****\r', '>@EEE00$00MMRD65006600****\r']],
  ] as const)('%s: what answers another request (station, code, length, id) is dropped and counted, the request gets its own', async (line, others) => {
    const r = rig(line);
    const a = outcome(r.link.readWords('DT', 100, 1, 'a'));
    await tick();
    for (const o of others) r.inject(o);
    await tick();
    expect(a.done).toBe(false);
    expect(r.stats()).toMatchObject({ mismatched: others.length, lateAnswers: 0 });
    r.release();
    await tick();
    expect(a).toEqual({ done: true, value: [value(100)] });
    expect(r.stats()).toMatchObject({ answers: 1, timeouts: 0, errors: 0 });
    await r.link.close();
  });

  it('MEWTOCOL: an error reply from the right station is the request’s own', async () => {
    const r = rig('MEWTOCOL');
    const a = outcome(r.link.readWords('DT', 100, 1, 'a'));
    await tick();
    r.inject(mew('%01!61'));
    await tick();
    expect(a.error).toMatchObject({ reason: 'plc_error', code: 61 });
    expect(r.stats()).toMatchObject({ answers: 1, mismatched: 0, plcErrors: 1, lastPlcError: 61, checkErrors: 0, invalidFrames: 0 });
    await r.link.close();
  });

  it('MEWTOCOL: the diagnostics tell a wrong BCC, an unreadable frame and an error answer apart; the reset starts them from 0', async () => {
    const r = rig('MEWTOCOL');
    r.plc.setFault({ kind: 'bad_check', count: 1 });
    const a = outcome(r.link.readWords('DT', 100, 1, 'a'));
    await tick();
    r.release(); // a wrong BCC: the retry goes out
    await tick(5);
    r.release();
    await tick();
    expect(a.done).toBe(true);
    expect(r.stats()).toMatchObject({ checkErrors: 1, invalidFrames: 0, plcErrors: 0 });
    // a frame broken by a control character inside it: unreadable
    const b = outcome(r.link.readWords('DT', 100, 1, 'b'));
    await tick();
    r.inject('%01$RD\x0100\r');
    await tick(5);
    while (r.release()) await tick(1); // the retry gets the PLC's answer
    expect(b).toEqual({ done: true, value: [value(100)] });
    expect(r.stats()).toMatchObject({ checkErrors: 1, invalidFrames: 1, plcErrors: 0 });
    expect(r.stats().lastPlcError).toBeUndefined();
    r.link.resetCounters();
    expect(r.stats()).toMatchObject({ checkErrors: 0, invalidFrames: 0, plcErrors: 0, reconnects: 0 });
    await r.link.close();
  });
});

describe('the quiet interval', () => {
  it('is four characters at the line speed, within 2-50 ms and a quarter of the timeout; none on TCP', () => {
    const s = { baudRate: 9600, dataBits: 8 as const, parity: 'odd' as const, stopBits: 1 as const, rtscts: false };
    expect(charMs(9600, s)).toBeCloseTo(11 / 9.6);
    expect(quietMsOf('serial', s, 9600, 1000)).toBeCloseTo((4 * 11) / 9.6);
    expect(quietMsOf('serial', s, 115200, 1000)).toBe(QUIET_MIN_MS);
    expect(quietMsOf('serial', s, 1200, 1000)).toBeCloseTo((4 * 11) / 1.2);
    expect(quietMsOf('serial', { ...s, stopBits: 2 }, 300, 1000)).toBe(QUIET_MAX_MS);
    expect(quietMsOf('serial', s, 1200, 60)).toBe(15);
    expect(quietMsOf('tcp', s, 9600, 1000)).toBe(0);
    expect(quietMsOf('internal', s, 9600, 1000)).toBe(0);
    expect(OWED_MAX).toBeLessThan(27); // fewer than the resync reads of MEWTOCOL (RT + 27 lengths)
  });
});
