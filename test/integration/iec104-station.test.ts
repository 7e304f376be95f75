// The IEC 104 controlled station end to end (docs/iec104.md): a daemon with a virtual FP-XH on COM2
// (the service control interface, logger-rig.ts) saves pew_60870 and listens; a control station
// written here on the codec starts data transfer, gets the end of initialization, the events the
// PLC writes into its monitor ring as spontaneous data with the PLC's values, an interrogation
// answered from them, a single command that arrives in the PLC's command buffer and is confirmed
// and terminated as the PLC answers it, and a clock sync that sets the unit's and the PLC's clock.

import { connect } from 'node:net';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeRecord } from '../../device/model/blocks/iec104.ts';
import { type Iec, iecSchema } from '../../device/model/sections/iec.ts';
import { type Rtc, rtcSchema } from '../../device/model/sections/rtc.ts';
import { decodeFpClock, FP_CLOCK_WORDS } from '../../device/protocol/fp-clock.ts';
import type { Asdu } from '../../device/protocol/iec104/asdu.ts';
import { cp56FromEpochMs } from '../../device/protocol/iec104/cp56.ts';
import { answerCommand, type IecLayout, pushRecord } from '../../sim/plc/iec104-program.ts';
import { FakeClock } from '../support/daemon.ts';
import { ControlStation, dtConnection } from '../support/iec104-control.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { serviceEntry } from '../support/service-status.ts';
import { type PlcLine, type Rig, startLine, startRig, until } from './logger-rig.ts';

// timeout: how long the PLC may take over a request or a command's decision; the virtual PLC and the
// test's own decisions run in this busy process, so more than the default 1 s
const ENTRY = dtConnection(5000);
const LAYOUT: IecLayout = { area: 'DT', read_index: ENTRY.plc_buffer_rbm, ring: ENTRY.plc_buffer_m, depth: ENTRY.plc_buffer_m_depth };
const CA = 7;
/** the PLC's calendar registers in the virtual PLC's DT range */
const CLOCK_DT = 2800;

let line: PlcLine;
let rig: Rig;
let port: number;
let station: ControlStation | undefined;

async function saveIec(over: Partial<Iec>): Promise<void> {
  const r = await (await rig.admin()).post('/config/pew_60870', {
    ...(v.getDefaults(iecSchema) as Iec),
    enable_60870: true,
    port,
    asdu_address: CA,
    plc_poll: 50,
    connections: [ENTRY],
    ...over,
  });
  expect(r.status, r.text).toBe(200);
  await rig.d.ctx.iec104.settled();
}

const cot = (a: Asdu) => a.cot.cause;
/** the station's entry of the one status answer, checked against its schema */
const iecEntry = async () => serviceEntry(await rig.d.user(), 'iec');

beforeAll(async () => {
  line = await startLine([1]);
  rig = await startRig(line, { clock: new FakeClock(Date.UTC(2026, 11, 2, 9, 0, 0)) });
  port = await freePort();
});

afterAll(async () => {
  station?.socket.destroy();
  await rig?.stop();
  await line?.close();
});

describe('IEC 104 station over the daemon and a virtual PLC', () => {
  it('listens once enabled; a control station gets the end of initialization, the PLC events, an interrogation and a command through to the PLC', async () => {
    // nothing listens while it is off
    expect(await iecEntry()).toMatchObject({ enabled: false, state: 'off', iec: { enabled: false, groups: [] } });
    await saveIec({});
    const s = (station = await ControlStation.open(port));
    s.send({ format: 'U', fn: 'startdt_act' });
    await until(() => s.us.includes('startdt_con'), 15_000, 'STARTDT con');
    // end of initialization first (M_EI_NA_1, COT 4), with the station's common address
    await until(() => s.asdus.length >= 1, 15_000, 'end of initialization');
    expect(s.asdus[0]).toMatchObject({ type: 70, ca: CA, cot: { cause: 4, negative: false } });

    // the PLC writes two events: a scaled value and a single point; they arrive with its values, COT 3, time-tagged types
    const plc = rig.plc.memory;
    expect(pushRecord(plc, LAYOUT, encodeRecord({ type: 11, ioa: 4001, group: 1, element: { kind: 'sva_qds', value: -1234, quality: 0 } }))).toBe(true);
    expect(pushRecord(plc, LAYOUT, encodeRecord({ type: 1, ioa: 100, group: 0, element: { kind: 'siq', value: true, quality: 0 } }))).toBe(true);
    await until(() => s.find((a) => cot(a) === 3).length >= 2, 15_000, 'the two spontaneous events');
    const [scaled, single] = s.find((a) => cot(a) === 3);
    expect(scaled).toMatchObject({ type: 35, ca: CA, objects: [{ ioa: 4001, element: { kind: 'sva_qds', value: -1234, quality: 0 } }] });
    expect(single).toMatchObject({ type: 30, ca: CA, objects: [{ ioa: 100, element: { kind: 'siq', value: true, quality: 0 } }] });
    // the unit wrote its read index back: the PLC's ring is empty again
    await until(() => plc.readWords('DT', ENTRY.plc_buffer_rbm, 1)[0] === plc.readWords('DT', ENTRY.plc_buffer_m, 1)[0], 15_000, 'read index written');

    // station interrogation: ACTCON, the two values without time tag (COT 20), ACTTERM, in that order
    const from = s.asdus.length;
    s.command({
      type: 100,
      sq: false,
      cot: { cause: 6, negative: false, test: false },
      originator: 3,
      ca: CA,
      objects: [{ ioa: 0, element: { kind: 'qoi', qoi: 20 } }],
    });
    await until(() => s.find((a) => a.type === 100 && cot(a) === 10, from).length === 1, 15_000, 'ACTTERM');
    const answer = s.asdus.slice(from);
    expect(answer[0]).toMatchObject({ type: 100, cot: { cause: 7, negative: false }, originator: 3 });
    expect(answer.at(-1)).toMatchObject({ type: 100, cot: { cause: 10 } });
    const values = answer.slice(1, -1);
    expect(values.every((a) => cot(a) === 20)).toBe(true);
    expect(values.flatMap((a) => a.objects.map((o) => [a.type, o.ioa]))).toEqual(
      expect.arrayContaining([
        [11, 4001],
        [1, 100],
      ]),
    );

    // a single command, direct execute: in the PLC's command buffer with its IOA and value; the PLC
    // accepts (ACTCON) and finishes (ACTTERM)
    const before = s.asdus.length;
    s.command({
      type: 45,
      sq: false,
      cot: { cause: 6, negative: false, test: false },
      originator: 3,
      ca: CA,
      objects: [{ ioa: 5001, element: { kind: 'sco', value: true, qualifier: 0, select: false } }],
    });
    await until(() => plc.readWords('DT', ENTRY.plc_buffer_c, 1)[0] !== 0, 15_000, 'the command written');
    const words = plc.readWords('DT', ENTRY.plc_buffer_c, 16);
    expect(words.slice(4, 10)).toEqual([45, 5001, 0, 0, 1, 0]); // type, IOA low/high, qualifier, value
    expect(words[14]).toBe(3); // the originator
    answerCommand(plc, { area: 'DT', commands: ENTRY.plc_buffer_c, refuse: [] }, () => undefined);
    await until(() => s.find((a) => a.type === 45 && cot(a) === 7, before).length === 1, 15_000, 'ACTCON');
    expect(s.find((a) => a.type === 45, before)[0]).toMatchObject({ cot: { cause: 7, negative: false }, objects: [{ ioa: 5001 }] });
    plc.writeWords('DT', ENTRY.plc_buffer_c + 3, [words[0]!]); // done
    await until(() => s.find((a) => a.type === 45 && cot(a) === 10, before).length === 1, 15_000, 'ACTTERM of the command');

    // the status answer shows the connection, the events and the command
    const entry = await iecEntry();
    expect(entry).toMatchObject({ enabled: true, state: 'running', counters: { connections: 1, commandsDone: 1 } });
    expect(entry?.plc).toBeUndefined();
    const st = entry.iec!;
    expect(st).toMatchObject({ enabled: true, listener: { port, listening: true } });
    expect(st.groups[0]).toMatchObject({ station: { started: true, plcOk: true }, plc: { plc: 'ok', events: 2, commands: { accepted: 1, done: 1 } } });
    expect(st.listener!.groups[0]!.connections[0]).toMatchObject({ state: 'started', active: true });
  });

  it("a clock sync is confirmed to its station; it sets the unit's clock unless NTP keeps it, then the PLC's where the PLC clock sync runs", async () => {
    const s = station!;
    // the engine's own status: setting the unit's clock months ahead ends the console's sessions
    const lastSync = async () => rig.d.ctx.iec104.status().lastClockSync;
    const sync = async (epochMs: number) => {
      const from = s.asdus.length;
      s.command({
        type: 103,
        sq: false,
        cot: { cause: 6, negative: false, test: false },
        originator: 3,
        ca: CA,
        objects: [{ ioa: 0, element: { kind: 'cp56', time: cp56FromEpochMs(epochMs) } }],
      });
      await until(() => s.find((a) => a.type === 103 && cot(a) === 7, from).length === 1, 15_000, 'ACTCON of the clock sync');
      expect(s.find((a) => a.type === 103, from)[0]).toMatchObject({ cot: { negative: false }, originator: 3 });
      await until(
        async () => {
          const l = await lastSync();
          return l?.time === epochMs && l.unit !== 'setting' && l.plc !== 'waiting';
        },
        15_000,
        'the clock sync applied',
      );
      return lastSync();
    };
    const unitClock = () => rig.d.ctx.hw.clock.now();
    const before = unitClock();

    // NTP on (the unit's default): confirmed, the clock left to NTP; no PLC clock sync configured
    const T1 = Date.UTC(2027, 0, 1, 12, 0, 0);
    expect(await sync(T1)).toEqual({ time: T1, unit: 'ntp', plc: 'off' });
    expect(unitClock()).toBe(before);

    // NTP off, the PLC clock sync on (in UTC, only on request): the unit's clock, then the PLC's
    await rig.d.ctx.hw.setService('ntpd', false);
    const saved = await (await rig.admin()).post('/config/pew_rtc', {
      ...(v.getDefaults(rtcSchema) as Rtc),
      rtc_by_plc: true,
      rtc_sync_as_utc: true,
      rtc_update_by_time: 0,
      rtc_address_dt: CLOCK_DT,
      rtc_control_rtc_r: 2700,
    });
    expect(saved.status, saved.text).toBe(200);
    await rig.d.ctx.rtc.settled();
    rig.plc.memory.writeWords('DT', CLOCK_DT, Array(FP_CLOCK_WORDS).fill(0));
    const T2 = Date.UTC(2027, 5, 15, 6, 30, 45);
    expect(await sync(T2)).toEqual({ time: T2, unit: 'set', plc: 'written' });
    expect(unitClock()).toBe(T2); // the fake clock stands still: exactly the instant sent
    expect(decodeFpClock(rig.plc.memory.readWords('DT', CLOCK_DT, FP_CLOCK_WORDS))).toMatchObject({
      year: 2027,
      month: 6,
      day: 15,
      hour: 6,
      minute: 30,
      second: 45,
    });
    expect((await iecEntry()).iec).toMatchObject({
      clockSyncs: 2,
      lastClockSync: { time: T2, unit: 'set', plc: 'written' },
    });
  });

  it('saved off: the port closes and the connection ends', async () => {
    expect(station!.fault).toBeUndefined(); // every frame and ASDU the unit sent so far decoded
    await saveIec({ enable_60870: false });
    await until(() => station!.closed, 15_000, 'the connection closed');
    const refused = await new Promise<boolean>((resolve) => {
      const c = connect({ host: LOOPBACK, port });
      c.once('connect', () => {
        c.destroy();
        resolve(false);
      });
      c.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
    expect(await iecEntry()).toMatchObject({ enabled: false, state: 'off', iec: { enabled: false } });
  });
});
