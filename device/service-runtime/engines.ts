// The one registration list of the service engines that move PLC data out (design/services.md):
// each is started here, reports through the one status answer, and closes with the others. A
// fault in one is logged inside it (followRuns) and never stops another.
import type { Hw } from '../../hw/types.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Links } from '../com/links.ts';
import type { Logger } from '../system/log.ts';
import type { ServiceStatus } from '../model/service-status.ts';
import { startMqtt, type MqttEngine } from '../mqtt/engine.ts';
import type { FtpSend } from '../ftp/engine.ts';
import { startScript, type ScriptEngine } from '../script/engine.ts';

export interface ServiceEngineDeps {
  store: ConfigStore;
  links: Links;
  hw: Hw;
  log: Logger;
  dataDir: string;
  /** the FTP send the script's send statement hands its files to */
  ftpSend?: FtpSend;
}

export interface ServiceEngines {
  mqtt: MqttEngine;
  script: ScriptEngine;
  /** resolves when every engine applied the last saved version */
  settled(): Promise<void>;
  status(): ServiceStatus[];
  close(): Promise<void>;
}

export async function startServiceEngines(deps: ServiceEngineDeps): Promise<ServiceEngines> {
  const common = { store: deps.store, links: deps.links, log: deps.log, dataDir: deps.dataDir, clock: deps.hw.clock };
  const mqtt = await startMqtt(common);
  const script = await startScript({ store: deps.store, links: deps.links, hw: deps.hw, log: deps.log, ...(deps.ftpSend ? { ftp: deps.ftpSend } : {}) });
  const all = [mqtt, script];
  return {
    mqtt,
    script,
    settled: async () => { await Promise.all(all.map((e) => e.settled())); },
    status: () => all.map((e) => e.status()),
    close: async () => { for (const e of all) await e.close(); },
  };
}
