// Shared start-up of the daemon's command-line entries: options (--help), start, one log line on
// start and one on stop (Ctrl+C or SIGTERM, e.g. from systemd).
import type { Hw } from '../hw/types.ts';
import type { RouteDef } from './api/route.ts';
import { startDaemon } from './main.ts';
import { type DaemonCliOptions, type DaemonKind, daemonHelp, parseDaemonOptions, wantsHelp } from './options.ts';
import { resetAdmin } from './reset-admin.ts';

/** What a variant (the simulator, the unit) brings to the daemon. */
export interface Variant {
  hw: Hw;
  routes?: readonly RouteDef[];
  /** the console's HTTPS port unless `--tls-port` says otherwise; absent: plain HTTP (security.md TLS-2) */
  tlsPort?: number;
  /** lines printed after the start-up line */
  banner?: string[];
  /** called once the daemon answers on `url` (the port is known only then when --port 0) */
  listening?(url: string): Promise<void>;
  close?(): Promise<void>;
}

export async function runDaemonCli(kind: DaemonKind, setup: (opts: DaemonCliOptions) => Promise<Variant>): Promise<void> {
  const name = kind === 'simulator' ? 'Simulator' : 'Daemon';
  const argv = process.argv.slice(2);
  if (wantsHelp(argv)) {
    console.log(daemonHelp(kind));
    process.exit(0);
  }
  // `reset-admin [--data DIR]`: the owner's way back from a login lockout (docs/login-security.md)
  const command = argv[0] === 'reset-admin' ? argv.shift() : undefined;
  let opts: DaemonCliOptions;
  try {
    opts = parseDaemonOptions(argv, process.env, process.cwd());
  } catch (e) {
    console.error(`${(e as Error).message} (--help lists the options)`);
    process.exit(2);
  }
  if (command) return resetAdmin(opts.dataDir);
  let variant: Variant | undefined;
  try {
    variant = await setup(opts);
    const tlsPort = opts.tlsPort === 'off' ? undefined : (opts.tlsPort ?? variant.tlsPort);
    const daemon = await startDaemon({
      hw: variant.hw,
      dataDir: opts.dataDir,
      port: opts.port,
      host: opts.host,
      extraRoutes: variant.routes,
      devOrigin: opts.devOrigin,
      tlsPort,
    });
    await variant.listening?.(daemon.url);
    console.log(`${name} running: ${daemon.url}  (data in ${opts.dataDir}; Ctrl+C stops it)`);
    if (daemon.tlsPort !== undefined) {
      const cert = daemon.ctx.consoleTls!.certificate();
      console.log(`  HTTP port ${daemon.port} redirects to HTTPS; certificate (${cert.source}) SHA-256 ${cert.fingerprint256}`);
    }
    for (const line of variant.banner ?? []) console.log(`  ${line}`);
    const stop = async (signal: NodeJS.Signals) => {
      let failed = false;
      await daemon.close().catch((e: Error) => {
        failed = true;
        console.error(`${name}: stopping the daemon failed: ${e.message}`);
      });
      await variant?.close?.().catch((e: Error) => {
        failed = true;
        console.error(`${name}: stopping failed: ${e.message}`);
      });
      console.log(`${name} stopped (${signal})`);
      process.exit(failed ? 1 : 0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    await variant?.close?.().catch(() => {});
    console.error(startError(err, opts.port, name, opts.tlsPort === 'off' ? undefined : (opts.tlsPort ?? variant?.tlsPort)));
    process.exit(1);
  }
}

/**
 * The start-up failure in one line, naming the socket that failed: the console's HTTP port (then
 * --port helps), or another one (a virtual PLC's socket, whose message says which and what to do).
 */
export function startError(err: NodeJS.ErrnoException & { port?: number; address?: string }, httpPort: number, name: string, tlsPort?: number): string {
  if (err.code === 'EADDRINUSE' && tlsPort !== undefined && err.port === tlsPort)
    return `Port ${tlsPort} (the console's HTTPS port${err.address ? ` on ${err.address}` : ''}) is already in use: choose another with --tls-port N`;
  if (err.code === 'EADDRINUSE' && err.port === httpPort)
    return `Port ${httpPort} (the console's HTTP port${err.address ? ` on ${err.address}` : ''}) is already in use: choose another with --port N`;
  if (err.code === 'EADDRINUSE' && err.port !== undefined) return `${name} failed to start: ${err.address ?? ''}:${err.port} is already in use`;
  return `${name} failed to start: ${err.message}`;
}
