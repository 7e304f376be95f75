// The console's listeners (security.md TLS-2, issue 16 item 8). Plain: the console on `port` over
// HTTP (the simulator's default). With TLS: the console on `tlsPort` over HTTPS with the console
// certificate (system/console-tls.ts; an upload takes effect without a restart), and `port`
// answers every request with a redirect to the same path on HTTPS and nothing else, so a password
// or a session cookie never crosses the network in clear. Each listener runs its connections under a
// ConnectionGuard of its own (net/guarded-http.ts): a request whose handling fails ends only its own
// connection, logged once with the listener and the peer, and counted (`status()`, shown on /info).
// Every listener has the same connection limits and deadlines (net/http-limits.ts, docs/hardening.md
// DOS-3): a cap per address and in all, the handshake and headers in 10 s, a body that keeps coming.
// Closing cuts the connections and waits for the answers under way, so that no handler writes to the
// data folder after the daemon has closed.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Hono } from 'hono';
import { ConnectionGuard } from '../net/connection-guard.ts';
import { guardHttp } from '../net/guarded-http.ts';
import { honoListener } from '../net/hono-listener.ts';
import { CONSOLE_LIMITS, type HttpLimits, httpServerOptions, limitHttpServer, limitsWith } from '../net/http-limits.ts';
import { SERVER_CIPHERS } from '../net/node-tls.ts';
import type { ConsoleTls } from '../system/console-tls.ts';
import { hostOf, isUnitHost } from '../system/hosts.ts';
import type { Logger } from '../system/log.ts';
import type { Env } from './context.ts';

export interface ConsoleListenOptions {
  host: string;
  port: number;
  /** the HTTPS port and certificate; absent: plain HTTP */
  tls?: { port: number; certs: ConsoleTls };
  /** names a redirect may keep (the Host check of system/hosts.ts) */
  names: () => { hostname: string; configured: readonly string[] };
  log: Logger;
  /** tests: other deadlines or caps than the production ones (net/http-limits.ts CONSOLE_LIMITS) */
  limits?: Partial<HttpLimits>;
}

/** One of the console's listeners as the system information shows it (GET /rest/api/v1 `consoleListeners`). */
export interface ConsoleListenerStatus {
  /** `console`: the console itself (over HTTPS when `tls`); `redirect`: the HTTP port that only redirects to HTTPS */
  role: 'console' | 'redirect';
  port: number;
  tls: boolean;
  /** connections ended by a contained fault (connection-guard.ts) */
  faults: number;
}

export interface ConsoleListeners {
  /** the console's own URL (https:// with TLS) */
  url: string;
  /** the plain HTTP port (the console, or the redirect with TLS) */
  port: number;
  tlsPort?: number;
  status(): ConsoleListenerStatus[];
  close(): Promise<void>;
}

const listening = (s: Server, port: number, host: string) =>
  new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, host, () => {
      s.off('error', reject);
      resolve();
    });
  });

const portOf = (s: Server) => (s.address() as AddressInfo).port;
const bracket = (h: string) => (h.includes(':') ? `[${h}]` : h);

const closeServer = (s: Server) =>
  new Promise<void>((resolve) => {
    s.close(() => resolve());
    s.closeAllConnections();
  });

/** how long closing waits for the answers under way (a connection test's step: 10 s) */
const CLOSE_WAIT_MS = 10_000;

/**
 * The answers under way. Closing the connections does not stop a handler (a login check waiting
 * for its hash goes on and writes its audit entry), so closing waits for them, at most
 * CLOSE_WAIT_MS: nothing writes to the data folder after the daemon has closed.
 */
function inFlight(inner: (req: IncomingMessage, res: ServerResponse) => unknown, log: Logger, listener: () => string) {
  const open = new Set<Promise<unknown>>();
  return {
    serve: (req: IncomingMessage, res: ServerResponse): unknown => {
      const answer = inner(req, res);
      if (answer instanceof Promise) {
        const settled: Promise<unknown> = answer.catch(() => undefined).finally(() => open.delete(settled));
        open.add(settled);
      }
      return answer;
    },
    settled: async (): Promise<void> => {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          log.warn('closed with answers still under way', { listener: listener(), answers: open.size, waited_ms: CLOSE_WAIT_MS });
          resolve();
        }, CLOSE_WAIT_MS);
        timer.unref();
      });
      await Promise.race([Promise.all(open), deadline]);
      clearTimeout(timer);
    },
  };
}

/** A server of the console with its guard, named `console-<role>:<port>` once the port is bound. */
async function guardedServer(
  role: ConsoleListenerStatus['role'],
  make: (listener: ReturnType<typeof guardHttp>['listener'], limits: HttpLimits) => Server,
  inner: (req: IncomingMessage, res: ServerResponse) => unknown,
  port: number,
  opts: ConsoleListenOptions,
) {
  const guard = new ConnectionGuard({ listener: `console-${role}`, log: opts.log });
  const answers = inFlight(inner, opts.log, () => guard.listener);
  const guarded = guardHttp(guard, answers.serve);
  const limits = limitsWith(CONSOLE_LIMITS, opts.limits);
  const server = make(guarded.listener, limits);
  guarded.watch(server);
  // counted before the handshake (HTTPS): a refused client gets the plain 429 and the close
  limitHttpServer(server, limits);
  await listening(server, port, opts.host);
  guard.listener = `console-${role}:${portOf(server)}`;
  const close = async () => {
    await closeServer(server);
    await answers.settled();
  };
  return { server, guard, close };
}

/** The HTTP side with TLS on: a 308 to the same path on the HTTPS port, the host kept when it names the unit. */
function redirector(tlsPort: () => number, opts: ConsoleListenOptions) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const names = opts.names();
    const local = req.socket.localAddress?.replace(/^::ffff:(?=\d+\.)/, '') ?? '127.0.0.1';
    // a foreign name (a rebinding page) is not echoed into the answer: the unit's address is used
    const host = isUnitHost(req.headers.host, { localAddress: req.socket.localAddress, ...names }) ? hostOf(req.headers.host)! : local;
    const path = (req.url ?? '/').startsWith('/') ? (req.url ?? '/') : '/';
    res.writeHead(308, { Location: `https://${bracket(host)}:${tlsPort()}${path}`, 'Content-Length': '0', 'Cache-Control': 'no-store', Connection: 'close' });
    res.end();
  };
}

export async function listenConsole(app: Hono<Env>, opts: ConsoleListenOptions): Promise<ConsoleListeners> {
  const shown = opts.host === '0.0.0.0' || opts.host === '::' ? '127.0.0.1' : opts.host;
  const serveApp = honoListener(app.fetch);
  if (!opts.tls) {
    const { server, guard, close } = await guardedServer('console', (l, limits) => createHttpServer(httpServerOptions(limits), l), serveApp, opts.port, opts);
    const port = portOf(server);
    opts.log.info('daemon listening', { host: opts.host, port, tls: false });
    return {
      url: `http://${bracket(shown)}:${port}`,
      port,
      status: () => [{ role: 'console', port, tls: false, faults: guard.faults }],
      close,
    };
  }
  const certs = opts.tls.certs;
  const secure = await guardedServer(
    'console',
    (l, limits) => createHttpsServer({ ...httpServerOptions(limits), ...certs.pair(), ciphers: SERVER_CIPHERS }, l),
    serveApp,
    opts.tls.port,
    opts,
  );
  // a failed handshake (a plain HTTP request, a scanner) is the client's problem, never the daemon's
  secure.server.on('tlsClientError', () => undefined);
  certs.watch((pair) => (secure.server as unknown as { setSecureContext(o: object): void }).setSecureContext({ ...pair, ciphers: SERVER_CIPHERS }));
  const tlsPort = portOf(secure.server);
  let plain: Awaited<ReturnType<typeof guardedServer>>;
  try {
    plain = await guardedServer(
      'redirect',
      (l, limits) => {
        const s = createHttpServer(httpServerOptions(limits), l);
        s.on('clientError', (_e, socket) => socket.destroy());
        return s;
      },
      redirector(() => tlsPort, opts),
      opts.port,
      opts,
    );
  } catch (e) {
    certs.close();
    await secure.close();
    throw e;
  }
  const port = portOf(plain.server);
  opts.log.info('daemon listening', { host: opts.host, port: tlsPort, tls: true, redirect: port });
  return {
    url: `https://${bracket(shown)}:${tlsPort}`,
    port,
    tlsPort,
    status: () => [
      { role: 'console', port: tlsPort, tls: true, faults: secure.guard.faults },
      { role: 'redirect', port, tls: false, faults: plain.guard.faults },
    ],
    close: async () => {
      certs.close();
      await Promise.all([plain.close(), secure.close()]);
    },
  };
}
