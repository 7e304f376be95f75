// Server processes for the bench: started on a free loopback port, timed to their first HTTP
// answer, sampled for resident memory, stopped. Every wait is bounded.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, freePorts, LOOPBACK } from '../support/ports.ts';

export const HOST = LOOPBACK;
/** Free ports come from the tests' one helper (test/support/ports.ts). */
export { freePort, freePorts };

/** One GET; resolves with the status of any answer, rejects on a connection error. */
export function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Buffer; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: HOST, port, path, headers, agent: false, timeout: 5000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
    });
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end();
  });
}

export interface Server {
  child: ChildProcess;
  port: number;
  /** ms from spawn to the first answered request */
  startMs: number;
  output(): string;
  stop(): Promise<void>;
}

/** BENCH_PROF=DIR: every server writes a V8 CPU profile into DIR when it exits (note: a profiler changes the figures). */
const profile = process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-interval=50', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [];

/**
 * Spawns `node args…` and polls every 2 ms until it answers (10 s at most): a GET of `ready` when it
 * is a path, else until the probe `ready` resolves true (e.g. `() => listening(port)` for a server
 * that speaks no HTTP).
 */
export async function startServer(args: string[], port: number, ready: string | (() => Promise<boolean>), env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [...profile, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (out += s));
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const done = await Promise.race([exited.then(() => true), sleep(3000).then(() => false)]);
    if (!done) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before answering: ${out.trim()}`);
    if (performance.now() - t0 > 10_000) {
      await stop();
      throw new Error(`server did not answer within 10 s: ${out.trim()}`);
    }
    try {
      if (typeof ready === 'string') {
        await get(port, ready);
        break;
      }
      if (await ready()) break;
    } catch {
      /* not answering yet */
    }
    await sleep(2);
  }
  return { child, port, startMs: performance.now() - t0, output: () => out, stop };
}

/** CPU time a process has used, user and system, in ms (/proc/<pid>/stat; its clock ticks are 1/100 s on Linux). */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // the fields after the command name, which may itself hold spaces: utime and stime are the 12th and 13th
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** Resident set size of a process in MB (VmRSS of /proc/<pid>/status). */
export async function rssMB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!kb) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kb[1]) / 1024;
}
