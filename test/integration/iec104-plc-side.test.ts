// The IEC 104 PLC side (device/iec104/plc-side.ts) against a virtual FP-XH behind a socat
// pseudo-terminal, over a real MEWTOCOL link: the test plays the PLC program by writing its memory
// as a PLC would (an event into slot W when the ring has room, then W advanced; a command's answer
// words), and checks what the PLC side hands the station and writes back.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Link } from '../../device/com/link.ts';
import { type DropReason, PlcSide, type PlcState } from '../../device/iec104/plc-side.ts';
import type { MonitorPoint, PlcCommand, PlcCommandAnswer } from '../../device/iec104/points.ts';
import { encodeRecord, ringCapacity, ringHasRoom, slotOffset } from '../../device/model/blocks/iec104.ts';
import { connectionSchema, type IecConnection } from '../../device/model/sections/iec.ts';
import { createLogger } from '../../device/system/log.ts';
import { openSerialChannel } from '../../hw/serial-channel.ts';
import { systemClock } from '../../hw/types.ts';
import { type PtyPlc, startPtyPlc } from '../../sim/plc/pty.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import type { SerialFraming } from '../../sim/wire.ts';
import { serialLink } from '../support/serial-link.ts';

const FRAMING: SerialFraming = { baud: 115200, bits: 8, parity: 'odd', stopbits: 1 };
const RBM = 2000;
const M = 2010;
const C = 2100;
const DEPTH = 1 + 4 * 5; // 4 slots: the PLC can hold 3 events unread
const CAP = ringCapacity(DEPTH);
const ENTRY: IecConnection = {
  ...(v.getDefaults(connectionSchema) as IecConnection),
  plc_buffer_rbm: RBM,
  plc_buffer_m: M,
  plc_buffer_m_depth: DEPTH,
  plc_buffer_c: C,
  // the virtual PLC runs in this test's process: on a busy machine its answers come late, and a
  // command whose decision the test writes must not run out first (1.5 s failed there)
  timeout: 5000,
};

const plc = new VirtualPlc({ model: 'FP-XH', station: 1, scanMs: 1 });
const log = createLogger({ clock: systemClock, sink: null });
let dir: string;
let pty: PtyPlc;
let link: Link;
let t = Date.UTC(2026, 3, 1, 8, 0, 0);
const clock = { now: () => t };

const mem = (start: number, n: number) => plc.memory.readWords('DT', start, n);
const readIndex = () => mem(RBM, 1)[0]!;
const writeIndex = () => mem(M, 1)[0]!;

/** What a PLC program does to send an event: slot W when the ring has room, then W advanced. */
function plcWrites(words: number[]): boolean {
  const w = writeIndex();
  if (!ringHasRoom(readIndex(), w, CAP)) return false;
  plc.memory.writeWords('DT', M + slotOffset(w), words);
  plc.memory.writeWords('DT', M, [(w + 1) % CAP]);
  return true;
}
const scaled = (ioa: number, value: number) => encodeRecord({ type: 11, ioa, group: 0, element: { kind: 'sva_qds', value, quality: 0 } });

interface Seen {
  points: MonitorPoint[];
  answers: PlcCommandAnswer[];
  states: PlcState[];
  drops: DropReason[];
}

let side: PlcSide | undefined;
function startSide(over: Partial<{ liveCheck: boolean; reconnectReset: boolean }> = {}): Seen {
  const seen: Seen = { points: [], answers: [], states: [], drops: [] };
  side = new PlcSide({
    entry: ENTRY,
    index: 1,
    pollMs: 50,
    liveCheck: over.liveCheck ?? false,
    reconnectReset: over.reconnectReset ?? false,
    link: () => link,
    clock,
    log,
    points: (p) => seen.points.push(...p),
    answer: (a) => seen.answers.push(a),
    plcState: (s) => seen.states.push(s),
    dropConnections: (r) => seen.drops.push(r),
  });
  side.start();
  return seen;
}

const waitFor = (fn: () => void) => vi.waitFor(fn, { timeout: 20_000, interval: 20 });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iec104-plc-'));
  pty = await startPtyPlc(new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: FRAMING }), { dir, name: 'COM2' });
  link = serialLink({
    framing: FRAMING,
    station: 1,
    id: 3,
    name: 'COM2',
    log,
    reconnect: { firstMs: 50, maxMs: 500 },
    open: (s) => openSerialChannel(pty.hostPath, s),
  });
  link.start();
  await waitFor(() => expect(link.status().state).toBe('up'));
});

afterEach(async () => {
  await side?.stop();
  side = undefined;
  plc.setFault({ kind: 'none' });
  plc.memory.writeWords('DT', RBM, [0]);
  plc.memory.writeWords('DT', M, Array(DEPTH).fill(0));
  plc.memory.writeWords('DT', C, Array(26).fill(0));
});

afterAll(async () => {
  await link?.close();
  await pty?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the monitor ring', () => {
  it('hands events over in order with the time of the read, writes R = W, and wraps at the capacity', async () => {
    const seen = startSide();
    await waitFor(() => expect(seen.states).toEqual([{ ok: true }]));
    for (const n of [1, 2, 3]) expect(plcWrites(scaled(100 + n, n * 10))).toBe(true);
    await waitFor(() => expect(readIndex()).toBe(3));
    expect(seen.points.map((p) => [p.ioa, p.element])).toEqual([1, 2, 3].map((n) => [100 + n, { kind: 'sva_qds', value: n * 10, quality: 0 }]));
    expect(seen.points.every((p) => p.at === t && p.type === 11 && p.group === 0)).toBe(true);
    t += 60_000;
    // slots 3, 0, 1: across the end of the ring
    for (const n of [4, 5, 6]) expect(plcWrites(scaled(100 + n, -n))).toBe(true);
    await waitFor(() => expect(readIndex()).toBe(2));
    expect(seen.points.map((p) => p.ioa)).toEqual([101, 102, 103, 104, 105, 106]);
    expect(seen.points.slice(3).map((p) => [p.element, p.at])).toEqual([4, 5, 6].map((n) => [{ kind: 'sva_qds', value: -n, quality: 0 }, t]));
    expect(side!.status()).toMatchObject({ plc: 'ok', events: 6, skipped: 0, readIndex: 2, capacity: CAP, ringError: '' });
  });

  it('a full ring holds capacity - 1 events; written while the unit was away, they come after start, none twice', async () => {
    plc.memory.writeWords('DT', RBM, [2]);
    plc.memory.writeWords('DT', M, [2]);
    expect([1, 2, 3].map((n) => plcWrites(scaled(200 + n, n)))).toEqual([true, true, true]);
    expect(plcWrites(scaled(204, 4))).toBe(false); // full: (W + 1) mod 4 = R
    const seen = startSide();
    await waitFor(() => expect(readIndex()).toBe(1));
    expect(seen.points.map((p) => p.ioa)).toEqual([201, 202, 203]);
    // the room is back; a stop and a start in between loses and repeats nothing
    expect(plcWrites(scaled(204, 4))).toBe(true);
    await waitFor(() => expect(readIndex()).toBe(2));
    await side!.stop();
    expect(plcWrites(scaled(205, 5))).toBe(true);
    expect(plcWrites(scaled(206, 6))).toBe(true);
    side!.start();
    await waitFor(() => expect(readIndex()).toBe(0));
    expect(seen.points.map((p) => p.ioa)).toEqual([201, 202, 203, 204, 205, 206]);
  });

  it('a record the station cannot send is skipped and counted; the ones around it go out', async () => {
    const seen = startSide();
    plcWrites(scaled(301, 1));
    plcWrites([2, 302, 0, 0, 0]); // type 2 is no event type
    plcWrites(encodeRecord({ type: 1, ioa: 303, group: 5, element: { kind: 'siq', value: true, quality: 0x80 } }));
    await waitFor(() => expect(readIndex()).toBe(3));
    expect(seen.points.map((p) => [p.ioa, p.type, p.group])).toEqual([
      [301, 11, 0],
      [303, 1, 5],
    ]);
    expect(side!.status()).toMatchObject({ events: 2, skipped: 1, lastSkipped: { slot: 1, code: 'unknown_type' } });
  });

  it('an index out of range: a fault in the status, nothing sent, R left alone', async () => {
    plc.memory.writeWords('DT', M, [7]);
    const seen = startSide();
    await waitFor(() => expect(side!.status().ringError).toBe('write index 7 is not in 0-3'));
    expect(readIndex()).toBe(0);
    expect(seen.points).toEqual([]);
    expect(side!.status().plc).toBe('ok');
    plc.memory.writeWords('DT', M, [0]);
    plcWrites(scaled(401, 1));
    await waitFor(() => expect(seen.points.map((p) => p.ioa)).toEqual([401]));
    expect(side!.status().ringError).toBe('');
    await side!.stop();
    plc.memory.writeWords('DT', RBM, [4]);
    side!.start();
    await waitFor(() => expect(side!.status().ringError).toBe('read index 4 is not in 0-3'));
    expect(readIndex()).toBe(4);
  });
});

describe('the command buffer', () => {
  const cmd = (seq: number, ioa = 0x020001): PlcCommand => ({
    seq,
    type: 49,
    ioa,
    element: { kind: 'sva_qos', value: -300, ql: 0, select: false },
    originator: 3,
    group: 1,
  });
  const request = () => mem(C, 1)[0]!;

  it('written with the request number last; accepted, then done when the PLC writes the done number', async () => {
    plc.memory.writeWords('DT', C, [5, 5, 0, 5]); // what an earlier command left
    const seen = startSide();
    side!.command(cmd(5));
    await waitFor(() => expect(request()).toBe(5));
    await waitFor(() => expect(mem(C, 26)).toEqual([5, 0, 0, 0, 49, 1, 2, 0, 0xfed4, 0xffff, 0, 0, 0, 0, 3, 1, ...Array(10).fill(0)]));
    expect(seen.answers).toEqual([]);
    plc.memory.writeWords('DT', C + 1, [5, 0]);
    await waitFor(() => expect(seen.answers).toEqual([{ seq: 5, kind: 'accepted' }]));
    plc.memory.writeWords('DT', C + 3, [5]);
    await waitFor(() =>
      expect(seen.answers).toEqual([
        { seq: 5, kind: 'accepted' },
        { seq: 5, kind: 'done' },
      ]),
    );
    expect(side!.status().commands).toMatchObject({ written: 1, accepted: 1, done: 1, waiting: 0 });
  });

  it('refused with the reason of the result word; the next command waits until the buffer is free', async () => {
    const seen = startSide();
    side!.command(cmd(1));
    side!.command(cmd(2, 9));
    await waitFor(() => expect(request()).toBe(1));
    plc.memory.writeWords('DT', C + 1, [1, 2]); // not now
    await waitFor(() => expect(request()).toBe(2));
    expect(mem(C + 5, 2)).toEqual([9, 0]);
    plc.memory.writeWords('DT', C + 1, [2, 1]); // unknown IOA
    await waitFor(() =>
      expect(seen.answers).toEqual([
        { seq: 1, kind: 'refused', reason: 'not_now' },
        { seq: 2, kind: 'refused', reason: 'unknown_ioa' },
      ]),
    );
  });

  it("no decision within the entry's timeout: no_answer, and the command withdrawn", async () => {
    const seen = startSide();
    side!.command(cmd(7));
    await waitFor(() => expect(request()).toBe(7));
    await waitFor(() => expect(seen.answers).toEqual([{ seq: 7, kind: 'no_answer' }]));
    await waitFor(() => expect(request()).toBe(0));
    expect(side!.status().commands).toMatchObject({ written: 1, noAnswer: 1, waiting: 0 });
  });
});

describe('a silent PLC', () => {
  it('state not ok, connections dropped with plc_live_check; back: ok, dropped again with plc_reconnect_reset; commands meanwhile get no answer', async () => {
    const seen = startSide({ liveCheck: true, reconnectReset: true });
    await waitFor(() => expect(seen.states).toEqual([{ ok: true }]));
    side!.command(cmd(11));
    await waitFor(() => expect(mem(C, 1)[0]).toBe(11));
    plc.setFault({ kind: 'silent' });
    await waitFor(() => expect(seen.states.map((s) => s.ok)).toEqual([true, false]));
    expect(seen.states[1]!.reason).toEqual({ code: 'plc_no_answer' });
    expect(seen.drops).toEqual(['plc_silent']);
    expect(seen.answers).toEqual([{ seq: 11, kind: 'no_answer' }]);
    expect(side!.status().plc).toBe('silent');
    side!.command(cmd(12));
    expect(seen.answers.at(-1)).toEqual({ seq: 12, kind: 'no_answer' });
    plc.setFault({ kind: 'none' });
    await waitFor(() => expect(seen.states.map((s) => s.ok)).toEqual([true, false, true]));
    expect(seen.drops).toEqual(['plc_silent', 'plc_reconnected']);
    // events written during the silence come after it
    plcWrites(scaled(501, 1));
    await waitFor(() => expect(seen.points.map((p) => p.ioa)).toEqual([501]));
  });

  it('with both settings off the state is still reported, no connection dropped', async () => {
    const seen = startSide();
    await waitFor(() => expect(seen.states).toHaveLength(1));
    plc.setFault({ kind: 'silent' });
    await waitFor(() => expect(seen.states.map((s) => s.ok)).toEqual([true, false]));
    plc.setFault({ kind: 'none' });
    await waitFor(() => expect(seen.states.map((s) => s.ok)).toEqual([true, false, true]));
    expect(seen.drops).toEqual([]);
  });
});

const cmd = (seq: number): PlcCommand => ({
  seq,
  type: 45,
  ioa: 1,
  element: { kind: 'sco', value: true, qualifier: 0, select: false },
  originator: 0,
  group: 1,
});
