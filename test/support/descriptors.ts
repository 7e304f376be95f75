// The descriptors this process holds open on a file, from the links in /proc/self/fd: a test of a
// daemon that runs in the test's own process sees whether a handle on the file was left open.
import { readdir, readlink, realpath } from 'node:fs/promises';
import { join } from 'node:path';

/** How many descriptors of this process are open on `file`. */
export async function descriptorsOn(file: string): Promise<number> {
  const real = await realpath(file);
  let n = 0;
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(join('/proc/self/fd', fd)).catch(() => ''); // closed meanwhile (readdir's own)
    if (target === real) n++;
  }
  return n;
}
