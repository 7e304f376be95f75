// The one registration list of the service engines that move PLC data out (design/services.md):
// each is started here, reports through the one status answer, and closes with the others. A
// fault in one is logged inside it (followRuns) and never stops another.
import type { Hw } from '../../hw/types.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Links } from '../com/links.ts';
import type { Logger } from '../system/log.ts';
import type { ServiceStatus } from '../model/service-status.ts';
import { startMqtt, type MqttEngine } from '../mqtt/engine.ts';
import { startHttpc } from '../httpc/engine.ts';
import { startEmail } from '../email/engine.ts';
import type { ServiceEngine } from './queued-engine.ts';

export interface ServiceEngineDeps {
  store: ConfigStore;
  links: Links;
  hw: Hw;
  log: Logger;
  dataDir: string;
}

export interface ServiceEngines {
  mqtt: MqttEngine;
  httpc: ServiceEngine;
  email: ServiceEngine;
  /** resolves when every engine applied the last saved version */
  settled(): Promise<void>;
  status(): ServiceStatus[];
  close(): Promise<void>;
}

export async function startServiceEngines(deps: ServiceEngineDeps): Promise<ServiceEngines> {
  const common = { store: deps.store, links: deps.links, log: deps.log, dataDir: deps.dataDir, clock: deps.hw.clock };
  const mqtt = await startMqtt(common);
  const httpc = await startHttpc({ ...common, hw: deps.hw });
  const email = await startEmail({ ...common, hw: deps.hw });
  const all = [mqtt, httpc, email];
  return {
    mqtt,
    httpc,
    email,
    settled: async () => { await Promise.all(all.map((e) => e.settled())); },
    status: () => all.map((e) => e.status()),
    close: async () => { for (const e of all) await e.close(); },
  };
}
