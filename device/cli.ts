// Shared start-up of the daemon's command-line entries: options, start, Ctrl+C.
import type { Hw } from '../hw/types.ts';
import type { RouteDef } from './api/route.ts';
import { startDaemon } from './main.ts';
import { parseDaemonOptions, USAGE, type DaemonCliOptions } from './options.ts';

/** What a variant (the simulator, the unit) brings to the daemon. */
export interface Variant {
  hw: Hw;
  routes?: readonly RouteDef[];
  /** lines printed after the start-up line */
  banner?: string[];
  close?(): Promise<void>;
}

export async function runDaemonCli(name: string, setup: (opts: DaemonCliOptions) => Promise<Variant>): Promise<void> {
  let opts: DaemonCliOptions;
  try {
    opts = parseDaemonOptions(process.argv.slice(2), process.env, process.cwd());
  } catch (e) {
    console.error((e as Error).message);
    console.error(USAGE);
    process.exit(2);
  }
  let variant: Variant | undefined;
  try {
    variant = await setup(opts);
    const daemon = await startDaemon({ hw: variant.hw, dataDir: opts.dataDir, port: opts.port, host: opts.host, extraRoutes: variant.routes });
    console.log(`${name} running: ${daemon.url}  (data in ${opts.dataDir}; Ctrl+C stops it)`);
    for (const line of variant.banner ?? []) console.log('  ' + line);
    const stop = async () => {
      await daemon.close();
      await variant?.close?.();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    await variant?.close?.().catch(() => {});
    console.error(startError(err, opts.port, name));
    process.exit(1);
  }
}

/**
 * The start-up failure in one line, naming the socket that failed: the console's HTTP port (then
 * --port helps), or another one (a virtual PLC's socket, whose message says which and what to do).
 */
export function startError(err: NodeJS.ErrnoException & { port?: number; address?: string }, httpPort: number, name: string): string {
  if (err.code === 'EADDRINUSE' && err.port === httpPort) return `Port ${httpPort} (the console's HTTP port${err.address ? ` on ${err.address}` : ''}) is already in use: choose another with --port N`;
  if (err.code === 'EADDRINUSE' && err.port !== undefined) return `${name} failed to start: ${err.address ?? ''}:${err.port} is already in use`;
  return `${name} failed to start: ${err.message}`;
}
