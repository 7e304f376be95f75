// The IEC 104 station against a control station we did not write, every frame dissected by a
// decoder we did not write (docs/iec104.md "Tested against other stacks"): a daemon with a virtual
// FP-XH on COM2 (logger-rig.ts) serves pew_60870 on a free port; tshark captures that port on
// loopback; Scapy's IEC 104 layer (test/fixtures/iec104/control_station.py, Debian's python3)
// starts data transfer, runs a station and a group interrogation, receives the events the virtual
// PLC writes, sends a single command, a scaled set point by select and execute, a float set point
// and a clock sync, while the test answers the commands as the PLC program would. Then tshark reads
// the capture: every frame of the unit an IEC 104 APDU of the types the control station received,
// nothing malformed, no expert warning or error.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeRecord } from '../../device/model/blocks/iec104.ts';
import { type Iec, iecSchema } from '../../device/model/sections/iec.ts';
import { answerCommand, type IecLayout, pushRecord } from '../../sim/plc/iec104-program.ts';
import { type Asdu, requireScapy, type ScapyStation, startScapyStation } from '../fixtures/iec104/scapy-station.ts';
import { type Capture, expertSummary, type Frame, frames, requireTshark, startCapture } from '../fixtures/iec104/tshark.ts';
import { FakeClock } from '../support/daemon.ts';
import { dtConnection } from '../support/iec104-control.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { type PlcLine, type Rig, startLine, startRig, until } from './logger-rig.ts';

// timeout: the PLC's decisions come from this busy test process, so more than the default 1 s
const ENTRY = dtConnection(5000);
const LAYOUT: IecLayout = { area: 'DT', read_index: ENTRY.plc_buffer_rbm, ring: ENTRY.plc_buffer_m, depth: ENTRY.plc_buffer_m_depth };
const CA = 7;
const ORIGINATOR = 3;
const NOW = Date.UTC(2026, 11, 2, 9, 0, 0);
const CLOCK_SYNC = Date.UTC(2027, 5, 15, 6, 30, 45, 123);

let line: PlcLine | undefined;
let rig: Rig | undefined;
let dir: string | undefined;
let capture: Capture | undefined;
let cs: ScapyStation | undefined;
let port: number;
let file: string;

beforeAll(async () => {
  requireScapy();
  requireTshark();
  dir = await mkdtemp(join(tmpdir(), 'iec104-scapy-'));
  file = join(dir, 'session.pcapng');
  line = await startLine([1]);
  rig = await startRig(line, { clock: new FakeClock(NOW) });
  port = await freePort();
  const r = await (await rig.admin()).post('/config/pew_60870', {
    ...(v.getDefaults(iecSchema) as Iec),
    enable_60870: true,
    port,
    asdu_address: CA,
    plc_poll: 50,
    connections: [ENTRY],
  });
  expect(r.status, r.text).toBe(200);
  await rig.d.ctx.iec104.settled();
  capture = await startCapture(port, file);
});

afterAll(async () => {
  await cs?.kill();
  await capture?.kill();
  await rig?.stop();
  await line?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const plc = () => rig!.plc.memory;
const commandWords = () => plc().readWords('DT', ENTRY.plc_buffer_c, 16);
const objectsOf = (as: Asdu[]) => as.flatMap((a) => a.objects.map((o) => [a.type, o.ioa]));

/** The PLC's side of one command: waits for it in the buffer, accepts it, then reports it done. */
async function plcRuns(what: string): Promise<number[]> {
  const before = commandWords()[0];
  await until(() => commandWords()[0] !== before && commandWords()[0] !== 0, 15_000, `${what} in the command buffer`);
  const words = commandWords();
  answerCommand(plc(), { area: 'DT', commands: ENTRY.plc_buffer_c, refuse: [] }, () => undefined);
  return words;
}
const done = (words: number[]) => plc().writeWords('DT', ENTRY.plc_buffer_c + 3, [words[0]!]);

/** Sends a command step and plays the PLC: ACTCON once accepted, ACTTERM once done. */
async function command(step: Parameters<ScapyStation['send']>[0], type: number): Promise<{ words: number[]; answers: Asdu[] }> {
  const s = cs!;
  const from = s.printed.length;
  s.send(step);
  const words = await plcRuns(`type ${type}`);
  await s.waitAsdus((as) => as.some((a) => a.type === type && a.cot === 7), from, `ACTCON of type ${type}`);
  done(words);
  const answers = await s.waitAsdus((as) => as.some((a) => a.type === type && a.cot === 10), from, `ACTTERM of type ${type}`);
  return { words, answers: answers.filter((a) => a.type === type) };
}

describe('IEC 104 station with Scapy as control station and tshark dissecting', () => {
  it('serves Scapy: end of initialization, interrogations, PLC events, commands and set points into the PLC, a clock sync', async () => {
    const s = (cs = startScapyStation(LOOPBACK, port, CA, ORIGINATOR));
    await s.waitPrinted((p) => p.u === 'startdt_con', 'STARTDT con');
    const [ei] = await s.waitAsdus((as) => as.length >= 1, 0, 'end of initialization');
    expect(ei).toMatchObject({ type: 70, cot: 4, negative: false, ca: CA, objects: [{ ioa: 0, coi: 0 }] });

    // the PLC writes three events into its ring: spontaneous (COT 3), time-tagged with the unit's clock
    expect(pushRecord(plc(), LAYOUT, encodeRecord({ type: 11, ioa: 4001, group: 1, element: { kind: 'sva_qds', value: -1234, quality: 0 } }))).toBe(true);
    expect(pushRecord(plc(), LAYOUT, encodeRecord({ type: 1, ioa: 100, group: 0, element: { kind: 'siq', value: true, quality: 0 } }))).toBe(true);
    expect(pushRecord(plc(), LAYOUT, encodeRecord({ type: 13, ioa: 4002, group: 2, element: { kind: 'r32_qds', value: 12.5, quality: 0 } }))).toBe(true);
    const spont = (await s.waitAsdus((as) => as.filter((a) => a.cot === 3).length >= 3, 0, 'three spontaneous events')).filter((a) => a.cot === 3);
    const at = { sec_milli: 0, minutes: 0, hours: 9, day_of_month: 2, month: 12, year: 26, iv_time: 0 };
    expect(spont).toMatchObject([
      { type: 35, ca: CA, negative: false, objects: [{ ioa: 4001, scaled_value: -1234, iv: 0, nt: 0, ov: 0, ...at }] },
      { type: 30, ca: CA, negative: false, objects: [{ ioa: 100, spi_value: 1, iv: 0, ...at }] },
      { type: 36, ca: CA, negative: false, objects: [{ ioa: 4002, scaled_value: 12.5, iv: 0, ...at }] },
    ]);

    // station interrogation: ACTCON, the three values without time tag with COT 20, ACTTERM
    let from = s.printed.length;
    s.send({ step: 'interrogation', qoi: 20 });
    let answer = await s.waitAsdus((as) => as.some((a) => a.type === 100 && a.cot === 10), from, 'ACTTERM of the station interrogation');
    expect(answer[0]).toMatchObject({ type: 100, cot: 7, negative: false, originator: ORIGINATOR, ca: CA, objects: [{ ioa: 0, qoi: 20 }] });
    expect(answer.at(-1)).toMatchObject({ type: 100, cot: 10, negative: false, objects: [{ ioa: 0, qoi: 20 }] });
    expect(answer.slice(1, -1).every((a) => a.cot === 20 && a.sq === 0)).toBe(true);
    expect(objectsOf(answer.slice(1, -1)).sort()).toEqual(
      [
        [1, 100],
        [11, 4001],
        [13, 4002],
      ].sort(),
    );
    expect(answer.find((a) => a.type === 11)!.objects[0]).toMatchObject({ ioa: 4001, scaled_value: -1234 });

    // group interrogation of group 1 (QOI 21): only the point of group 1, COT 21
    from = s.printed.length;
    s.send({ step: 'interrogation', qoi: 21 });
    answer = await s.waitAsdus((as) => as.some((a) => a.type === 100 && a.cot === 10), from, 'ACTTERM of the group interrogation');
    expect(answer.map((a) => [a.type, a.cot])).toEqual([
      [100, 7],
      [11, 21],
      [100, 10],
    ]);
    expect(answer[1]!.objects).toMatchObject([{ ioa: 4001, scaled_value: -1234 }]);

    // single command, direct execute: type, IOA, qualifier, value in the PLC's command buffer
    const single = await command({ step: 'single', ioa: 5001, on: true }, 45);
    expect(single.words.slice(4, 10)).toEqual([45, 5001, 0, 0, 1, 0]);
    expect(single.words[14]).toBe(ORIGINATOR);
    expect(single.answers.map((a) => [a.cot, a.negative])).toEqual([
      [7, false],
      [10, false],
    ]);
    expect(single.answers[0]!.objects).toMatchObject([{ ioa: 5001, scs: 1, s_or_e: 0 }]);

    // scaled set point, select before operate: the select is confirmed and nothing reaches the PLC
    const request = commandWords()[0];
    from = s.printed.length;
    s.send({ step: 'scaled', ioa: 6001, value: -300, select: true });
    const [selected] = await s.waitAsdus((as) => as.some((a) => a.type === 49), from, 'ACTCON of the select');
    expect(selected).toMatchObject({ cot: 7, negative: false, objects: [{ ioa: 6001, scaled_value: -300, action: 1 }] });
    expect(commandWords()[0]).toBe(request);
    // … the execute goes to the PLC: -300 as int16 with its sign word (docs/iec104.md "The command buffer")
    const scaled = await command({ step: 'scaled', ioa: 6001, value: -300 }, 49);
    expect(scaled.words.slice(4, 10)).toEqual([49, 6001, 0, 0, 0x10000 - 300, 0xffff]);
    expect(scaled.answers.map((a) => [a.cot, a.negative, a.objects[0]!.action])).toEqual([
      [7, false, 0],
      [10, false, 0],
    ]);

    // short float set point, direct: IEEE 754 single, low word first (2.5 = 0x40200000)
    const float = await command({ step: 'float', ioa: 0x020304, value: 2.5 }, 50);
    expect(float.words.slice(4, 10)).toEqual([50, 0x0304, 0x02, 0, 0x0000, 0x4020]);
    expect(float.answers[0]!.objects).toMatchObject([{ ioa: 0x020304, scaled_value: 2.5 }]);

    // clock sync: ACTCON to this station with the time it sent
    from = s.printed.length;
    s.send({ step: 'clock', epoch_ms: CLOCK_SYNC });
    const [sync] = await s.waitAsdus((as) => as.some((a) => a.type === 103), from, 'ACTCON of the clock sync');
    expect(sync).toMatchObject({
      cot: 7,
      negative: false,
      originator: ORIGINATOR,
      ca: CA,
      objects: [{ ioa: 0, sec_milli: 45_123, minutes: 30, hours: 6, day_of_month: 15, month: 6, year: 27 }],
    });

    // STOPDT, closed by the control station; the unit sent nothing Scapy could not dissect
    s.send({ step: 'stop' });
    await s.waitPrinted((p) => p.closed !== undefined, 'the control station closed');
    expect(await s.exited).toBe(0);
    expect(s.printed.find((p) => p.closed)).toEqual({ closed: 'stop' });
    // (a TESTFR act of the unit's t3 may come between on a slow machine: Scapy answers it)
    expect(s.printed.filter((p) => p.u && p.u !== 'testfr_act')).toEqual([{ u: 'startdt_con' }, { u: 'stopdt_con' }]);
    expect(s.printed.filter((p) => p.error)).toEqual([]);
  });

  it('tshark dissects every frame of the unit as IEC 104: the APDUs Scapy received, none malformed, no expert warning', async () => {
    const s = cs!;
    await capture!.stop(`tcp.srcport==${port} && tcp.flags.fin==1`, port);
    const all = await frames(file, port);
    const unit = all.filter((f) => f.src === port && f.tcpLen > 0);
    const station = all.filter((f) => f.dst === port && f.tcpLen > 0);
    expect(unit.length).toBeGreaterThan(0);
    // every segment with data is dissected, APDU by APDU; TCP is a stream, so on a busy machine an
    // APDU may come in two segments: then the first holds part of it and tshark dissects the whole
    // APDU in the frame that completes it; and a segment whose acknowledgement came late is sent
    // again by TCP, its data dissected where it came first
    const byNumber = new Map(all.map((f) => [f.number, f]));
    for (const f of [...unit, ...station].filter((x) => !x.retransmitted)) {
      const whole = f.apci.length > 0 ? f : f.reassembledIn !== undefined ? byNumber.get(f.reassembledIn) : undefined;
      expect(whole?.apci.length ?? 0, `frame ${JSON.stringify(f)}`).toBeGreaterThan(0);
    }
    // the unit's APDUs in order: the I-frames carry exactly the ASDUs Scapy printed, type and cause
    const received = s.asdus();
    const iOf = (fs: Frame[]) => fs.flatMap((f) => f.typeid.map((t, i) => [t, f.cot[i], f.negative[i], f.ca[i]]));
    expect(iOf(unit)).toEqual(received.map((a) => [a.type, a.cot, a.negative, a.ca]));
    expect(unit.flatMap((f) => f.apci).filter((t) => t === 0)).toHaveLength(received.length);
    // the two decoders read the same information objects: addresses, scaled and float values
    const ofTypes = (types: number[]) => received.filter((a) => types.includes(a.type)).flatMap((a) => a.objects.map((o) => o.scaled_value));
    expect(unit.flatMap((f) => f.ioa)).toEqual(received.flatMap((a) => a.objects.map((o) => o.ioa)));
    expect(unit.flatMap((f) => f.scaled)).toEqual(ofTypes([11, 35, 49]));
    expect(unit.flatMap((f) => f.float)).toEqual(ofTypes([13, 36, 50]));
    expect(unit.flatMap((f) => f.scaled)).toContain(-1234);
    // the U-frames: STARTDT con and STOPDT con (tshark's UType: the control octet >> 2), as Scapy printed them
    const TESTFR_ACT = 0x43 >> 2;
    expect(unit.flatMap((f) => f.utype).filter((u) => u !== TESTFR_ACT)).toEqual([0x0b >> 2, 0x23 >> 2]);
    // and what Scapy sent, dissected the same way
    expect(iOf(station).map(([t]) => t)).toEqual([100, 100, 45, 49, 49, 50, 103]);
    expect(all.filter((f) => f.malformed)).toEqual([]);
    // no warning or error of the IEC 104 dissectors; TCP's own (a segment sent again, one the capture
    // missed while the busy machine was slow) say nothing about the unit's APDUs
    const summary = await expertSummary(file, port);
    expect(summary).not.toMatch(/Malformed/);
    expect(warningsOutsideTcp(summary)).toEqual([]);
  });
});

/** The rows of tshark's expert summary under Errors and Warnings whose protocol is not TCP. */
function warningsOutsideTcp(summary: string): string[] {
  const rows: string[] = [];
  let inSection = false;
  for (const line of summary.split('\n')) {
    if (/^(Errors|Warnings) \(/.test(line)) inSection = true;
    else if (/^(Notes|Chats|Comments) \(/.test(line)) inSection = false;
    else if (inSection && /^\s+\d+\s+\S+\s+\S+/.test(line) && !/^\s+\d+\s+\S+\s+TCP\s/.test(line)) rows.push(line.trim());
  }
  return rows;
}
