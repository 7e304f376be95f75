// Everything a route handler may use, built once by the composition root (device/main.ts).
import type { Hw, Versions } from '../../hw/types.ts';
import type { Com } from '../com/com.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Capture } from '../diag/capture.ts';
import type { HealthHistory } from '../diag/health.ts';
import type { WatchLists } from '../diag/watch.ts';
import type { Firmware } from '../firmware/engine.ts';
import type { FtpSend } from '../ftp/engine.ts';
import type { Iec104Engine } from '../iec104/engine.ts';
import type { DataLogger } from '../logger/engine.ts';
import type { CrossOptions } from '../model/rules.ts';
import type { Redirects } from '../redirect/redirects.ts';
import type { RestServer } from '../rest/engine.ts';
import type { RtcSync } from '../rtc/engine.ts';
import type { ServiceEngines } from '../service-runtime/engines.ts';
import type { AuditLog } from '../system/audit.ts';
import type { ConsoleTls } from '../system/console-tls.ts';
import type { LockoutState } from '../system/lockout.ts';
import type { Logger } from '../system/log.ts';
import type { MetricsToken } from '../system/metrics-token.ts';
import type { ScriptFiles } from '../system/script-files.ts';
import type { Session, Sessions } from '../system/sessions.ts';
import type { Users } from '../system/users.ts';
import type { TlsBridge } from '../tls/bridge.ts';
import type { ConsoleListenerStatus } from './listen.ts';

export interface DaemonContext {
  hw: Hw;
  dataDir: string;
  store: ConfigStore;
  log: Logger;
  users: Users;
  sessions: Sessions;
  lockout: LockoutState;
  /** the scrape token of GET /metrics, kept as a hash (system/metrics-token.ts) */
  metricsToken: MetricsToken;
  audit: AuditLog;
  versions: Versions;
  /** the PLC links of the saved pew section */
  com: Com;
  /** the redirect threads of the saved pew_redirect section */
  redirects: Redirects;
  /** the data logger of the saved pew_log section */
  logger: DataLogger;
  /** the TLS bridge (client and server part) of the saved pew_tls section */
  tls: TlsBridge;
  /** the PLC clock sync of the saved pew_rtc section */
  rtc: RtcSync;
  /** the monitor's traffic capture (docs/monitor.md) */
  capture: Capture;
  /** each user's register watch list (docs/monitor.md) */
  watch: WatchLists;
  /** the last hour's health samples (docs/monitor.md "Health") */
  health: HealthHistory;
  /** the IEC 60870-5-104 controlled station of the saved pew_60870 section (docs/iec104.md) */
  iec104: Iec104Engine;
  /** the FTP send of the saved pew_ftpc and pew_script */
  ftpSend: FtpSend;
  /** the MQTT, HTTP client and e-mail engines driven by the PLC's control blocks */
  services: ServiceEngines;
  /** the REST API and HTTP server of the saved pew_api section */
  rest: RestServer;
  /** the active script file, written from the saved script_file section */
  scripts: ScriptFiles;
  /** the firmware update: receives and checks an image, hands it to the supervisor */
  firmware: Firmware;
  /** the unit's host name (hw systemInfo at start), one of the names its Host headers may carry (system/hosts.ts) */
  hostname: string;
  /** the console's certificate, when the console is served over HTTPS (system/console-tls.ts) */
  consoleTls?: ConsoleTls;
  /** the console's own listeners with their fault counters (api/listen.ts); set once they listen */
  consoleListeners?: () => ConsoleListenerStatus[];
  /** what a save is checked against beyond the sections (model/rules.ts): the ports the system and the console listen on */
  crossOptions(): Promise<CrossOptions>;
  /** the address the daemon and its redirect threads listen on */
  listenHost: string;
  /** the console's built files (dist/web by default) */
  webDir: string;
}

/** Hono variables set by the auth middleware. */
export interface Env {
  Variables: { session?: Session; source: string };
}
