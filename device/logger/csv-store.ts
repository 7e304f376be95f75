// The CSV store on a volume (spec §3 storage internal / USB / temp; security.md LOG-1): crash-safe
// appends of log records to `<volume>/log/<file>`, tail repair, the low-memory policy and volume
// failures reported as a write status instead of an exception.
//
// Sync policy (docs/logger.md): an appender writes a batch of records (the log file's delay_store
// records, spec §9 delay store 10, cache 20) with ONE write call and then fdatasyncs the file; a
// record is finished when the sync of its batch returned. A new file (or a new log folder) is
// also made durable in its folder by an fsync of the folder. What a power cut can lose is the one
// batch whose sync had not returned: some of its lines, and a torn last line, which the repair cuts
// off before the first append to the file in the next process lifetime (repair.ts).
//
// Failures (ENOSPC, EIO, EROFS, a removed USB stick) never throw out of append(): they become a
// WriteStatus, the failed batch and the ones after it stay queued (at most MAX_QUEUED_BATCHES, the
// oldest dropped and counted) and are written in order once the volume works again. Bytes a failed
// batch may have left in the file are truncated away before anything else is written to it, so a
// resumed batch is never written twice.
import * as nodeFs from 'node:fs/promises';
import { join } from 'node:path';
import type { Volume, VolumeId } from '../../hw/types.ts';
import { reason, type StatusReason } from '../model/reasons.ts';
import { type RepairHandle, repairOpenFile } from './repair.ts';
import { ensureSpace, type SpaceCheck, type SpaceFs } from './space.ts';
import { LOG_FOLDER, type WriteState, type WriteStatus } from './types.ts';

/** An open CSV file: what the repair needs plus writing and syncing. */
export interface StoreHandle extends RepairHandle {
  stat(): Promise<{ size: number; ino: number }>;
  write(buffer: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }>;
  sync(): Promise<void>;
}

/** The file system calls of the store (node:fs/promises has them; tests inject faults). */
export interface StoreFs extends SpaceFs {
  open(path: string, flags: string): Promise<StoreHandle>;
  mkdir(path: string): Promise<unknown>;
  stat(path: string): Promise<{ mtimeMs: number; ino: number; isFile(): boolean }>;
}

export const nodeStoreFs: StoreFs = nodeFs;

/** Batches kept while a volume fails (spec §9: cache 20); beyond, the oldest are dropped. */
export const MAX_QUEUED_BATCHES = 20;
export const LINE_END = '\r\n';

export interface CsvStoreOptions {
  /** the unit's volumes (hw.volumes()), asked before every batch: mounted, path and free space */
  volumes: () => Promise<Volume[]>;
  fs?: StoreFs;
  /** pew_log.delete_old_files: on low memory delete the oldest files instead of stopping (space.ts) */
  deleteOldFiles?: boolean;
  maxQueuedBatches?: number;
  /** CSV files the low-memory policy deleted on `volume` (every deletion, also when it could not help) */
  onDeleted?: (volume: VolumeId, names: string[]) => void;
}

export interface AppenderStats {
  /** the file written last and its length after the last finished batch */
  file?: string;
  size: number;
  queuedBatches: number;
  queuedRecords: number;
  /** records dropped from the full queue during this appender's lifetime */
  droppedRecords: number;
}

interface Batch {
  file: string;
  header: string[];
  lines: string[];
}

interface OpenFile {
  name: string;
  path: string;
  fh: StoreHandle;
  /** the inode opened, to notice the file deleted or replaced under the handle */
  ino: number;
  /** length after the last finished batch (always at a line boundary) */
  size: number;
  /** the folder entry of a file found empty is synced after its first batch */
  syncFolder: boolean;
}

const encoder = new TextEncoder();
const VOLUME_GONE = new Set(['ENOENT', 'ENODEV', 'ENXIO']);

function errnoError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

function removedReason(volume: VolumeId): StatusReason {
  return volume === 'usb' ? reason('usb_removed') : reason('volume_unavailable', { volume });
}

/** A failed fs call as a write status; undefined when `e` is no fs error (a bug, passed on). */
export function classifyError(e: unknown, volume: VolumeId): { state: WriteState; reasons: StatusReason[] } | undefined {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string') return undefined;
  if (code === 'ENOSPC' || code === 'EDQUOT') return { state: 'error', reasons: [reason('volume_full', undefined, code)] };
  if (code === 'EROFS') return { state: 'error', reasons: [reason('volume_read_only', undefined, code)] };
  if (VOLUME_GONE.has(code)) return { state: 'error', reasons: [removedReason(volume)] };
  return { state: 'error', reasons: [reason('write_error', { code })] };
}

/** Files deleted for space: their count and names ("…" at the end when more were deleted than named). */
export const deletedReason = (count: number, names: readonly string[]): StatusReason =>
  reason('low_memory_deleted', { count, names: `${names.join(', ')}${count > names.length ? ', …' : ''}` });

/** Why logging to the volume stopped for space, with what was deleted or why nothing was. */
function stoppedReasons(space: SpaceCheck): StatusReason[] {
  const head = reason('low_memory_stopped', { free: space.freeBytes, needed: space.threshold });
  if (space.deleted.length > 0) return [head, deletedReason(space.deleted.length, space.deleted)];
  if (space.deletableBytes !== undefined) return [head, reason('low_memory_too_few', { bytes: space.deletableBytes })];
  return [head];
}

/** A plain file name inside the log folder (the writer builds it from a checked log file name). */
function checkName(file: string): void {
  if (file === '' || file === '.' || file === '..' || /[/\\\0]/.test(file)) throw new TypeError(`not a log file name: ${JSON.stringify(file)}`);
}

async function closeQuietly(fh: StoreHandle): Promise<void> {
  try {
    await fh.close();
  } catch {
    // a handle on a vanished volume may fail to close; it is released either way
  }
}

/** fsync of a folder so that a new entry in it survives a power cut; EINVAL: the file system cannot, and need not. */
export async function syncFolder(fs: StoreFs, dir: string): Promise<void> {
  const fh = await fs.open(dir, 'r');
  try {
    await fh.sync();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EINVAL') throw e;
  } finally {
    await closeQuietly(fh);
  }
}

/** The appenders of the daemon's log files, sharing the volumes, the fs and the low-memory policy. */
export class CsvStore {
  readonly fs: StoreFs;
  private readonly appenders = new Set<CsvAppender>();

  constructor(readonly opts: CsvStoreOptions) {
    this.fs = opts.fs ?? nodeStoreFs;
  }

  /** An appender for one log file's CSV files on `volume`; `onDropped` hears of records dropped from its full queue. */
  appender(volume: VolumeId, onDropped?: (records: number) => void): CsvAppender {
    const a = new CsvAppender(this, volume, onDropped);
    this.appenders.add(a);
    return a;
  }

  async volume(id: VolumeId): Promise<Volume | undefined> {
    return (await this.opts.volumes()).find((v) => v.id === id);
  }

  /** Names in the log folder of `volume` that appenders write or are about to write (never deleted for space). */
  busyFiles(volume: VolumeId): Set<string> {
    const out = new Set<string>();
    for (const a of this.appenders) if (a.volume === volume) for (const f of a.pendingFiles()) out.add(f);
    return out;
  }

  /** Closes every appender's file (daemon stop, settings change); queued records are given up. */
  async close(): Promise<void> {
    await Promise.all([...this.appenders].map((a) => a.close()));
  }

  /** Called by an appender that closed. */
  forget(a: CsvAppender): void {
    this.appenders.delete(a);
  }
}

export class CsvAppender {
  private readonly queue: Batch[] = [];
  private inFlight: Batch | undefined;
  private file: OpenFile | undefined;
  /** length of each file when opened and after each finished batch (this process lifetime) */
  private readonly sizes = new Map<string, number>();
  /** log folders created whose entry in the volume folder is not synced yet */
  private readonly unsyncedFolders = new Set<string>();
  private chain: Promise<unknown> = Promise.resolve();
  private dropped = 0;
  private droppedUnreported = 0;
  private lastFile: string | undefined;
  private lastSize = 0;
  private closed = false;

  constructor(
    private readonly store: CsvStore,
    readonly volume: VolumeId,
    private readonly onDropped?: (records: number) => void,
  ) {}

  /**
   * Appends `lines` (whole records without line end) to `file` in the volume's log folder; a file
   * that is new, or empty after repair, first gets `headerLines`. Resolves with the write status
   * once the batch (and any queued before it) is synced, or could not be written.
   */
  async append(file: string, headerLines: readonly string[], lines: readonly string[]): Promise<WriteStatus> {
    checkName(file);
    if (this.closed) throw new Error('append after close');
    if (lines.length > 0) {
      const max = this.store.opts.maxQueuedBatches ?? MAX_QUEUED_BATCHES;
      while (this.queue.length >= max) {
        // never drop the batch being written right now
        const at = this.queue[0] === this.inFlight ? 1 : 0;
        const [gone] = this.queue.splice(at, 1);
        if (!gone) break;
        this.dropped += gone.lines.length;
        this.droppedUnreported += gone.lines.length;
        this.onDropped?.(gone.lines.length);
      }
      this.queue.push({ file, header: [...headerLines], lines: [...lines] });
    }
    return this.flush();
  }

  /** Writes what is queued (call it now and then while a volume fails, so records land without waiting for the next batch). */
  flush(): Promise<WriteStatus> {
    if (this.closed) return Promise.reject(new Error('flush after close'));
    const run = this.chain.then(() => this.flushNow());
    this.chain = run.catch(() => undefined);
    return run;
  }

  stats(): AppenderStats {
    return {
      file: this.lastFile,
      size: this.lastSize,
      queuedBatches: this.queue.length,
      queuedRecords: this.queue.reduce((n, b) => n + b.lines.length, 0),
      droppedRecords: this.dropped,
    };
  }

  /** The file open, the one written last (open again at the next batch after a failure) and the queued batches' files. */
  pendingFiles(): string[] {
    return [...(this.file ? [this.file.name] : []), ...(this.lastFile !== undefined ? [this.lastFile] : []), ...this.queue.map((b) => b.file)];
  }

  /** Closes the open file; records still queued are given up (their count is in stats()). */
  async close(): Promise<AppenderStats> {
    this.closed = true;
    await this.chain;
    await this.closeFile();
    this.store.forget(this);
    return this.stats();
  }

  private status(state: WriteState, reasons: StatusReason[] = []): WriteStatus {
    let all = reasons;
    if (this.droppedUnreported > 0) {
      all = [...reasons, reason('records_dropped', { count: this.droppedUnreported })];
      if (state === 'ok') this.droppedUnreported = 0; // reported once the volume works again
    }
    return { state, reasons: all, volume: this.volume, ...(this.lastFile !== undefined ? { file: this.lastFile } : {}) };
  }

  private async failed(e: unknown): Promise<WriteStatus> {
    const c = classifyError(e, this.volume);
    if (!c) throw e;
    await this.abandonFile();
    return this.status(c.state, c.reasons);
  }

  private async flushNow(): Promise<WriteStatus> {
    let vol: Volume | undefined;
    try {
      vol = await this.store.volume(this.volume);
    } catch (e) {
      return this.failed(e);
    }
    if (!vol?.mounted) {
      await this.abandonFile();
      return this.status('error', [removedReason(this.volume)]);
    }
    const dir = join(vol.path, LOG_FOLDER);
    let deleted: string[];
    try {
      const space = await ensureSpace({
        volume: async () => (await this.store.volume(this.volume)) ?? { freeBytes: 0, totalBytes: 0 },
        dir,
        deleteOldFiles: this.store.opts.deleteOldFiles ?? false,
        keep: this.store.busyFiles(this.volume),
        fs: this.store.fs,
      });
      deleted = space.deleted;
      if (deleted.length > 0) this.store.opts.onDeleted?.(this.volume, deleted);
      if (space.state === 'stopped') return this.status('stopped', stoppedReasons(space));
    } catch (e) {
      return this.failed(e);
    }
    for (let batch = this.queue[0]; batch; batch = this.queue[0]) {
      this.inFlight = batch;
      try {
        await this.write(vol.path, dir, batch);
      } catch (e) {
        return this.failed(e);
      } finally {
        this.inFlight = undefined;
      }
      const at = this.queue.indexOf(batch);
      if (at >= 0) this.queue.splice(at, 1);
    }
    if (deleted.length > 0) return this.status('low_memory', [deletedReason(deleted.length, deleted)]);
    return this.status('ok');
  }

  /** One batch: open (and repair) its file if it is not the open one, one write, one fdatasync. */
  private async write(volumePath: string, dir: string, batch: Batch): Promise<void> {
    const path = join(dir, batch.file);
    // another file (split), or ours was deleted or replaced under the open handle (file routes)
    if (this.file && (this.file.path !== path || !(await this.stillThere(this.file)))) await this.closeFile();
    this.file ??= await this.open(volumePath, dir, batch.file);
    const f = this.file;
    const header = encoder.encode(batch.header.map((l) => l + LINE_END).join(''));
    if (f.size < header.length && (await this.isHeaderPrefix(f, header))) {
      // new, or a header torn by a power cut: the whole header goes in front of this batch
      if (f.size > 0) await f.fh.truncate(0);
      f.size = 0;
    }
    const text = batch.lines.map((l) => l + LINE_END).join('');
    const body = encoder.encode(text);
    const bytes = f.size === 0 && header.length > 0 ? concat(header, body) : body;
    let off = 0;
    while (off < bytes.length) {
      const { bytesWritten } = await f.fh.write(bytes, off, bytes.length - off);
      if (bytesWritten <= 0) throw errnoError('EIO', 'write made no progress');
      off += bytesWritten; // a short write is followed by the call that reports why (ENOSPC)
    }
    await f.fh.datasync();
    if (f.syncFolder) {
      await syncFolder(this.store.fs, dir);
      f.syncFolder = false;
    }
    f.size += bytes.length;
    this.sizes.set(f.path, f.size);
    this.lastFile = f.name;
    this.lastSize = f.size;
  }

  private async isHeaderPrefix(f: OpenFile, header: Uint8Array): Promise<boolean> {
    if (f.size === 0) return true;
    const buf = new Uint8Array(f.size);
    let got = 0;
    while (got < f.size) {
      const { bytesRead } = await f.fh.read(buf, got, f.size - got, got);
      if (bytesRead === 0) return false;
      got += bytesRead;
    }
    return buf.every((b, i) => header[i] === b);
  }

  private async open(volumePath: string, dir: string, name: string): Promise<OpenFile> {
    const fs = this.store.fs;
    try {
      // not recursive: a missing volume folder (USB stick gone) must not be created on the unit's own storage
      await fs.mkdir(dir);
      this.unsyncedFolders.add(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (this.unsyncedFolders.has(dir)) {
      await syncFolder(fs, volumePath);
      this.unsyncedFolders.delete(dir);
    }
    const path = join(dir, name);
    const fh = await fs.open(path, 'a+');
    try {
      let { size, ino } = await fh.stat();
      const known = this.sizes.get(path);
      if (known !== undefined && size > known) {
        // what a failed batch of ours left behind: it is still queued and written again
        await fh.truncate(known);
        await fh.datasync();
        size = known;
      }
      ({ size } = await repairOpenFile(fh));
      this.sizes.set(path, size);
      return { name, path, fh, ino, size, syncFolder: size === 0 };
    } catch (e) {
      await closeQuietly(fh);
      throw e;
    }
  }

  private async stillThere(f: OpenFile): Promise<boolean> {
    try {
      return (await this.store.fs.stat(f.path)).ino === f.ino;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw e;
    }
  }

  private async closeFile(): Promise<void> {
    const f = this.file;
    this.file = undefined;
    if (f) await closeQuietly(f.fh);
  }

  /** After a failure: cut what the failed batch may have written (when the volume still lets us) and drop the handle. */
  private async abandonFile(): Promise<void> {
    const f = this.file;
    this.file = undefined;
    if (!f) return;
    try {
      await f.fh.truncate(f.size);
    } catch {
      // the volume is failing; open() truncates to the known size when it works again
    }
    await closeQuietly(f.fh);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
