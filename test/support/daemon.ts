// Test support: a daemon with the virtual unit on a free loopback port, in a fresh data folder,
// and a small HTTP client that keeps the session cookie and sends the CSRF token.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, type Daemon } from '../../device/main.ts';
import { createSimHw, type SimHwOptions } from '../../sim/hw.ts';
import { createLogger } from '../../device/system/log.ts';
import type { Clock } from '../../hw/types.ts';

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
  client(): Client;
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
}

export async function startTestDaemon(opts: TestDaemonOptions = {}): Promise<TestDaemon> {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'daemon-test-')));
  const hw = createSimHw({ dataDir, clock: opts.clock, versions: { app: '0', bsp: '1.3.2', hmi: '4.5.2' }, ...opts.serial });
  const log = createLogger({ clock: hw.clock, sink: null });
  const d = await startDaemon({ hw, dataDir, port: 0, log, webDir: opts.webDir, devOrigin: opts.devOrigin, ...(opts.tls ? { tlsPort: 0 } : {}) });
  const client = () => new Client(d.url);
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
  constructor(readonly base: string) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const h: Record<string, string> = { ...headers };
    if (this.cookie) h.cookie = this.cookie;
    if (this.csrf && method !== 'GET') h['x-csrf-token'] ??= this.csrf;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.base + path, { method, headers: h, body: payload, redirect: 'manual' });
    const set = res.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0]!;
    const text = await res.text();
    let parsed: unknown = undefined;
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

  async login(cred: { username: string; password: string }): Promise<this> {
    const r = await this.post('/rest/api/v1/authentication', cred);
    if (r.status !== 200) throw new Error(`login failed: ${r.status} ${r.text}`);
    this.csrf = r.body.csrfToken;
    return this;
  }
}
