// The one registration list of the service engines that move PLC data out (design/services.md):
// each is started here, reports through the one status answer, and closes with the others. A
// fault in one never stops another or the daemon: a run that fails is logged inside it
// (followRuns), and an engine that cannot even start (its queue folder unusable) is logged and
// reported as an engine in state error.
import type { Hw } from '../../hw/types.ts';
import type { Links } from '../com/links.ts';
import type { ConfigStore } from '../config/store.ts';
import { startEmail } from '../email/engine.ts';
import type { FtpSend } from '../ftp/engine.ts';
import { startHttpc } from '../httpc/engine.ts';
import type { RuntimeService, ServiceStatus } from '../model/service-status.ts';
import { startMqtt } from '../mqtt/engine.ts';
import { startNosql } from '../nosql/engine.ts';
import { startScript } from '../script/engine.ts';
import { type SparkplugEngine, startSparkplug } from '../sparkplug/engine.ts';
import { startSql } from '../sql/engine.ts';
import type { AuditLog } from '../system/audit.ts';
import type { Logger } from '../system/log.ts';
import type { QueuedServiceDeps, ServiceEngine } from './queued-engine.ts';

export interface ServiceEngineDeps {
  store: ConfigStore;
  links: Links;
  hw: Hw;
  log: Logger;
  dataDir: string;
  /** the FTP send the script's send statement hands its files to */
  ftpSend?: FtpSend;
  /** where the Sparkplug B edge node audits the writes hosts make */
  audit?: AuditLog;
}

export interface ServiceEngines {
  mqtt: ServiceEngine;
  httpc: ServiceEngine;
  email: ServiceEngine;
  sql: ServiceEngine;
  nosql: ServiceEngine;
  script: ServiceEngine;
  /** the Sparkplug B edge node: its own connection to the MQTT broker; its status is the MQTT entry's `sparkplug` part */
  sparkplug: SparkplugEngine;
  /** resolves when every engine applied the last saved version */
  settled(): Promise<void>;
  status(): ServiceStatus[];
  close(): Promise<void>;
}

const REGISTRY: readonly [RuntimeService, (deps: QueuedServiceDeps) => Promise<ServiceEngine>][] = [
  ['mqtt', startMqtt],
  ['httpc', startHttpc],
  ['email', startEmail],
  ['sql', startSql],
  ['nosql', startNosql],
];

/** What stands for an engine that could not start: its status says so, nothing else happens. */
export function failedEngine(service: RuntimeService, at: number, message: string): ServiceEngine {
  return {
    settled: async () => {},
    status: () => ({
      service,
      enabled: true,
      state: 'error',
      since: at,
      lastError: { code: 'local', number: 7, message, at },
      counters: {},
      queue: { waiting: 0, dropped: 0, bound: 0 },
    }),
    close: async () => {},
  };
}

/** What stands for a Sparkplug engine that could not start. */
export function failedSparkplug(at: number, message: string): SparkplugEngine {
  return {
    settled: async () => {},
    status: () => ({
      enabled: true,
      state: 'error',
      seq: 0,
      metrics: 0,
      counters: { published: 0, births: 0, ddata: 0, commands: 0, refused: 0, stored: 0, replayed: 0, dropped: 0 },
      lastError: { message, at },
    }),
    close: async () => {},
  };
}

export async function startServiceEngines(deps: ServiceEngineDeps): Promise<ServiceEngines> {
  const common: QueuedServiceDeps = { store: deps.store, links: deps.links, hw: deps.hw, log: deps.log, dataDir: deps.dataDir, clock: deps.hw.clock };
  const started = {} as Record<RuntimeService, ServiceEngine>;
  for (const [service, start] of REGISTRY) {
    try {
      started[service] = await start(common);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      deps.log.error(`the ${service} engine cannot start`, { error: message });
      started[service] = failedEngine(service, deps.hw.clock.now(), message);
    }
  }
  // the script is no queued service: it runs the saved script and hands files to the FTP send
  const script = await startScript({ store: deps.store, links: deps.links, hw: deps.hw, log: deps.log, ...(deps.ftpSend ? { ftp: deps.ftpSend } : {}) }).catch(
    (e: unknown) => {
      const message = e instanceof Error ? e.message : String(e);
      deps.log.error('the script engine cannot start', { error: message });
      return failedEngine('script', deps.hw.clock.now(), message);
    },
  );
  // after the MQTT engine, whose client id it derives its own from
  const sparkplug = await startSparkplug({ ...common, ...(deps.audit ? { audit: deps.audit } : {}) }).catch((e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    deps.log.error('the sparkplug engine cannot start', { error: message });
    return failedSparkplug(deps.hw.clock.now(), message);
  });
  const all = [...REGISTRY.map(([service]) => started[service]), script];
  return {
    ...started,
    script,
    sparkplug,
    settled: async () => {
      await Promise.all([...all, sparkplug].map((e) => e.settled()));
    },
    status: () => all.map((e) => (e === started.mqtt ? { ...e.status(), sparkplug: sparkplug.status() } : e.status())),
    close: async () => {
      for (const e of [sparkplug, ...all]) await e.close();
    },
  };
}
