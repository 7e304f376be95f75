// The IEC 104 part of the virtual PLC's program (iec104-program.ts): events written into the ring
// on their schedule and only while it has room, commands accepted and finished or refused.
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeRecord, encodeCommand, slotOffset } from '../../device/model/blocks/iec104.ts';
import { eventElement, type IecProgram, iecProgramSchema, ringWrite, runIecProgram } from './iec104-program.ts';
import { PlcMemory } from './memory.ts';
import { programSchema, runProgram } from './program.ts';

afterEach(() => {
  vi.useRealTimers();
});

const RBM = 500;
const RING = 510;
const CMD = 600;
const program = (over: object): IecProgram => v.parse(iecProgramSchema, { read_index: RBM, ring: RING, commands: CMD, ...over });
const records = (m: PlcMemory, from: number, n: number) =>
  Array.from({ length: n }, (_, i) => {
    const r = decodeRecord(m.readWords('DT', RING + slotOffset(from + i), 5), 0, 0);
    if (!r.ok) throw new Error(r.error.message);
    return [r.value.type, r.value.ioa, r.value.element] as const;
  });

describe('IEC 104 program: events', () => {
  it('writes each event into slot W on its schedule and advances W', () => {
    vi.useFakeTimers();
    const m = new PlcMemory('FP-XH');
    m.writeWords('DT', 100, [1234]);
    const stop = runIecProgram(
      m,
      program({
        events: [
          { type: 'scaled', ioa: 100, value: 'DT100', every_ms: 1000 },
          { type: 'single', ioa: 200, value: 'toggle', every_ms: 2000 },
        ],
      }),
    );
    vi.advanceTimersByTime(2000);
    expect(m.readWords('DT', RING, 1)[0]).toBe(3);
    const sva = { kind: 'sva_qds', value: 1234, quality: 0 };
    expect(records(m, 0, 3)).toEqual([
      [11, 100, sva],
      [11, 100, sva],
      [1, 200, { kind: 'siq', value: true, quality: 0 }],
    ]);
    vi.advanceTimersByTime(2000);
    expect(records(m, 5, 1)).toEqual([[1, 200, { kind: 'siq', value: false, quality: 0 }]]);
    stop();
    vi.advanceTimersByTime(5000);
    expect(m.readWords('DT', RING, 1)[0]).toBe(6);
  });

  it('keeps to the read index: a full ring drops the event and counts it; room again when the unit moves R', () => {
    vi.useFakeTimers();
    const m = new PlcMemory('FP-XH');
    const stop = runIecProgram(m, program({ depth: 16, overflow_word: 499, events: [{ type: 'totals', ioa: 7, every_ms: 100 }] })); // 3 slots
    vi.advanceTimersByTime(400);
    expect(m.readWords('DT', RING, 1)[0]).toBe(2); // (2 + 1) mod 3 = R 0: full
    expect(m.readWords('DT', 499, 1)[0]).toBe(2);
    expect(records(m, 0, 2).map((r) => (r[2] as { value: number }).value)).toEqual([1, 2]);
    m.writeWords('DT', RBM, [2]); // the unit read both
    vi.advanceTimersByTime(200);
    expect(m.readWords('DT', RING, 1)[0]).toBe(1);
    expect(records(m, 2, 1)[0]![2]).toMatchObject({ kind: 'bcr', value: 5, sequence: 5 });
    expect(records(m, 0, 1)[0]![2]).toMatchObject({ value: 6 });
    stop();
  });

  it('the element of each type from a counter, a toggle and a word', () => {
    expect(eventElement('double', 1, 'counter')).toMatchObject({ value: 2 });
    expect(eventElement('double', 2, 'toggle')).toMatchObject({ value: 1 });
    expect(eventElement('step', 64, 'counter')).toMatchObject({ value: -64 });
    expect(eventElement('scaled', 0xffff, 'word')).toMatchObject({ value: -1 });
    expect(eventElement('float', 3, 'word')).toEqual({ kind: 'r32_qds', value: 3, quality: 0 });
    expect(ringWrite({ area: 'DT', read_index: RBM, ring: RING, depth: 16 }, 0, 3, [1, 1, 0, 0, 0])).toEqual({ writes: [], room: false });
  });
});

describe('IEC 104 program: commands', () => {
  const place = (m: PlcMemory, seq: number, ioa: number) => {
    const w = encodeCommand({ seq, type: 45, ioa, element: { kind: 'sco', value: true, qualifier: 0, select: false }, originator: 0, group: 0 });
    m.writeWords('DT', CMD, [0, ...w.slice(1)]);
    m.writeWords('DT', CMD, [seq]);
  };

  it('accepts a new command (result, then the answer number) and finishes it done_ms later', () => {
    vi.useFakeTimers();
    const m = new PlcMemory('FP-XH');
    m.writeWords('DT', CMD, [4, 4, 0, 4]); // an earlier command, answered: nothing new
    const stop = runIecProgram(m, program({ done_ms: 300 }));
    vi.advanceTimersByTime(100);
    expect(m.readWords('DT', CMD, 4)).toEqual([4, 4, 0, 4]);
    place(m, 4, 10); // the same number again after a restart of the unit: still new (answer cleared)
    vi.advanceTimersByTime(40);
    expect(m.readWords('DT', CMD, 4)).toEqual([4, 4, 0, 0]);
    vi.advanceTimersByTime(300);
    expect(m.readWords('DT', CMD, 4)).toEqual([4, 4, 0, 4]);
    stop();
  });

  it('refuses the listed IOAs with their reason, and a type it does not know', () => {
    vi.useFakeTimers();
    const m = new PlcMemory('FP-XH');
    const stop = runIecProgram(m, program({ refuse: [{ ioa: 300 }, { ioa: 301, reason: 'not_now' }] }));
    place(m, 1, 300);
    vi.advanceTimersByTime(40);
    expect(m.readWords('DT', CMD, 4)).toEqual([1, 1, 1, 0]);
    place(m, 2, 301);
    vi.advanceTimersByTime(40);
    expect(m.readWords('DT', CMD, 4)).toEqual([2, 2, 2, 0]);
    m.writeWords('DT', CMD + 4, [99]);
    m.writeWords('DT', CMD, [3]);
    vi.advanceTimersByTime(1000);
    expect(m.readWords('DT', CMD, 4)).toEqual([3, 3, 255, 0]);
    stop();
  });
});

describe('IEC 104 program: settings', () => {
  it("the buffers default to the unit's defaults; a ring shorter than a record is refused", () => {
    expect(v.parse(iecProgramSchema, {})).toMatchObject({ area: 'DT', read_index: 1000, ring: 1010, depth: 501, commands: 1520, done_ms: 500 });
    expect(v.safeParse(iecProgramSchema, { depth: 5 }).success).toBe(false);
    expect(v.safeParse(iecProgramSchema, { events: [{ type: 'analog', ioa: 1 }] }).success).toBe(false);
    expect(v.safeParse(iecProgramSchema, { events: [{ type: 'single', ioa: 0 }] }).success).toBe(false);
  });

  it('runs as part of a program and stops with it', () => {
    vi.useFakeTimers();
    const m = new PlcMemory('FP-XH');
    const run = runProgram(m, v.parse(programSchema, { iec104: { ring: RING, read_index: RBM, events: [{ type: 'single', ioa: 1, every_ms: 100 }] } }));
    vi.advanceTimersByTime(300);
    run.stop();
    vi.advanceTimersByTime(300);
    expect(m.readWords('DT', RING, 1)[0]).toBe(3);
  });
});
