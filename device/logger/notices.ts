// What the logger did to the history that the technician must see (issue: no silent deletion;
// spec §4: the write status signals stop, error or low memory): CSV files deleted to make room
// (pew_log delete_old_files) and records dropped from a full write queue. Unlike a write status,
// which the next good batch replaces, a notice stays until the technician acknowledged it in the
// console (POST /config/log_status/ack): until then the logger's top-level write status, and with
// enable_mem_ctrl the PLC's status registers, show it (also after a restart, see below):
//
//   records dropped   state error (mem_write_error 1, mem_write_status 2), detail "N records dropped"
//   files deleted     state low_memory (mem_notify 1, mem_write_status 3), detail with the names
//
// A worse state of a log file's last write (an error, a stop) is shown over a notice's state; the
// notice's words are added to its detail. Every deletion
// is also in the daemon log and the audit log with its names.
//
// The notices outlast a restart: they are kept in `<dataDir>/logger/notices.json`, replaced
// atomically at most once per NOTICES_SAVE_MS after a change (drops can come with every batch
// while a volume fails; the unit's flash is not rewritten for each) and at stop. A kill or power
// cut can lose the changes of that last interval; the audit log has every deletion.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { writeFileAtomic } from '../../hw/atomic-file.ts';
import { VOLUME_IDS, type VolumeId } from '../../hw/types.ts';
import { logNoticesSchema } from '../model/log-status.ts';
import { reason, type StatusReason } from '../model/reasons.ts';
import { deletedReason } from './csv-store.ts';
import type { WriteState } from './types.ts';

export const NOTICES_FILE = join('logger', 'notices.json');
export const NOTICES_SAVE_MS = 2000;

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

export interface NoticeBoardOptions {
  /** called when the notices change (the PLC's registers follow) */
  changed?: () => void;
  /** where they are kept across restarts; none: in memory only */
  file?: string;
  saveMs?: number;
}

export class NoticeBoard {
  private deleted: DeletedFile[] = [];
  private deletedCount = 0;
  private dropped = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private saving: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(private readonly o: NoticeBoardOptions = {}) {}

  static at(dataDir: string, changed: () => void): NoticeBoard {
    return new NoticeBoard({ changed, file: join(dataDir, NOTICES_FILE) });
  }

  /** Reads the kept notices; a missing or unreadable file is none. */
  async load(): Promise<void> {
    if (!this.o.file) return;
    let kept: v.InferOutput<typeof logNoticesSchema>;
    try {
      kept = v.parse(logNoticesSchema, JSON.parse(await readFile(this.o.file, 'utf8')));
    } catch {
      return;
    }
    const isVolume = (id: string): id is VolumeId => (VOLUME_IDS as readonly string[]).includes(id);
    this.deleted = kept.deleted.flatMap((d) => (isVolume(d.volume) ? [{ ...d, volume: d.volume }] : [])).slice(-NOTICE_NAMES_MAX);
    this.deletedCount = Math.max(kept.deletedCount, this.deleted.length);
    this.dropped = new Map(Object.entries(kept.dropped).filter(([, n]) => n > 0));
  }

  /** Writes a pending change now and stops the save timer (daemon stop). */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.save();
  }

  private change(): void {
    this.o.changed?.();
    if (!this.o.file) return;
    this.dirty = true;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.save();
    }, this.o.saveMs ?? NOTICES_SAVE_MS);
    this.timer.unref?.();
  }

  private save(): Promise<void> {
    const file = this.o.file;
    this.saving = this.saving.then(async () => {
      if (!file || !this.dirty) return;
      this.dirty = false;
      try {
        await writeFileAtomic(file, JSON.stringify(this.current()));
      } catch {
        this.dirty = true; // written with the next change or at stop
      }
    });
    return this.saving;
  }

  filesDeleted(volume: VolumeId, names: readonly string[], at: number): void {
    if (names.length === 0) return;
    this.deleted.push(...names.map((name) => ({ name, volume, at })));
    this.deleted.splice(0, Math.max(0, this.deleted.length - NOTICE_NAMES_MAX));
    this.deletedCount += names.length;
    this.change();
  }

  recordsDropped(logFile: string, records: number): void {
    if (records <= 0) return;
    this.dropped.set(logFile, (this.dropped.get(logFile) ?? 0) + records);
    this.change();
  }

  /** The technician has seen them: the notices are cleared. */
  acknowledge(): LoggerNotices {
    const seen = this.current();
    this.deleted = [];
    this.deletedCount = 0;
    this.dropped = new Map();
    this.change();
    return seen;
  }

  current(): LoggerNotices {
    const dropped = Object.fromEntries(this.dropped);
    return { deleted: [...this.deleted], deletedCount: this.deletedCount, dropped, droppedCount: [...this.dropped.values()].reduce((a, b) => a + b, 0) };
  }

  /** A write state and its reasons with the notices that are not acknowledged yet. */
  over<W extends { state: WriteState; reasons: StatusReason[] }>(write: W): W {
    const n = this.current();
    const notes: StatusReason[] = [];
    let state = write.state;
    if (n.droppedCount > 0) {
      notes.push(reason('records_dropped', { count: n.droppedCount }));
      if (SEVERITY[state] < SEVERITY.error) state = 'error';
    }
    if (n.deletedCount > 0) {
      notes.push(
        deletedReason(
          n.deletedCount,
          n.deleted.map((d) => d.name),
        ),
      );
      if (SEVERITY[state] < SEVERITY.low_memory) state = 'low_memory';
    }
    if (notes.length === 0) return write;
    // a log file's own low-memory reason names the same deletions: the notice's replaces it
    // and its own records dropped of one poll are in the notice's count
    const own = write.state === 'ok' || write.state === 'low_memory' ? [] : write.reasons.filter((r) => r.code !== 'records_dropped');
    return { ...write, state, reasons: [...own, ...notes] };
  }
}
