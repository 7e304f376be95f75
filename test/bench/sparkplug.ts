// Sparkplug B figures of `npm run bench` (part "sparkplug"; docs/sparkplug.md):
//   - metrics per second from the PLC to the broker: 700 INT points (the logger's most) in DT on a
//     virtual FP-XH on COM1 (MEWTOCOL, 115200 8O1, in process), every word changed between passes by
//     the bench, the edge node at its shortest poll (0.2 s), Debian's mosquitto, and a host on
//     `spBv1.0/#` counting the DDATA metrics it decodes (Tahu's sparkplug-payload) per window;
//     against the link's wire limit for the same reads (the planner's block reads, their frames at
//     the line's speed plus the PLC's scan per read, as the logger bench computes it);
//   - bytes per DDATA from the edge node's encoder (device/sparkplug/payload.ts) for 1, 10 and 100
//     changed metrics of mixed types, against the same values as compact JSON
//     ({"timestamp": …, "<metric name>": value, …}).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import spp from 'sparkplug-payload';
import * as v from 'valibot';
import { planReads, readLimit } from '../../device/logger/planner.ts';
import { logPoints } from '../../device/logger/points.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { type Log, logSchema } from '../../device/model/sections/log.ts';
import { type LogFile, type LogRecord, logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import { type Mqtt, pew_mqtt } from '../../device/model/sections/mqtt.ts';
import { mewCommandFrames, mewReplyFrames } from '../../device/protocol/index.ts';
import type { Metric } from '../../device/sparkplug/metrics.ts';
import { ddataMessage, loadPayloads, type MetricValue } from '../../device/sparkplug/payload.ts';
import { DATATYPES, type DataType } from '../../device/sparkplug/types.ts';
import { wireMs } from '../../sim/wire.ts';
import { startBroker, waitFor } from '../support/mosquitto.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { COM1, daemonWithPlcOnCom1, FRAMING } from './plc-daemon.ts';
import { median, type Row } from './stats.ts';

const POINTS = 700;
const POLL_S = 0.2;
const SCAN_MS = 1;
const WINDOWS = 8;
const WINDOW_MS = 2000;
const tahu = spp.get('spBv1.0')!;

function benchLog(): Log {
  const records = Array.from(
    { length: POINTS },
    (_, j): LogRecord => ({ ...(v.getDefaults(recordSchema) as LogRecord), id: j + 1, name: `v${j}`, if: COM1, area: 1, reg_addr: String(j) }),
  );
  const file: LogFile = { ...(v.getDefaults(logFileSchema) as LogFile), id: 1, name: 'bench', interface: COM1, records };
  return { ...(v.getDefaults(logSchema) as Log), log_def: [file] };
}

/** The wire time of one pass's reads: request and answer frames at the line's speed, plus the scan, per planned block. */
function passWireMs(log: Log): { ms: number; reads: number } {
  const plan = planReads(logPoints(log).points, () => readLimit('MEWTOCOL', 'DT'));
  const ms = plan.reduce((sum, r) => {
    const req = { cmd: 'RD' as const, area: 'DT' as const, start: r.start, count: r.count };
    const bytes = mewCommandFrames(1, req)[0]!.length + mewReplyFrames('%', 1, req, { kind: 'words', words: Array(r.count).fill(0) })[0]!.length;
    return sum + wireMs(bytes, FRAMING) + SCAN_MS;
  }, 0);
  return { ms, reads: plan.length };
}

async function measureRate(rows: Row[]): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-spb-'));
  const port = await freePort();
  const broker = await startBroker(port);
  const { d, plc, admin } = await daemonWithPlcOnCom1(join(work, 'unit'));
  const host = await mqtt.connectAsync(`mqtt://${LOOPBACK}:${port}`, { clientId: 'bench-host', clean: true });
  let metrics = 0;
  let messages = 0;
  host.on('message', (topic, payload) => {
    if (!topic.includes('/DDATA/')) return;
    messages++;
    metrics += tahu.decodePayload(payload).metrics?.length ?? 0;
  });
  await host.subscribeAsync('spBv1.0/#', { qos: 0 });
  // every word changes far more often than a pass reads it, so every pass finds all 700 changed
  let n = 0;
  const changer = setInterval(() => {
    n = (n + 1) & 0x7fff;
    plc.memory.writeWords('DT', 0, Array(POINTS).fill(n));
  }, 20);
  try {
    const log = benchLog();
    const saved = await admin.post('/config/pew_log', log);
    if (saved.status !== 200) throw new Error(`pew_log not saved: ${saved.text}`);
    const m: Mqtt = {
      ...defaultsOf(pew_mqtt),
      broker_addr: `mqtt://${LOOPBACK}:${port}`,
      sparkplug_enable: true,
      sparkplug_group_id: 'Bench',
      sparkplug_edge_node_id: 'Unit1',
      sparkplug_poll: POLL_S,
    };
    const r = await admin.post('/config/pew_mqtt', m);
    if (r.status !== 200) throw new Error(`pew_mqtt not saved: ${r.text}`);
    await d.ctx.services.settled();
    await waitFor(() => messages >= 3, 30_000, 'DDATA at the host');
    const link = d.ctx.com.links.get(COM1)!;
    const perS: number[] = [];
    const busy: number[] = [];
    for (let i = 0; i < WINDOWS; i++) {
      const m0 = metrics;
      const b0 = link.status().stats.busyMs;
      const t0 = performance.now();
      await new Promise((res) => setTimeout(res, WINDOW_MS));
      const s = (performance.now() - t0) / 1000;
      perS.push((metrics - m0) / s);
      busy.push((link.status().stats.busyMs - b0) / (s * 1000));
    }
    const wire = passWireMs(log);
    const limit = POINTS / (Math.max(wire.ms, POLL_S * 1000) / 1000);
    rows.push({
      figure: 'Sparkplug: metrics/s PLC → broker, all changing',
      ours: median(perS),
      baseline: limit,
      note: `${POINTS} INT points, ${wire.reads} reads a pass (wire ${wire.ms.toFixed(0)} ms at 115200 8O1), poll ${POLL_S} s; baseline: ${POINTS} ÷ max(wire, poll); median of ${WINDOWS} windows of ${WINDOW_MS / 1000} s, link busy ${(median(busy) * 100).toFixed(0)} %`,
    });
  } finally {
    clearInterval(changer);
    await host.endAsync();
    await d.stop();
    await broker.stop();
    await rm(work, { recursive: true, force: true });
  }
}

/** The n-th of a mix of the logger's datatypes, with a value of its kind. */
const MIX: { dt: DataType; value: (i: number) => MetricValue['value'] }[] = [
  { dt: DATATYPES.Int16, value: (i) => -1200 + i },
  { dt: DATATYPES.UInt16, value: (i) => 40_000 + i },
  { dt: DATATYPES.Int32, value: (i) => -2_000_000 + i },
  { dt: DATATYPES.UInt32, value: (i) => 4_000_000_000 + i },
  { dt: DATATYPES.Float, value: (i) => 21.5 + i / 4 },
  { dt: DATATYPES.Double, value: (i) => 1013.25 + i / 8 },
  { dt: DATATYPES.Boolean, value: (i) => i % 2 === 0 },
  { dt: DATATYPES.Int64, value: (i) => -(2n ** 40n) + BigInt(i) },
  { dt: DATATYPES.String, value: (i) => `pump${i % 10}` },
];

const jsonValue = (x: MetricValue['value']) => (typeof x === 'bigint' ? Number(x) : x);

async function measureBytes(rows: Row[]): Promise<void> {
  const codec = await loadPayloads();
  const now = Date.UTC(2026, 11, 4, 3, 0, 0);
  for (const count of [1, 10, 100]) {
    const values: MetricValue[] = Array.from({ length: count }, (_, i) => {
      const kind = MIX[i % MIX.length]!;
      const metric: Pick<Metric, 'name' | 'alias' | 'datatype' | 'unit'> = { name: `Line1/Point${i + 1}`, alias: i + 1, datatype: kind.dt, unit: '' };
      return { metric, value: kind.value(i), timestamp: now - 40 };
    });
    const ours = codec.encode(ddataMessage({ timestamp: now, seq: 17, values })).length;
    const json = Buffer.byteLength(JSON.stringify(Object.fromEntries([['timestamp', now], ...values.map((x) => [x.metric.name, jsonValue(x.value)])])));
    rows.push({
      figure: `Sparkplug: bytes per DDATA, ${count} changed metric${count > 1 ? 's' : ''}`,
      ours,
      baseline: json,
      note: 'aliases, datatypes and a timestamp per metric (the encoder); baseline: compact JSON of names and values with one timestamp',
    });
  }
}

export async function measureSparkplug(rows: Row[]): Promise<void> {
  await measureBytes(rows);
  await measureRate(rows);
}
