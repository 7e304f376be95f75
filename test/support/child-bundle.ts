// What the kill -9 loops share (config store: crash-loop.ts; CSV logger: logger-power-loss.test.ts):
// the child bundled once with esbuild into a temp folder and run with plain `node` (a start then
// costs ~50 ms instead of tsx's few hundred), and a seeded generator so that a failing sequence of
// kills can be replayed.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Bundles `entry` into `<a new temp folder>/<name>`; returns the file and its folder (the caller removes it). */
export async function bundleChild(entry: URL, name: string): Promise<{ file: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), `${name}-bundle-`));
  const file = join(dir, name);
  await build({ entryPoints: [fileURLToPath(entry)], outfile: file, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'silent' });
  return { file, dir };
}

/** mulberry32: a small seeded generator of numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
