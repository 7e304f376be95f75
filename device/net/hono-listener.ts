// A Hono application on a node HTTP or HTTPS server: each node request becomes a DaemonRequest
// (fetch/request.ts), the application's answer is written to the node response. A string or bytes
// answer is written at once with its length; a stream answer is written as it is read, waiting for
// the socket to drain, and its source is cancelled when the client goes away. A request whose target
// the URL cannot carry (no Host, a backslash in the path, a Host that is no host name) is answered 400
// without reaching the application. A failure of the application (its fetch throws or rejects, a
// stream answer fails) is thrown on to the caller: under guardHttp (guarded-http.ts) that ends the
// one connection, logged and counted. A small body (a JSON request) is read whole before the
// application sees its request: a client that drips it, or goes away before its end, holds a few
// hundred bytes of the daemon while it waits, not a request in the application's hands
// (docs/hardening.md DOS-3, LOG-2).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { nodeHeadersOf } from './fetch/headers.ts';
import { BadRequestTarget, DaemonRequest } from './fetch/request.ts';
import { DaemonResponse } from './fetch/response.ts';

/** What the application sees as `c.env`: the node request and response (getConnInfo and device/api/connection.ts read the socket). */
export interface NodeBindings {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

type Fetch = (req: Request, env: NodeBindings) => Response | Promise<Response>;

/** the Content-Type of an answer with a body that names none (as @hono/node-server did) */
const DEFAULT_TYPE = 'text/plain; charset=UTF-8';
/** a request body nobody read is read and dropped for at most this long after the answer, then the connection ends */
const DRAIN_MS = 500;
const DRAIN_MAX_BYTES = 1 << 20;

const noBodyStatus = (status: number) => status < 200 || status === 204 || status === 304;

/** a body of a declared length up to this is read whole before the application sees the request (security.md VAL-1: JSON ≤ 64 KiB) */
export const READ_FIRST_BYTES = 64 * 1024;

/** The whole body of a small request, once it is in; undefined when the client went away first; no promise for a request the application reads itself. */
function smallBody(incoming: IncomingMessage): Promise<Uint8Array | undefined> | undefined {
  if (incoming.method === 'GET' || incoming.method === 'HEAD' || incoming.headers['transfer-encoding'] !== undefined) return undefined;
  const length = Number(incoming.headers['content-length']);
  if (!(length > 0 && length <= READ_FIRST_BYTES)) return undefined;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const data = (c: Buffer) => chunks.push(c);
    const settle = (body: Uint8Array | undefined) => {
      incoming.off('data', data).off('end', end).off('close', gone).off('error', gone);
      resolve(body);
    };
    const end = () => settle(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    const gone = () => {
      (incoming.socket as Socket | null)?.destroy();
      settle(undefined);
    };
    incoming.on('data', data).once('end', end).once('close', gone).once('error', gone);
  });
}

/** The rest of a request body that no route read: dropped for a moment, so the connection can serve the next request, then cut. */
function drainUnread(incoming: IncomingMessage): void {
  if (incoming.readableEnded || incoming.destroyed) return;
  let bytes = 0;
  const cut = () => {
    clearTimeout(timer);
    incoming.off('data', count);
    (incoming.socket as Socket | null)?.destroySoon();
  };
  const count = (c: Buffer) => {
    bytes += c.length;
    if (bytes > DRAIN_MAX_BYTES) cut();
  };
  const timer = setTimeout(cut, DRAIN_MS);
  timer.unref();
  incoming.on('data', count);
  incoming.once('end', () => {
    clearTimeout(timer);
    incoming.off('data', count);
  });
  incoming.resume();
}

const drained = (out: ServerResponse) =>
  new Promise<void>((resolve) => {
    const go = () => {
      out.off('drain', go).off('close', go);
      resolve();
    };
    out.on('drain', go).on('close', go);
  });

/** A stream answer, written as it is read; its source is cancelled when the client goes away first. */
async function writeStream(stream: ReadableStream<Uint8Array>, out: ServerResponse): Promise<void> {
  const reader = stream.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  out.once('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || out.destroyed) break;
      if (!out.write(value)) await drained(out);
    }
    if (!out.destroyed) out.end();
  } catch (e) {
    out.destroy(e instanceof Error ? e : new Error(String(e)));
    throw e;
  } finally {
    out.off('close', cancel);
  }
}

/** Writes an answer (the daemon's Response or any other) to the node response. */
export async function writeResponse(res: Response, out: ServerResponse): Promise<void> {
  const taken = res instanceof DaemonResponse ? res.takeSource() : res.body;
  const source = taken instanceof Blob ? new Uint8Array(await taken.arrayBuffer()) : taken;
  const headers = nodeHeadersOf(res.headers);
  if (source !== null && headers['content-type'] === undefined) headers['content-type'] = DEFAULT_TYPE;
  if (typeof source === 'string' || source instanceof Uint8Array) {
    if (headers['content-length'] === undefined && !noBodyStatus(res.status)) headers['content-length'] = String(Buffer.byteLength(source));
    out.writeHead(res.status, headers);
    out.end(source);
    return;
  }
  if (source === null) {
    out.writeHead(res.status, headers);
    out.end();
    return;
  }
  out.writeHead(res.status, headers);
  out.flushHeaders(); // a stream's first bytes may come later (a file, a status feed): the headers go now
  // the body of a node request as an answer (not something the daemon does): read as a stream
  await writeStream('getReader' in source ? source : (new DaemonResponse(source).body as ReadableStream<Uint8Array>), out);
}

/** The node request listener serving `fetch` (a Hono application's), with `{ incoming, outgoing }` as its env. */
export function honoListener(fetch: Fetch): (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void> | undefined {
  const serve = (incoming: IncomingMessage, outgoing: ServerResponse, body?: Uint8Array): Promise<void> | undefined => {
    let req: DaemonRequest;
    try {
      req = DaemonRequest.ofNode(incoming, body);
    } catch (e) {
      if (!(e instanceof BadRequestTarget)) throw e;
      outgoing.writeHead(400, { 'content-length': '0', connection: 'close' }).end();
      return undefined;
    }
    outgoing.once('close', () => {
      if (!outgoing.writableFinished) req.abortFromNode(new Error('the client closed the connection before the answer was complete'));
    });
    const after = () => drainUnread(incoming);
    let answer: Response | Promise<Response>;
    try {
      answer = fetch(req as unknown as Request, { incoming, outgoing });
    } catch (e) {
      return Promise.reject(e);
    }
    const done = answer instanceof Promise ? answer.then((r) => writeResponse(r, outgoing)) : writeResponse(answer, outgoing);
    return done.then(after);
  };
  return (incoming, outgoing) => {
    const first = smallBody(incoming);
    // a body the client cut off is its business: nothing to answer, nothing to count
    return first ? first.then((body) => (body ? serve(incoming, outgoing, body) : undefined)) : serve(incoming, outgoing);
  };
}
