// IEC 104 figures of `npm run bench` (issue: the station's events from the PLC's monitor ring):
// a daemon with a virtual FP-XH on COM1 (115200 8O1, in process, real UART timing) runs the station;
// a control station on our codec (test/support/iec104-control.ts) starts data transfer and
// acknowledges every I-frame. The PLC program is played here: it writes events into the ring.
// - Throughput: the PLC keeps the ring full for a while; events per second arriving as I-frames,
//   against the wire limit of reading that ring: a full ring's events per (plc_poll + the time one
//   cycle's requests take on the same wire: read W, read the records, write R; the command buffer
//   is read only while a command waits), measured on a bare link to a second virtual PLC beside it
//   in this run.
// - Latency: single events at random moments; PLC write → I-frame arrival, p50 and p99, against
//   plc_poll + the wire time of a one-event cycle (the longest an event can wait for the next poll
//   and its read).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { encodeRecord, RECORD_WORDS, ringCapacity } from '../../device/model/blocks/iec104.ts';
import { connectionSchema, type Iec, type IecConnection, iecSchema } from '../../device/model/sections/iec.ts';
import { type IecLayout, pushRecord } from '../../sim/plc/iec104-program.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { ControlStation } from '../support/iec104-control.ts';
import { freePort } from '../support/ports.ts';
import { serialLink } from '../support/serial-link.ts';
import { daemonWithPlcOnCom1, FRAMING } from './plc-daemon.ts';
import { median, type Row } from './stats.ts';

const ENTRY: IecConnection = {
  ...(v.getDefaults(connectionSchema) as IecConnection),
  area: 'DT',
  plc_buffer_rbm: 2000,
  plc_buffer_m: 2010,
  plc_buffer_m_depth: 501, // 100 records: the PLC can hold 99 unread
  plc_buffer_c: 2600,
  timeout: 2000,
};
const LAYOUT: IecLayout = { area: 'DT', read_index: ENTRY.plc_buffer_rbm, ring: ENTRY.plc_buffer_m, depth: ENTRY.plc_buffer_m_depth };
const ROOM = ringCapacity(ENTRY.plc_buffer_m_depth) - 1;
const FAST_POLL_MS = 20;
const THROUGHPUT_S = 8;
const LATENCY_SAMPLES = 60;

const until = async (cond: () => boolean, what: string, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`${what} not reached within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
};
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const scaled = (value: number) => encodeRecord({ type: 11, ioa: 4001, group: 0, element: { kind: 'sva_qds', value, quality: 0 } });

/** One poll cycle's requests on a bare link to a virtual PLC, back to back, `records` records read: median ms. */
async function cycleWireMs(records: number): Promise<number> {
  const plc = new VirtualPlc({ model: 'FP-XH', station: 1, scanMs: 1 });
  const att = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: FRAMING });
  const link = serialLink({ framing: FRAMING, station: 1, open: (s) => att.open(s) });
  try {
    await link.readWords('DT', 0, 1); // opened and warm
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t0 = performance.now();
      await link.readWords('DT', ENTRY.plc_buffer_m, 1);
      await link.readWords('DT', ENTRY.plc_buffer_m + 1, records * RECORD_WORDS);
      await link.writeWords('DT', ENTRY.plc_buffer_rbm, [i]);
      times.push(performance.now() - t0);
    }
    return median(times);
  } finally {
    await link.close();
  }
}

export async function measureIec104(rows: Row[]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-iec104-'));
  const { d, plc, admin } = await daemonWithPlcOnCom1(dir);
  let station: ControlStation | undefined;
  try {
    const port = await freePort();
    const save = async (plc_poll: number) => {
      const body: Iec = { ...(v.getDefaults(iecSchema) as Iec), enable_60870: true, port, plc_poll, connections: [ENTRY] };
      const r = await admin.post('/config/pew_60870', body);
      if (r.status !== 200) throw new Error(`pew_60870 not saved: ${r.status} ${r.text}`);
      await d.ctx.iec104.settled();
    };
    const connect = async () => {
      station?.close();
      const s = (station = await ControlStation.open(port));
      s.send({ format: 'U', fn: 'startdt_act' });
      await until(() => s.asdus.length >= 1, 'the end of initialization');
      return s;
    };
    const spontaneous = (s: ControlStation) => s.asdus.filter((a) => a.cot.cause === 3).length;

    // throughput: the PLC keeps the ring full
    await save(FAST_POLL_MS);
    let s = await connect();
    let written = 0;
    let stop = false;
    const producer = (async () => {
      while (!stop) {
        while (pushRecord(plc.memory, LAYOUT, scaled(written % 30_000))) written++;
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    await until(() => spontaneous(s) > 0, 'the first event');
    const from = spontaneous(s);
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, THROUGHPUT_S * 1000));
    const got = spontaneous(s) - from;
    const perSecond = got / ((performance.now() - t0) / 1000);
    stop = true;
    await producer;
    await until(() => spontaneous(s) === written, 'every event written arrived');
    if (s.fault) throw new Error(s.fault);
    const values = s.asdus.filter((a) => a.cot.cause === 3).map((a) => (a.objects[0]!.element as { value: number }).value);
    const inOrder = values.every((x, i) => x === i % 30_000);
    const fullCycle = await cycleWireMs(ROOM);
    rows.push({
      figure: `IEC 104 events/s, ring kept full, plc_poll ${FAST_POLL_MS} ms`,
      ours: perSecond,
      baseline: (ROOM * 1000) / (FAST_POLL_MS + fullCycle),
      note: `limit: ${ROOM} records per (poll + ${fullCycle.toFixed(1)} ms of one cycle's requests at 115200 baud); ${written} events, ${inOrder ? 'all in order, none lost' : 'OUT OF ORDER or lost'}`,
    });

    // latency: single events at random moments, default poll
    const POLL = (v.getDefaults(iecSchema) as Iec).plc_poll;
    await save(POLL);
    s = await connect();
    const lat: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      await new Promise((r) => setTimeout(r, 50 + Math.random() * POLL * 1.5));
      const before = s.asdus.length;
      const at = performance.now();
      if (!pushRecord(plc.memory, LAYOUT, scaled(i))) throw new Error('the ring is full');
      await until(() => s.asdus.length > before, 'the event');
      lat.push(s.arrivedAt[before]! - at);
    }
    const oneCycle = await cycleWireMs(1);
    rows.push({
      figure: `IEC 104 PLC event → I-frame p50 (ms), plc_poll ${POLL} ms`,
      ours: pct(lat, 50),
      baseline: POLL + oneCycle,
      note: `baseline: the longest wait for the next poll + ${oneCycle.toFixed(1)} ms of a one-event cycle; ${LATENCY_SAMPLES} events`,
    });
    rows.push({ figure: `IEC 104 PLC event → I-frame p99 (ms), plc_poll ${POLL} ms`, ours: pct(lat, 99), baseline: POLL + oneCycle });
  } finally {
    station?.close();
    await d.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
