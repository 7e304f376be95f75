// docs/architecture.md "Hono on node:http", re-judged in every bench run: the daemon's own fetch
// classes and listener against @hono/node-server with node's own classes (which load undici), the
// same Hono app bundled the same way, started in turn. Figure: resident memory after 200 reads and
// 200 saves and 1 s idle, and the first answer's time. The rule the docs state: within 5 MB of ours,
// the well-kept path comes back and our classes go.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { NODE_BUNDLE } from '../../build/node-bundle.ts';
import { BUNDLE_DIR } from './bundle.ts';
import { freePort, get, rssMB, startServer } from './processes.ts';

const REQUESTS = 200;
const IDLE_MS = 1000;
const VARIANTS = { ours: 'fetch-classes/ours.ts', nodeServer: 'fetch-classes/node-server.ts' } as const;
type Variant = keyof typeof VARIANTS;

export interface FetchClassSample {
  rssMB: number;
  startMs: number;
}

async function bundle(): Promise<Record<Variant, string>> {
  const dir = join(BUNDLE_DIR, 'fetch-classes');
  const entries = Object.fromEntries(Object.entries(VARIANTS).map(([k, src]) => [k, fileURLToPath(new URL(src, import.meta.url))]));
  await build({ ...NODE_BUNDLE, minifyWhitespace: true, minifySyntax: true, legalComments: 'none', entryPoints: entries, outdir: dir, logLevel: 'silent' });
  return { ours: join(dir, 'ours.mjs'), nodeServer: join(dir, 'nodeServer.mjs') };
}

/** A save of the settings (POST with a JSON body); resolves when answered 200. */
async function save(port: number, body: string): Promise<void> {
  const r = await fetch(`http://127.0.0.1:${port}/config/pew_com`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`save answered ${r.status}`);
}

async function sample(file: string): Promise<FetchClassSample> {
  const port = await freePort();
  const server = await startServer([file], port, '/config/pew_com', { PORT: String(port) });
  try {
    for (let i = 0; i < REQUESTS; i++) {
      await get(port, '/config/pew_com');
      await save(port, JSON.stringify({ port: 9094 + (i % 10), timeout: 300 }));
    }
    await sleep(IDLE_MS);
    return { rssMB: await rssMB(server.child.pid!), startMs: server.startMs };
  } finally {
    await server.stop();
  }
}

/** Both servers started in turn, `runs` rounds. */
export async function measureFetchClasses(runs: number): Promise<Record<Variant, FetchClassSample[]>> {
  const files = await bundle();
  const out: Record<Variant, FetchClassSample[]> = { ours: [], nodeServer: [] };
  for (let i = 0; i < runs; i++) for (const k of Object.keys(files) as Variant[]) out[k].push(await sample(files[k]));
  return out;
}
