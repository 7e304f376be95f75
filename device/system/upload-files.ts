// Receiving an uploaded file (spec §7 upload; security.md VAL-1 "uploads capped per kind while
// streaming", CFG-1): the body is streamed into a hidden temp file beside the target and counted
// on the way; over the cap the stream is cancelled and the temp file removed. A complete file is
// checked, synced and renamed over the target, so a partial or refused file is never visible
// under its name (the listings skip dot names, device/system/volume-files.ts).
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncDir, tempNameFor } from '../../hw/atomic-file.ts';

export class TooLarge extends Error {
  constructor(
    readonly max: number,
    readonly bytes: number,
  ) {
    super(`the file exceeds ${max} bytes`);
  }
}

export interface Received {
  size: number;
}

/**
 * Streams `body` into `target` (its folder is created). `check` sees the complete bytes before they
 * replace the target and may throw to refuse them; `max` bytes at most, else TooLarge. Nothing is
 * left behind when anything fails.
 */
export async function receiveFile(
  body: ReadableStream<Uint8Array> | null,
  target: string,
  max: number,
  check?: (bytes: Buffer) => void | Promise<void>,
): Promise<Received> {
  await mkdir(dirname(target), { recursive: true });
  const tmp = tempNameFor(target);
  const fh = await open(tmp, 'wx', 0o600);
  let size = 0;
  let done = false;
  try {
    if (body) {
      const reader = body.getReader();
      try {
        for (;;) {
          const { value, done: end } = await reader.read();
          if (end) break;
          size += value.byteLength;
          if (size > max) throw new TooLarge(max, size);
          await fh.write(value);
        }
      } catch (e) {
        await reader.cancel().catch(() => undefined);
        throw e;
      }
    }
    await fh.sync();
    await fh.close();
    done = true;
    if (check) await check(await readFile(tmp));
    await rename(tmp, target);
  } catch (e) {
    if (!done) await fh.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw e;
  }
  await syncDir(dirname(target));
  return { size };
}
