// The console's listeners (security.md TLS-2, issue 16 item 8). Plain: the console on `port` over
// HTTP (the simulator's default). With TLS: the console on `tlsPort` over HTTPS with the console
// certificate (system/console-tls.ts; an upload takes effect without a restart), and `port`
// answers every request with a redirect to the same path on HTTPS and nothing else, so a password
// or a session cookie never crosses the network in clear.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { hostOf, isUnitHost } from '../system/hosts.ts';
import type { ConsoleTls } from '../system/console-tls.ts';
import type { Logger } from '../system/log.ts';
import type { Env } from './context.ts';
import { capConnectionsPerAddress } from './connection-cap.ts';

export interface ConsoleListenOptions {
  host: string;
  port: number;
  /** the HTTPS port and certificate; absent: plain HTTP */
  tls?: { port: number; certs: ConsoleTls };
  /** names a redirect may keep (the Host check of system/hosts.ts) */
  names: () => { hostname: string; configured: readonly string[] };
  log: Logger;
  /** open connections one address may hold on each listener (connection-cap.ts; default its maximum) */
  maxConnectionsPerAddress?: number;
}

export interface ConsoleListeners {
  /** the console's own URL (https:// with TLS) */
  url: string;
  /** the plain HTTP port (the console, or the redirect with TLS) */
  port: number;
  tlsPort?: number;
  close(): Promise<void>;
}

const listening = (s: Server, port: number, host: string) => new Promise<void>((resolve, reject) => {
  s.once('error', reject);
  s.listen(port, host, () => {
    s.off('error', reject);
    resolve();
  });
});

/** spec silent: a client that does not finish its TLS handshake in this time is dropped (security.md DOS-1) */
const HANDSHAKE_MS = 10_000;

const portOf = (s: Server | ServerType) => (s.address() as AddressInfo).port;
const bracket = (h: string) => (h.includes(':') ? `[${h}]` : h);

const closeServer = (s: Server | ServerType) => new Promise<void>((resolve) => {
  s.close(() => resolve());
  (s as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
});

/** The HTTP side with TLS on: a 308 to the same path on the HTTPS port, the host kept when it names the unit. */
function redirector(tlsPort: () => number, opts: ConsoleListenOptions) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const names = opts.names();
    const local = req.socket.localAddress?.replace(/^::ffff:(?=\d+\.)/, '') ?? '127.0.0.1';
    // a foreign name (a rebinding page) is not echoed into the answer: the unit's address is used
    const host = isUnitHost(req.headers.host, { localAddress: req.socket.localAddress, ...names }) ? hostOf(req.headers.host)! : local;
    const path = (req.url ?? '/').startsWith('/') ? req.url ?? '/' : '/';
    res.writeHead(308, { Location: `https://${bracket(host)}:${tlsPort()}${path}`, 'Content-Length': '0', 'Cache-Control': 'no-store', Connection: 'close' });
    res.end();
  };
}

export async function listenConsole(app: Hono<Env>, opts: ConsoleListenOptions): Promise<ConsoleListeners> {
  const shown = opts.host === '0.0.0.0' || opts.host === '::' ? '127.0.0.1' : opts.host;
  if (!opts.tls) {
    const server: ServerType = await new Promise((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: opts.port, hostname: opts.host }, () => resolve(s));
      s.once('error', reject);
    });
    capConnectionsPerAddress(server as Server, opts.maxConnectionsPerAddress);
    const port = portOf(server);
    opts.log.info('daemon listening', { host: opts.host, port, tls: false });
    return { url: `http://${bracket(shown)}:${port}`, port, close: () => closeServer(server) };
  }
  const certs = opts.tls.certs;
  const secure: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: opts.tls!.port, hostname: opts.host, createServer: createHttpsServer, serverOptions: { ...certs.pair(), handshakeTimeout: HANDSHAKE_MS } }, () => resolve(s));
    s.once('error', reject);
  });
  // a failed handshake (a plain HTTP request, a scanner) is the client's problem, never the daemon's
  secure.on('tlsClientError', () => undefined);
  // counted before the handshake: a refused TLS client gets the plain 429 and the close
  capConnectionsPerAddress(secure as unknown as Server, opts.maxConnectionsPerAddress);
  certs.watch((pair) => (secure as unknown as { setSecureContext(o: object): void }).setSecureContext(pair));
  const tlsPort = portOf(secure);
  const plain = createHttpServer(redirector(() => tlsPort, opts));
  plain.headersTimeout = 10_000;
  plain.requestTimeout = 10_000;
  plain.on('clientError', (_e, socket) => socket.destroy());
  capConnectionsPerAddress(plain, opts.maxConnectionsPerAddress);
  try {
    await listening(plain, opts.port, opts.host);
  } catch (e) {
    await closeServer(secure);
    throw e;
  }
  const port = portOf(plain);
  opts.log.info('daemon listening', { host: opts.host, port: tlsPort, tls: true, redirect: port });
  return {
    url: `https://${bracket(shown)}:${tlsPort}`,
    port,
    tlsPort,
    close: async () => {
      certs.close();
      await Promise.all([closeServer(plain), closeServer(secure)]);
    },
  };
}
