// `npm run plc -- <command>`: reads and writes the memory of the running simulator's virtual PLCs,
// sets faults, RUN/PROG and the cable, through the simulator's PLC routes (sim/plc-routes.ts). It
// finds the simulator through the URL the simulator wrote into its data folder (sim/sim-url.ts).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_DATA_DIR, DEFAULT_PORT } from '../device/options.ts';
import { IEC_USAGE, type IecEventLine, iecEventLine, pushIecEvent, routesWordIo } from './plc-iec.ts';
import { requestWrites } from './plc-request.ts';
import { SIM_PLC_PATH } from './plc-routes.ts';
import { readSimUrl } from './sim-url.ts';

export const PLC_CLI_USAGE = `usage: npm run plc -- [--data DIR | --url URL] <command>

Looks into the simulator's virtual PLCs and breaks them. read and write go straight to a virtual
PLC's memory, not through the unit: no interface, thread or restriction is involved (to read
through the unit, use a redirect thread, e.g. with mbpoll).

  list                              the virtual PLCs and their counters
  read  <COMn> <address> [count]    the PLC's own memory, e.g. read COM1 DT100 4, read COM3 R10 16
  write <COMn> <address> <values…>  into the PLC's memory, e.g. write COM1 DT100 1 2 3, write COM1 Y0 1 0 1
  fault <COMn> none|silent|bad_check|garble [--count N]
  fault <COMn> error <code> [--count N]      MEWTOCOL error code / Modbus exception
  fault <COMn> slow <ms> [<max ms>] [--count N]   each answer ms later; with max ms a random
                                             delay from ms to max ms (answers stay in order)
  mode  <COMn> run|prog
  unplug <COMn> | plug <COMn>
  request <COMn> <service> <request> [word=value…] [pointer=text…] [--dt N] [--text-at N]
                                    e.g. request COM1 mqtt publish topic=plant/level payload=21.5 qos=1
                                    (names from the control block tables, docs/services.md)
  ${IEC_USAGE}

options:
  --data DIR   the simulator's data folder: its URL is read from there [DATA_DIR] (default ./${DEFAULT_DATA_DIR})
  --url URL    the simulator's address instead [SIM_URL] (without either: http://127.0.0.1:${DEFAULT_PORT})
  --count N    fault: only the next N requests
  -h, --help   this text`;

/**
 * Where the simulator answers: --url, SIM_URL, the URL in the data folder, else the default port.
 * A data folder given by --data or DATA_DIR that holds no URL gives none: the simulator on the
 * default port belongs to another folder, and its PLCs are not the ones asked for.
 */
export async function simulatorUrl(values: { url?: string; data?: string }, env: NodeJS.ProcessEnv, cwd: string): Promise<{ url?: string; from: string }> {
  if (values.url) return { url: values.url, from: '--url' };
  if (env.SIM_URL) return { url: env.SIM_URL, from: 'SIM_URL' };
  const given = values.data ?? env.DATA_DIR;
  const dataDir = resolve(cwd, given ?? DEFAULT_DATA_DIR);
  const written = await readSimUrl(dataDir);
  if (written) return { url: written, from: `the simulator of ${dataDir}` };
  const from = `no simulator has written its URL into ${dataDir}`;
  return given === undefined ? { url: `http://127.0.0.1:${DEFAULT_PORT}`, from } : { from };
}

type Call = { method: 'GET' | 'POST'; path: string; body?: unknown };

/** The requests a command line stands for: one, or the memory writes of a service request. */
export function plcCalls(args: string[], count?: number): Call[] {
  if (args[0] !== 'request') return [plcCommand(args, count)];
  const [, connector = ''] = args;
  if (!/^COM\d$/i.test(connector)) throw new Error('request: give a connector, e.g. request COM1 mqtt publish topic=plant/level payload=21.5');
  return requestWrites(args.slice(2)).map((w) => ({ method: 'POST' as const, path: `${SIM_PLC_PATH}/${encodeURIComponent(connector)}/memory`, body: w }));
}

/** The request a command line stands for; throws with the usage's wording on a bad line. */
export function plcCommand(args: string[], count?: number): Call {
  const [cmd, connector = '', ...rest] = args;
  const at = `${SIM_PLC_PATH}/${encodeURIComponent(connector)}`;
  const need = (ok: boolean, what: string) => {
    if (!ok) throw new Error(`${cmd}: ${what}`);
  };
  const limit = count !== undefined ? { count } : {};
  switch (cmd) {
    case 'list':
      return { method: 'GET', path: SIM_PLC_PATH };
    case 'read': {
      need(rest.length >= 1, 'give a connector and an address, e.g. read COM1 DT100 4');
      const n = rest[1] ?? '1';
      return { method: 'GET', path: `${at}/memory?address=${encodeURIComponent(rest[0]!)}&count=${encodeURIComponent(n)}` };
    }
    case 'write': {
      need(rest.length >= 2, 'give a connector, an address and values, e.g. write COM1 DT100 1 2 3');
      const [address, ...vals] = rest as [string, ...string[]];
      const bits = !/^(DT|FL|LD|WR|WL|WY|WX)/i.test(address);
      const values = vals.map((x) => {
        if (bits) {
          need(x === '0' || x === '1' || x === 'true' || x === 'false', `"${x}" is not a bit value (0, 1, true, false)`);
          return x === '1' || x === 'true';
        }
        need(/^-?\d+$|^0x[0-9a-f]+$/i.test(x), `"${x}" is not a whole number`);
        return Number(x);
      });
      return { method: 'POST', path: `${at}/memory`, body: { address, values } };
    }
    case 'fault': {
      const [kind = '', arg] = rest;
      if (kind === 'error') {
        need(arg !== undefined && /^\d+$/.test(arg), 'give the error code, e.g. fault COM1 error 61');
        return { method: 'POST', path: `${at}/fault`, body: { kind, code: Number(arg), ...limit } };
      }
      if (kind === 'slow') {
        need(arg !== undefined && /^\d+$/.test(arg), 'give the extra delay in ms, e.g. fault COM1 slow 2000');
        const max = rest[2];
        need(max === undefined || /^\d+$/.test(max), 'give the longest delay in ms after the shortest, e.g. fault COM1 slow 50 200');
        return {
          method: 'POST',
          path: `${at}/fault`,
          body: { kind, delayMs: Number(arg), ...(max !== undefined ? { maxDelayMs: Number(max) } : {}), ...limit },
        };
      }
      return { method: 'POST', path: `${at}/fault`, body: { kind, ...(kind === 'none' ? {} : limit) } };
    }
    case 'mode':
      need(rest[0] === 'run' || rest[0] === 'prog', 'run or prog');
      return { method: 'POST', path: `${at}/mode`, body: { run: rest[0] === 'run' } };
    case 'unplug':
    case 'plug':
      return { method: 'POST', path: `${at}/cable`, body: { plugged: cmd === 'plug' } };
    default:
      throw new Error(cmd && cmd !== 'help' ? `unknown command "${cmd}"` : 'no command');
  }
}

const NEGATIVE = /^-(\d|\.\d)/;
const NEGATIVE_MARK = '\u0000';

async function main(): Promise<void> {
  let calls: Call[] = [];
  let iec: IecEventLine | undefined;
  let values: { url?: string; data?: string; count?: string; help?: boolean; dt?: string; 'text-at'?: string };
  try {
    const parsed = parseArgs({
      // a negative number is a value, not an option (iec event COM1 scaled 100 -42, write COM1 DT100 -5)
      args: process.argv.slice(2).map((a) => (NEGATIVE.test(a) ? NEGATIVE_MARK + a : a)),
      options: {
        url: { type: 'string' },
        data: { type: 'string', short: 'd' },
        count: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        dt: { type: 'string' },
        'text-at': { type: 'string' },
      },
      allowPositionals: true,
    });
    values = parsed.values;
    if (values.help || parsed.positionals[0] === 'help') {
      console.log(PLC_CLI_USAGE);
      process.exit(0);
    }
    const positionals = parsed.positionals.map((a) => (a.startsWith(NEGATIVE_MARK) ? a.slice(NEGATIVE_MARK.length) : a));
    if (values.dt !== undefined) positionals.push('--dt', values.dt);
    if (values['text-at'] !== undefined) positionals.push('--text-at', values['text-at']);
    if (positionals[0] === 'iec') iec = iecEventLine(positionals.slice(1));
    else calls = plcCalls(positionals, values.count !== undefined ? Number(values.count) : undefined);
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${PLC_CLI_USAGE}`);
    process.exit(2);
  }
  const { url: base, from } = await simulatorUrl(values, process.env, process.cwd());
  if (base === undefined) {
    console.error(`${from}: start it with npm start -- --data DIR, or give --url URL`);
    process.exit(1);
  }
  for (const call of calls) await send(base, from, call);
  if (iec) await sendIecEvent(base, from, iec);
}

/** The event through the memory routes: the indices read, the record and W written. */
async function sendIecEvent(base: string, from: string, line: IecEventLine): Promise<void> {
  let slot: number | undefined;
  try {
    slot = await pushIecEvent(line, routesWordIo(base, line.connector));
  } catch (e) {
    const message = (e as Error).message;
    console.error(e instanceof TypeError ? `no simulator at ${base} (${from}; ${message}): start it with npm start, or give --data DIR or --url URL` : message);
    process.exit(1);
  }
  if (slot === undefined) {
    console.error('the ring is full (the unit has not read it yet) or its indices are out of range: nothing written');
    process.exit(1);
  }
  console.log(`event written into slot ${slot}: ${line.record.join(' ')}`);
}

async function send(base: string, from: string, call: Call): Promise<void> {
  const res = await fetch(base + call.path, {
    method: call.method,
    ...(call.body !== undefined ? { body: JSON.stringify(call.body), headers: { 'content-type': 'application/json' } } : {}),
  }).catch((e: Error) => {
    console.error(`no simulator at ${base} (${from}; ${e.message}): start it with npm start, or give --data DIR or --url URL`);
    process.exit(1);
  });
  const body = (await res.json()) as {
    error?: { message: string };
    lines?: string[];
    values?: unknown[];
    plcs?: { connector: string; mode: string; fault: { kind: string }; requests: number; answers: number; writes: number }[];
  };
  if (!res.ok) {
    console.error(body.error?.message ?? `HTTP ${res.status}`);
    process.exit(1);
  }
  if (body.values) console.log(body.values.join(' '));
  else if (body.plcs) {
    for (const line of body.lines ?? []) console.log(line);
    for (const p of body.plcs)
      console.log(`${p.connector}  ${p.mode}  fault ${p.fault.kind}  requests ${p.requests}  answers ${p.answers}  writes ${p.writes}`);
  } else console.log(JSON.stringify(body, null, 2));
}

if (process.argv[1]?.endsWith('plc-cli.ts')) void main();
