// The esbuild options every daemon bundle shares (the firmware image, the bench's simulator): one
// ESM file for the unit's Node with the npm packages inside. Some bundled packages are CommonJS
// and `require` node's built-ins (pg, mysql2, mongodb, tedious …); an ES module has no `require`,
// so the banner gives the bundle one made by createRequire. serialport stays outside: it loads a
// native binding from its own folder. Split: what is loaded by `import()` (the services' client
// libraries, device/services/drivers.ts) goes into chunks of its own, read only when first used, so
// the daemon starts without parsing megabytes it may never need. The entry is `<name>.mjs` in the
// output folder, its chunks `chunk-<hash>.mjs` beside it, and the first frame's render thread
// `first-frame-worker.mjs` (FRAME_WORKER_ENTRY), which the daemon starts from the file beside it.
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { FRAME_WORKER } from '../device/api/first-frame.ts';

export const NODE_BUNDLE: BuildOptions = {
  bundle: true,
  splitting: true,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunk-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'bundle',
  external: ['serialport'],
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
};

/**
 * The module the daemon runs the console's first frame in, in a thread of its own
 * (device/api/first-frame.ts): an entry of every daemon bundle, beside the daemon's entry.
 */
export const FRAME_WORKER_ENTRY: Record<string, string> = {
  [FRAME_WORKER]: fileURLToPath(new URL(`../device/api/${FRAME_WORKER}.ts`, import.meta.url)),
};
