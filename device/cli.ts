// Shared start-up of the daemon's command-line entries: options, start, Ctrl+C.
import type { Hw } from '../hw/types.ts';
import type { RouteDef } from './api/route.ts';
import { startDaemon } from './main.ts';
import { parseDaemonOptions, USAGE, type DaemonCliOptions } from './options.ts';
import { resetAdmin } from './reset-admin.ts';

/** What a variant (the simulator, the unit) brings to the daemon. */
export interface Variant {
  hw: Hw;
  routes?: readonly RouteDef[];
  /** lines printed after the start-up line */
  banner?: string[];
  close?(): Promise<void>;
}

export async function runDaemonCli(name: string, setup: (opts: DaemonCliOptions) => Promise<Variant>): Promise<void> {
  const args = process.argv.slice(2);
  // `reset-admin [--data DIR]`: the owner's way back from a login lockout (docs/login-security.md)
  const command = args[0] === 'reset-admin' ? args.shift() : undefined;
  let opts: DaemonCliOptions;
  try {
    opts = parseDaemonOptions(args, process.env, process.cwd());
  } catch (e) {
    console.error((e as Error).message);
    console.error(USAGE);
    console.error('       reset-admin [--data DIR]: lift every login lock of the daemon over DIR (docs/login-security.md)');
    process.exit(2);
  }
  if (command) return resetAdmin(opts.dataDir);
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
    console.error(err.code === 'EADDRINUSE' ? `Port ${opts.port} is already in use: choose another with --port N` : `${name} failed to start: ${err.message}`);
    process.exit(1);
  }
}
