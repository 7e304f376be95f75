// The live state of the IEC 60870-5-104 controlled station (spec §3 pew_60870; docs/iec104.md
// "Status"): its listener with each connection entry's connections and event queue, each entry's
// station and PLC side, and the clock syncs. The `iec` entry of `GET /config/service_status`
// (service-status.ts); the console checks the answer against this schema, the daemon builds it
// (device/iec104/engine.ts takes its types from here and checks its parts' types against them).
import * as v from 'valibot';
import { statusReasonSchema } from './reasons.ts';

const count = () => v.pipe(v.number(), v.integer(), v.minValue(0));

/** the APCI link's state of one connection (device/iec104/link.ts) */
export const IEC_LINK_STATES = ['stopped', 'start_pending', 'started', 'stopping', 'closed'] as const;
/** why the unit closed a connection (device/iec104/link.ts) */
export const IEC_CLOSE_CODES = ['bad_frame', 'sequence', 'bad_nr', 'unexpected_i', 'unexpected_u', 't1', 'start_refused', 'closed_by_owner'] as const;
/** why a record of the monitor ring cannot be sent (device/model/blocks/iec104.ts) */
export const IEC_RECORD_ERRORS = ['short_record', 'bad_word', 'unknown_type', 'bad_group', 'bad_ioa', 'bad_quality', 'bad_value'] as const;

export const iecConnectionStatusSchema = v.object({
  id: count(),
  /** the control station's address and port */
  remote: v.string(),
  state: v.picklist(IEC_LINK_STATES),
  /** whether this connection is its group's started one (runs data transfer) */
  active: v.boolean(),
  framesIn: count(),
  framesOut: count(),
  iFramesIn: count(),
  iFramesOut: count(),
  /** times I-frames had to wait because k were unacknowledged */
  windowStalls: count(),
  /** I-frames sent and not yet acknowledged */
  unacknowledged: count(),
  /** monotonic ms when data transfer started on it, null while not started */
  startedAt: v.nullable(v.number()),
  /** how long data transfer has run on it (ms), null while not started */
  startedForMs: v.nullable(v.number()),
  openedAt: v.number(),
  lastError: v.nullable(v.object({ code: v.picklist(IEC_CLOSE_CODES), message: v.string() })),
});
export type IecConnectionStatus = v.InferOutput<typeof iecConnectionStatusSchema>;

/** one connection entry's side of the listener: its connections and its event queue */
export const iecListenerGroupSchema = v.object({
  index: count(),
  connections: v.array(iecConnectionStatusSchema),
  /** events waiting in the queue (sent and unacknowledged ones included) */
  queued: count(),
  /** events dropped because the queue was full */
  overflowed: count(),
  /** I-frames that carried an event (a repeat after a switch-over counts again) */
  sent: count(),
  /** of those, the repeats on a newly started connection */
  resent: count(),
  /** events a peer acknowledged (each once) */
  acknowledged: count(),
});
export type IecListenerGroup = v.InferOutput<typeof iecListenerGroupSchema>;

export const iecListenerStatusSchema = v.object({
  port: count(),
  listening: v.boolean(),
  /** why it does not listen, when it does not */
  reason: v.optional(statusReasonSchema),
  /** connections closed at accept: no entry admits the address, or its group holds 4 */
  refused: count(),
  /** connections ended by a contained fault */
  faults: count(),
  groups: v.array(iecListenerGroupSchema),
});
export type IecListenerStatus = v.InferOutput<typeof iecListenerStatusSchema>;

/** the station logic of one connection entry (device/iec104/station.ts) */
export const iecStationStatusSchema = v.object({
  started: v.boolean(),
  /** the PLC answers: the station sends its values valid */
  plcOk: v.boolean(),
  /** points in the process image */
  points: count(),
  /** commands selected, waiting for their confirmation, waiting for their termination */
  selected: count(),
  confirming: count(),
  terminating: count(),
});
export type IecStationStatus = v.InferOutput<typeof iecStationStatusSchema>;

/** the PLC side of one connection entry (device/iec104/plc-side.ts) */
export const iecPlcSideStatusSchema = v.object({
  plc: v.picklist(['unknown', 'ok', 'silent']),
  /** why the PLC does not answer */
  reason: v.optional(statusReasonSchema),
  /** a fault of the ring (an index out of range, an address the PLC refuses); empty when none */
  ringError: v.string(),
  capacity: count(),
  /** the slot the unit reads next; absent until read from the PLC */
  readIndex: v.optional(count()),
  /** events handed to the station */
  events: count(),
  /** records skipped because the station cannot send them */
  skipped: count(),
  lastSkipped: v.optional(v.object({ slot: count(), code: v.picklist(IEC_RECORD_ERRORS), message: v.string() })),
  commands: v.object({ written: count(), accepted: count(), refused: count(), done: count(), noAnswer: count(), waiting: count() }),
});
export type IecPlcSideStatus = v.InferOutput<typeof iecPlcSideStatusSchema>;

export const iecGroupStatusSchema = v.object({
  index: count(),
  station: iecStationStatusSchema,
  plc: iecPlcSideStatusSchema,
});
export type IecGroupStatus = v.InferOutput<typeof iecGroupStatusSchema>;

/** What the last clock sync of a control station did (docs/iec104.md "Clock synchronisation"). */
export const iecClockSyncSchema = v.object({
  /** the instant the station sent (epoch ms) */
  time: v.number(),
  /** the unit's clock: set, left to NTP, being set, or not set (error) */
  unit: v.picklist(['set', 'ntp', 'setting', 'failed']),
  /** the PLC's clock: written, no PLC clock sync configured, not written (error), or waiting for the unit's */
  plc: v.picklist(['written', 'off', 'failed', 'waiting']),
  error: v.optional(v.string()),
});
export type IecClockSync = v.InferOutput<typeof iecClockSyncSchema>;

export const iecStatusSchema = v.object({
  /** the station runs (enable_60870 saved on) */
  enabled: v.boolean(),
  /** absent while the station is off */
  listener: v.optional(iecListenerStatusSchema),
  groups: v.array(iecGroupStatusSchema),
  /** clock syncs received, and what the last one did */
  clockSyncs: count(),
  lastClockSync: v.optional(iecClockSyncSchema),
});
export type IecStatus = v.InferOutput<typeof iecStatusSchema>;
