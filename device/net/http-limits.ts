// The one home of the connection limits of every HTTP listener of the unit (security.md DOS-1;
// docs/hardening.md DOS-2, DOS-3): the console's HTTP or HTTPS port, the HTTP port that redirects to
// HTTPS, and the REST/HTTP server. A connection is judged when it is accepted, before the HTTP
// server (or the TLS handshake) sees it:
//   - an address the listener does not admit (the REST port's ip1..ip2) is closed at once, so it
//     never holds one of the listener's connection slots;
//   - one address holds at most `maxPerAddress` connections: one over that gets a short 429
//     `too_many_connections` and is closed;
//   - the listener holds at most `maxConnections` in all (node closes the ones over it).
// Then deadlines, so that a peer that sends slowly cannot hold a slot: the TLS handshake and the
// request headers within `headersMs`, an idle keep-alive connection closed after `keepAliveMs`, a
// body that brings less than `bodyMinBytes` in a window of `bodyWindowMs` while nothing it sent
// waits unread (one byte every few seconds) is cut, and the whole request within `requestMs`.
import type { Server as HttpServer, IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface HttpLimits {
  /** the TLS handshake and the request line with its headers must arrive within this */
  headersMs: number;
  /** the whole request, body included (node answers 408 after it) */
  requestMs: number;
  /** an idle keep-alive connection is closed after this */
  keepAliveMs: number;
  /** a body must bring at least `bodyMinBytes` in each window of this length, or its connection is cut */
  bodyWindowMs: number;
  bodyMinBytes: number;
  /** open connections of the listener in all */
  maxConnections: number;
  /** open connections one source address may hold */
  maxPerAddress: number;
}

/** spec silent: one address holds at most this many connections to the console (a browser opens about six) */
export const MAX_CONNECTIONS_PER_ADDRESS = 64;

const COMMON = { headersMs: 10_000, keepAliveMs: 5000, bodyWindowMs: 10_000, bodyMinBytes: 1024 } as const;

/**
 * The console's listeners: uploads of up to 64 MiB (a restore, a firmware package) may take minutes
 * on a slow link, so the whole request may take 10 min; a body that stalls is cut by the body rate.
 */
export const CONSOLE_LIMITS: HttpLimits = { ...COMMON, requestMs: 600_000, maxConnections: 256, maxPerAddress: MAX_CONNECTIONS_PER_ADDRESS };

/** The REST port: small JSON requests; 64 slots, of which one address takes at most 16. */
export const REST_LIMITS: HttpLimits = { ...COMMON, requestMs: 30_000, maxConnections: 64, maxPerAddress: 16 };

/** how often node checks the header and request deadlines (its default, 30 s, would let a deadline of 10 s last 40) */
const checkEvery = (l: HttpLimits) => Math.max(50, Math.min(1000, Math.floor(l.headersMs / 4)));

/** The options to create a node HTTP or HTTPS server with: the deadlines node keeps itself. */
export function httpServerOptions(l: HttpLimits): ServerOptions & { handshakeTimeout: number } {
  return {
    headersTimeout: l.headersMs,
    requestTimeout: l.requestMs,
    keepAliveTimeout: l.keepAliveMs,
    connectionsCheckingInterval: checkEvery(l),
    handshakeTimeout: l.headersMs,
  };
}

/** The limits a test (or the daemon's options) gives, the production values for the rest. */
export const limitsWith = (base: HttpLimits, given: Partial<HttpLimits> | undefined): HttpLimits => ({ ...base, ...given });

const TOO_MANY = (max: number) =>
  JSON.stringify({ error: { code: 'too_many_connections', message: `Too many open connections from this address (at most ${max})`, params: { max } } });
// a refused client that does not read its answer is not waited for
const REFUSED_LINGER_MS = 2000;

function refuse(socket: Socket, max: number): void {
  const body = TOO_MANY(max);
  socket.on('error', () => undefined);
  socket.setTimeout(REFUSED_LINGER_MS, () => socket.destroy());
  socket.resume(); // whatever the client sends is read and dropped, so the close is not a reset
  socket.end(
    'HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 1\r\nConnection: close\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

const plainIp = (a: string | undefined) => (a ?? '').replace(/^::ffff:/, '');

export interface LimitOptions {
  /** whether a source address may connect at all (absent: every address) */
  admit?(ip: string): boolean;
}

/** A body that has sent nothing for a window while nothing waits unread is the client's stall: its connection is cut. */
function watchBody(req: IncomingMessage, res: ServerResponse, l: HttpLimits): void {
  const length = Number(req.headers['content-length'] ?? 0);
  if (!(length > 0) && req.headers['transfer-encoding'] === undefined) return;
  const socket = req.socket;
  let seen = socket.bytesRead;
  const timer = setInterval(() => {
    if (req.complete || res.writableEnded || socket.destroyed) return stop();
    const now = socket.bytesRead;
    // bytes the application has not read yet: the wait is the application's, not the client's
    const waiting = req.readableLength > 0 || socket.readableLength > 0;
    if (now - seen < l.bodyMinBytes && !waiting) {
      stop();
      socket.destroy();
      return;
    }
    seen = now;
  }, l.bodyWindowMs);
  timer.unref();
  function stop() {
    clearInterval(timer);
  }
  req.once('end', stop);
  res.once('close', stop);
}

/**
 * Puts the limits on `server` (made with httpServerOptions): call before it listens. The admission
 * and the per-address cap come before the server's own connection handling (and before a TLS
 * handshake), so a refused client costs no more than its accept.
 */
export function limitHttpServer(server: HttpServer, l: HttpLimits, opts: LimitOptions = {}): void {
  server.maxConnections = l.maxConnections;
  const open = new Map<string, number>();
  const handlers = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if (opts.admit && !opts.admit(plainIp(address))) {
      socket.on('error', () => undefined);
      socket.destroy();
      return;
    }
    const n = (open.get(address) ?? 0) + 1;
    if (n > l.maxPerAddress) return refuse(socket, l.maxPerAddress);
    open.set(address, n);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
    for (const h of handlers) h.call(server, socket);
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => watchBody(req, res, l));
}
