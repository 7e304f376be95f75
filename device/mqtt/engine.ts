// The MQTT client of the daemon (spec §3 pew_mqtt, §9 MQTT control register 260 + 34): follows the
// saved pew_mqtt and pew (whose service control interface carries the PLC's control block). With
// enable_mqtt on it connects to the broker and keeps the connection (run.ts); publishes the PLC
// asks for wait in a crash-safe queue on the unit's storage (<dataDir>/queues/mqtt) until the
// broker has them; a publish made for another broker is a dead letter (job-targets.ts). docs/services.md describes the block and a worked example.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../hw/atomic-file.ts';
import type { Clock } from '../../hw/types.ts';
import type { Links } from '../com/links.ts';
import type { ConfigStore } from '../config/store.ts';
import { MQTT_SUBSCRIPTIONS } from '../model/blocks/mqtt.ts';
import type { Mqtt } from '../model/sections/mqtt.ts';
import type { Pew } from '../model/sections/pew.ts';
import { mqttTarget } from '../service-runtime/job-targets.ts';
import { deadCounts, deadLetterAccess, openJobStores, type ServiceEngine } from '../service-runtime/queued-engine.ts';
import { followRuns } from '../service-runtime/runs.ts';
import { StatusBook } from '../service-runtime/status.ts';
import type { Logger } from '../system/log.ts';
import { isMqttJob, MqttRun, type MqttShared } from './run.ts';

export interface MqttDeps {
  store: ConfigStore;
  links: Links;
  log: Logger;
  dataDir: string;
  clock: Clock;
  /** jobs the queue holds (default QUEUE_BOUND) */
  queueBound?: number;
  /** dead letters kept (default DEAD_LETTER_COUNT, DEAD_LETTER_BYTES) */
  deadBound?: { count?: number; bytes?: number };
}

/** the engine shape every service shares (service-runtime/queued-engine.ts) */
export type MqttEngine = ServiceEngine;

/** The unit's MQTT client id: made once, kept beside the queue, so the broker keeps its session. */
export async function clientIdAt(dir: string): Promise<string> {
  const file = join(dir, 'client-id');
  try {
    const id = (await readFile(file, 'utf8')).trim();
    if (/^[A-Za-z0-9-]{1,23}$/.test(id)) return id;
  } catch {
    // first start
  }
  const id = `pew-${randomBytes(6).toString('hex')}`; // ≤ 23 characters (MQTT 3.1.1 §3.1.3.1)
  await writeFileAtomic(file, id);
  return id;
}

export async function startMqtt(deps: MqttDeps): Promise<MqttEngine> {
  const dir = join(deps.dataDir, 'queues', 'mqtt');
  const { queue, dead } = await openJobStores(deps, 'mqtt', isMqttJob);
  const shared: MqttShared = {
    book: new StatusBook('mqtt', deps.clock, ['published', 'received', 'failed'] as const),
    queue,
    dead,
    target: mqttTarget(deps.store.get<Mqtt>('pew_mqtt')),
    clientId: await clientIdAt(dir),
    state: 'idle',
    error: 'none',
    counter: 0,
    subCount: Array.from({ length: MQTT_SUBSCRIPTIONS }, () => 0),
    subLength: Array.from({ length: MQTT_SUBSCRIPTIONS }, () => 0),
    subError: 'none',
  };
  let enabled = false;
  const runs = await followRuns(deps.store, ['pew_mqtt', 'pew'], deps.log, async () => {
    const m = deps.store.get<Mqtt>('pew_mqtt');
    enabled = m.enable_mqtt;
    shared.target = mqttTarget(m);
    if (!enabled) return undefined;
    const run = new MqttRun(deps, shared, m, deps.store.get<Pew>('pew'));
    try {
      await run.start();
    } catch (e) {
      await run.stop();
      throw e;
    }
    return run;
  });
  return {
    settled: () => runs.settled(),
    status: () => shared.book.answer(enabled, { waiting: queue.waiting, dropped: queue.dropped, bound: queue.bound }, deadCounts(dead)),
    close: async () => {
      await runs.close();
      await queue.close();
      await dead.close();
    },
    dead: deadLetterAccess(queue, dead, () => mqttTarget(deps.store.get<Mqtt>('pew_mqtt'))),
  };
}
