// The series of `GET /metrics` (docs/monitoring.md lists every one): made from the very answers of
// the status routes (com_status, port_status, log_status, service_status), the daemon process and
// the storage volumes, so that a figure has one home and Prometheus sees what the console shows.
// Each status field has its series in a table below; a unit test renders a status with every field
// and fails on a field that has none.
import type { Volume } from '../../hw/types.ts';
import type { InterfaceStatus } from '../com/links.ts';
import type { IecStatus } from '../model/iec-status.ts';
import { type LogStatus, WRITE_STATES } from '../model/log-status.ts';
import { INTERFACE_NAMES, type InterfaceId } from '../model/plc.ts';
import type { PortThreadStatus } from '../model/porttest.ts';
import type { RtcStatus } from '../model/rtc-status.ts';
import type { ScriptStatus } from '../model/script/status.ts';
import { SERVICE_RUN_STATES, type ServiceStatus } from '../model/service-status.ts';
import type { TlsPartStatus } from '../model/tls-status.ts';
import { type Family, type Labels, type MetricType, renderExposition, type Sample } from './exposition.ts';

/** the figures of the daemon's own process */
export interface ProcessFigures {
  residentBytes: number;
  cpuSeconds: number;
  startTimeSeconds: number;
  heapUsedBytes: number;
}

export interface MetricsInput {
  version: string;
  links: readonly InterfaceStatus[];
  threads: readonly PortThreadStatus[];
  logger: LogStatus;
  services: readonly ServiceStatus[];
  volumes: readonly Volume[];
  process: ProcessFigures;
}

/** how a numeric field becomes a series: its name, type and help; `scale` turns ms into seconds */
export interface FieldSeries {
  name: string;
  type: MetricType;
  help: string;
  scale?: number;
}

const counter = (name: string, help: string, scale?: number): FieldSeries => ({ name, type: 'counter', help, ...(scale ? { scale } : {}) });
const gauge = (name: string, help: string, scale?: number): FieldSeries => ({ name, type: 'gauge', help, ...(scale ? { scale } : {}) });
const MS = 1 / 1000;
const bit = (b: boolean) => (b ? 1 : 0);

/** Collects samples by series, in the order the series were first named. */
class Families {
  private readonly byName = new Map<string, { type: MetricType; help: string; samples: Sample[] }>();

  add(s: FieldSeries, labels: Labels, value: number | undefined): void {
    if (value === undefined) return;
    let f = this.byName.get(s.name);
    if (!f) this.byName.set(s.name, (f = { type: s.type, help: s.help, samples: [] }));
    f.samples.push({ labels, value: s.scale ? value * s.scale : value });
  }

  /** One series per state, 1 for the current one (a state set): `state` is the label. */
  states(s: FieldSeries, labels: Labels, all: readonly string[], current: string): void {
    for (const state of all) this.add(s, { ...labels, state }, bit(state === current));
  }

  /** every field of `table` that `values` has */
  fields<K extends string>(table: Readonly<Record<K, FieldSeries>>, labels: Labels, values: { readonly [P in NoInfer<K>]?: number | boolean }): void {
    for (const k of Object.keys(table) as K[]) {
      const v = values[k];
      this.add(table[k], labels, typeof v === 'boolean' ? bit(v) : v);
    }
  }

  list(): Family[] {
    return [...this.byName].map(([name, f]) => ({ name, ...f }));
  }
}

// ---- PLC links (GET /config/com_status) ----

export const LINK_STATES = ['disabled', 'connecting', 'up', 'down', 'absent'] as const;

/** every number of a link's `stats` */
export const LINK_STATS = {
  requests: counter('communicator_link_requests_total', 'Requests sent to the PLC, each retry counted.'),
  errors: counter('communicator_link_errors_total', 'Requests that failed other than by a timeout: an error or unreadable answer, the line lost.'),
  timeouts: counter('communicator_link_timeouts_total', "Requests the PLC did not answer within the interface's timeout."),
  retries: counter('communicator_link_retries_total', 'Requests that were the retry of a read.'),
  answers: counter('communicator_link_answers_total', 'Answers taken by their request.'),
  lateAnswers: counter('communicator_link_late_answers_total', 'Answers dropped because their request had been given up.'),
  mismatched: counter('communicator_link_mismatched_answers_total', 'Answers dropped because they fit no request sent.'),
  resyncs: counter('communicator_link_resyncs_total', 'Resync reads sent to find the order of the answers again.'),
  checkErrors: counter('communicator_link_check_errors_total', 'Answers whose check code (MEWTOCOL BCC, MEWTOCOL7 CRC) did not match.'),
  invalidFrames: counter('communicator_link_invalid_frames_total', 'Other answers that could not be read (framing, format, length).'),
  plcErrors: counter('communicator_link_plc_errors_total', 'Answers with a PLC error code (MEWTOCOL !nn) or a Modbus exception.'),
  lastPlcError: gauge('communicator_link_last_plc_error_code', 'The error code of the last PLC error answer.'),
  reconnects: counter('communicator_link_reconnects_total', 'Times the channel was opened again after it was lost.'),
  bytesOut: counter('communicator_link_sent_bytes_total', 'Bytes sent to the PLC.'),
  bytesIn: counter('communicator_link_received_bytes_total', 'Bytes received from the PLC.'),
  busyMs: counter('communicator_link_busy_seconds_total', 'Time the wire was busy with a request.', MS),
  busyShare: gauge('communicator_link_busy_ratio', 'Share of the time since the counters started that the wire was busy (0 to 1).'),
  waiting: gauge('communicator_link_waiting_requests', 'Requests waiting for the wire now.'),
  since: gauge('communicator_link_counters_start_time_seconds', "When the link's counters started: its start or their last reset (Unix time).", MS),
} as const satisfies Record<keyof InterfaceStatus['stats'], FieldSeries>;

export const LINK = {
  up: gauge('communicator_link_up', 'Whether the link is up: the PLC answers (1) or not (0).'),
  enabled: gauge('communicator_link_enabled', 'Whether the interface is enabled in the saved settings.'),
  state: gauge('communicator_link_state', "The link's state: 1 for the current one."),
  baudRate: gauge('communicator_link_baud_rate', 'The baud rate the serial link runs at (the one autobaud found).'),
} as const;

function links(f: Families, list: readonly InterfaceStatus[]): void {
  for (const l of list) {
    // the connector, one per interface id: the name an interface carries can be set to anything
    const labels = { link: INTERFACE_NAMES[l.id as InterfaceId] ?? l.name, protocol: l.protocol };
    f.add(LINK.up, labels, bit(l.state === 'up'));
    f.add(LINK.enabled, labels, bit(l.enabled));
    f.states(LINK.state, labels, LINK_STATES, l.state);
    f.add(LINK.baudRate, labels, l.baudRate);
    f.fields(LINK_STATS, labels, l.stats);
  }
}

// ---- redirect threads (GET /config/port_status) ----

/** every number and switch of a thread besides its index and port (its labels) */
export const THREAD = {
  listening: gauge('communicator_redirect_listening', 'Whether the thread listens on its port.'),
  clients: gauge('communicator_redirect_clients', 'Clients connected now.'),
  requests: counter('communicator_redirect_requests_total', 'Requests of the clients carried to the PLC.'),
  refused: counter('communicator_redirect_refused_total', 'Connections and requests refused: address range, client limit, restrictions.'),
  errors: counter('communicator_redirect_errors_total', 'Requests that ended in a PLC error, no answer or a framing error.'),
  bytesIn: counter('communicator_redirect_received_bytes_total', 'Bytes received from the clients.'),
  bytesOut: counter('communicator_redirect_sent_bytes_total', 'Bytes sent to the clients.'),
  faults: counter('communicator_redirect_faults_total', 'Connections a contained fault ended.'),
  since: gauge('communicator_redirect_counters_start_time_seconds', "When the thread's counters started: its start or their last reset (Unix time).", MS),
} as const satisfies Record<Exclude<keyof PortThreadStatus, 'index' | 'port' | 'reason'>, FieldSeries>;

function threads(f: Families, list: readonly PortThreadStatus[]): void {
  for (const t of list) f.fields(THREAD, { index: t.index, port: t.port }, t);
}

// ---- data logger (GET /config/log_status) ----

export const LOGGER = {
  enabled: gauge('communicator_logger_enabled', 'Whether the data logger is enabled in the saved settings.'),
  running: gauge('communicator_logger_running', 'Whether the data logger logs now (not stopped by the PLC, settings that can run).'),
  writeState: gauge('communicator_logger_write_state', "The logger's write status: 1 for the current one."),
  deletedCount: gauge('communicator_logger_deleted_files', 'Files deleted for space and not acknowledged yet.'),
  droppedCount: gauge('communicator_logger_dropped_records', 'Records dropped from a full write queue and not acknowledged yet.'),
} as const;

/** every number of a log file's status */
export const LOG_FILE = {
  records: counter('communicator_logger_records_total', 'Records written into the log file since the daemon started.'),
  missed: counter('communicator_logger_missed_records_total', 'Record slots missed since the daemon started, those while it was down included.'),
  failedReads: counter('communicator_logger_failed_reads_total', 'Reads of the PLC that failed.'),
  readsPerRecord: gauge('communicator_logger_reads_per_record', 'PLC reads one record of the file takes.'),
  lastRecordAt: gauge('communicator_logger_last_record_time_seconds', 'When the last record was written (Unix time).', MS),
  lastTrigger: gauge('communicator_logger_last_trigger_time_seconds', 'When the trigger fired last (Unix time; absent: never).'),
} as const satisfies Record<Exclude<keyof LogStatus['files'][number], 'name' | 'write'>, FieldSeries>;

function logger(f: Families, s: LogStatus): void {
  f.add(LOGGER.enabled, {}, bit(s.enabled));
  f.add(LOGGER.running, {}, bit(s.running));
  f.states(LOGGER.writeState, {}, WRITE_STATES, s.write.state);
  f.add(LOGGER.deletedCount, {}, s.notices.deletedCount);
  f.add(LOGGER.droppedCount, {}, s.notices.droppedCount);
  for (const file of s.files) f.fields(LOG_FILE, { file: file.name }, { ...file, lastTrigger: file.lastTrigger || undefined });
}

// ---- services (GET /config/service_status) ----

export const SERVICE = {
  enabled: gauge('communicator_service_enabled', 'Whether the service is enabled in its saved settings.'),
  state: gauge('communicator_service_state', "The service's state: 1 for the current one."),
  events: counter('communicator_service_events_total', 'What the service counts, one series per kind (published, sent, rows, written, failed and the like).'),
  lastSuccess: gauge('communicator_service_last_success_time_seconds', 'When the last job of the service succeeded (Unix time).', MS),
  lastError: gauge('communicator_service_last_error_time_seconds', 'When the last error of the service happened (Unix time).', MS),
} as const;

/** the crash-safe queue of a service that has one */
export const QUEUE = {
  waiting: gauge('communicator_service_queue_jobs', 'Jobs waiting in the queue.'),
  dropped: counter('communicator_service_queue_dropped_jobs_total', 'Jobs dropped because the queue was full.'),
  bound: gauge('communicator_service_queue_capacity_jobs', 'Jobs the queue holds at most.'),
} as const satisfies Record<keyof ServiceStatus['queue'], FieldSeries>;

export const DEAD_LETTERS = {
  count: gauge('communicator_service_dead_letters', 'Jobs kept as dead letters: they cannot be delivered as they are.'),
  bytes: gauge('communicator_service_dead_letter_bytes', 'Bytes the dead letters take.'),
  dropped: counter('communicator_service_dead_letters_dropped_total', 'Dead letters dropped at the bounds.'),
  maxCount: gauge('communicator_service_dead_letters_capacity', 'Dead letters kept at most.'),
  maxBytes: gauge('communicator_service_dead_letter_capacity_bytes', 'Bytes the dead letters take at most.'),
} as const satisfies Record<keyof NonNullable<ServiceStatus['deadLetters']>, FieldSeries>;

export const TLS_PART = {
  enabled: gauge('communicator_tls_bridge_enabled', 'Whether the part of the TLS bridge is enabled.'),
  listening: gauge('communicator_tls_bridge_listening', 'Whether the part listens on its port.'),
  stoppedByPlc: gauge('communicator_tls_bridge_stopped_by_plc', 'Whether the PLC stopped the part through its control register.'),
  connections: gauge('communicator_tls_bridge_connections', 'Connections open now.'),
  accepted: counter('communicator_tls_bridge_accepted_total', 'Connections carried to the destination.'),
  refused: counter('communicator_tls_bridge_refused_total', 'Clients turned away: address not allowed, or the part stopped by the PLC.'),
  tlsFailures: counter('communicator_tls_bridge_tls_failures_total', 'TLS handshakes that failed.'),
  errors: counter('communicator_tls_bridge_errors_total', 'Destinations that could not be reached, connections that broke.'),
  faults: counter('communicator_tls_bridge_faults_total', 'Connections a contained fault ended.'),
  bytesIn: counter('communicator_tls_bridge_received_bytes_total', 'Payload bytes from the clients to the destination.'),
  bytesOut: counter('communicator_tls_bridge_sent_bytes_total', 'Payload bytes from the destination back to the clients.'),
} as const satisfies Record<Exclude<keyof TlsPartStatus, 'port' | 'reason'>, FieldSeries>;

export const SCRIPT = {
  errors: gauge('communicator_script_errors', 'Errors of the saved script (it does not run while there are any).'),
  runs: counter('communicator_script_section_runs_total', 'Runs of the script section.'),
  overruns: counter('communicator_script_section_overruns_total', 'Cycles that came due while the section still ran (skipped).'),
  durationMs: gauge('communicator_script_section_last_run_seconds', 'How long the last run of the section took.', MS),
} as const;

export const RTC = {
  lastSync: gauge('communicator_rtc_last_sync_time_seconds', "When the PLC's clock was last synchronised, or tried (Unix time).", MS),
  lastSyncOk: gauge('communicator_rtc_last_sync_ok', "Whether the last synchronisation of the PLC's clock succeeded."),
} as const;

export const IEC = {
  enabled: gauge('communicator_iec104_enabled', 'Whether the IEC 60870-5-104 station runs.'),
  listening: gauge('communicator_iec104_listening', 'Whether the station listens on its port.'),
  refused: counter('communicator_iec104_refused_connections_total', 'Connections closed at accept: no entry admits the address, or its group is full.'),
  faults: counter('communicator_iec104_faults_total', 'Connections a contained fault ended.'),
  clockSyncs: counter('communicator_iec104_clock_syncs_total', 'Clock synchronisation commands received.'),
  connections: gauge('communicator_iec104_connections', 'Control station connections of the group open now.'),
  queued: gauge('communicator_iec104_events_queued', 'Events waiting in the queue of the group, sent and unacknowledged ones included.'),
  overflowed: counter('communicator_iec104_events_overflowed_total', 'Events dropped because the queue of the group was full.'),
  sent: counter('communicator_iec104_events_sent_total', 'I-frames that carried an event (a repeat after a switch-over counted again).'),
  resent: counter('communicator_iec104_events_resent_total', 'Events repeated on a newly started connection.'),
  acknowledged: counter('communicator_iec104_events_acknowledged_total', 'Events a control station acknowledged.'),
  started: gauge('communicator_iec104_station_started', 'Whether a connection of the group runs data transfer.'),
  plcOk: gauge('communicator_iec104_plc_ok', 'Whether the PLC answers, so that the station sends its values as valid.'),
  points: gauge('communicator_iec104_points', 'Points in the process image of the group.'),
  plcEvents: counter('communicator_iec104_plc_events_total', "Events read from the PLC's monitor ring."),
  skipped: counter('communicator_iec104_plc_records_skipped_total', 'Records of the ring skipped because the station cannot send them.'),
  commands: counter('communicator_iec104_commands_total', 'Commands handed to the PLC, by what became of them.'),
  commandsWaiting: gauge('communicator_iec104_commands_waiting', 'Commands waiting for the PLC.'),
} as const;

/** what became of the IEC 104 commands handed to the PLC (the `result` label) */
const IEC_COMMAND_RESULTS = { written: 'written', accepted: 'accepted', refused: 'refused', done: 'done', noAnswer: 'no_answer' } as const;

function tlsBridge(f: Families, tls: NonNullable<ServiceStatus['tls']>): void {
  for (const part of ['client', 'server'] as const) f.fields(TLS_PART, { part }, tls[part]);
}

function script(f: Families, s: ScriptStatus): void {
  f.add(SCRIPT.errors, {}, s.errors.length);
  for (const sec of s.sections) {
    // two sections may have the same head (two `cycle 60`); their lines tell them apart
    const labels = { section: sec.section, line: sec.line };
    f.add(SCRIPT.runs, labels, sec.runs);
    f.add(SCRIPT.overruns, labels, sec.overruns);
    f.add(SCRIPT.durationMs, labels, sec.durationMs);
  }
}

function rtc(f: Families, s: RtcStatus): void {
  if (!s.lastSync) return;
  f.add(RTC.lastSync, {}, s.lastSync.at);
  f.add(RTC.lastSyncOk, {}, bit(s.lastSync.ok));
}

function iec(f: Families, s: IecStatus): void {
  f.add(IEC.enabled, {}, bit(s.enabled));
  f.add(IEC.clockSyncs, {}, s.clockSyncs);
  if (s.listener) {
    f.add(IEC.listening, {}, bit(s.listener.listening));
    f.add(IEC.refused, {}, s.listener.refused);
    f.add(IEC.faults, {}, s.listener.faults);
    for (const g of s.listener.groups) {
      const labels = { group: g.index };
      f.add(IEC.connections, labels, g.connections.length);
      for (const k of ['queued', 'overflowed', 'sent', 'resent', 'acknowledged'] as const) f.add(IEC[k], labels, g[k]);
    }
  }
  for (const g of s.groups) {
    const labels = { group: g.index };
    f.add(IEC.started, labels, bit(g.station.started));
    f.add(IEC.plcOk, labels, bit(g.station.plcOk));
    f.add(IEC.points, labels, g.station.points);
    f.add(IEC.plcEvents, labels, g.plc.events);
    f.add(IEC.skipped, labels, g.plc.skipped);
    for (const [k, result] of Object.entries(IEC_COMMAND_RESULTS))
      f.add(IEC.commands, { ...labels, result }, g.plc.commands[k as keyof typeof IEC_COMMAND_RESULTS]);
    f.add(IEC.commandsWaiting, labels, g.plc.commands.waiting);
  }
}

function services(f: Families, list: readonly ServiceStatus[]): void {
  for (const s of list) {
    const labels = { service: s.service };
    f.add(SERVICE.enabled, labels, bit(s.enabled));
    f.states(SERVICE.state, labels, SERVICE_RUN_STATES, s.state);
    // the TLS bridge's and the IEC 104 station's counters are their detail's, which has series of its
    // own (and the station's `connections` are open connections, not a count that only grows)
    if (!s.tls && !s.iec) for (const [name, n] of Object.entries(s.counters)) f.add(SERVICE.events, { ...labels, event: name }, n);
    f.add(SERVICE.lastSuccess, labels, s.lastSuccess);
    f.add(SERVICE.lastError, labels, s.lastError?.at);
    if (s.queue.bound > 0) f.fields(QUEUE, labels, s.queue);
    if (s.deadLetters) f.fields(DEAD_LETTERS, labels, s.deadLetters);
    if (s.tls) tlsBridge(f, s.tls);
    if (s.script) script(f, s.script);
    if (s.rtc) rtc(f, s.rtc);
    if (s.iec) iec(f, s.iec);
  }
}

// ---- the unit and the daemon's process ----

export const UNIT = {
  buildInfo: gauge('communicator_build_info', "The daemon's version (the label); always 1."),
  volumeMounted: gauge('communicator_volume_mounted', 'Whether the storage volume is there (a USB stick plugged in).'),
  volumeSize: gauge('communicator_volume_size_bytes', 'Size of the storage volume.'),
  volumeFree: gauge('communicator_volume_free_bytes', "Bytes of the storage volume free for the daemon's files."),
} as const;

export const PROCESS = {
  residentBytes: gauge('process_resident_memory_bytes', "Resident memory of the daemon's process."),
  cpuSeconds: counter('process_cpu_seconds_total', 'CPU time of the daemon, user and system.'),
  startTimeSeconds: gauge('process_start_time_seconds', 'When the daemon started (Unix time).'),
  heapUsedBytes: gauge('nodejs_heap_used_bytes', "V8's heap in use."),
} as const satisfies Record<keyof ProcessFigures, FieldSeries>;

/** Every family of the exposition, in the order of docs/monitoring.md. */
export function metricFamilies(input: MetricsInput): Family[] {
  const f = new Families();
  f.add(UNIT.buildInfo, { version: input.version }, 1);
  f.fields(PROCESS, {}, input.process);
  for (const v of input.volumes) {
    const labels = { volume: v.id };
    f.add(UNIT.volumeMounted, labels, bit(v.mounted));
    if (!v.mounted) continue;
    f.add(UNIT.volumeSize, labels, v.totalBytes);
    f.add(UNIT.volumeFree, labels, v.freeBytes);
  }
  links(f, input.links);
  threads(f, input.threads);
  logger(f, input.logger);
  services(f, input.services);
  return f.list();
}

export const renderMetrics = (input: MetricsInput): string => renderExposition(metricFamilies(input));
