// The meta file of a crash-safe job store (the queue, the dead letters): how many jobs were dropped
// at its bounds and the next number to give. A missing or unreadable file, or a value that is no
// whole number, gives nothing for that value (the count starts again at 0).
import { readFile } from 'node:fs/promises';

export async function readStoreMeta(file: string, counterKey: string): Promise<{ dropped?: number; next?: number }> {
  try {
    const meta = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    const dropped = meta.dropped;
    const next = meta[counterKey];
    return {
      ...(typeof dropped === 'number' && Number.isInteger(dropped) && dropped >= 0 ? { dropped } : {}),
      ...(typeof next === 'number' && Number.isInteger(next) ? { next } : {}),
    };
  } catch {
    return {};
  }
}
