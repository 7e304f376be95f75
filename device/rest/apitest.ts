// The REST test (spec §7 `/apitest`): the unit's own REST server as saved is asked the way a client
// would: TCP connect to http_port on the listen address, the TLS handshake when use_encryption (the
// server must present the certificate the section holds), then GET /api/v1/info. Answers the
// shared test result (device/model/servicetest.ts).

import { X509Certificate } from 'node:crypto';
import { request } from 'node:http';
import { type Socket, connect as tcpConnect } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Rest } from '../model/sections/rest.ts';
import { type ServiceTestResult, testNote } from '../model/servicetest.ts';
import { connect as tlsConnect } from '../net/node-tls.ts';
import { failureNote, runTest, StepFailure } from '../services/test-run.ts';
import { restAdmits } from './admit.ts';
import type { RestServer } from './engine.ts';

/** The address a client of the unit itself uses: loopback when the daemon listens on every address. */
export const ownHost = (listenHost: string): string => (listenHost === '0.0.0.0' ? '127.0.0.1' : listenHost === '::' ? '::1' : listenHost);

const fingerprint = (bytes: Buffer): string | undefined => {
  try {
    return new X509Certificate(bytes).fingerprint256;
  } catch {
    return undefined;
  }
};

function openTcp(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = tcpConnect({ host, port });
    s.once('connect', () => {
      s.off('error', reject);
      resolve(s);
    });
    s.once('error', reject);
  });
}

function handshake(socket: Socket, host: string): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    // the unit's own certificate is usually self-signed: trust is checked by comparing it with the
    // section's certificate below, not by a CA chain
    const t = tlsConnect({ socket, servername: host === '127.0.0.1' || host === '::1' ? undefined : host, rejectUnauthorized: false });
    t.once('secureConnect', () => {
      t.off('error', reject);
      resolve(t);
    });
    t.once('error', reject);
  });
}

interface InfoAnswer {
  status: number;
  body: string;
}

function getInfo(socket: Socket, host: string, port: number): Promise<InfoAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({
      host,
      port,
      path: '/api/v1/info',
      method: 'GET',
      headers: { accept: 'application/json', connection: 'close' },
      createConnection: () => socket,
    });
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end();
  });
}

export async function restApiTest(cfg: Rest, server: RestServer, listenHost: string): Promise<ServiceTestResult> {
  const host = ownHost(listenHost);
  const peer = `${cfg.use_encryption ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${cfg.http_port}`;
  let socket: Socket | undefined;
  try {
    return await runTest(peer, async (t) => {
      socket = await t.step('connect', async () => {
        try {
          return await openTcp(host, cfg.http_port);
        } catch (e) {
          // the engine knows why nothing listens (a missing certificate, a port in use)
          const detail = server.status().detail;
          throw detail ? new StepFailure('refused', `${(e as Error).message} (${detail})`) : e;
        }
      });
      if (cfg.use_encryption) {
        socket = await t.step(
          'tls',
          async () => {
            const tls = await handshake(socket!, host);
            const own = server.certificate();
            const presented = tls.getPeerX509Certificate();
            if (own && presented && fingerprint(own) !== presented.fingerprint256)
              throw failureNote('tls_untrusted', testNote('rest_other_cert'), 'The server presented another certificate than the one of pew_api');
            return tls;
          },
          {
            note: (tls) =>
              testNote('tls', {
                handshake: [tls.getProtocol() ?? 'TLS', tls.getPeerX509Certificate()?.subject.replace(/\n/g, ', ')].filter(Boolean).join(', '),
              }),
          },
        );
      }
      await t.step(
        'request',
        async () => {
          // the server closes a client outside ip1..ip2 as it connects (docs/hardening.md DOS-2): say why
          if (!restAdmits(cfg, host))
            throw failureNote(
              'auth_failed',
              testNote('rest_outside_range', { host, from: cfg.ip1, to: cfg.ip2 }),
              `The unit's own address ${host} is outside ${cfg.ip1} – ${cfg.ip2}: the server closes its connection`,
            );
          const answer = await getInfo(socket!, host, cfg.http_port);
          let body: { error?: { code?: string; message?: string }; api?: string; version?: string } | undefined;
          try {
            body = JSON.parse(answer.body) as typeof body;
          } catch {
            throw failureNote('bad_reply', testNote('not_json', { status: answer.status }), `HTTP ${answer.status}: the answer is not JSON`);
          }
          if (answer.status === 403) throw new StepFailure('auth_failed', `HTTP 403: ${body?.error?.message ?? 'forbidden'}`);
          if (answer.status === 404) throw new StepFailure('not_found', `HTTP 404: ${body?.error?.message ?? 'not found'}`);
          if (answer.status !== 200) throw new StepFailure('peer_error', `HTTP ${answer.status}: ${body?.error?.message ?? ''}`);
          if (body?.api !== 'v1') throw failureNote('bad_reply', testNote('rest_not_info'), "The answer is not the unit's REST API information");
          return body;
        },
        { note: (b) => testNote('rest_info', { version: b.version ?? '' }) },
      );
    });
  } finally {
    (socket as Socket | undefined)?.destroy();
  }
}
