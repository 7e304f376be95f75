// A small volume for tests of a full or nearly full medium: a tmpfs of a few MiB mounted on a
// folder (the tests run as root on the test machine; test/run.sh). Its free space is what statfs
// says, as on the unit, so the low-memory policy meets real block sizes and real ENOSPC.
import { execFile } from 'node:child_process';
import { mkdir, rm, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface SmallVolume {
  dir: string;
  /** free bytes as the daemon sees them (statfs bavail) */
  free(): Promise<number>;
  /** makes the volume's free space `bytes` (± one block) with a file that is no log file */
  leaveFree(bytes: number): Promise<void>;
  unmount(): Promise<void>;
}

const FILLER = 'filler.bin';

/** Mounts a tmpfs of `bytes` on `dir` (created when missing); throws with mount's message when that is not possible. */
export async function mountSmallVolume(dir: string, bytes: number): Promise<SmallVolume> {
  await mkdir(dir, { recursive: true });
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0755`, 'tmpfs', dir]);
  } catch (e) {
    throw new Error(`a small volume needs a tmpfs mount (root): ${(e as Error).message}`);
  }
  const free = async () => {
    const s = await statfs(dir);
    return s.bavail * s.bsize;
  };
  return {
    dir,
    free,
    async leaveFree(target) {
      await rm(join(dir, FILLER), { force: true });
      const have = await free();
      if (have < target) throw new Error(`only ${have} bytes free, ${target} asked for`);
      await writeFile(join(dir, FILLER), Buffer.alloc(have - target));
    },
    async unmount() {
      await run('umount', [dir]).catch(() => run('umount', ['-l', dir]));
    },
  };
}
