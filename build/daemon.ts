// The unit's daemon as it runs in production: device/unit.ts bundled by esbuild into
// dist/daemon/daemon.mjs (the same bundle as in the firmware image, build/image.ts), so that
// `npm run daemon` starts plain node on a built file instead of compiling TypeScript and the
// console at every start. `npm run build` runs it after the console's build.
import { rm } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pkg from '../package.json' with { type: 'json' };
import { bundleDaemon, DAEMON_ENTRY } from './image.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DAEMON_FILE = resolve(ROOT, DAEMON_ENTRY);

/** Bundles the unit's daemon into `<root>/dist/daemon/`; the console is served from `<root>/dist/web`. */
export async function buildDaemon(root = ROOT): Promise<string> {
  const file = resolve(root, DAEMON_ENTRY);
  // the chunks have hashed names: the old ones must not pile up
  await rm(dirname(file), { recursive: true, force: true });
  await bundleDaemon('unit', pkg.version, dirname(file));
  return file;
}

async function main(): Promise<void> {
  try {
    const file = await buildDaemon();
    console.log(`daemon built into ${relative(process.cwd(), file)}: npm run daemon -- --help`);
  } catch (e) {
    console.error(`daemon build failed: ${(e as Error).message.split('\n')[0]}`);
    process.exit(1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main();
