// Shared start-up of the daemon's command-line entries: options, start, Ctrl+C.
import type { Hw } from '../hw/types.ts';
import { startDaemon } from './main.ts';
import { parseDaemonOptions, USAGE, type DaemonCliOptions } from './options.ts';

export async function runDaemonCli(name: string, makeHw: (opts: DaemonCliOptions) => Hw): Promise<void> {
  let opts: DaemonCliOptions;
  try {
    opts = parseDaemonOptions(process.argv.slice(2), process.env, process.cwd());
  } catch (e) {
    console.error((e as Error).message);
    console.error(USAGE);
    process.exit(2);
  }
  try {
    const daemon = await startDaemon({ hw: makeHw(opts), dataDir: opts.dataDir, port: opts.port, host: opts.host });
    console.log(`${name} running: ${daemon.url}  (data in ${opts.dataDir}; Ctrl+C stops it)`);
    const stop = async () => {
      await daemon.close();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    console.error(err.code === 'EADDRINUSE' ? `Port ${opts.port} is already in use: choose another with --port N` : `${name} failed to start: ${err.message}`);
    process.exit(1);
  }
}
