// Command-line and environment options of `npm start` (the simulator).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

export interface SimOptions {
  port: number;
  dataDir: string;
  host: string;
}

export const DEFAULT_PORT = 8080;
export const DEFAULT_DATA_DIR = 'data'; // inside the checkout; ignored by git

export function parseSimOptions(argv: string[], env: NodeJS.ProcessEnv, cwd: string): SimOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', short: 'p' },
      data: { type: 'string', short: 'd' },
      host: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const portText = values.port ?? env.PORT ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a TCP port (0-65535), got "${portText}"`);
  return {
    port,
    dataDir: resolve(cwd, values.data ?? env.DATA_DIR ?? DEFAULT_DATA_DIR),
    host: values.host ?? env.HOST ?? '127.0.0.1',
  };
}
