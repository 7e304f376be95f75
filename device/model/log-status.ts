// The data logger at work (spec §3 Data logger, §4 write status): `GET /config/log_status` and
// `POST /config/log_status/ack`; the daemon builds it (device/logger/engine.ts, notices.ts), the
// console checks the answer against this schema (web/api/log-status.ts). docs/logger.md.
import * as v from 'valibot';
import { statusReasonSchema } from './reasons.ts';

const count = () => v.pipe(v.number(), v.integer(), v.minValue(0));

/** spec §4: the write status signals stop, error or low memory */
export const WRITE_STATES = ['ok', 'stopped', 'error', 'low_memory'] as const;

export const writeStatusSchema = v.object({
  state: v.picklist(WRITE_STATES),
  /** the causes, none when ok (device/model/reasons.ts) */
  reasons: v.array(statusReasonSchema),
  /** internal, usb or temp */
  volume: v.optional(v.string()),
  /** the file written last */
  file: v.optional(v.string()),
});

export const logFileStatusSchema = v.object({
  name: v.string(),
  records: count(),
  /** slots missed since the daemon started, those while it was down included */
  missed: count(),
  failedReads: count(),
  readsPerRecord: count(),
  /** ms since the epoch */
  lastRecordAt: v.optional(v.number()),
  /** Unix seconds of the last trigger; 0 = never */
  lastTrigger: count(),
  write: v.optional(writeStatusSchema),
});

/** What the technician has not acknowledged yet (device/logger/notices.ts). */
export const logNoticesSchema = v.object({
  /** files deleted for space, the last 50, oldest first; `at` ms since the epoch */
  deleted: v.array(v.object({ name: v.string(), volume: v.string(), at: v.number() })),
  deletedCount: count(),
  /** records dropped from a full write queue, by log file */
  dropped: v.record(v.string(), count()),
  droppedCount: count(),
});

export const logStatusSchema = v.object({
  enabled: v.boolean(),
  running: v.boolean(),
  write: writeStatusSchema,
  files: v.array(logFileStatusSchema),
  notices: logNoticesSchema,
});
export type LogStatus = v.InferOutput<typeof logStatusSchema>;
export type LogNotices = v.InferOutput<typeof logNoticesSchema>;
export type WriteStatusText = v.InferOutput<typeof writeStatusSchema>;
