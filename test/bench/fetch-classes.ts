// docs/architecture.md "Hono on node:http", re-judged in every bench run with the real daemon: the
// simulator's and the unit's daemon (sim/main.ts, device/unit.ts) bundled as the bench bundles them
// (bundle.ts), in three variants that differ only in the modules swapped in at bundle time, so the
// product keeps no switch for them:
// - ours: as built, the daemon's own fetch classes (device/net/fetch/) and listener;
// - nodeServer: @hono/node-server's listener with node's own classes (fetch-classes/node-server-listener.ts
//   for device/net/hono-listener.ts, fetch-classes/node-classes.ts for device/net/fetch/install.ts);
// - ourListener: our listener with node's own classes in the globals (only install.ts swapped).
// Each started in turn, the same workload: the first answer, sign in, the console's start requests,
// 200 reads and 200 saves of a section, 1 s idle. Figures: resident memory then, and the time to the
// first answer. The rule the docs state: within 5 MB of ours, the well-kept path comes back.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { FRAME_WORKER_ENTRY, NODE_BUNDLE } from '../../build/node-bundle.ts';
import { DAEMON_NODE_FLAGS } from '../../device/firmware/node-flags.ts';
import type { Mqtt } from '../../device/model/sections/mqtt.ts';
import { AUTH_PATH, START_DATA_PATHS } from '../../device/model/start-answers.ts';
import { ADMIN, Client } from '../support/daemon.ts';
import { BUNDLE_DIR } from './bundle.ts';
import { freePort, HOST, rssMB, startServer } from './processes.ts';

export const FETCH_REQUESTS = 200;
const IDLE_MS = 1000;
const SECTION = '/config/pew_mqtt';

export const FETCH_VARIANTS = ['ours', 'nodeServer', 'ourListener'] as const;
export type FetchVariant = (typeof FETCH_VARIANTS)[number];
const DAEMONS = { sim: { entry: '../../sim/main.ts', args: [] }, unit: { entry: '../../device/unit.ts', args: ['--tls-port', 'off'] } } as const;
export type FetchDaemon = keyof typeof DAEMONS;

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
/** device module → the bench's module bundled in its place, per variant */
const SWAPS: Record<FetchVariant, Record<string, string>> = {
  ours: {},
  nodeServer: {
    'device/net/hono-listener.ts': here('fetch-classes/node-server-listener.ts'),
    'device/net/fetch/install.ts': here('fetch-classes/node-classes.ts'),
  },
  ourListener: { 'device/net/fetch/install.ts': here('fetch-classes/node-classes.ts') },
};

/** Loads each swapped module's stand-in instead (imports resolved from the stand-in's folder). */
function swap(map: Record<string, string>): Plugin {
  return {
    name: 'fetch-classes-swap',
    setup(b) {
      b.onLoad({ filter: /device\/net\/(hono-listener|fetch\/install)\.ts$/ }, async (args) => {
        const by = Object.entries(map).find(([k]) => args.path.endsWith(k))?.[1];
        if (!by) return undefined;
        return { contents: await readFile(by, 'utf8'), loader: 'ts', resolveDir: dirname(by) };
      });
    },
  };
}

export interface FetchClassSample {
  rssMB: number;
  startMs: number;
}

async function bundle(daemon: FetchDaemon, variant: FetchVariant): Promise<string> {
  const dir = join(BUNDLE_DIR, 'fetch-classes', `${daemon}-${variant}`);
  await build({
    ...NODE_BUNDLE,
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    entryPoints: { [daemon]: here(DAEMONS[daemon].entry), ...FRAME_WORKER_ENTRY },
    outdir: dir,
    logLevel: 'silent',
    plugins: [swap(SWAPS[variant])],
  });
  return join(dir, `${daemon}.mjs`);
}

/** The console's way in and a session's work: sign in, the start requests, reads and saves of one section. */
async function workload(port: number): Promise<void> {
  const admin = new Client(`http://${HOST}:${port}`);
  const ok = (what: string, r: { status: number; text: string }) => {
    if (r.status < 200 || r.status > 299) throw new Error(`${what} answered ${r.status}: ${r.text.slice(0, 200)}`);
  };
  ok('setup', await admin.post(`${AUTH_PATH}/setup`, ADMIN));
  await admin.login(ADMIN);
  for (const path of [AUTH_PATH, ...START_DATA_PATHS]) ok(path, await admin.get(path));
  for (let i = 0; i < FETCH_REQUESTS; i++) {
    const read = await admin.get(SECTION);
    ok('read', read);
    ok('save', await admin.post(SECTION, { ...(read.body as Mqtt), keep_alive: 60 + (i % 10) }));
  }
}

async function sample(daemon: FetchDaemon, file: string): Promise<FetchClassSample> {
  const port = await freePort();
  const data = await mkdtemp(join(tmpdir(), 'bench-fetch-'));
  try {
    const server = await startServer([...DAEMON_NODE_FLAGS, file, ...DAEMONS[daemon].args, '--port', String(port), '--data', data], port, AUTH_PATH);
    try {
      await workload(port);
      await sleep(IDLE_MS);
      return { rssMB: await rssMB(server.child.pid!), startMs: server.startMs };
    } finally {
      await server.stop();
    }
  } finally {
    await rm(data, { recursive: true, force: true });
  }
}

/** Every daemon in every variant, started in turn (the variants' order turning each round), `runs` rounds. */
export async function measureFetchClasses(
  runs: number,
  daemons: readonly FetchDaemon[] = ['sim', 'unit'],
): Promise<Record<FetchDaemon, Record<FetchVariant, FetchClassSample[]>>> {
  const files = {} as Record<FetchDaemon, Record<FetchVariant, string>>;
  const out = {} as Record<FetchDaemon, Record<FetchVariant, FetchClassSample[]>>;
  for (const d of daemons) {
    files[d] = {} as Record<FetchVariant, string>;
    out[d] = { ours: [], nodeServer: [], ourListener: [] };
    for (const v of FETCH_VARIANTS) files[d][v] = await bundle(d, v);
  }
  for (let i = 0; i < runs; i++) {
    const order = FETCH_VARIANTS.map((_, j) => FETCH_VARIANTS[(i + j) % FETCH_VARIANTS.length]!);
    for (const d of daemons) for (const v of order) out[d][v].push(await sample(d, files[d][v]));
  }
  return out;
}
