// Figures a) and b): start to first answer and idle resident memory, the daemon bundle and a bare
// node:http server started alternately so both see the same machine state.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bareArgs, bareEnv } from './baseline.ts';
import { freePort, rssMB, startServer } from './processes.ts';

export const AUTH_PATH = '/rest/api/v1/authentication';
const IDLE_MS = 1000;

export interface StartSample {
  startMs: number;
  rssMB: number;
}

async function sample(args: (port: number) => Promise<{ args: string[]; env?: NodeJS.ProcessEnv; cleanup?: () => Promise<void> }>): Promise<StartSample> {
  const port = await freePort();
  const { args: argv, env, cleanup } = await args(port);
  try {
    const server = await startServer(argv, port, AUTH_PATH, env);
    try {
      await sleep(IDLE_MS);
      return { startMs: server.startMs, rssMB: await rssMB(server.child.pid!) };
    } finally {
      await server.stop();
    }
  } finally {
    await cleanup?.();
  }
}

/** Each daemon (`node <bundle> <args…> --port N --data DIR`) and the bare server started in turn, `runs` rounds. */
export async function measureStarts<K extends string>(daemons: Record<K, string[]>, runs: number): Promise<Record<K | 'bare', StartSample[]>> {
  const out = { bare: [] as StartSample[] } as Record<K | 'bare', StartSample[]>;
  for (const k of Object.keys(daemons) as K[]) out[k] = [];
  for (let i = 0; i < runs; i++) {
    for (const k of Object.keys(daemons) as K[]) {
      out[k].push(
        await sample(async (port) => {
          const data = await mkdtemp(join(tmpdir(), 'bench-start-'));
          return { args: [...daemons[k], '--port', String(port), '--data', data], cleanup: () => rm(data, { recursive: true, force: true }) };
        }),
      );
    }
    out.bare.push(await sample(async (port) => ({ args: bareArgs(), env: bareEnv(port) })));
  }
  return out;
}
