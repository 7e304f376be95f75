// Command-line and environment options of the daemon's entries (`npm start` for the simulator,
// `npm run unit` for a Linux machine with real serial ports).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseDevOrigin } from './api/dev-cors.ts';

export interface DaemonCliOptions {
  port: number;
  dataDir: string;
  host: string;
  /** connector (COM1..COM3) → serial device path given with --com1/--com2/--com3 */
  serialMap: Record<string, string>;
  /** simulator only: the virtual PLCs' configuration file (sim/plc/config.ts); default the built-in one */
  plcs?: string;
  /** simulator only: the one origin granted credentialed CORS (device/api/dev-cors.ts) */
  devOrigin?: string;
  /** the console over HTTPS on this port (`--tls-port N`), or plain HTTP (`--tls-port off`); absent: the variant's default */
  tlsPort?: number | 'off';
}

export const DEFAULT_PORT = 8080;
export const DEFAULT_DATA_DIR = 'data'; // inside the checkout; ignored by git
export const USAGE = 'options: [--port N] [--data DIR] [--host ADDR] [--com1 PATH] [--com2 PATH] [--com3 PATH] [--plcs FILE (simulator)] [--tls-port N|off] [--dev-origin ORIGIN (simulator)]   (or PORT, DATA_DIR, HOST)';

export function parseDaemonOptions(argv: string[], env: NodeJS.ProcessEnv, cwd: string): DaemonCliOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', short: 'p' },
      data: { type: 'string', short: 'd' },
      host: { type: 'string' },
      com1: { type: 'string' },
      com2: { type: 'string' },
      com3: { type: 'string' },
      plcs: { type: 'string' },
      'dev-origin': { type: 'string' },
      'tls-port': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const portText = values.port ?? env.PORT ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new Error(`--port must be a TCP port (0-65535), got "${portText}"`);
  const tlsText = values['tls-port'] ?? env.TLS_PORT;
  let tlsPort: number | 'off' | undefined;
  if (tlsText !== undefined) {
    if (tlsText !== 'off' && (!/^\d+$/.test(tlsText) || Number(tlsText) > 65535)) throw new Error(`--tls-port must be a TCP port (0-65535) or off, got "${tlsText}"`);
    tlsPort = tlsText === 'off' ? 'off' : Number(tlsText);
    if (tlsPort === port && port !== 0) throw new Error(`--tls-port must differ from --port (${port}): that port answers with the redirect to HTTPS`);
  }
  const serialMap: Record<string, string> = {};
  for (const c of ['com1', 'com2', 'com3'] as const) if (values[c]) serialMap[c.toUpperCase()] = resolve(cwd, values[c]);
  return {
    port,
    dataDir: resolve(cwd, values.data ?? env.DATA_DIR ?? DEFAULT_DATA_DIR),
    host: values.host ?? env.HOST ?? '127.0.0.1',
    serialMap,
    ...(values.plcs ? { plcs: resolve(cwd, values.plcs) } : {}),
    ...(tlsPort !== undefined ? { tlsPort } : {}),
    ...(values['dev-origin'] !== undefined ? { devOrigin: parseDevOrigin(values['dev-origin']) } : {}),
  };
}
