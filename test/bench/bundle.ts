// The simulator daemon as one .mjs file (hono, valibot and the node server bundled in), so each
// start measures node plus our code, not tsx compiling TypeScript (build/node-bundle.ts: serialport
// stays outside, so the bundle is written inside the checkout, dist/bench, from where node finds
// node_modules).
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { NODE_BUNDLE } from '../../build/node-bundle.ts';

export interface Bundle {
  /** the entry, what node starts */
  file: string;
  /** the entry: what node reads and runs at start */
  bytes: number;
  gzipBytes: number;
  /** the entry and the chunks loaded when first used (the services' client libraries) */
  totalBytes: number;
}

export const BUNDLE_DIR = fileURLToPath(new URL('../../dist/bench/', import.meta.url));

export async function bundleSim(): Promise<Bundle> {
  const file = join(BUNDLE_DIR, 'sim.mjs');
  await rm(BUNDLE_DIR, { recursive: true, force: true });
  await build({ ...NODE_BUNDLE, entryPoints: { sim: fileURLToPath(new URL('../../sim/main.ts', import.meta.url)) }, outdir: BUNDLE_DIR, logLevel: 'silent' });
  const data = await readFile(file);
  const sizes = await Promise.all((await readdir(BUNDLE_DIR)).map(async (f) => (await stat(join(BUNDLE_DIR, f))).size));
  return { file, bytes: data.length, gzipBytes: gzipSync(data, { level: 9 }).length, totalBytes: sizes.reduce((a, b) => a + b, 0) };
}
