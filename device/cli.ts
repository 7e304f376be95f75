// Shared start-up of the daemon's command-line entries: options, start, Ctrl+C.
import type { Hw } from '../hw/types.ts';
import type { RouteDef } from './api/route.ts';
import { startDaemon } from './main.ts';
import { parseDaemonOptions, USAGE, type DaemonCliOptions } from './options.ts';

/** What a variant (the simulator, the unit) brings to the daemon. */
export interface Variant {
  hw: Hw;
  routes?: readonly RouteDef[];
  /** the console's HTTPS port unless `--tls-port` says otherwise; absent: plain HTTP (security.md TLS-2) */
  tlsPort?: number;
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
    const tlsPort = opts.tlsPort === 'off' ? undefined : opts.tlsPort ?? variant.tlsPort;
    const daemon = await startDaemon({ hw: variant.hw, dataDir: opts.dataDir, port: opts.port, host: opts.host, extraRoutes: variant.routes, devOrigin: opts.devOrigin, tlsPort });
    console.log(`${name} running: ${daemon.url}  (data in ${opts.dataDir}; Ctrl+C stops it)`);
    if (daemon.tlsPort !== undefined) {
      const cert = daemon.ctx.consoleTls!.certificate();
      console.log(`  HTTP port ${daemon.port} redirects to HTTPS; certificate (${cert.source}) SHA-256 ${cert.fingerprint256}`);
    }
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
    console.error(err.code === 'EADDRINUSE' ? `Port ${(err as { port?: number }).port ?? opts.port} is already in use: choose another with --port N (or --tls-port N)` : `${name} failed to start: ${err.message}`);
    process.exit(1);
  }
}
