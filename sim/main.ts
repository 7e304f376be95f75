// `npm start`: the daemon with the virtual unit and a data folder, until Ctrl+C.
import { startDaemon } from '../device/main.ts';
import { createSimHw } from './hw.ts';
import { parseSimOptions } from './options.ts';
import { APP_VERSION } from '../device/version.ts';

async function main(): Promise<void> {
  let opts;
  try {
    opts = parseSimOptions(process.argv.slice(2), process.env, process.cwd());
  } catch (e) {
    console.error((e as Error).message);
    console.error('usage: npm start -- [--port N] [--data DIR] [--host ADDR]   (or PORT, DATA_DIR, HOST)');
    process.exit(2);
  }
  const hw = createSimHw({ dataDir: opts.dataDir, versions: { app: APP_VERSION, bsp: '1.3.2', hmi: '4.5.2' } });
  const daemon = await startDaemon({ hw, dataDir: opts.dataDir, port: opts.port, host: opts.host });
  console.log(`Simulator running: ${daemon.url}  (data in ${opts.dataDir}; Ctrl+C stops it)`);
  const stop = async () => {
    await daemon.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e: unknown) => {
  const err = e as NodeJS.ErrnoException;
  console.error(err.code === 'EADDRINUSE' ? `Port already in use: choose another with --port N` : `Simulator failed to start: ${err.message}`);
  process.exit(1);
});
