// Figure c): GET /config/<section> under load, the daemon (logged in as the admin) against a bare
// node:http server that answers the very same JSON bytes, by turns in rounds per section.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bareArgs, bareEnv } from './baseline.ts';
import { type Load, load } from './load.ts';
import { freePort, HOST, type Server, startServer } from './processes.ts';
import { AUTH_PATH } from './start.ts';
import { median } from './stats.ts';

// AUTH-3 policy: 8-40 chars with upper, lower, digit and special
const ADMIN = { username: 'admin', password: 'Bench-Passw0rd!' };
const WARM_UP_SECONDS = 1;
/** rounds of SECONDS a side, by turns */
export const LOAD_ROUNDS = 3;

const medianLoad = (runs: Load[]): Load => ({ rps: median(runs.map((r) => r.rps)), p99Ms: median(runs.map((r) => r.p99Ms)) });

export interface SectionLoad {
  section: string;
  bytes: number;
  ours: Load;
  bare: Load;
}

/** Creates the first admin and returns the session cookie (`sid=…`). */
async function setupAdmin(port: number): Promise<string> {
  const res = await fetch(`http://${HOST}:${port}${AUTH_PATH}/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (res.status !== 201 || !cookie?.startsWith('sid=')) throw new Error(`admin setup failed: ${res.status} ${await res.text()}`);
  return cookie;
}

/** `daemon`: the bundle and its arguments before `--port` and `--data` (the unit's with `--tls-port off`). */
export async function measureThroughput(daemon: string[], sections: readonly string[]): Promise<SectionLoad[]> {
  const data = await mkdtemp(join(tmpdir(), 'bench-load-'));
  const servers: Server[] = [];
  try {
    const port = await freePort();
    servers.push(await startServer([...daemon, '--port', String(port), '--data', data], port, AUTH_PATH));
    const cookie = await setupAdmin(port);
    const bodies: Record<string, string> = {};
    for (const s of sections) {
      const res = await fetch(`http://${HOST}:${port}/config/${s}`, { headers: { cookie } });
      if (res.status !== 200) throw new Error(`GET /config/${s}: ${res.status}`);
      bodies[`/config/${s}`] = await res.text();
    }
    const barePort = await freePort();
    servers.push(await startServer(bareArgs(), barePort, '/', bareEnv(barePort, bodies)));

    const out: SectionLoad[] = [];
    // one second of the same load first, on both servers, discarded: the figures are of servers past
    // their start (code compiled, pools grown), not of the first requests after it
    for (const s of sections) {
      await load(`http://${HOST}:${port}/config/${s}`, { cookie }, WARM_UP_SECONDS);
      await load(`http://${HOST}:${barePort}/config/${s}`, {}, WARM_UP_SECONDS);
    }
    // by turns, LOAD_ROUNDS rounds a side, so that both see the same machine (this host moves a
    // bare server's rate by half from one minute to the next); the medians of the rounds
    for (const s of sections) {
      const ours: Load[] = [];
      const bare: Load[] = [];
      for (let round = 0; round < LOAD_ROUNDS; round++) {
        ours.push(await load(`http://${HOST}:${port}/config/${s}`, { cookie }));
        bare.push(await load(`http://${HOST}:${barePort}/config/${s}`));
      }
      out.push({ section: s, bytes: Buffer.byteLength(bodies[`/config/${s}`]!), ours: medianLoad(ours), bare: medianLoad(bare) });
    }
    return out;
  } finally {
    for (const s of servers) await s.stop();
    await rm(data, { recursive: true, force: true });
  }
}
