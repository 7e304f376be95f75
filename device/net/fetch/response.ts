// The daemon's Response (install.ts says why it is the daemon's own): status, headers and a body
// kept as it was made (body.ts), which the node writer (device/net/hono-listener.ts) sends as is.
import { Body, type BodyInput, sourceOf } from './body.ts';
import { DaemonHeaders, type HeadersSource } from './headers.ts';

export interface DaemonResponseInit {
  status?: number;
  statusText?: string;
  headers?: HeadersSource | null;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** the statuses that carry no body (Fetch "null body status") */
const NULL_BODY = new Set([204, 205, 304]);

export class DaemonResponse extends Body {
  readonly status: number;
  readonly statusText: string;
  readonly headers: DaemonHeaders;
  readonly type = 'default';
  readonly url = '';
  readonly redirected = false;

  constructor(body?: BodyInput, init?: DaemonResponseInit | null) {
    const { source, type } = sourceOf(body);
    super(source);
    const status = init?.status ?? 200;
    if (!Number.isInteger(status) || status < 200 || status > 599) throw new RangeError(`${status} is not a status a response can have (200-599)`);
    if (source !== null && NULL_BODY.has(status)) throw new TypeError(`a ${status} response has no body`);
    this.status = status;
    this.statusText = init?.statusText ?? '';
    this.headers = new DaemonHeaders(init?.headers);
    if (type && !this.headers.has('content-type')) this.headers.set('content-type', type);
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  protected override contentType(): string | null {
    return this.headers.get('content-type');
  }

  clone(): DaemonResponse {
    return new DaemonResponse(this.cloneSource(), { status: this.status, statusText: this.statusText, headers: this.headers });
  }

  get [Symbol.toStringTag](): string {
    return 'Response';
  }

  static json(data: unknown, init?: DaemonResponseInit): DaemonResponse {
    const body = JSON.stringify(data);
    if (body === undefined) throw new TypeError('the data has no JSON form');
    const headers = new DaemonHeaders(init?.headers);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    return new DaemonResponse(body, { ...init, headers });
  }

  static redirect(url: string | URL, status = 302): DaemonResponse {
    if (!REDIRECTS.has(status)) throw new RangeError(`${status} is not a redirect status`);
    return new DaemonResponse(null, { status, headers: { location: new URL(url).href } });
  }

  static error(): never {
    throw new TypeError('the daemon makes no network error responses');
  }
}
