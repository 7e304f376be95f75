// The connection guard (connection-guard.ts) on a node HTTP or HTTPS server: the REST/HTTP server
// and the console's own listeners (its HTTP or HTTPS port and the HTTP port that redirects to HTTPS)
// use it. Every connection is taken under the guard when it opens; a request whose handling throws
// or rejects, or that the application reports as a fault (a route that failed with an unexpected
// error, answered 500 by the application's error handler), ends its own connection once the answer
// is out: logged once with the listener, the peer and the request, and counted in `guard.faults`.
// A socket error (a reset, a broken pipe) is the peer going away, never a fault, and so is a request
// body the client cut off (fetch/body.ts BodyAborted): its connection just ends (docs/hardening.md LOG-2).
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionGuard, GuardedConnection } from './connection-guard.ts';
import { isBodyAborted } from './fetch/body.ts';

export interface GuardedHttp {
  /** the request listener to create the server with: `inner` under the guard */
  listener: RequestListener;
  /** takes the server's connections under the guard (call before it listens) */
  watch(server: Server): void;
}

/** requests that came through a guarded listener, with the fault the application reported, if any */
const guarded = new WeakMap<object, { error?: unknown }>();

/**
 * The application answered `req` (the node request, e.g. Hono's `c.env.incoming`) with a 500 for an
 * unexpected error: its connection ends after the answer and the guard logs and counts it. False
 * when the request did not come through a guarded listener (the caller logs it itself).
 */
export function reportHttpFault(req: unknown, error: unknown): boolean {
  const entry = typeof req === 'object' && req !== null ? guarded.get(req) : undefined;
  if (!entry) return false;
  if (!('error' in entry)) entry.error = error;
  return true;
}

const INTERNAL = JSON.stringify({ error: { code: 'internal', message: 'Internal error' } });

export function guardHttp(guard: ConnectionGuard, inner: (req: IncomingMessage, res: ServerResponse) => unknown): GuardedHttp {
  const conns = new WeakMap<Socket, GuardedConnection>();
  // HTTPS: the request's socket is the TLS socket, not the one 'connection' saw
  const connOf = (sock: Socket) => conns.get(sock) ?? guard.adopt(sock);
  const where = (req: IncomingMessage) => ({ request: `${req.method ?? '?'} ${(req.url ?? '').split('?')[0]!.slice(0, 200)}` });
  const failed = (req: IncomingMessage, res: ServerResponse, e: unknown) => {
    if (isBodyAborted(e)) {
      req.socket.destroy();
      return;
    }
    try {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json', connection: 'close' }).end(INTERNAL);
    } catch {
      /* the answer is best effort: the connection closes anyway */
    }
    connOf(req.socket as Socket).fault(e, where(req));
  };
  const listener: RequestListener = (req, res) => {
    const entry: { error?: unknown } = {};
    guarded.set(req, entry);
    const after = () => {
      if ('error' in entry) connOf(req.socket as Socket).fault(entry.error, where(req));
    };
    try {
      Promise.resolve(inner(req, res)).then(after, (e: unknown) => failed(req, res, e));
    } catch (e) {
      failed(req, res, e);
    }
  };
  return {
    listener,
    watch(server) {
      server.on('connection', (sock: Socket) => {
        conns.set(sock, guard.adopt(sock));
      });
    },
  };
}
