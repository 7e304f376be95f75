// Test and bench support: a database client's queue filled with rows as the engine stores them
// (device/service-runtime/queue.ts: one JSON file a job, named by its sequence number), written
// without the queue's per-job fsync so that 100,000 waiting rows take seconds, not minutes. The
// engine reads them back exactly as after a power cut with that many rows waiting.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type DbRow, rowKey } from '../../device/service-runtime/db-row.ts';
import { jobFileName } from '../../device/service-runtime/queue.ts';

/** A row of one DINT point `seq` (1, 2, …), stamped `base` + seq ms. */
export const seqRow = (seq: number, base: number): DbRow => ({ key: rowKey(base + seq), at: base + seq, columns: [['seq', 'i32']], values: [seq] });

/** Writes rows 1…n into `<dataDir>/queues/<service>`. */
export async function fillRowQueue(dataDir: string, service: 'sql' | 'nosql', n: number, base = Date.now() - n): Promise<void> {
  const dir = join(dataDir, 'queues', service);
  await mkdir(dir, { recursive: true });
  for (let i = 1; i <= n; i += 500) {
    const seqs = Array.from({ length: Math.min(500, n - i + 1) }, (_, j) => i + j);
    await Promise.all(seqs.map((seq) => writeFile(join(dir, jobFileName(seq)), JSON.stringify(seqRow(seq, base)))));
  }
}
