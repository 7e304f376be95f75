// The simulator daemon as one .mjs file (hono, valibot and the node server bundled in), so each
// start measures node plus our code, not tsx compiling TypeScript. `serialport` stays outside: it
// loads a native binding from its own folder, so the bundle is written inside the checkout
// (dist/bench), from where node finds node_modules.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export interface Bundle {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export const BUNDLE_DIR = fileURLToPath(new URL('../../dist/bench/', import.meta.url));

export async function bundleSim(): Promise<Bundle> {
  const file = join(BUNDLE_DIR, 'sim.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('../../sim/main.ts', import.meta.url))],
    outfile: file, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'bundle', logLevel: 'silent',
    external: ['serialport'],
  });
  const data = await readFile(file);
  return { file, bytes: data.length, gzipBytes: gzipSync(data, { level: 9 }).length };
}
