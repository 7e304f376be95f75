// Tail repair of a CSV log file after a crash or power cut (security.md LOG-1). A record is complete
// only with its "\n" (the CSV contract: every line ends with "\r\n"), so a file that does not end
// in "\n" holds a torn last record: it is cut back to just after its last "\n", or to nothing when
// there is none. The cut is synced, so a second power cut cannot bring the torn bytes back under
// the records appended next. "\n" (0x0A) never occurs inside a UTF-8 multi-byte sequence, so the
// cut never splits a character of the lines it keeps.
import * as nodeFs from 'node:fs/promises';

/** The few file handle operations the repair needs (node:fs/promises FileHandle has them). */
export interface RepairHandle {
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  stat(): Promise<{ size: number }>;
  truncate(length: number): Promise<void>;
  datasync(): Promise<void>;
  close(): Promise<void>;
}

export interface RepairFs {
  open(path: string, flags: string): Promise<RepairHandle>;
}

export interface Repaired {
  /** bytes of a torn last record that were cut off (0: the file was whole) */
  removedBytes: number;
  /** the file's length after the repair */
  size: number;
}

const NL = 0x0a;
const CHUNK = 64 * 1024;

/** Length of the longest prefix of `bytes` made of whole lines (each ending in "\n"). */
export function wholeLinesLength(bytes: Uint8Array): number {
  return bytes.lastIndexOf(NL) + 1;
}

/**
 * Repairs the tail of the open file `fh` (opened for reading and writing): reads backwards from the
 * end in chunks until the last "\n" and truncates after it.
 */
export async function repairOpenFile(fh: RepairHandle): Promise<Repaired> {
  const { size } = await fh.stat();
  let end = size;
  const buf = new Uint8Array(Math.min(CHUNK, Math.max(size, 1)));
  let keep = 0;
  while (end > 0) {
    const start = Math.max(0, end - buf.length);
    const want = end - start;
    let got = 0;
    while (got < want) {
      const { bytesRead } = await fh.read(buf, got, want - got, start + got);
      if (bytesRead === 0) break; // the file shrank under us: what was read is all there is
      got += bytesRead;
    }
    const at = wholeLinesLength(buf.subarray(0, got));
    if (at > 0) {
      keep = start + at;
      break;
    }
    end = start;
  }
  if (keep === size) return { removedBytes: 0, size };
  await fh.truncate(keep);
  await fh.datasync();
  return { removedBytes: size - keep, size: keep };
}

/**
 * Repairs the CSV file at `path` in place. A missing file needs no repair ({ removedBytes: 0,
 * size: 0 }); any other error (EIO, EROFS, …) is passed on.
 */
export async function repairTail(path: string, fs: RepairFs = nodeFs): Promise<Repaired> {
  let fh: RepairHandle;
  try {
    fh = await fs.open(path, 'r+');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { removedBytes: 0, size: 0 };
    throw e;
  }
  try {
    return await repairOpenFile(fh);
  } finally {
    await fh.close();
  }
}
