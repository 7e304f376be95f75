// The simulator daemon as one .mjs file (hono, valibot and the node server bundled in), so each
// start measures node plus our code, not tsx compiling TypeScript (build/node-bundle.ts: serialport
// stays outside, so the bundle is written inside the checkout, dist/bench, from where node finds
// node_modules). Minified like the firmware image's daemon (build/image.ts), identifiers kept so
// that BENCH_PROF profiles stay readable. The unit's daemon (device/unit.ts) is bundled the same
// way into dist/bench/unit, so the bench measures both variants.
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { FRAME_WORKER_ENTRY, NODE_BUNDLE } from '../../build/node-bundle.ts';

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

async function bundleEntry(name: string, source: string, dir: string): Promise<Bundle> {
  const file = join(dir, `${name}.mjs`);
  await build({
    ...NODE_BUNDLE,
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    entryPoints: { [name]: fileURLToPath(new URL(source, import.meta.url)), ...FRAME_WORKER_ENTRY },
    outdir: dir,
    logLevel: 'silent',
  });
  const data = await readFile(file);
  const files = (await readdir(dir, { withFileTypes: true })).filter((f) => f.isFile());
  const sizes = await Promise.all(files.map(async (f) => (await stat(join(dir, f.name))).size));
  return { file, bytes: data.length, gzipBytes: gzipSync(data, { level: 9 }).length, totalBytes: sizes.reduce((a, b) => a + b, 0) };
}

export async function bundleSim(): Promise<Bundle> {
  await rm(BUNDLE_DIR, { recursive: true, force: true });
  return bundleEntry('sim', '../../sim/main.ts', BUNDLE_DIR);
}

/** The unit's daemon (run it with `--tls-port off` to measure it over plain HTTP beside the simulator). */
export const bundleUnit = (): Promise<Bundle> => bundleEntry('unit', '../../device/unit.ts', join(BUNDLE_DIR, 'unit'));
