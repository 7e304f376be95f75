// Where a running simulator can be found: `npm start` writes its URL into its data folder once it
// answers and removes it when it stops, so `npm run plc` reaches the simulator of a data folder
// whatever port it took (--port N, or 0 for a free one).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const SIM_URL_FILE = 'simulator.json';

interface SimUrlFile {
  url: string;
  pid: number;
}

export async function writeSimUrl(dataDir: string, url: string): Promise<void> {
  await writeFile(join(dataDir, SIM_URL_FILE), `${JSON.stringify({ url, pid: process.pid } satisfies SimUrlFile)}\n`);
}

/** Removes the file when this process wrote it (another simulator may have taken the folder since). */
export async function removeSimUrl(dataDir: string): Promise<void> {
  const file = join(dataDir, SIM_URL_FILE);
  const got = await readFile(file, 'utf8').then(
    (t) => JSON.parse(t) as Partial<SimUrlFile>,
    () => undefined,
  );
  if (got?.pid === process.pid) await rm(file, { force: true });
}

/** The URL of the simulator running on `dataDir`, or undefined when none wrote one. */
export async function readSimUrl(dataDir: string): Promise<string | undefined> {
  try {
    const got = JSON.parse(await readFile(join(dataDir, SIM_URL_FILE), 'utf8')) as Partial<SimUrlFile>;
    return typeof got.url === 'string' && /^https?:\/\//.test(got.url) ? got.url : undefined;
  } catch {
    return undefined;
  }
}
