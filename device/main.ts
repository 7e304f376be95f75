// Composition root: builds the daemon from a hw implementation and a data folder and serves it.
import { serve, type ServerType } from '@hono/node-server';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Hw } from '../hw/types.ts';
import { ConfigStore } from './config/store.ts';
import { CONFIG_SECTIONS } from './model/index.ts';
import { createApp, ROUTES } from './api/app.ts';
import type { RouteDef } from './api/route.ts';
import { DEFAULT_WEB_DIR } from './api/static.ts';
import { createLogger, type Logger } from './system/log.ts';
import { Users } from './system/users.ts';
import { Sessions } from './system/sessions.ts';
import { createLockout } from './system/lockout.ts';
import { createAuditLog } from './system/audit.ts';
import type { DaemonContext } from './api/context.ts';
import { APP_VERSION } from './version.ts';
import { startCom } from './com/com.ts';
import { startRedirects } from './redirect/redirects.ts';
import { startLogger } from './logger/engine.ts';
import { startTlsBridge } from './tls/bridge.ts';
import { startRtcSync } from './rtc/engine.ts';
import { startFtpSend } from './ftp/engine.ts';
import { startServiceEngines } from './service-runtime/engines.ts';
import { startRestServer } from './rest/engine.ts';
import { startScriptFiles } from './system/script-files.ts';
import { startFirmware } from './firmware/engine.ts';
import { recoverRestore } from './backup/restore.ts';

export interface DaemonOptions {
  hw: Hw;
  dataDir: string;
  port: number;
  host?: string;
  log?: Logger;
  /** the console's built files (default: dist/web of this checkout) */
  webDir?: string;
  /** routes of the running variant besides the API table (the simulator's PLC controls) */
  extraRoutes?: readonly RouteDef[];
}

export interface Daemon {
  url: string;
  port: number;
  ctx: DaemonContext;
  close(): Promise<void>;
}

/** The daemon's parts over one data folder; redirect threads listen on `host`. */
export async function buildContext(hw: Hw, dataDir: string, log?: Logger, webDir: string = DEFAULT_WEB_DIR, host = '127.0.0.1'): Promise<DaemonContext> {
  const logger = log ?? createLogger({ clock: hw.clock });
  await mkdir(dataDir, { recursive: true });
  await recoverRestore(dataDir, logger); // before the store reads its files (device/backup/restore.ts)
  const info = await hw.systemInfo();
  const store = await ConfigStore.open({
    dir: join(dataDir, 'config'),
    defs: CONFIG_SECTIONS,
    log: logger,
    crossOptions: async () => ({ systemPorts: await hw.systemTcpPorts() }),
  });
  const com = await startCom(store, hw, logger);
  const audit = createAuditLog({ dir: join(dataDir, 'audit'), clock: hw.clock });
  const versions = { ...info.versions, app: APP_VERSION };
  const ftpSend = await startFtpSend({ store, links: com.links, hw, log: logger, dataDir });
  return {
    hw,
    dataDir,
    store,
    com,
    redirects: await startRedirects(store, com.links, logger, host),
    logger: await startLogger({ store, links: com.links, hw, log: logger, dataDir }),
    tls: await startTlsBridge({ store, links: com.links, log: logger, dataDir, host }),
    rtc: await startRtcSync({ store, links: com.links, clock: hw.clock, log: logger }),
    ftpSend,
    services: await startServiceEngines({ store, links: com.links, hw, log: logger, dataDir, ftpSend }),
    rest: await startRestServer({ store, links: com.links, log: logger, dataDir, host, versions: { app: APP_VERSION } }),
    scripts: await startScriptFiles(store, dataDir, logger),
    listenHost: host,
    log: logger,
    users: new Users(join(dataDir, 'users.json')),
    sessions: new Sessions(hw.clock),
    lockout: createLockout({ file: join(dataDir, 'lockout.json'), clock: hw.clock }),
    audit,
    firmware: await startFirmware({ versions, log: logger, audit }),
    versions,
    webDir,
  };
}

export async function startDaemon(opts: DaemonOptions): Promise<Daemon> {
  const host = opts.host ?? '127.0.0.1';
  const ctx = await buildContext(opts.hw, opts.dataDir, opts.log, opts.webDir, host);
  const app = createApp(ctx, [...ROUTES, ...(opts.extraRoutes ?? [])]);
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: opts.port, hostname: host }, () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  ctx.log.info('daemon listening', { host, port });
  return {
    url: `http://${shown}:${port}`,
    port,
    ctx,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await ctx.redirects.close();
      await ctx.rest.close();
      await ctx.logger.close();
      await ctx.tls.close();
      await ctx.rtc.close();
      await ctx.services.close();
      await ctx.ftpSend.close();
      await ctx.scripts.close();
      await ctx.firmware.close();
      await ctx.com.close();
    },
  };
}
