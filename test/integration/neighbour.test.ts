// A neighbour process (issue 15): two simulators with the built-in PLC configuration started side by
// side on one machine both come up. The second finds the virtual COM4 PLC's default ports (9094 and
// 502 → 10502 without root) taken by the first and takes free ones, and its banner says which.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePorts } from '../support/ports.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((r) => {
          if (c.exitCode !== null || c.signalCode !== null) return r();
          c.once('exit', () => r());
          c.kill('SIGTERM');
          setTimeout(() => c.kill('SIGKILL'), 5000).unref();
        }),
    ),
  );
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** Starts `npm start`'s simulator on `port`; resolves with its output once it printed its banner, or rejects when it exits. */
async function simulator(port: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'neighbour-'));
  dirs.push(dir);
  const c = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'sim/main.ts'), '--port', String(port), '--host', '127.0.0.1', '--data', dir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(c);
  let out = '';
  return new Promise((resolve, reject) => {
    const check = () => {
      if (/COM4 .*Modbus/.test(out)) resolve(out);
    };
    c.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      check();
    });
    c.stderr!.on('data', (b: Buffer) => {
      out += b.toString();
    });
    c.once('exit', (code) => reject(new Error(`simulator on ${port} exited (${code}):\n${out}`)));
  });
}

const com4Ports = (banner: string) => {
  const m = /COM4 .*?:(\d+) MEWTOCOL.*?:(\d+) Modbus/.exec(banner);
  return m ? [Number(m[1]), Number(m[2])] : [];
};

describe('two simulators side by side', () => {
  it('both come up; the second one moves its COM4 PLC to free ports and says so', async () => {
    const [a, b] = (await freePorts(2)) as [number, number];
    const first = await simulator(a);
    const second = await simulator(b);
    for (const port of [a, b]) expect((await fetch(`http://127.0.0.1:${port}/rest/api/v1/authentication`)).status).toBeLessThan(500);
    const [p1, p2] = [com4Ports(first), com4Ports(second)];
    expect(p1).toHaveLength(2);
    expect(p2).toHaveLength(2);
    expect(p2[0]).not.toBe(p1[0]);
    expect(p2[1]).not.toBe(p1[1]);
    // the first got the defaults unless something else on the machine (an `npm start`) holds them
    if (p1[0] === 9094) expect(second).toMatch(/9094 in use/);
  });
});
