// The unit's side of the console figures: the daemon on one core at about a quarter of its speed.
// A cgroup CPU quota (systemd-run --scope -p CPUQuota=25%) needs systemd as init, which this
// sandbox and most CI containers lack, so the daemon is pinned with taskset to one core shared with
// three busy neighbour processes pinned there too: the kernel's fair scheduler gives each of the four
// a quarter of the core while all are runnable. `quarterCore` (the unit load part) sets a cgroup
// quota directly where the cgroup v1 cpu controller is writable (cpu-quota.ts): busy neighbours
// give only a quarter of what the core has left, far less on a busy machine.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { FRAME_WORKER_ENTRY, NODE_BUNDLE } from '../../build/node-bundle.ts';
import { BUNDLE_DIR } from './bundle.ts';
import { type CpuQuota, canSetQuota, setQuota } from './cpu-quota.ts';

export const NEIGHBOURS = 3;

export interface SlowDaemon {
  url: string;
  cookie: string;
  core: number;
  stop(): Promise<void>;
}

const stopChild = async (c: ChildProcess) => {
  if (c.exitCode !== null || c.signalCode !== null) return;
  const exited = once(c, 'exit');
  c.kill('SIGTERM');
  const t = setTimeout(() => c.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(t);
};

/** `n` busy `sh` loops pinned to `core`. */
const busyLoops = (core: number, n: number): ChildProcess[] =>
  Array.from({ length: n }, () => spawn('taskset', ['-c', String(core), 'sh', '-c', 'while :; do :; done'], { stdio: 'ignore' }));

export interface QuarterCore {
  /** how the process was slowed, for the notes */
  how: string;
  /** the periods in which it used up a quota, when one was set */
  throttled?: CpuQuota['throttled'];
  /** slows it `factor` times more: a `factor` times smaller quota, or `factor` times as many processes on the core */
  slower(factor: number): Promise<void>;
  /** undoes it; call after the process has exited */
  release(): Promise<void>;
}

/**
 * Limits a running process, every thread of it, to a quarter of the last core (the threads it starts
 * later inherit it): a cgroup quota of 25 % where one can be set (cpu-quota.ts), which holds on a busy
 * machine too, else `neighbours` busy loops beside it on that core.
 */
export async function quarterCore(pid: number, neighbours = NEIGHBOURS): Promise<QuarterCore> {
  const core = availableParallelism() - 1;
  const pin = spawn('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
  const [code] = (await once(pin, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`taskset could not pin process ${pid} (exit ${code})`);
  if (await canSetQuota()) {
    const percent = 100 / (neighbours + 1);
    const q = await setQuota(pid, percent);
    return {
      how: `cgroup quota ${Math.round(percent)} % of core ${core}`,
      throttled: q.throttled,
      slower: (factor) => q.set(percent / factor),
      release: q.remove,
    };
  }
  const loops = busyLoops(core, neighbours);
  return {
    how: `pinned to core ${core} beside ${neighbours} busy loops`,
    slower: async (factor) => {
      loops.push(...busyLoops(core, (neighbours + 1) * factor - 1 - loops.length));
    },
    release: async () => {
      await Promise.all(loops.map(stopChild));
    },
  };
}

/** Starts test/bench/console-daemon.ts (bundled) serving `webDir` on the last core with `neighbours` busy loops beside it. */
export async function startSlowDaemon(webDir: string, neighbours = NEIGHBOURS): Promise<SlowDaemon> {
  const dir = join(BUNDLE_DIR, 'console-daemon');
  await build({
    ...NODE_BUNDLE,
    minifyWhitespace: true,
    minifySyntax: true,
    entryPoints: { 'console-daemon': fileURLToPath(new URL('./console-daemon.ts', import.meta.url)), ...FRAME_WORKER_ENTRY },
    outdir: dir,
    logLevel: 'silent',
  });
  const core = availableParallelism() - 1;
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map(stopChild));
  };
  try {
    children.push(...busyLoops(core, neighbours));
    const d = spawn('taskset', ['-c', String(core), process.execPath, join(dir, 'console-daemon.mjs'), webDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(d);
    const lines = createInterface({ input: d.stdout! });
    const first = await Promise.race([
      once(lines, 'line').then(([l]) => l as string),
      once(d, 'exit').then(([code]) => {
        throw new Error(`the slowed daemon exited (${code}) before answering`);
      }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the slowed daemon did not start within 60 s')), 60_000).unref()),
    ]);
    const { url, cookie } = JSON.parse(first) as { url: string; cookie: string };
    return { url, cookie, core, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
