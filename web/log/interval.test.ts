import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readLimit } from '../../device/logger/planner.ts';
import type { LogWordArea } from '../../device/logger/types.ts';
import { withDefaults } from '../../device/model/section.ts';
import { type LogFile, type LogRecord, logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import { type ComInterface, DEFAULT_INTERFACES } from '../../device/model/sections/pew.ts';
import type { MewRequest } from '../../device/protocol/mewtocol-commands.ts';
import { mewCommandFrames, mewReplyFrames } from '../../device/protocol/mewtocol-exchange.ts';
import { encodeMew7Reply, encodeMew7Request, type Mew7Area, type Mew7Request } from '../../device/protocol/mewtocol7-commands.ts';
import { encodeMew7Message } from '../../device/protocol/mewtocol7-frame.ts';
import { encodeModbusRequest, type ModbusResponse } from '../../device/protocol/modbus-pdu.ts';
import { encodeModbusResponse } from '../../device/protocol/modbus-response.ts';
import { encodeRtuFrame } from '../../device/protocol/modbus-rtu.ts';
import {
  charBits,
  cycleExceeded,
  ETHERNET_MS,
  estimateReads,
  frameSizes,
  INTERNAL_MS,
  intervalWarning,
  readEstimator,
  requestMs,
  SCAN_MS,
} from './interval.ts';

const COM1 = 0;
const COM2 = 3;
const INTERNAL = 4;
const ifaces = (changes: Record<number, Partial<ComInterface>> = {}): ComInterface[] => DEFAULT_INTERFACES.map((i) => ({ ...i, ...(changes[i.id] ?? {}) }));
const rec = (r: Partial<LogRecord>) => withDefaults(recordSchema, r) as LogRecord;
const file = (f: Partial<LogFile>) => withDefaults(logFileSchema, { name: 'f', ...f }) as LogFile;
/** `n` INT points from DT`from` on, one word apart */
const dts = (n: number, from = 0, extra: Partial<LogRecord> = {}) =>
  Array.from({ length: n }, (_, i) => rec({ id: i + 1, name: `p${i}`, reg_addr: String(from + i), ...extra }));

const zeros = (n: number) => new Array<number>(n).fill(0);
/** The sizes the protocol encoders give for a read of `count` words from word 0. */
function encoded(protocol: 'MEWTOCOL' | 'MEWTOCOL7' | 'MODBUS', area: LogWordArea, count: number) {
  const words = { kind: 'words' as const, words: zeros(count) };
  if (protocol === 'MODBUS') {
    const bits = area === 'WX' || area === 'WY' || area === 'WR';
    const fc = bits ? (area === 'WX' ? 2 : 1) : area === 'LD' ? 4 : 3;
    const res: ModbusResponse = fc === 1 || fc === 2 ? { fc, bits: zeros(count * 16).map(() => false) } : { fc, registers: zeros(count) };
    return {
      request: encodeRtuFrame(1, encodeModbusRequest({ fc, address: 0, quantity: bits ? count * 16 : count })).length,
      reply: encodeRtuFrame(1, encodeModbusResponse(res)).length,
    };
  }
  if (protocol === 'MEWTOCOL7' && area !== 'FL') {
    const req: Mew7Request = { cmd: 'MMRD', area: area as Mew7Area, address: 0, count };
    const frames = (kind: 'command' | 'response', text: string) => encodeMew7Message({ kind, station: 1, frameNo: 0, text }).join('').length;
    return { request: frames('command', encodeMew7Request(req)), reply: frames('response', encodeMew7Reply(req, words)) };
  }
  const req: MewRequest = area === 'DT' || area === 'LD' || area === 'FL' ? { cmd: 'RD', area, start: 0, count } : { cmd: 'RCC', area, start: 0, count };
  return { request: mewCommandFrames(1, req).join('').length, reply: mewReplyFrames('%', 1, req, words).join('').length };
}

describe('frame sizes', () => {
  it('are those of the protocol encoders for every area and every count up to the read limit', () => {
    const areas: LogWordArea[] = ['DT', 'FL', 'LD', 'WX', 'WY', 'WR'];
    for (const protocol of ['MEWTOCOL', 'MEWTOCOL7', 'MODBUS'] as const) {
      for (const area of areas) {
        const limit = readLimit(protocol, area);
        for (let count = 1; count <= limit; count++)
          expect(frameSizes(protocol, area, count), `${protocol} ${area} ${count}`).toEqual(encoded(protocol, area, count));
      }
    }
  });

  it('MEWTOCOL RD of 27 words: %01#RDD0000000026 + BCC + CR, reply %01$RD + 4 per word + BCC + CR', () => {
    expect(frameSizes('MEWTOCOL', 'DT', 27)).toEqual({ request: 20, reply: 6 + 27 * 4 + 3 });
    expect(frameSizes('MEWTOCOL', 'WR', 1)).toEqual({ request: 19, reply: 13 }); // RCCR: 4-digit addresses
  });

  it('Modbus RTU: 8-byte read request; FC3 reply 5 + 2 per register; relay words as 16 coils each', () => {
    expect(frameSizes('MODBUS', 'DT', 125)).toEqual({ request: 8, reply: 255 });
    expect(frameSizes('MODBUS', 'LD', 3)).toEqual({ request: 8, reply: 11 });
    expect(frameSizes('MODBUS', 'WR', 2)).toEqual({ request: 8, reply: 9 });
  });

  it('MEWTOCOL7 MMRD for DT, MEWTOCOL-COM for FL', () => {
    expect(frameSizes('MEWTOCOL7', 'DT', 10)).toEqual({ request: 40, reply: 59 });
    expect(frameSizes('MEWTOCOL7', 'FL', 10)).toEqual(frameSizes('MEWTOCOL', 'FL', 10));
  });
});

describe('requestMs', () => {
  const com1 = ifaces()[0]!;
  it('serial: characters × (start + data + parity + stop) ÷ baud, plus the scan and the wait', () => {
    expect(charBits(com1)).toBe(11); // 8O1
    expect(charBits({ bits: 7, parity: 'none', stopbits: 2 })).toBe(10);
    expect(requestMs(com1, 'DT', 27)).toBeCloseTo((137 * 11 * 1000) / 9600 + SCAN_MS, 9);
    expect(requestMs({ ...com1, baudrate: 115200, wait: 20 }, 'DT', 27)).toBeCloseTo((137 * 11 * 1000) / 115200 + SCAN_MS + 20, 9);
  });

  it('Modbus RTU adds 3.5 characters of silence after each frame', () => {
    const m = { ...com1, protocol: 'MODBUS' as const, baudrate: 19200 as const, parity: 'none' as const };
    expect(requestMs(m, 'DT', 125)).toBeCloseTo(((8 + 255 + 7) * 10 * 1000) / 19200 + SCAN_MS, 9);
  });

  it('COM4 a LAN round trip, INTERNAL next to nothing', () => {
    const [, , , internal, com4] = ifaces();
    expect(requestMs({ ...com4!, wait: 3 }, 'DT', 100)).toBe(ETHERNET_MS + SCAN_MS + 3);
    expect(requestMs(internal!, 'DT', 100)).toBe(INTERNAL_MS);
  });
});

describe('estimateReads', () => {
  it("counts the planner's requests: 60 neighbouring DT words over MEWTOCOL are 27 + 27 + 6", () => {
    const f = file({ interface: COM1, records: dts(60, 0, { if: COM1 }) });
    const i = ifaces({ [COM1]: { enabled: true } });
    const e = estimateReads(f, 0, i);
    const ms = 2 * requestMs(i[0]!, 'DT', 27) + requestMs(i[0]!, 'DT', 6);
    expect(e).toEqual({ requests: 3, ms, interfaces: [{ interfaceId: COM1, requests: 3, ms }] });
    // the same points over Modbus fit one request of 60 registers
    const m = ifaces({ [COM1]: { enabled: true, protocol: 'MODBUS' } });
    expect(estimateReads(f, 0, m).requests).toBe(1);
  });

  it('interfaces run side by side: the busiest one decides', () => {
    const records = [...dts(2, 0, { if: COM1 }), ...dts(2, 1000, { if: COM2 }), ...dts(2, 5000, { if: COM2 }), rec({ name: 'x', if: INTERNAL })];
    const i = ifaces({ [COM1]: { enabled: true }, [COM2]: { enabled: true, baudrate: 1200 } });
    const e = estimateReads(file({ records }), 0, i);
    const com2 = 2 * requestMs(i[1]!, 'DT', 2);
    expect(e.requests).toBe(4);
    expect(e.interfaces.map((x) => [x.interfaceId, x.requests])).toEqual([
      [COM1, 1],
      [COM2, 2],
      [INTERNAL, 1],
    ]);
    expect(e.ms).toBeCloseTo(com2, 9);
  });

  it('reads that are refused at once cost nothing: an interface not enabled, FL over Modbus', () => {
    const off = estimateReads(file({ records: dts(5, 0, { if: COM1 }) }), 0, ifaces());
    expect(off).toEqual({ requests: 0, ms: 0, interfaces: [] });
    const fl = estimateReads(file({ records: dts(3, 0, { if: COM1, area: 2 }) }), 0, ifaces({ [COM1]: { enabled: true, protocol: 'MODBUS' } }));
    expect(fl.requests).toBe(0);
  });

  // The planner's objective (device/logger/planner.ts) is the fewest requests, then the fewest words.
  // That makes time monotonic only while the request count stays: with 1788 and 1814 one 27-word
  // read (the MEWTOCOL limit) costs more than the two short reads 1772 added makes necessary
  // ([[1814, 1788], 1772]: 161.98 ms against 158.96 ms). Time-optimal planning is an open finding.
  it('property: more points never take fewer requests, and with as many requests never less time', () => {
    const i = ifaces({ [COM1]: { enabled: true } });
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(3000), { maxLength: 80 }), fc.nat(3000), (addrs, extra) => {
        const records = addrs.map((a, k) => rec({ id: k + 1, name: `p${k}`, if: COM1, reg_addr: String(a) }));
        const more = [...records, rec({ id: records.length + 1, name: 'more', if: COM1, reg_addr: String(extra) })];
        const before = estimateReads(file({ records }), 0, i);
        const after = estimateReads(file({ records: more }), 0, i);
        expect(after.requests).toBeGreaterThanOrEqual(before.requests);
        if (after.requests === before.requests) expect(after.ms).toBeGreaterThanOrEqual(before.ms - 1e-9);
      }),
      { numRuns: 300 },
    );
    // the counterexample of the time property stays visible: two reads where one was
    const two = estimateReads(file({ records: [1814, 1788].map((a, k) => rec({ id: k + 1, name: `p${k}`, if: COM1, reg_addr: String(a) })) }), 0, i);
    const three = estimateReads(file({ records: [1814, 1788, 1772].map((a, k) => rec({ id: k + 1, name: `p${k}`, if: COM1, reg_addr: String(a) })) }), 0, i);
    expect([two.requests, three.requests]).toEqual([1, 2]);
  });
});

describe('readEstimator', () => {
  it('plans again only when the points or the interfaces change: a name edit keeps the last answer', () => {
    const estimate = readEstimator();
    const i = ifaces({ [COM1]: { enabled: true } });
    const f = file({ interface: COM1, records: dts(60, 0, { if: COM1 }) });
    const first = estimate(f, 0, i);
    expect(first).toEqual(estimateReads(f, 0, i));
    const renamed = { ...f, records: f.records.map((r, k) => (k === 7 ? { ...r, name: 'renamed', dim: 'bar' } : r)) };
    expect(estimate(renamed, 0, i)).toBe(first);
    const moved = { ...f, records: f.records.map((r, k) => (k === 7 ? { ...r, reg_addr: '900' } : r)) };
    expect(estimate(moved, 0, i)).toEqual(estimateReads(moved, 0, i));
    expect(estimate(moved, 0, i).requests).toBe(first.requests + 1);
  });

  // every field a point's read depends on (interface, station, area, address, type, string length),
  // the file's interface and station, and the interfaces' settings, edited at random one after the other
  it('property: after any sequence of edits it answers what estimateReads answers', () => {
    const base = file({ interface: COM1, plc_addr: 3, records: dts(40, 0, { if: COM1 }) });
    const edit = fc.oneof(
      fc.record({ k: fc.nat(39), field: fc.constant('name' as const), value: fc.string({ maxLength: 4 }) }),
      fc.record({ k: fc.nat(39), field: fc.constant('reg_addr' as const), value: fc.nat(200).map(String) }),
      fc.record({ k: fc.nat(39), field: fc.constant('if' as const), value: fc.constantFrom(COM1, COM2, INTERNAL) }),
      fc.record({ k: fc.nat(39), field: fc.constant('plc_addr' as const), value: fc.constantFrom(0, 1, 3) }),
      fc.record({ k: fc.nat(39), field: fc.constant('type' as const), value: fc.constantFrom(0, 2, 6) }),
      fc.record({ k: fc.nat(39), field: fc.constant('area' as const), value: fc.constantFrom(0, 1, 2, 3) }),
      fc.record({ k: fc.nat(39), field: fc.constant('str_len' as const), value: fc.integer({ min: 1, max: 48 }) }),
      fc.record({ k: fc.constant(-1), field: fc.constantFrom('interface' as const, 'plc_addr' as const), value: fc.constantFrom(COM1, COM2, 0, 5) }),
      fc.record({ k: fc.constant(-2), field: fc.constant('baudrate' as const), value: fc.constantFrom(1200, 9600, 115200) }),
    );
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 30 }), (edits) => {
        const estimate = readEstimator();
        let f = base;
        let i = ifaces({ [COM1]: { enabled: true }, [COM2]: { enabled: true } });
        for (const e of edits) {
          if (e.k === -2) i = i.map((x) => (x.id === COM2 ? { ...x, baudrate: e.value as ComInterface['baudrate'] } : x));
          else if (e.k === -1) f = { ...f, [e.field]: e.value };
          else f = { ...f, records: f.records.map((r, k) => (k === e.k ? { ...r, [e.field]: e.value } : r)) };
          let want: unknown;
          try {
            want = estimateReads(f, 0, i);
          } catch (x) {
            want = x;
          }
          let got: unknown;
          try {
            got = estimate(f, 0, i);
          } catch (x) {
            got = x;
          }
          expect(got).toEqual(want);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('intervalWarning', () => {
  // 100 DT points 100 words apart at 1200 baud: one request each, about 130 ms each
  const i = ifaces({ [COM1]: { enabled: true, baudrate: 1200 } });
  const slow = dts(100, 0, { if: COM1 }).map((r, k) => ({ ...r, reg_addr: String(k * 100) }));

  it("warns when a cyclic log file's reads take longer than its cycle", () => {
    const e = estimateReads(file({ records: slow }), 0, i);
    expect(e.requests).toBe(100);
    expect(e.ms).toBeGreaterThan(10_000);
    for (const trigger of [1, 2, 3] as const) expect(intervalWarning(file({ trigger, cycle: 10, records: slow }), 0, i)).toEqual(e);
    expect(intervalWarning(file({ trigger: 1, cycle: Math.ceil(e.ms / 1000), records: slow }), 0, i)).toBeUndefined();
  });

  it('cycleExceeded compares the estimate with the cycle of the cyclic triggers only', () => {
    expect(cycleExceeded({ trigger: 1, cycle: 2 }, { ms: 2001 })).toBe(true);
    expect(cycleExceeded({ trigger: 1, cycle: 2 }, { ms: 2000 })).toBe(false);
    expect(cycleExceeded({ trigger: 3, cycle: 1 }, { ms: 1500 })).toBe(true);
    expect(cycleExceeded({ trigger: 4, cycle: 1 }, { ms: 1500 })).toBe(false);
    expect(cycleExceeded({ trigger: 0, cycle: 1 }, { ms: 1500 })).toBe(false);
  });

  it('no warning for a disabled log file or one the PLC flag triggers', () => {
    expect(intervalWarning(file({ trigger: 0, cycle: 1, records: slow }), 0, i)).toBeUndefined();
    expect(intervalWarning(file({ trigger: 4, cycle: 1, cond_trig: '10', records: slow }), 0, i)).toBeUndefined();
  });
});
