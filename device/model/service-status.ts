// The one status answer of the services' run time (design/services.md "Status everywhere"):
// `GET /config/service_status` answers one entry per service; the daemon builds them
// (device/service-runtime/status.ts, and status-entries.ts for the FTP send, the TLS bridge, the
// PLC clock and the IEC 60870-5-104 station), the console checks the answer against this schema and shows it live on each service
// page and as a line per service on /info (spec tick 1500 ms).
import * as v from 'valibot';
import { SERVICE_ERROR, type ServiceErrorName } from './blocks/convention.ts';
import { ftpStatusSchema } from './ftp-status.ts';
import { iecStatusSchema } from './iec-status.ts';
import { statusReasonSchema } from './reasons.ts';
import { rtcStatusSchema } from './rtc-status.ts';
import { scriptStatusSchema } from './script/status.ts';
import { sparkplugStatusSchema } from './sparkplug-status.ts';
import { tlsStatusSchema } from './tls-status.ts';

const count = () => v.pipe(v.number(), v.integer(), v.minValue(0));

/** the services of the service runtime (device/service-runtime/engines.ts) */
export const SERVICE_NAMES_RUNTIME = ['mqtt', 'httpc', 'email', 'sql', 'nosql', 'script'] as const;
export type RuntimeService = (typeof SERVICE_NAMES_RUNTIME)[number];
/** every service of the answer: the runtime's, the FTP send, the TLS bridge, the PLC clock sync and the IEC 104 station */
export const STATUS_SERVICES = [...SERVICE_NAMES_RUNTIME, 'ftp', 'tls', 'rtc', 'iec'] as const;
export type StatusService = (typeof STATUS_SERVICES)[number];

/**
 * off: disabled in its section; connecting: the first connection is being made; connected: a
 * connection stands (MQTT); reconnecting: the peer went away, tried again with back-off; idle:
 * ready, nothing to do; running: a job is being carried out; waiting: jobs wait for the peer;
 * error: the service cannot run (its settings or the control interface).
 */
export const SERVICE_RUN_STATES = ['off', 'connecting', 'connected', 'reconnecting', 'idle', 'running', 'waiting', 'error'] as const;
export type ServiceRunState = (typeof SERVICE_RUN_STATES)[number];

export const SERVICE_ERROR_NAMES = Object.keys(SERVICE_ERROR) as ServiceErrorName[];

export const serviceErrorSchema = v.object({
  /** a name of the one classification (device/model/blocks/convention.ts), never 'none' */
  code: v.picklist(SERVICE_ERROR_NAMES),
  /** the number the PLC sees in the block's error word */
  number: count(),
  /** the peer's or the system's words */
  message: v.string(),
  /** the unit's own reason, worded by the console (device/model/reasons.ts); the message then is its English for the log */
  reason: v.optional(statusReasonSchema),
  /** unit clock, ms since the epoch */
  at: v.number(),
});
export type ServiceError = v.InferOutput<typeof serviceErrorSchema>;

export const serviceStatusSchema = v.object({
  service: v.picklist(STATUS_SERVICES),
  enabled: v.boolean(),
  state: v.picklist(SERVICE_RUN_STATES),
  /** when the state began (unit clock ms) */
  since: v.number(),
  /** the last job that succeeded (unit clock ms) */
  lastSuccess: v.optional(v.number()),
  lastError: v.optional(serviceErrorSchema),
  /** what the service counts (MQTT: published, received, failed; HTTP: requests, failed; e-mail: sent, failed;
   *  SQL, NoSQL: rows finished, written, failed) */
  counters: v.record(v.string(), count()),
  /** the crash-safe queue: jobs waiting, dropped at the bound since it was created, the bound (0: the service has no queue) */
  queue: v.object({ waiting: count(), dropped: count(), bound: count() }),
  /** a service with a queue: the jobs that can never be delivered as they are (docs/services.md "Dead letters"):
   *  kept, their bytes, dropped at the bounds, the bounds */
  deadLetters: v.optional(v.object({ count: count(), bytes: count(), dropped: count(), maxCount: count(), maxBytes: count() })),
  /** why the PLC's control block cannot be read or written now (absent when it can) */
  plc: v.optional(statusReasonSchema),
  /** the script only: its errors, its sections' runs, the last failed statement (device/model/script/status.ts) */
  script: v.optional(scriptStatusSchema),
  /** the FTP send only: its cycle, retry and last send (device/model/ftp-status.ts; docs/ftp.md) */
  ftp: v.optional(ftpStatusSchema),
  /** the TLS bridge only: each part's listener and counters (device/model/tls-status.ts; docs/tls.md) */
  tls: v.optional(tlsStatusSchema),
  /** the PLC clock sync only: the unit's time and zone, NTP, the last sync (device/model/rtc-status.ts; docs/rtc.md) */
  rtc: v.optional(rtcStatusSchema),
  /** the MQTT service only: the Sparkplug B edge node on its own connection (device/model/sparkplug-status.ts; docs/sparkplug.md) */
  sparkplug: v.optional(sparkplugStatusSchema),
  /** the IEC 60870-5-104 station only: its listener, connections, event queues, PLC sides, clock syncs (device/model/iec-status.ts; docs/iec104.md) */
  iec: v.optional(iecStatusSchema),
});
export type ServiceStatus = v.InferOutput<typeof serviceStatusSchema>;

export const servicesStatusSchema = v.object({ services: v.array(serviceStatusSchema) });
export type ServicesStatus = v.InferOutput<typeof servicesStatusSchema>;
