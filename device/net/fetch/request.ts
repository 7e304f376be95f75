// The daemon's Request (install.ts says why it is the daemon's own): what Hono and the routes read
// of a request, made straight from node's IncomingMessage (`ofNode`), whose body is read from the
// socket when a route asks for it (body.ts). Its signal aborts when the client goes away before the
// answer is complete (hono-listener.ts).
import type { IncomingMessage } from 'node:http';
import { Body, type BodyInput, type BodySource, sourceOf } from './body.ts';
import { DaemonHeaders, type HeadersSource } from './headers.ts';

export interface DaemonRequestInit {
  method?: string;
  headers?: HeadersSource | null;
  body?: BodyInput;
  signal?: AbortSignal | null;
  duplex?: 'half';
}

/** A request the connection cannot carry (no Host, a target that is no path): answered 400. */
export class BadRequestTarget extends Error {}

const METHOD_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const NORMALISED = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH']);
/** a host name with an optional port, nothing a URL parser could read differently */
const PLAIN_HOST = /^[a-z0-9.-]+(?::\d{1,5})?$/;
/** a path and query of plain characters, with no dot segment and no backslash */
const PLAIN_TARGET = /^\/[!#$&-;=?-[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;

/**
 * The URL of a node request: its absolute-form target, or the scheme of its socket, its Host and its
 * path. A target whose path has a backslash or a Host that a URL parser reads as something else
 * (`evil/x`, `a@b`) is refused, so routing and access checks see the path the client sent.
 */
export function urlOfNode(incoming: IncomingMessage): string {
  const target = incoming.url ?? '';
  const backslash = target.indexOf('\\');
  const query = target.indexOf('?');
  if (backslash !== -1 && (query === -1 || backslash < query)) throw new BadRequestTarget('a backslash in the request path');
  if (/^https?:\/\//i.test(target)) {
    try {
      return new URL(target).href;
    } catch {
      throw new BadRequestTarget('an absolute URL that does not parse');
    }
  }
  if (target !== '' && target[0] !== '/') throw new BadRequestTarget('a request target that is not a path');
  const host = incoming.headers.host;
  if (!host) throw new BadRequestTarget('no Host header');
  const scheme = (incoming.socket as { encrypted?: boolean } | null)?.encrypted ? 'https' : 'http';
  const path = target || '/';
  const url = `${scheme}://${host}${path}`;
  if (PLAIN_HOST.test(host) && PLAIN_TARGET.test(path) && !DOT_SEGMENT.test(path)) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BadRequestTarget('a Host or path that does not parse');
  }
  if (parsed.hostname !== host.replace(/:\d+$/, '').toLowerCase()) throw new BadRequestTarget('a Host header that is not a host');
  return parsed.href;
}

/** A node request, given to the constructor by `DaemonRequest.ofNode` only; `body` when it was read already. */
class FromNode {
  constructor(
    readonly incoming: IncomingMessage,
    readonly body?: Uint8Array,
  ) {}
}

interface Parts {
  method: string;
  url: string;
  source: BodySource;
  headers?: DaemonHeaders;
  incoming?: IncomingMessage;
  signal?: AbortSignal;
}

/** A request node received: its fields as node's parser checked them, its headers read when first asked for. */
function partsOfNode({ incoming, body }: FromNode): Parts {
  const method = incoming.method ?? 'GET';
  return { method, url: urlOfNode(incoming), source: method === 'GET' || method === 'HEAD' ? null : (body ?? incoming), incoming };
}

function partsOf(input: string | URL | DaemonRequest | Request, init: DaemonRequestInit | undefined): Parts {
  const from = typeof input === 'object' && !(input instanceof URL) ? input : undefined;
  const method = init?.method ?? from?.method ?? 'GET';
  if (!METHOD_TOKEN.test(method)) throw new TypeError(`"${method}" is not a method`);
  const upper = method.toUpperCase();
  if (upper === 'CONNECT' || upper === 'TRACE' || upper === 'TRACK') throw new TypeError(`${method} is not allowed`);
  const m = NORMALISED.has(upper) ? upper : method;
  let source: BodySource = null;
  let type: string | undefined;
  if (init?.body != null) ({ source, type } = sourceOf(init.body));
  else if (from instanceof DaemonRequest) source = from.takeSource();
  else if (from?.body) source = from.body as ReadableStream<Uint8Array>;
  if (source !== null && (m === 'GET' || m === 'HEAD')) throw new TypeError(`a ${m} request has no body`);
  const headers = new DaemonHeaders(init?.headers ?? from?.headers);
  if (type && !headers.has('content-type')) headers.set('content-type', type);
  return { method: m, url: from ? from.url : new URL(String(input)).href, source, headers, signal: init?.signal ?? from?.signal ?? undefined };
}

export class DaemonRequest extends Body {
  readonly method: string;
  readonly url: string;
  readonly duplex = 'half';
  #headers: DaemonHeaders | undefined;
  #incoming: IncomingMessage | undefined;
  #signal: AbortSignal | undefined;
  #abort: AbortController | undefined;
  #abortReason: unknown;

  constructor(input: string | URL | DaemonRequest | Request, init?: DaemonRequestInit) {
    const p = input instanceof FromNode ? partsOfNode(input) : partsOf(input, init);
    super(p.source);
    this.method = p.method;
    this.url = p.url;
    this.#headers = p.headers;
    this.#incoming = p.incoming;
    this.#signal = p.signal;
  }

  /** The request node received (its URL refused with BadRequestTarget when the connection cannot carry it); `body`: its body, read already. */
  static ofNode(incoming: IncomingMessage, body?: Uint8Array): DaemonRequest {
    return new DaemonRequest(new FromNode(incoming, body) as unknown as string);
  }

  get headers(): DaemonHeaders {
    if (!this.#headers) this.#headers = this.#incoming ? DaemonHeaders.ofRaw(this.#incoming.rawHeaders) : new DaemonHeaders();
    return this.#headers;
  }

  /** Aborted when the client went away before the answer was complete. */
  get signal(): AbortSignal {
    if (this.#signal) return this.#signal;
    this.#abort = new AbortController();
    if (this.#abortReason !== undefined) this.#abort.abort(this.#abortReason);
    this.#signal = this.#abort.signal;
    return this.#signal;
  }

  /** The client went away (hono-listener.ts): the signal aborts, now or when first read. */
  abortFromNode(reason: unknown): void {
    if (this.#abortReason !== undefined) return;
    this.#abortReason = reason;
    this.#abort?.abort(reason);
  }

  protected override contentType(): string | null {
    return this.headers.get('content-type');
  }

  clone(): DaemonRequest {
    return new DaemonRequest(this.url, { method: this.method, headers: this.headers, body: this.cloneSource(), signal: this.signal });
  }

  get [Symbol.toStringTag](): string {
    return 'Request';
  }
}
