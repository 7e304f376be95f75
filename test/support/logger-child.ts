// Child of the logger power-loss loop (security.md LOG-1; test/integration/logger-power-loss.test.ts):
// appends numbered records to one CSV file through the CSV store until it is killed.
// Usage: node logger-child.mjs <volume dir> <file name> [--batch N] [--sync-ms MS] [--unsafe]
//
// On start it continues after the last whole record's number (the store repairs the torn tail
// before its first append) and then appends batches of N records (1, 2, 3, … without gaps);
// `done <last number> <file size>` is printed only after append() resolved, i.e. after the batch's
// fdatasync returned, so the harness knows which records were acknowledged as durable when it
// killed us. The harness imports the record format from here; the loop runs only as the child. The fdatasync is made slower by
// --sync-ms (a slow flash medium), so that kills land inside the unsynced window often.
//
// A record: `2024/01/01,00:00:00,<n>,<n mod 97>,<x repeated n mod 23>` (lines of varying length,
// so cuts fall at many places of a line); header `Date,Time,n,mod,pad` and a units line.
//
// --unsafe appends with plain appendFile: no store, so no repair of a torn tail. It exists only to prove
// that the harness's checks catch a logger that is not crash-safe.

import { realpathSync } from 'node:fs';
import { appendFile, mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { CsvStore, nodeStoreFs, type StoreFs } from '../../device/logger/csv-store.ts';
import { LOG_FOLDER } from '../../device/logger/types.ts';

export const CHILD_HEADER = ['Date,Time,n,mod,pad', ',,#,#,'];
export const childRecord = (n: number): string => `2024/01/01,00:00:00,${n},${n % 97},${'x'.repeat(n % 23)}`;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
}

/** The number of the last whole record of `text` (0 when there is none). */
export function lastNumber(text: string): number {
  const lines = text.split('\r\n').slice(0, -1); // what follows the last "\r\n" is not a whole line
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = /^2024\/01\/01,00:00:00,(\d+),/.exec(lines[i]!);
    if (m) return Number(m[1]);
  }
  return 0;
}

async function main(): Promise<void> {
  const [volume, file] = process.argv.slice(2);
  if (!volume || !file) {
    console.error('usage: logger-child <volume dir> <file name> [--batch N] [--sync-ms MS] [--unsafe]');
    process.exit(2);
  }
  const batch = option('--batch', 10);
  const syncMs = option('--sync-ms', 2);
  const unsafe = process.argv.includes('--unsafe');
  const path = join(volume, LOG_FOLDER, file);

  // the last whole record; a torn tail after it is the store's to repair at its first append
  let n = lastNumber(await readFile(path, 'utf8').catch(() => ''));
  const next = () => Array.from({ length: batch }, (_, i) => childRecord(n + 1 + i));

  if (unsafe) {
    await mkdir(join(volume, LOG_FOLDER), { recursive: true });
    for (;;) {
      const size = await stat(path).then(
        (s) => s.size,
        () => 0,
      );
      const lines = [...(size === 0 ? CHILD_HEADER : []), ...next()];
      await appendFile(path, lines.map((l) => `${l}\r\n`).join(''));
      await sleep(syncMs);
      n += batch;
      process.stdout.write(`done ${n} ${(await stat(path)).size}\n`);
    }
  }

  const fs: StoreFs = {
    ...nodeStoreFs,
    async open(p, flags) {
      const fh = await nodeStoreFs.open(p, flags);
      const slowSync = async () => {
        await sleep(syncMs);
        await fh.datasync();
      };
      return {
        read: (b, o, l, pos) => fh.read(b, o, l, pos),
        write: (b, o, l) => fh.write(b, o, l),
        stat: () => fh.stat(),
        truncate: (len) => fh.truncate(len),
        sync: () => fh.sync(),
        close: () => fh.close(),
        datasync: slowSync,
      };
    },
  };
  const store = new CsvStore({
    volumes: async () => [{ id: 'internal', path: volume, mounted: true, totalBytes: 2 ** 40, freeBytes: 2 ** 39 }],
    fs,
  });
  const appender = store.appender('internal');
  for (;;) {
    const status = await appender.append(file, CHILD_HEADER, next());
    if (status.state !== 'ok') {
      console.error(`append failed: ${status.state} ${JSON.stringify(status.reasons)}`);
      process.exit(1);
    }
    n += batch;
    // synchronous on a pipe under Linux: the line is in the pipe before the next batch starts
    process.stdout.write(`done ${n} ${appender.stats().size}\n`);
  }
}

// run as the child (node logger-child.mjs …), not when the harness imports the record format
if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) await main();
