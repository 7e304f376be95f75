// The Sparkplug B edge node's NBIRTH waits until the bdSeq of its CONNECT is on the unit's storage
// (device/sparkplug/run.ts #onConnect; docs/sparkplug.md "Session"). A kill -9 right after a birth
// whose number was not yet written would start the next session with the same bdSeq, and the broker
// may deliver the old will after the new birth (topics-nbirth-bdseq-increment). The engine runs in
// this process against Debian's mosquitto; the test holds the bdSeq write and watches the edge node's
// own mqtt.js client: its subscription is acknowledged, and no NBIRTH is published until the write ends.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MqttClient } from 'mqtt';
import spp from 'sparkplug-payload';
import { afterAll, describe, expect, it } from 'vitest';
import { Links } from '../../device/com/links.ts';
import { ConfigStore } from '../../device/config/store.ts';
import { CONFIG_SECTIONS } from '../../device/model/index.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { type Mqtt, pew_mqtt } from '../../device/model/sections/mqtt.ts';
import { drivers } from '../../device/services/drivers.ts';
import { bdSeqFile, writeBdSeq } from '../../device/sparkplug/bdseq-file.ts';
import { type SparkplugEngine, startSparkplug } from '../../device/sparkplug/engine.ts';
import { createLogger } from '../../device/system/log.ts';
import { createSimHw } from '../../sim/hw.ts';
import { type Broker, startBroker, waitFor } from '../support/mosquitto.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';

const tahu = spp.get('spBv1.0')!;
const realMqtt = drivers.mqtt;
let broker: Broker | undefined;
let engine: SparkplugEngine | undefined;
let dataDir: string | undefined;
/** the bdSeq writes the test holds, each with the word that lets it go on */
const held: { n: number; release: () => void }[] = [];

afterAll(async () => {
  drivers.mqtt = realMqtt;
  for (const h of held) h.release(); // a failed check must not leave the engine's stop waiting on a held write
  await engine?.close();
  await broker?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** What the bdSeq file holds now ('' when there is none). */
function onStorage(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

describe('Sparkplug B: NBIRTH after its bdSeq is on storage', () => {
  it('while the write of the CONNECT’s bdSeq is held, the subscribed edge node publishes no NBIRTH; once written, the NBIRTH carries that number', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sparkplug-bdseq-'));
    broker = await startBroker(await freePort());
    const file = bdSeqFile(dataDir);

    // the write of each bdSeq waits for the test's word, then writes as the unit does
    const heldWrite = (f: string, n: number) =>
      new Promise<void>((resolve, reject) => {
        let go = false;
        held.push({
          n,
          release: () => {
            if (go) return;
            go = true;
            writeBdSeq(f, n).then(resolve, reject);
          },
        });
      });

    // the edge node's own client: its acknowledged subscription, and each NBIRTH with what storage held as it went out
    const births: { bdSeq: unknown; stored: string }[] = [];
    let subscribed: () => void = () => {};
    const subscribedSeen = new Promise<void>((r) => {
      subscribed = r;
    });
    drivers.mqtt = async () => {
      const mqtt = await realMqtt();
      return {
        ...mqtt,
        connect: ((url: string, opts: Parameters<typeof mqtt.connect>[1]) => {
          const client: MqttClient = mqtt.connect(url, opts);
          const subscribeAsync = client.subscribeAsync.bind(client);
          // after the acknowledgement, once the engine's continuation and its microtasks have run
          client.subscribeAsync = ((...a: Parameters<typeof subscribeAsync>) => {
            const p = subscribeAsync(...a);
            p.then(
              () => setImmediate(subscribed),
              () => {},
            );
            return p;
          }) as typeof client.subscribeAsync;
          const publish = client.publish.bind(client);
          client.publish = ((topic: string, payload: Buffer, ...rest: unknown[]) => {
            if (topic.endsWith('/NBIRTH/Unit7')) {
              const bdSeq = tahu.decodePayload(payload).metrics?.find((m) => m.name === 'bdSeq')?.value;
              births.push({ bdSeq: Number(String(bdSeq)), stored: onStorage(file) });
            }
            return (publish as (...x: unknown[]) => MqttClient)(topic, payload, ...rest);
          }) as typeof client.publish;
          return client;
        }) as typeof mqtt.connect,
      };
    };

    const hw = createSimHw({ dataDir, versions: { app: '0', bsp: '1', hmi: '1' } });
    const log = createLogger({ clock: hw.clock, sink: null });
    const store = await ConfigStore.open({ dir: join(dataDir, 'config'), defs: CONFIG_SECTIONS, log });
    const links = new Links({ hw, log, clock: hw.clock });
    engine = await startSparkplug({ store, links, log, dataDir, clock: hw.clock, writeBdSeq: heldWrite });
    const m: Mqtt = {
      ...defaultsOf(pew_mqtt),
      broker_addr: `mqtt://${LOOPBACK}:${broker.port}`,
      sparkplug_enable: true,
      sparkplug_group_id: 'Plant1',
      sparkplug_edge_node_id: 'Unit7',
    };
    await store.save({ pew_mqtt: m });
    await engine.settled();

    await subscribedSeen;
    // the CONNECT went out with bdSeq 0 (no file yet); its write is held, so no birth yet
    expect(held.map((h) => h.n)).toEqual([0]);
    expect(births).toEqual([]);
    expect(onStorage(file)).toBe('');

    held[0]!.release();
    await waitFor(() => births.length > 0, 15_000, 'NBIRTH');
    expect(births).toEqual([{ bdSeq: 0, stored: '0' }]);
    await waitFor(() => engine!.status().state === 'online' || engine!.status().state === 'link_down', 15_000, 'born');
  });
});
