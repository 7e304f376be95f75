// Bounded HTTP load on loopback with autocannon: fixed connections and duration, plus a hard
// stop if the run overstays, so a stuck server cannot hang the bench.
import autocannon from 'autocannon';

export const CONNECTIONS = 50;
export const SECONDS = 3;

export interface Load {
  /** median of the per-second request counts */
  rps: number;
  p99Ms: number;
}

export async function load(url: string, headers: Record<string, string> = {}, seconds = SECONDS): Promise<Load> {
  const run = autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  const guard = setTimeout(() => run.stop(), (seconds + 15) * 1000);
  try {
    const r = await run;
    if (r.errors || r.non2xx) throw new Error(`${url}: ${r.errors} errors, ${r.non2xx} non-2xx answers under load`);
    return { rps: r.requests.p50, p99Ms: r.latency.p99 };
  } finally {
    clearTimeout(guard);
  }
}
