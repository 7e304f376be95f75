// Composition root: builds the daemon from a hw implementation and a data folder and serves it.
import { mkdir } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { Hw } from '../hw/types.ts';
import { createApp, ROUTES } from './api/app.ts';
import type { DaemonContext } from './api/context.ts';
import type { FrameLimits } from './api/first-frame.ts';
import { listenConsole } from './api/listen.ts';
import type { RouteDef } from './api/route.ts';
import { DEFAULT_WEB_DIR } from './api/static.ts';
import { recoverRestore } from './backup/restore.ts';
import { startCom } from './com/com.ts';
import { ConfigStore } from './config/store.ts';
import { Capture } from './diag/capture.ts';
import { HealthHistory } from './diag/health.ts';
import { WatchLists } from './diag/watch.ts';
import { startFirmware } from './firmware/engine.ts';
import { startFtpSend } from './ftp/engine.ts';
import { startIec104 } from './iec104/engine.ts';
import { startLogger } from './logger/engine.ts';
import { CONFIG_SECTIONS } from './model/index.ts';
import type { CrossOptions } from './model/rules.ts';
import { hostNamesOf, type Rest } from './model/sections/rest.ts';
import { installDaemonFetchClasses } from './net/fetch/install.ts';
import type { HttpLimits } from './net/http-limits.ts';
import { startRedirects } from './redirect/redirects.ts';
import { startRestServer } from './rest/engine.ts';
import { startRtcSync } from './rtc/engine.ts';
import { startServiceEngines } from './service-runtime/engines.ts';
import { createAuditLog } from './system/audit.ts';
import { openConsoleTls } from './system/console-tls.ts';
import { createLockout } from './system/lockout.ts';
import { createLogger, type Logger } from './system/log.ts';
import { METRICS_TOKEN_FILE, MetricsToken } from './system/metrics-token.ts';
import type { HashCost } from './system/passwords.ts';
import { startScriptFiles } from './system/script-files.ts';
import { Sessions } from './system/sessions.ts';
import { Users } from './system/users.ts';
import { startTlsBridge } from './tls/bridge.ts';
import { APP_VERSION } from './version.ts';

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
  /**
   * tests: shorter deadlines or smaller caps for every HTTP listener (the console's and the REST
   * port's; net/http-limits.ts); absent, each listener's production values
   */
  httpLimits?: Partial<HttpLimits>;
  /** simulator only: the one origin granted credentialed CORS (device/api/dev-cors.ts) */
  devOrigin?: string;
  /** the console over HTTPS on this port, `port` then only redirects to it (api/listen.ts); absent: plain HTTP */
  tlsPort?: number;
  /** tests with a fake clock: how often the data logger wakes to look at it (default 1 s, logger/engine.ts POLL_MS) */
  loggerPollMs?: number;
  /** the length of a capture's minute (tests: a capture that ends by itself without waiting minutes) */
  captureMinuteMs?: number;
  /** the health history's sample interval (tests: samples without waiting 10 s) */
  healthIntervalMs?: number;
  /**
   * tests of the console (test/e2e), which sign in hundreds of times: a cheaper scrypt for the
   * passwords set (system/passwords.ts); absent, the unit's cost. Never set by the unit or the simulator.
   */
  hashCost?: HashCost;
  /**
   * tests of the console's first frame in a browser: how long its render may take, so that a busy
   * machine does not leave the page without the frame the test looks at (the unit's limits and the
   * page without a frame are tested in api/first-frame.test.ts). Never set by the unit or the simulator.
   */
  frameLimits?: FrameLimits;
}

export interface Daemon {
  /** the console's URL (https:// when it is served over TLS) */
  url: string;
  /** the plain HTTP port: the console, or with TLS the redirect to it */
  port: number;
  /** the console's HTTPS port, when it is served over TLS */
  tlsPort?: number;
  ctx: DaemonContext;
  close(): Promise<void>;
}

/** The daemon's parts over one data folder; redirect threads listen on `host`. */
export async function buildContext(
  hw: Hw,
  dataDir: string,
  log?: Logger,
  webDir: string = DEFAULT_WEB_DIR,
  host = '127.0.0.1',
  tuning: { loggerPollMs?: number; httpLimits?: Partial<HttpLimits>; hashCost?: HashCost; captureMinuteMs?: number; healthIntervalMs?: number } = {},
): Promise<DaemonContext> {
  const logger = log ?? createLogger({ clock: hw.clock });
  await mkdir(dataDir, { recursive: true });
  await recoverRestore(dataDir, logger); // before the store reads its files (device/backup/restore.ts)
  const info = await hw.systemInfo();
  // the console's listeners are known once startDaemon has opened them; until then (also while the
  // engines below start, before the context exists) no port is the console's
  let built: DaemonContext | undefined;
  const crossOptions = async (): Promise<CrossOptions> => ({
    systemPorts: await hw.systemTcpPorts(),
    consolePorts: built?.consoleListeners?.().map((l) => l.port) ?? [],
  });
  const store = await ConfigStore.open({ dir: join(dataDir, 'config'), defs: CONFIG_SECTIONS, log: logger, crossOptions });
  // the monitor's one capture, fed by the links, the redirect threads and the IEC 104 station
  const capture = new Capture(hw.clock, tuning.captureMinuteMs);
  // the last hour of the links', the volumes' and the logger's health; sampling starts once the context is built
  const health = new HealthHistory(
    {
      links: () => com.links.status(),
      volumes: () => hw.volumes(),
      logRecords: () => built?.logger.status().files.reduce((n, f) => n + f.records, 0) ?? 0,
      now: () => hw.clock.now(),
    },
    tuning.healthIntervalMs,
  );
  const com = await startCom(store, hw, logger, { capture });
  const audit = createAuditLog({ dir: join(dataDir, 'audit'), clock: hw.clock });
  const versions = { ...info.versions, app: APP_VERSION };
  const ftpSend = await startFtpSend({ store, links: com.links, hw, log: logger, dataDir });
  const rtc = await startRtcSync({ store, links: com.links, clock: hw.clock, log: logger });
  const ctx: DaemonContext = {
    hw,
    dataDir,
    store,
    com,
    redirects: await startRedirects(store, com.links, logger, host, capture),
    capture,
    watch: new WatchLists(dataDir),
    health,
    logger: await startLogger({ store, links: com.links, hw, log: logger, audit, dataDir, ...(tuning.loggerPollMs ? { pollMs: tuning.loggerPollMs } : {}) }),
    tls: await startTlsBridge({ store, links: com.links, log: logger, dataDir, host }),
    rtc,
    iec104: await startIec104({
      store,
      links: com.links,
      clock: hw.clock,
      log: logger,
      host,
      capture,
      // a control station's clock sync sets the unit's clock, then the PLC's where the PLC clock sync runs
      setClock: (epochMs) => hw.setClock(epochMs),
      setPlcClock: async () => {
        if (!rtc.status().running) return 'off';
        const s = await rtc.syncNow();
        if (!s.ok) throw new Error(`the PLC clock was not written: ${s.failure?.message ?? 'no answer'}`);
        return 'written';
      },
    }),
    ftpSend,
    services: await startServiceEngines({ store, links: com.links, hw, log: logger, dataDir, ftpSend, audit }),
    rest: await startRestServer({
      store,
      links: com.links,
      log: logger,
      dataDir,
      host,
      versions: { app: APP_VERSION },
      hostname: info.os.hostname,
      ...(tuning.httpLimits ? { limits: tuning.httpLimits } : {}),
    }),
    scripts: await startScriptFiles(store, dataDir, logger),
    listenHost: host,
    hostname: info.os.hostname,
    log: logger,
    users: new Users(join(dataDir, 'users.json'), tuning.hashCost),
    sessions: new Sessions(hw.clock),
    metricsToken: new MetricsToken(join(dataDir, METRICS_TOKEN_FILE)),
    lockout: createLockout({
      dataDir,
      clock: hw.clock,
      // AUTH-6: the owner's way back from a lockout, asked for on the unit's shell (device/cli.ts)
      onReset: (lifted, req) => {
        logger.warn('login locks lifted by reset-admin', { lifted });
        audit
          .write({ action: 'lockout_reset', source: 'shell', ...(req.by ? { user: String(req.by) } : {}), detail: { lifted, requested: req.time } })
          .catch((e: unknown) => logger.error('the audit entry of reset-admin could not be written', { error: String(e) }));
      },
    }),
    audit,
    firmware: await startFirmware({ versions, log: logger, audit }),
    versions,
    webDir,
    crossOptions,
  };
  built = ctx;
  health.start();
  return ctx;
}

export async function startDaemon(opts: DaemonOptions): Promise<Daemon> {
  // before anything makes a Headers, Request or Response: the daemon's own classes, not undici's (net/fetch/install.ts)
  installDaemonFetchClasses();
  const host = opts.host ?? '127.0.0.1';
  const ctx = await buildContext(opts.hw, opts.dataDir, opts.log, opts.webDir, host, {
    loggerPollMs: opts.loggerPollMs,
    captureMinuteMs: opts.captureMinuteMs,
    healthIntervalMs: opts.healthIntervalMs,
    httpLimits: opts.httpLimits,
    hashCost: opts.hashCost,
  });
  const app = createApp(ctx, [...ROUTES, ...(opts.extraRoutes ?? [])], {
    devOrigin: opts.devOrigin,
    ...(opts.frameLimits ? { frameLimits: opts.frameLimits } : {}),
  });
  if (opts.tlsPort !== undefined) {
    const info = await opts.hw.systemInfo();
    const addresses = [...info.network.interfaces.flatMap((i) => i.ipv4.map((a) => a.split('/')[0]!)), ...(isIP(host) ? [host] : [])];
    ctx.consoleTls = await openConsoleTls({ dataDir: opts.dataDir, hostname: ctx.hostname, addresses, log: ctx.log });
  }
  const listeners = await listenConsole(app, {
    host,
    port: opts.port,
    log: ctx.log,
    ...(ctx.consoleTls ? { tls: { port: opts.tlsPort!, certs: ctx.consoleTls } } : {}),
    names: () => ({ hostname: ctx.hostname, configured: hostNamesOf(ctx.store.get<Rest>('pew_api').host_names) }),
    ...(opts.httpLimits ? { limits: opts.httpLimits } : {}),
  });
  ctx.consoleListeners = () => listeners.status();
  return {
    url: listeners.url,
    port: listeners.port,
    ...(listeners.tlsPort !== undefined ? { tlsPort: listeners.tlsPort } : {}),
    ctx,
    close: async () => {
      await listeners.close();
      await ctx.redirects.close();
      await ctx.rest.close();
      await ctx.logger.close();
      await ctx.tls.close();
      await ctx.rtc.close();
      await ctx.iec104.close();
      ctx.capture.close();
      ctx.health.stop();
      await ctx.services.close();
      await ctx.ftpSend.close();
      await ctx.scripts.close();
      await ctx.firmware.close();
      await ctx.com.close();
      await ctx.audit.flush();
    },
  };
}
