// The simulator daemon as one .mjs file (hono, valibot and the node server bundled in), so each
// start measures node plus our code, not tsx compiling TypeScript (build/node-bundle.ts: serialport
// stays outside, so the bundle is written inside the checkout, dist/bench, from where node finds
// node_modules).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { NODE_BUNDLE } from '../../build/node-bundle.ts';

export interface Bundle {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export const BUNDLE_DIR = fileURLToPath(new URL('../../dist/bench/', import.meta.url));

export async function bundleSim(): Promise<Bundle> {
  const file = join(BUNDLE_DIR, 'sim.mjs');
  await build({ ...NODE_BUNDLE, entryPoints: [fileURLToPath(new URL('../../sim/main.ts', import.meta.url))], outfile: file, logLevel: 'silent' });
  const data = await readFile(file);
  return { file, bytes: data.length, gzipBytes: gzipSync(data, { level: 9 }).length };
}
