// A virtual PLC on Ethernet (the unit's COM4): MEWTOCOL on one TCP port (MEWTOCOL-COM, and
// MEWTOCOL7 on FP7; default 9094, mewtocol.md §7) and Modbus/TCP on another (default 502), one
// PLC endpoint per connection. Ports below 1024 need root: without it they are moved up by 10000
// (502 → 10502); port 0 takes a free port; with freeWhenInUse a port in use is replaced by a free one
// (the simulator's default ports: a second simulator or a test run beside `npm start`). The result
// says which host and ports were really used.
// Unplugged, the PLC hears nothing and sends nothing; connections stay open, as when a network
// cable is pulled for a moment.
import net from 'node:net';
import { ConnectionGuard, stderrFaultLog } from '../../device/net/connection-guard.ts';
import { realTimers, type Timers } from '../wire.ts';
import { createPlcEndpoint, type PlcProtocol } from './endpoint.ts';
import type { VirtualPlc } from './virtual-plc.ts';

export const DEFAULT_MEWTOCOL_PORT = 9094;
export const DEFAULT_MODBUS_PORT = 502;
/** added to a privileged port when not running as root */
export const UNPRIVILEGED_OFFSET = 10000;

const isRoot = () => process.getuid?.() === 0;

/** The port really listened on for `p`: below 1024 without root, p + 10000. */
export function effectivePort(p: number, root = isRoot()): number {
  return p > 0 && p < 1024 && !root ? p + UNPRIVILEGED_OFFSET : p;
}

export interface TcpPlcOptions {
  host: string;
  /** used when `host` cannot be bound on this machine (e.g. 127.0.0.2 → 127.0.0.1) */
  fallbackHost?: string;
  mewtocolPort?: number;
  modbusPort?: number;
  /**
   * A port that is in use is replaced by a free one (the result says which) instead of failing:
   * for the simulator's default ports, so that a second simulator on the same machine comes up.
   */
  freeWhenInUse?: boolean;
  timers?: Timers;
  /** contains a fault to its connection (device/net/connection-guard.ts); default: one of its own */
  guard?: ConnectionGuard;
}

export interface TcpPlc {
  host: string;
  ports: { mewtocol: number; modbus: number };
  unplug(): void;
  plug(): void;
  /** open connections */
  connections(): number;
  /** connections a contained fault ended */
  faults(): number;
  close(): Promise<void>;
}

class ListenError extends Error {
  constructor(
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

function listen(server: net.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      const why =
        e.code === 'EADDRINUSE'
          ? `${host}:${port} is in use (give COM4 other mewtocolPort/modbusPort in the PLC file, 0 = any free port)`
          : e.code === 'EADDRNOTAVAIL'
            ? `${host} is not an address of this machine`
            : `${host}:${port}: ${e.message}`;
      reject(new ListenError(e.code, `virtual PLC cannot listen: ${why}`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

const closeServer = (s: net.Server) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve()));

export async function startTcpPlc(plc: VirtualPlc, opts: TcpPlcOptions): Promise<TcpPlc> {
  const timers = opts.timers ?? realTimers;
  const sockets = new Set<net.Socket>();
  let plugged = true;

  const guard = opts.guard ?? new ConnectionGuard({ listener: 'plc-tcp', log: stderrFaultLog });
  // half-open: a client that sent its request and FIN still gets the answer
  const serve = (protocol: PlcProtocol) =>
    net.createServer({ allowHalfOpen: true }, (socket) =>
      guard.adopt(socket, (conn) => {
        sockets.add(socket);
        socket.setNoDelay(true);
        let pending = 0;
        let ended = false;
        const finish = () => {
          if (ended && pending === 0 && !socket.destroyed) socket.end();
        };
        const ep = createPlcEndpoint(plc, {
          protocol,
          transport: 'tcp',
          timers,
          send: (b) => {
            if (plugged && !socket.destroyed && socket.writable) socket.write(b);
          },
          close: () => socket.destroy(),
          onAnswers: (n) => {
            pending = n;
            finish();
          },
        });
        socket.on(
          'data',
          conn.wrap((b: Buffer) => {
            if (plugged) ep.receive(new Uint8Array(b.buffer, b.byteOffset, b.length));
          }),
        );
        socket.on('end', () => {
          ended = true;
          finish();
        });
        socket.on('close', () => {
          ep.reset();
          sockets.delete(socket);
        });
      }),
    );
  const mewtocol = serve('MEWTOCOL');
  const modbus = serve('MODBUS');

  const listenOrFree = async (server: net.Server, host: string, port: number) => {
    try {
      return await listen(server, host, port);
    } catch (e) {
      if (!(opts.freeWhenInUse && e instanceof ListenError && e.code === 'EADDRINUSE')) throw e;
      return listen(server, host, 0);
    }
  };
  async function listenBoth(host: string) {
    return {
      mewtocol: await listenOrFree(mewtocol, host, effectivePort(opts.mewtocolPort ?? DEFAULT_MEWTOCOL_PORT)),
      modbus: await listenOrFree(modbus, host, effectivePort(opts.modbusPort ?? DEFAULT_MODBUS_PORT)),
    };
  }

  let host = opts.host;
  let ports: TcpPlc['ports'];
  try {
    try {
      ports = await listenBoth(host);
    } catch (e) {
      if (!(e instanceof ListenError && e.code === 'EADDRNOTAVAIL' && opts.fallbackHost)) throw e;
      await Promise.all([closeServer(mewtocol), closeServer(modbus)]);
      host = opts.fallbackHost;
      ports = await listenBoth(host);
    }
  } catch (e) {
    await Promise.all([closeServer(mewtocol), closeServer(modbus)]);
    throw e;
  }

  return {
    host,
    ports,
    unplug: () => {
      plugged = false;
    },
    plug: () => {
      plugged = true;
    },
    connections: () => sockets.size,
    faults: () => guard.faults,
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all([closeServer(mewtocol), closeServer(modbus)]);
    },
  };
}
