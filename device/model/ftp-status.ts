// The live state of the FTP send (spec §3 pew_ftpc and pew_script, §4 rename after a send):
// the `ftp` entry of `GET /config/service_status` (service-status.ts); the console checks the
// answer against this schema, the daemon builds it (device/ftp/). docs/ftp.md.
import * as v from 'valibot';
import { statusReasonSchema } from './reasons.ts';

const count = () => v.pipe(v.number(), v.integer(), v.minValue(0));

/** what started a send: the PLC's request word, or the script's transmission cycle */
export const FTP_TRIGGERS = ['plc', 'cycle', 'script'] as const; // 'script': the script's send statement
export type FtpTrigger = (typeof FTP_TRIGGERS)[number];

/** DT n+1 of the control block: idle, running (retries included), done, error */
export const FTP_SEND_STATES = ['idle', 'running', 'done', 'error'] as const;
export type FtpSendState = (typeof FTP_SEND_STATES)[number];

/**
 * A file sent under a numbered name because a file of its own name was there already (docs/ftp.md
 * "No file is replaced"): its local name before the send, its name on the server, its local name after.
 */
export const ftpRenamedSchema = v.object({ file: v.string(), remote: v.string(), local: v.string() });
export type FtpRenamed = v.InferOutput<typeof ftpRenamedSchema>;

export const ftpLastSendSchema = v.object({
  trigger: v.picklist(FTP_TRIGGERS),
  /** unit clock, ms since the epoch */
  started: v.number(),
  finished: v.number(),
  result: v.picklist(['done', 'error']),
  /** local names of the files sent (each renamed afterwards) */
  files: v.array(v.string()),
  bytes: count(),
  /** files that matched but were not sent (still waiting under their names) */
  failed: count(),
  /** logger files held back because the logger may still write to them */
  held: v.array(v.string()),
  /** attempts made: 1 + retries */
  attempts: count(),
  /** files an earlier send renamed and this one deleted (store_send off) */
  deleted: count(),
  /** the files of `files` that went under a numbered name, on the server or here (absent when none did) */
  renamed: v.optional(v.array(ftpRenamedSchema)),
  /** code: the name of docs/ftp.md's table, number: DT n+2, message: the server's or the system's words */
  error: v.optional(v.object({ code: v.string(), number: count(), message: v.string() })),
});
export type FtpLastSend = v.InferOutput<typeof ftpLastSendSchema>;

/**
 * The FTP send's counters in the one status answer (its entry's `counters`), since the daemon
 * started: sends finished (done or error, whatever started them), files sent, and files a send
 * left waiting because they could not be sent (a file that fails again in a later send counts again).
 */
export const FTP_COUNTERS = ['sends', 'sent', 'failed'] as const;
export type FtpCounters = Record<(typeof FTP_COUNTERS)[number], number>;

export const ftpStatusSchema = v.object({
  /** enable_ftp of the saved pew_ftpc */
  enabled: v.boolean(),
  /** the script's transmission cycle runs (ftp_transmission) */
  cycle: v.boolean(),
  /** the next send of the cycle, unit clock ms */
  nextCycle: v.optional(v.number()),
  running: v.boolean(),
  state: v.picklist(FTP_SEND_STATES),
  /** while a failed attempt waits for its retry: when it is tried again (unit clock ms) */
  retryAt: v.optional(v.number()),
  /** while a failed attempt waits for its retry: why it failed, and when (unit clock ms); DT n+2 shows its code */
  retryError: v.optional(v.object({ code: v.string(), number: count(), message: v.string(), at: v.number() })),
  /** the local directory as resolved (`<volume>/<path>`) */
  localDir: v.string(),
  /** why the PLC's control block cannot be read or written now (absent when it can) */
  plc: v.optional(statusReasonSchema),
  lastSend: v.optional(ftpLastSendSchema),
});
export type FtpStatus = v.InferOutput<typeof ftpStatusSchema>;
