// Test support: TCP ports handed out by the kernel. A listener on port 0 gets a free port, which is
// read and closed again, so the daemon (a redirect thread, a server under test) can take it. The
// only home of this logic for the tests and the bench (test/bench/processes.ts re-exports it).
import { type AddressInfo, createServer, type Server } from 'node:net';

/** Loopback: where the test daemon, its redirect threads and the bench servers listen. */
export const LOOPBACK = '127.0.0.1';

async function listenOnZero(host: string): Promise<Server> {
  const s = createServer();
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.listen(0, host, () => {
      s.off('error', reject);
      resolve();
    });
  });
  return s;
}

async function closeServer(s: Server): Promise<void> {
  await new Promise<void>((resolve) => s.close(() => resolve()));
}

/** A port the kernel just handed out on `host` (closed again, so a server can take it). */
export async function freePort(host = LOOPBACK): Promise<number> {
  const [port] = await freePorts(1, host);
  return port!;
}

/**
 * `n` distinct ports the kernel just handed out on `host`. The listeners are all held open until
 * every port is read, so the kernel cannot hand the same port out twice, then closed together.
 */
export async function freePorts(n: number, host = LOOPBACK): Promise<number[]> {
  if (!(Number.isInteger(n) && n >= 0)) throw new RangeError(`freePorts: ${n} is not a count`);
  const servers: Server[] = [];
  try {
    for (let i = 0; i < n; i++) servers.push(await listenOnZero(host));
    return servers.map((s) => (s.address() as AddressInfo).port);
  } finally {
    await Promise.all(servers.map(closeServer));
  }
}
