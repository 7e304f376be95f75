// Command-line and environment options of the daemon's entries (`npm start` for the simulator,
// `npm run daemon` for a Linux machine with real serial ports), and their --help.
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

/** Which entry the options are for: the simulator (`npm start`) or the unit's daemon (`npm run daemon`). */
export type DaemonKind = 'simulator' | 'daemon';

/** The --help text of an entry: every option with its variable and default. */
export function daemonHelp(kind: DaemonKind): string {
  const sim = kind === 'simulator';
  return [
    sim
      ? 'usage: npm start -- [options]\n\nThe daemon on a virtual unit, with a virtual PLC on every connector.'
      : "usage: npm run daemon -- [options]   (or: node dist/daemon/daemon.mjs [options])\n\nThe unit's daemon with the real system: serial ports, storage, clock and services of this Linux machine.",
    '',
    'options (flags win over the environment variables in brackets):',
    `  -p, --port N        HTTP port of the daemon; 0 picks a free one [PORT] (default ${DEFAULT_PORT})`,
    `  -d, --data DIR      data folder: settings, users, audit log [DATA_DIR] (default ./${DEFAULT_DATA_DIR})`,
    '      --host ADDR     address to listen on, 0.0.0.0 for every network [HOST] (default 127.0.0.1)',
    sim
      ? '      --com1 PATH     a real serial device for COM1 instead of its virtual PLC (also --com2, --com3)'
      : '      --com1 PATH     serial device of COM1 (default /dev/ttymxc1; also --com2 /dev/ttymxc2, --com3 /dev/ttyACM0)',
    ...(sim ? ['      --plcs FILE     the virtual PLCs (docs/simulator.md; sample sim/plcs.example.json)'] : []),
    sim
      ? '      --tls-port N    also serve the console over HTTPS on N, the HTTP port then redirects [TLS_PORT] (default: HTTP only)'
      : '      --tls-port N|off  HTTPS port of the console, the HTTP port redirects to it [TLS_PORT] (default 8081; off: HTTP only)',
    ...(sim ? ['      --dev-origin ORIGIN  the one origin a development console may call from, e.g. http://127.0.0.1:5173 (default: none)'] : []),
    '  -h, --help          this text',
    '',
    'commands:',
    `  reset-admin [--data DIR]   lift every login lock of the daemon over DIR, audited (docs/login-security.md)`,
  ].join('\n');
}

/** True when the command line asks for the help text (checked before anything else is parsed). */
export const wantsHelp = (argv: readonly string[]): boolean => argv.includes('--help') || argv.includes('-h');

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
    if (tlsText !== 'off' && (!/^\d+$/.test(tlsText) || Number(tlsText) > 65535))
      throw new Error(`--tls-port must be a TCP port (0-65535) or off, got "${tlsText}"`);
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
