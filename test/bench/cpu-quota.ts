// A CPU quota for one process through the cgroup v1 `cpu` controller, where the bench runs as root
// with /sys/fs/cgroup/cpu mounted writable (this sandbox; systemd-run, which would do the same on a
// systemd host, is not here). The group gets `percent` of one core per 100 ms period and the largest
// weight (cpu.shares), so that the process has its quota even when the machine's other work keeps
// every core busy: busy neighbour loops (slow-core.ts) give it a quarter of only what the core has
// left, 5 % of a core on this shared machine at a load of 25.
import { access, mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const CPU_CGROUP = '/sys/fs/cgroup/cpu';
const PERIOD_US = 100_000;
const MAX_SHARES = 262_144;

export interface CpuQuota {
  /** the periods in which the process used up its quota, and the time it waited for the next (cpu.stat) */
  throttled(): Promise<{ periods: number; throttledPeriods: number; throttledMs: number }>;
  /** sets the quota anew */
  set(percent: number): Promise<void>;
  /** removes the group; call after the process has exited (a group with a process in it cannot go) */
  remove(): Promise<void>;
}

/** Whether a quota can be set here. */
export async function canSetQuota(): Promise<boolean> {
  try {
    await access(join(CPU_CGROUP, 'cgroup.procs'), 2 /* W_OK */);
    return true;
  } catch {
    return false;
  }
}

/** Puts process `pid` (all its threads) into a group of its own limited to `percent` of one core. */
export async function setQuota(pid: number, percent: number): Promise<CpuQuota> {
  const dir = join(CPU_CGROUP, `bench-quota-${pid}`);
  await mkdir(dir);
  await writeFile(join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
  const set = (p: number) => writeFile(join(dir, 'cpu.cfs_quota_us'), String(Math.round((PERIOD_US * p) / 100)));
  await set(percent);
  await writeFile(join(dir, 'cpu.shares'), String(MAX_SHARES));
  await writeFile(join(dir, 'cgroup.procs'), String(pid));
  return {
    set,
    async throttled() {
      const stat = Object.fromEntries(
        (await readFile(join(dir, 'cpu.stat'), 'utf8'))
          .trim()
          .split('\n')
          .map((l) => l.split(' ') as [string, string]),
      );
      return { periods: Number(stat.nr_periods), throttledPeriods: Number(stat.nr_throttled), throttledMs: Number(stat.throttled_time) / 1e6 };
    },
    async remove() {
      for (let i = 0; i < 50; i++) {
        try {
          await rmdir(dir);
          return;
        } catch {
          await sleep(100); // the exited process's last threads still leaving the group
        }
      }
    },
  };
}
