import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_BUNDLE } from './node-bundle.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

// The Sparkplug payload code bundled as the daemon is (build/node-bundle.ts) and run by plain node
// from a folder with no node_modules near it: protobufjs must find the bundled long.js, or 64-bit
// values would come out as lossy numbers (docs/sparkplug.md); and protobufjs sits in a chunk of its own.
const ENTRY = `
import { DATATYPES } from ${JSON.stringify(join(ROOT, 'device/sparkplug/types.ts'))};
import { commandValue, ddataMessage, loadPayloads } from ${JSON.stringify(join(ROOT, 'device/sparkplug/payload.ts'))};
const c = await loadPayloads();
const metric = (alias, datatype) => ({ name: 'm', alias, datatype, unit: '' });
const bytes = c.encode(ddataMessage({ timestamp: 1, seq: 0, values: [
  { metric: metric(1, DATATYPES.Int64), value: -2n, timestamp: 1 },
  { metric: metric(2, DATATYPES.UInt64), value: 2n ** 64n - 1n, timestamp: 1 },
  { metric: metric(3, DATATYPES.Int64), value: -(2n ** 63n), timestamp: 1 },
] }));
const r = c.decodeCommand(bytes);
if (!r.ok) throw new Error(r.reason);
const types = [DATATYPES.Int64, DATATYPES.UInt64, DATATYPES.Int64];
console.log(r.command.metrics.map((m, i) => String(commandValue(types[i], m).value)).join(' '));
`;

describe('the Sparkplug payload code in the daemon bundle', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'spb-bundle-'));
    await writeFile(join(dir, 'entry.mjs'), ENTRY);
    await build({
      ...NODE_BUNDLE,
      entryPoints: { daemon: join(dir, 'entry.mjs') },
      outdir: join(dir, 'out'),
      minify: true,
      legalComments: 'none',
      logLevel: 'error',
    });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('keeps 64-bit values exact (Int64 negatives, UInt64 and Int64 extremes) with the bundled long.js', async () => {
    const { stdout } = await run(process.execPath, [join(dir, 'out', 'daemon.mjs')], { cwd: dir });
    expect(stdout.trim()).toBe(`-2 ${2n ** 64n - 1n} ${-(2n ** 63n)}`);
  });

  it('loads protobufjs in a chunk of its own, not with the daemon entry', async () => {
    const files = await readdir(join(dir, 'out'));
    const texts = await Promise.all(files.map(async (f) => [f, await readFile(join(dir, 'out', f), 'utf8')] as const));
    const proto = texts.filter(([, t]) => t.includes('invalid wire type'));
    expect(proto.map(([f]) => f)).toHaveLength(1);
    expect(proto[0]![0]).not.toBe('daemon.mjs');
  });
});
