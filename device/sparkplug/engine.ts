// The Sparkplug B edge node of the daemon (docs/sparkplug.md): follows the saved pew_mqtt, pew and
// pew_log (the logger's points are its metrics) and keeps one run per saved version (run.ts) while
// sparkplug_enable is on. Its client id is the unit's MQTT client id with `-spb`; the bdSeq of the
// last CONNECT is kept on the unit's storage (bdseq-file.ts). Its status is the `sparkplug` part of
// the MQTT service's status entry.
import { join } from 'node:path';
import type { Clock } from '../../hw/types.ts';
import type { Links } from '../com/links.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Log } from '../model/sections/log.ts';
import type { Mqtt } from '../model/sections/mqtt.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { SparkplugStatus } from '../model/sparkplug-status.ts';
import { clientIdAt } from '../mqtt/engine.ts';
import { JobQueue, QUEUE_BOUND } from '../service-runtime/queue.ts';
import { followRuns } from '../service-runtime/runs.ts';
import type { AuditLog } from '../system/audit.ts';
import type { Logger } from '../system/log.ts';
import { bdSeqFile, readBdSeq, sparkplugClientId } from './bdseq-file.ts';
import { type HistoryJob, isHistoryJob } from './history.ts';
import { SparkplugRun, type SparkplugShared } from './run.ts';

export interface SparkplugDeps {
  store: ConfigStore;
  links: Links;
  log: Logger;
  dataDir: string;
  clock: Clock;
  /** DCMD writes are audited here */
  audit?: AuditLog;
  /** jobs the history queue holds (default QUEUE_BOUND) */
  queueBound?: number;
  /** how a CONNECT's bdSeq is kept on storage (run.ts SparkplugRunDeps) */
  writeBdSeq?: (file: string, n: number) => Promise<void>;
}

export interface SparkplugEngine {
  settled(): Promise<void>;
  status(): SparkplugStatus;
  close(): Promise<void>;
}

export async function startSparkplug(deps: SparkplugDeps): Promise<SparkplugEngine> {
  const file = bdSeqFile(deps.dataDir);
  // the values taken while not born (run.ts #store), kept across saves and restarts
  const history = await JobQueue.open<HistoryJob>(join(deps.dataDir, 'queues', 'sparkplug'), {
    bound: deps.queueBound ?? QUEUE_BOUND,
    accept: isHistoryJob,
    onBad: (name, reason) => deps.log.error('sparkplug history: a stored job cannot be read, set aside', { file: name, reason }),
  });
  if (history.waiting > 0) deps.log.info('sparkplug history: values waiting from before the start', { waiting: history.waiting });
  const shared: SparkplugShared = {
    // the raw client's id, made once beside its queue (mqtt/engine.ts)
    clientId: sparkplugClientId(await clientIdAt(join(deps.dataDir, 'queues', 'mqtt'))),
    bdSeqFile: file,
    lastBdSeq: await readBdSeq(file),
    persist: Promise.resolve(),
    counters: { published: 0, births: 0, ddata: 0, commands: 0, refused: 0, stored: 0, replayed: 0, dropped: 0 },
    last: new Map(),
    history,
    lastError: undefined,
  };
  let enabled = false;
  let failed = false;
  const runs = await followRuns(deps.store, ['pew_mqtt', 'pew', 'pew_log'], deps.log, async () => {
    const m = deps.store.get<Mqtt>('pew_mqtt');
    enabled = m.sparkplug_enable && m.broker_addr !== '';
    failed = false;
    if (!enabled) return undefined;
    const run = new SparkplugRun(deps, shared, m, deps.store.get<Pew>('pew'), deps.store.get<Log>('pew_log'));
    try {
      await run.start();
    } catch (e) {
      failed = true;
      shared.lastError = { message: e instanceof Error ? e.message : String(e), at: deps.clock.now() };
      await run.stop();
      throw e;
    }
    return run;
  });
  return {
    settled: () => runs.settled(),
    status: () => {
      const run = runs.current();
      return {
        enabled,
        state: !enabled ? 'off' : run ? run.state : failed ? 'error' : 'connecting',
        ...(run?.bdSeq !== undefined ? { bdSeq: run.bdSeq } : {}),
        seq: run?.seq ?? 0,
        metrics: run?.metrics ?? 0,
        counters: { ...shared.counters },
        ...(shared.lastError ? { lastError: { ...shared.lastError } } : {}),
      };
    },
    close: async () => {
      await runs.close();
      await history.close();
    },
  };
}
