// What the logger did to the history that the technician must see (issue: no silent deletion;
// spec §4: the write status signals stop, error or low memory): CSV files deleted to make room
// (pew_log delete_old_files) and records dropped from a full write queue. Unlike a write status,
// which the next good batch replaces, a notice stays until the technician acknowledged it in the
// console (POST /config/log_status/ack): until then the logger's top-level write status, and with
// enable_mem_ctrl the PLC's status registers, show it:
//
//   records dropped   state error (mem_write_error 1, mem_write_status 2), detail "N records dropped"
//   files deleted     state low_memory (mem_notify 1, mem_write_status 3), detail with the names
//
// A worse state of a log file's last write (an error, a stop) is shown over a notice's state; the
// notice's words are added to its detail. Kept in memory from the daemon's start; every deletion
// is also in the daemon log and the audit log with its names, which outlast a restart.
import type { VolumeId } from '../../hw/types.ts';
import type { WriteState } from './types.ts';

/** The deleted names kept for the status (the count goes on beyond). */
export const NOTICE_NAMES_MAX = 50;

export interface DeletedFile {
  name: string;
  volume: VolumeId;
  /** ms since the epoch, when it was deleted */
  at: number;
}

export interface LoggerNotices {
  /** CSV files deleted for space since the last acknowledgement, the last NOTICE_NAMES_MAX, oldest first */
  deleted: DeletedFile[];
  /** all files deleted since the last acknowledgement */
  deletedCount: number;
  /** records dropped from full write queues since the last acknowledgement, by log file name */
  dropped: Record<string, number>;
  droppedCount: number;
}

const SEVERITY: Record<WriteState, number> = { ok: 0, low_memory: 1, stopped: 2, error: 3 };

export class NoticeBoard {
  private deleted: DeletedFile[] = [];
  private deletedCount = 0;
  private dropped = new Map<string, number>();

  /** called when the notices change (the PLC's registers follow) */
  constructor(private readonly changed: () => void = () => undefined) {}

  filesDeleted(volume: VolumeId, names: readonly string[], at: number): void {
    if (names.length === 0) return;
    this.deleted.push(...names.map((name) => ({ name, volume, at })));
    this.deleted.splice(0, Math.max(0, this.deleted.length - NOTICE_NAMES_MAX));
    this.deletedCount += names.length;
    this.changed();
  }

  recordsDropped(logFile: string, records: number): void {
    if (records <= 0) return;
    this.dropped.set(logFile, (this.dropped.get(logFile) ?? 0) + records);
    this.changed();
  }

  /** The technician has seen them: the notices are cleared. */
  acknowledge(): LoggerNotices {
    const seen = this.current();
    this.deleted = [];
    this.deletedCount = 0;
    this.dropped = new Map();
    this.changed();
    return seen;
  }

  current(): LoggerNotices {
    const dropped = Object.fromEntries(this.dropped);
    return { deleted: [...this.deleted], deletedCount: this.deletedCount, dropped, droppedCount: [...this.dropped.values()].reduce((a, b) => a + b, 0) };
  }

  /** A write state and detail with the notices that are not acknowledged yet. */
  over<W extends { state: WriteState; detail: string }>(write: W): W {
    const n = this.current();
    const words: string[] = [];
    let state = write.state;
    if (n.droppedCount > 0) {
      words.push(`${n.droppedCount} records dropped`);
      if (SEVERITY[state] < SEVERITY.error) state = 'error';
    }
    if (n.deletedCount > 0) {
      words.push(`low memory: deleted ${n.deletedCount} oldest files (${n.deleted.map((d) => d.name).join(', ')}${n.deletedCount > n.deleted.length ? ', …' : ''})`);
      if (SEVERITY[state] < SEVERITY.low_memory) state = 'low_memory';
    }
    if (words.length === 0) return write;
    // a log file's own low-memory detail names the same deletions: the notice's words replace it
    // and its own "N records dropped" of one poll is in the notice's count
    const own = write.state === 'ok' || write.state === 'low_memory' ? [] : [write.detail.replace(/(^|; )\d+ records dropped$/, '')].filter((d) => d !== '');
    return { ...write, state, detail: [...own, ...words].join('; ') };
  }
}
