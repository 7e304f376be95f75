// MQTT figures of `npm run bench` (part "mqtt"), against Debian mosquitto on 127.0.0.1 with a
// virtual FP-XH on COM1 (MEWTOCOL, 115200 8O1, in process):
//   - PLC request → message at the broker, p50/p99 over 40 requests, plc_poll 0.2 s; the limit is
//     the poll time (a request waits up to one poll, 0.1 s on average) plus the link's wire time;
//   - publishes per second from queued requests (10 000 publishes stored while the broker was
//     down, replayed at the start) against mosquitto_pub in a loop on the same broker;
//   - the 10 000 replayed: time, order kept, duplicates.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MQTT_BLOCK } from '../../device/model/blocks/mqtt.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { type Mqtt, pew_mqtt } from '../../device/model/sections/mqtt.ts';
import type { MqttJob } from '../../device/mqtt/run.ts';
import { JobQueue } from '../../device/service-runtime/queue.ts';
import { putBytes, readBlock, setBlock } from '../../sim/plc/blocks.ts';
import type { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import type { TestDaemon } from '../support/daemon.ts';
import { startBroker, subscribe, waitFor } from '../support/mosquitto.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { daemonWithPlcOnCom1, FRAMING } from './plc-daemon.ts';
import type { Row } from './stats.ts';

const DT = 260;
const REQUESTS = 40;
const REPLAY = 10_000;
const PUB_LOOP = 200;

async function daemonWithPlc(dataDir: string, brokerPort: number): Promise<{ d: TestDaemon; plc: VirtualPlc }> {
  const { d, plc, admin } = await daemonWithPlcOnCom1(dataDir);
  const m: Mqtt = { ...defaultsOf(pew_mqtt), enable_mqtt: true, plc_poll: 0.2, broker_addr: `mqtt://${LOOPBACK}:${brokerPort}`, qos: 1 };
  if ((await admin.post('/config/pew_mqtt', m)).status !== 200) throw new Error('pew_mqtt not saved');
  await d.ctx.services.settled();
  return { d, plc };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

export async function measureMqtt(rows: Row[]): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-mqtt-'));
  const port = await freePort();
  const broker = await startBroker(port);
  try {
    // 1. latency of a PLC request
    const { d, plc } = await daemonWithPlc(join(work, 'a'), port);
    const block = () => readBlock(plc.memory, MQTT_BLOCK, DT);
    await waitFor(() => block().connection === 2, 20_000, 'connected');
    const sub = await subscribe(port, 'bench/#');
    const lat: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const tl = putBytes(plc.memory, 1000, 'bench/latency');
      const pl = putBytes(plc.memory, 1100, `v${i}`);
      const n = sub.got.length;
      setBlock(plc.memory, MQTT_BLOCK, DT, { topic_addr: 1000, topic_len: tl, payload_addr: 1100, payload_len: pl, qos: 1, retain: 0 });
      await new Promise((r) => setTimeout(r, Math.random() * 200)); // requests at random moments of the poll
      const t0 = performance.now();
      setBlock(plc.memory, MQTT_BLOCK, DT, { request: 1 });
      await waitFor(() => sub.got.length > n, 10_000, 'message at the broker', 1);
      lat.push(performance.now() - t0);
      await waitFor(() => block().request === 0, 10_000, 'request taken', 2);
    }
    await sub.stop();
    await d.stop();
    // MEWTOCOL at 115200 8O1 (11 bits a character): block read 34 words + topic + payload + clearing the request
    const wireMs = ((13 + 34 * 4 + 9 + (13 + 7 * 4 + 9) + (13 + 2 * 4 + 9) + (25 + 4 + 9)) * 11 * 1000) / FRAMING.baud;
    rows.push({
      figure: 'MQTT: PLC request → broker p50 (ms)',
      ours: pct(lat, 50),
      baseline: 100 + wireMs,
      note: `baseline: half the poll (0.2 s) + wire ${wireMs.toFixed(1)} ms; ${REQUESTS} requests`,
    });
    rows.push({ figure: 'MQTT: PLC request → broker p99 (ms)', ours: pct(lat, 99), baseline: 200 + wireMs, note: 'baseline: a whole poll + wire time' });

    // 2. + 3. a stored queue of 10 000 publishes replayed at the start
    const dir = join(work, 'b');
    const q = await JobQueue.open<MqttJob>(join(dir, 'queues', 'mqtt'), { bound: REPLAY });
    for (let i = 0; i < REPLAY; i++) await q.push({ t: 'bench/replay', p: Buffer.from(String(i)).toString('base64'), q: 1, r: false });
    await q.close();
    const rsub = await subscribe(port, 'bench/replay');
    const t0 = performance.now();
    const second = await daemonWithPlc(dir, port);
    await waitFor(() => rsub.got.length >= REPLAY, 300_000, 'replay', 10);
    const replayMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 1000));
    const got = rsub.got.map((a) => Number(a.payload.toString()));
    const inOrder = got.every((n, i) => i === 0 || n > got[i - 1]!);
    const dups = got.length - new Set(got).size;
    await rsub.stop();
    await second.d.stop();
    // mosquitto_pub in a loop: one process, connection and publish each
    const p0 = performance.now();
    for (let i = 0; i < PUB_LOOP; i++) {
      const p = spawn('mosquitto_pub', ['-h', LOOPBACK, '-p', String(port), '-t', 'bench/loop', '-m', String(i), '-q', '1'], { stdio: 'ignore' });
      await once(p, 'exit');
    }
    const loopPerS = PUB_LOOP / ((performance.now() - p0) / 1000);
    rows.push({
      figure: 'MQTT: publishes/s from the queue',
      ours: REPLAY / (replayMs / 1000),
      baseline: loopPerS,
      note: `baseline: mosquitto_pub in a loop (${PUB_LOOP}); ours includes the daemon start`,
    });
    rows.push({
      figure: `MQTT: ${REPLAY} queued publishes replayed (s)`,
      ours: replayMs / 1000,
      note: `order kept: ${inOrder ? 'yes' : 'NO'}, duplicates: ${dups}, received: ${got.length}`,
    });
  } finally {
    await broker.stop();
    await rm(work, { recursive: true, force: true });
  }
}
