// The REST API and HTTP server of the unit (spec §3 REST pew_api, §5): one listener on http_port of
// the daemon's listen address while api_enable or http_server is on, following every save of
// pew_api (config/follow.ts): a changed section closes the listener and opens the new one, a
// disabled one stays closed. With use_encryption it is HTTPS with the section's uploaded server
// certificate and key (`<dataDir>/certs/pew_api/server.<crt|pem>` and `key.<key|pem>`,
// system/cert-files.ts); their files are watched, so an upload takes effect without another save.

import { stat } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Links } from '../com/links.ts';
import { followSection } from '../config/follow.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Rest } from '../model/sections/rest.ts';
import { ConnectionGuard } from '../net/connection-guard.ts';
import { guardHttp } from '../net/guarded-http.ts';
import { honoListener } from '../net/hono-listener.ts';
import { type HttpLimits, httpServerOptions, limitHttpServer, limitsWith, REST_LIMITS } from '../net/http-limits.ts';
import { certPath, readCert } from '../system/cert-files.ts';
import type { Logger } from '../system/log.ts';
import { restAdmits } from './admit.ts';
import { createRestApp } from './app.ts';

export const REST_SECTION = 'pew_api';
/** the names the server certificate and its key may have (spec §5 names and extensions) */
export const SERVER_CERT_NAMES = ['server.pem', 'server.crt'] as const;
export const SERVER_KEY_NAMES = ['key.pem', 'key.key'] as const;
/** how often the certificate files are checked for an upload */
export const CERT_CHECK_MS = 2000;

export interface RestStatus {
  /** api_enable or http_server */
  enabled: boolean;
  listening: boolean;
  port: number;
  tls: boolean;
  /** why it is not listening: the listen error, or `certificate_missing` */
  detail: string;
  /** requests whose handling failed: each answered 500 and its connection closed (net/connection-guard.ts) */
  faults: number;
}

export interface RestServer {
  status(): RestStatus;
  /** the server certificate in use (PEM or DER bytes), when it is HTTPS */
  certificate(): Buffer | undefined;
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface RestDeps {
  store: ConfigStore;
  links: Links;
  log: Logger;
  dataDir: string;
  host: string;
  versions: { app: string };
  /** the unit's host name: a Host header may name it (system/hosts.ts) */
  hostname: string;
  /** tests: shorter deadlines or caps than the production ones (net/http-limits.ts REST_LIMITS) */
  limits?: Partial<HttpLimits>;
}

const firstCert = async (dataDir: string, names: readonly string[]): Promise<{ name: string; bytes: Buffer } | undefined> => {
  for (const name of names) {
    const bytes = await readCert(dataDir, REST_SECTION, name);
    if (bytes) return { name, bytes };
  }
  return undefined;
};

/** A fingerprint of the certificate files (names, sizes, times) to notice an upload or a removal. */
async function certStamp(dataDir: string): Promise<string> {
  const parts = await Promise.all(
    [...SERVER_CERT_NAMES, ...SERVER_KEY_NAMES].map(async (n) => {
      const s = await stat(certPath(dataDir, REST_SECTION, n)).catch(() => undefined);
      return s ? `${n}:${s.size}:${s.mtimeMs}` : '';
    }),
  );
  return parts.join('|');
}

export async function startRestServer(deps: RestDeps): Promise<RestServer> {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  let cert: Buffer | undefined;
  let stamp = '';
  let state: Omit<RestStatus, 'faults'> = { enabled: false, listening: false, port: 0, tls: false, detail: '' };
  const guard = new ConnectionGuard({ listener: 'rest', log: deps.log });
  const limits = limitsWith(REST_LIMITS, deps.limits);

  const stop = async () => {
    const s = server;
    server = undefined;
    cert = undefined;
    if (!s) return;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      for (const sock of sockets) sock.destroy();
    });
    sockets.clear();
  };

  let closed = false;
  const apply = async () => {
    const cfg = deps.store.get<Rest>(REST_SECTION);
    await stop();
    if (closed) return;
    const enabled = cfg.api_enable || cfg.http_server;
    state = { enabled, listening: false, port: cfg.http_port, tls: cfg.use_encryption, detail: '' };
    stamp = cfg.use_encryption ? await certStamp(deps.dataDir) : '';
    if (!enabled) return;
    // a request whose handling throws ends its own connection with a 500, never the daemon
    const guarded = guardHttp(guard, honoListener(createRestApp(cfg, deps).fetch));
    const listener = guarded.listener;
    let s: Server;
    if (cfg.use_encryption) {
      const [c, k] = await Promise.all([firstCert(deps.dataDir, SERVER_CERT_NAMES), firstCert(deps.dataDir, SERVER_KEY_NAMES)]);
      if (!c || !k) {
        state.detail = 'certificate_missing';
        deps.log.error('REST server: HTTPS needs the server certificate and key of pew_api', {
          missing: [!c ? 'server' : '', !k ? 'key' : ''].filter(Boolean),
        });
        return;
      }
      try {
        s = createHttpsServer({ ...httpServerOptions(limits), cert: c.bytes, key: k.bytes }, listener);
      } catch (e) {
        state.detail = `certificate_invalid: ${(e as Error).message}`;
        deps.log.error('REST server: the server certificate or key is not usable', { error: (e as Error).message });
        return;
      }
      cert = c.bytes;
    } else {
      s = createHttpServer(httpServerOptions(limits), listener);
    }
    guarded.watch(s);
    s.on('connection', (sock: Socket) => {
      sockets.add(sock);
      sock.once('close', () => sockets.delete(sock));
    });
    // DOS-2: a client outside ip1..ip2 is closed when it connects, never holding one of the slots
    limitHttpServer(s, limits, { admit: (ip) => restAdmits(cfg, ip) });
    s.on('tlsClientError', () => undefined); // a failed handshake is the client's problem, never the daemon's
    try {
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(cfg.http_port, deps.host, () => {
          s.off('error', reject);
          resolve();
        });
      });
    } catch (e) {
      state.detail = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      deps.log.error('REST server cannot listen', { port: cfg.http_port, error: (e as Error).message });
      return;
    }
    s.on('error', (e) => deps.log.error('REST server error', { error: e.message }));
    server = s;
    state.listening = true;
    deps.log.info('REST server listening', { port: cfg.http_port, tls: cfg.use_encryption, api: cfg.api_enable, files: cfg.http_server });
  };

  // one apply at a time, whether a save or a certificate change asks for it
  let chain = Promise.resolve();
  const queued = (): Promise<void> => {
    const run = chain.then(apply);
    chain = run.catch((e: unknown) => deps.log.error('REST server: applying the certificates failed', { error: String(e) }));
    return run;
  };
  const follower = await followSection(deps.store, REST_SECTION, deps.log, queued);
  // an uploaded (or removed) certificate takes effect without a save of the section
  let checking = false;
  const timer = setInterval(() => {
    const cfg = deps.store.get<Rest>(REST_SECTION);
    if (checking || !(cfg.use_encryption && (cfg.api_enable || cfg.http_server))) return;
    checking = true;
    void certStamp(deps.dataDir)
      .then(async (now) => {
        if (now !== stamp) await queued();
      })
      .catch((e: unknown) => deps.log.error('REST server: checking the certificates failed', { error: String(e) }))
      .finally(() => {
        checking = false;
      });
  }, CERT_CHECK_MS);
  timer.unref();

  return {
    status: () => ({ ...state, faults: guard.faults }),
    certificate: () => cert,
    settled: async () => {
      await follower.settled();
      await chain;
    },
    close: async () => {
      closed = true;
      clearInterval(timer);
      await follower.stop();
      await chain;
      await stop();
    },
  };
}
