// Test support: a daemon with the virtual unit on a free loopback port, in a fresh data folder,
// and a small HTTP client that keeps the session cookie and sends the CSRF token.
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Daemon, type DaemonOptions, startDaemon } from '../../device/main.ts';
import { createLogger } from '../../device/system/log.ts';
import type { Clock } from '../../hw/types.ts';
import { createSimHw, type SimHwOptions } from '../../sim/hw.ts';

export const ADMIN = { username: 'admin', password: 'Adm1n-Passw0rd!' };
export const USER = { username: 'viewer', password: 'V1ewer-Passw0rd!' };

/** A clock tests move by hand. */
export class FakeClock implements Clock {
  constructor(public t = Date.UTC(2026, 10, 21, 8, 0, 0)) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface TestDaemon extends Daemon {
  dataDir: string;
  /** a client without a session; with `from`, its connections leave from that local address (127.x.y.z: another source address on loopback) */
  client(from?: string): Client;
  /** a client logged in as the admin (created on first use) */
  admin(): Promise<Client>;
  /** a client logged in with the user role (created on first use) */
  user(): Promise<Client>;
  stop(): Promise<void>;
}

export interface TestDaemonOptions {
  dataDir?: string;
  clock?: Clock;
  webDir?: string;
  /** serial connectors of the virtual unit: device paths (pseudo-terminals) or in-process virtual PLCs */
  serial?: Pick<SimHwOptions, 'serialMap' | 'virtualPorts'>;
  /** the one origin granted credentialed CORS (the simulator's --dev-origin) */
  devOrigin?: string;
  /** the console over HTTPS on a free port (the unit's default), the plain port redirecting to it */
  tls?: boolean;
  /** how often the data logger wakes (default 1 s): tests that move a fake clock need not wait a real second per step */
  loggerPollMs?: number;
  /** a capture's minute in ms (device/diag/capture.ts) */
  captureMinuteMs?: number;
  /** the health history's sample interval (device/diag/health.ts) */
  healthIntervalMs?: number;
  /** shorter deadlines or smaller caps for every HTTP listener (device/net/http-limits.ts), so a test need not wait the production 10 s */
  httpLimits?: DaemonOptions['httpLimits'];
  /** a cheaper scrypt for the passwords set (the browser tests: test/e2e/support.ts); absent, the unit's */
  hashCost?: DaemonOptions['hashCost'];
  /** how long the first frame's render may take (the browser tests: test/e2e/support.ts); absent, the unit's */
  frameLimits?: DaemonOptions['frameLimits'];
}

export async function startTestDaemon(opts: TestDaemonOptions = {}): Promise<TestDaemon> {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'daemon-test-')));
  const hw = createSimHw({ dataDir, clock: opts.clock, versions: { app: '0', bsp: '1.3.2', hmi: '4.5.2' }, ...opts.serial });
  const log = createLogger({ clock: hw.clock, sink: null });
  const d = await startDaemon({
    hw,
    dataDir,
    port: 0,
    log,
    webDir: opts.webDir,
    devOrigin: opts.devOrigin,
    ...(opts.tls ? { tlsPort: 0 } : {}),
    ...(opts.loggerPollMs ? { loggerPollMs: opts.loggerPollMs } : {}),
    ...(opts.captureMinuteMs ? { captureMinuteMs: opts.captureMinuteMs } : {}),
    ...(opts.healthIntervalMs ? { healthIntervalMs: opts.healthIntervalMs } : {}),
    ...(opts.httpLimits ? { httpLimits: opts.httpLimits } : {}),
    ...(opts.hashCost ? { hashCost: opts.hashCost } : {}),
    ...(opts.frameLimits ? { frameLimits: opts.frameLimits } : {}),
  });
  const client = (from?: string) => new Client(d.url, from);
  const admin = async () => {
    if (d.ctx.users.isEmpty()) await client().post('/rest/api/v1/authentication/setup', ADMIN);
    return client().login(ADMIN);
  };
  const user = async () => {
    if (d.ctx.users.isEmpty()) await client().post('/rest/api/v1/authentication/setup', ADMIN);
    if (!d.ctx.users.find(USER.username)) await d.ctx.users.add(USER.username, 'user', USER.password, new Date());
    return client().login(USER);
  };
  return {
    ...d,
    dataDir,
    client,
    admin,
    user,
    stop: async () => {
      await d.close();
      if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Reply {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

export class Client {
  cookie = '';
  csrf = '';
  /** `from`: the local address the client's connections leave from (a source address of its own) */
  constructor(
    readonly base: string,
    readonly from?: string,
  ) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const h: Record<string, string> = { ...headers };
    if (this.cookie) h.cookie = this.cookie;
    if (this.csrf && method !== 'GET') h['x-csrf-token'] ??= this.csrf;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    const res = this.from
      ? await requestFrom(this.from, this.base + path, method, h, payload)
      : await fetch(this.base + path, { method, headers: h, body: payload, redirect: 'manual' });
    const set = res.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0]!;
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  }

  get(path: string): Promise<Reply> {
    return this.request('GET', path);
  }

  post(path: string, body: unknown = {}, headers?: Record<string, string>): Promise<Reply> {
    return this.request('POST', path, body, headers);
  }

  /**
   * Signs in like a well-behaved client: a check refused as `login_busy` (another check of the same
   * address is already waiting for the hashing queue: docs/login-security.md) is asked again after
   * the Retry-After it names. Two daemons of one test process share that queue.
   */
  async login(cred: { username: string; password: string }): Promise<this> {
    let r = await this.post('/rest/api/v1/authentication', cred);
    for (let tries = 1; r.status === 429 && r.body?.error?.code === 'login_busy' && tries < 30; tries++) {
      await new Promise((res) => setTimeout(res, 1000 * (r.body.error.params?.retryAfterSeconds ?? 1)));
      r = await this.post('/rest/api/v1/authentication', cred);
    }
    if (r.status !== 200) throw new Error(`login failed: ${r.status} ${r.text}`);
    this.csrf = r.body.csrfToken;
    return this;
  }
}

/** One HTTP request over a connection that leaves from `localAddress` (fetch cannot choose it). */
export function requestFrom(
  localAddress: string,
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Headers; text(): Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, localAddress, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('error', reject);
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
        const text = Buffer.concat(parts).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: h, text: async () => text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
