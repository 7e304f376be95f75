// A daemon forked by the supervisor stops when the supervisor goes away, also when it went away
// before the daemon had loaded (device/firmware/supervised.ts): no daemon is left holding the port.
import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SUPERVISED = fileURLToPath(new URL('./supervised.ts', import.meta.url));
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'supervised-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Forks `script` (kept alive by an interval) with an IPC channel; resolves with how it ended, or 'alive' after `ms`. */
async function run(script: string, ms: number): Promise<string> {
  const file = join(dir, `child-${Math.random().toString(36).slice(2)}.mjs`);
  await writeFile(file, script);
  const c = fork(file, [], { execArgv: ['--import', 'tsx'], stdio: 'ignore' });
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      c.kill('SIGKILL');
      resolve('alive');
    }, ms);
    c.once('exit', (code, signal) => {
      clearTimeout(t);
      resolve(signal ?? `exit ${code}`);
    });
  });
}

describe('a supervised daemon', () => {
  it('stops when the channel closes after it loaded', async () => {
    const script = `setInterval(() => {}, 1000);
await import(${JSON.stringify(SUPERVISED)});
setTimeout(() => process.disconnect(), 100);`;
    expect(await run(script, 15_000)).toBe('SIGTERM');
  });

  it('stops at once when the channel had closed before it loaded (its disconnect passed unheard)', async () => {
    const script = `setInterval(() => {}, 1000);
process.disconnect();
await new Promise((r) => setTimeout(r, 200));
await import(${JSON.stringify(SUPERVISED)});`;
    expect(await run(script, 15_000)).toBe('SIGTERM');
  });
});
