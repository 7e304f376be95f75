// Request-level guards of the console (issue 34 item 7; docs/api.md HDR-1..HDR-4, docs/https.md
// TLS-3): TLS 1.2 without the CBC suites with SHA-1 on the console and the TLS bridge's server part;
// HSTS on the HTTPS console only; a foreign or `null` Origin refused on every POST beside the CSRF
// token; JSON bodies at most 64 KiB except the settings saves; the audit download a POST, since a
// GET has no side effects.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, connect as tlsConnect } from 'node:tls';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Tls, tlsSchema } from '../../device/model/sections/tls.ts';
import { SERVER_CERT_FOLDER, serverTlsOptions } from '../../device/tls/server-part.ts';
import { ADMIN, type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { makeCertificates } from '../support/openssl.ts';
import { LOOPBACK } from '../support/ports.ts';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/** One request with the headers as given, over TLS when `tls` (any certificate: these tests are not about trust). */
function ask(port: number, method: string, path: string, opts: { tls?: boolean; body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const base = { host: LOOPBACK, port, method, path, agent: false as const, headers: opts.headers ?? {} };
  const req = opts.tls ? httpsRequest({ ...base, rejectUnauthorized: false }) : httpRequest(base);
  return new Promise((resolve, reject) => {
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.once('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString());
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.once('error', reject);
    req.end(opts.body);
  });
}

/** Whether a TLS 1.2 handshake offering only `cipher` succeeds. */
function handshake(port: number, cipher: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = tlsConnect({ host: LOOPBACK, port, maxVersion: 'TLSv1.2', ciphers: cipher, rejectUnauthorized: false });
    s.once('secureConnect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

const CBC_SHA1 = ['ECDHE-ECDSA-AES128-SHA', 'ECDHE-ECDSA-AES256-SHA'];
const AEAD = 'ECDHE-ECDSA-AES128-GCM-SHA256';

describe('the console over HTTPS', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await startTestDaemon({ tls: true });
  }, 60_000);
  afterAll(() => d?.stop());

  it('TLS-3: refuses the CBC suites with SHA-1 in TLS 1.2 and keeps the AEAD ones (the generated key is P-256)', async () => {
    for (const c of CBC_SHA1) expect(await handshake(d.tlsPort!, c), c).toBe(false);
    expect(await handshake(d.tlsPort!, AEAD)).toBe(true);
  });

  it('HDR-1: sends Strict-Transport-Security on its answers', async () => {
    for (const path of ['/', '/rest/api/v1/authentication', '/config/pew']) {
      const r = await ask(d.tlsPort!, 'GET', path, { tls: true });
      expect(r.headers['strict-transport-security'], path).toBe('max-age=31536000');
    }
  });

  it('HDR-2: takes its own https origin and refuses the http one of the same host', async () => {
    const own = `https://${LOOPBACK}:${d.tlsPort}`;
    const login = (origin: string) =>
      ask(d.tlsPort!, 'POST', '/rest/api/v1/authentication/setup', {
        tls: true,
        body: JSON.stringify(ADMIN),
        headers: { 'content-type': 'application/json', origin },
      });
    const plain = await login(`http://${LOOPBACK}:${d.tlsPort}`);
    expect([plain.status, plain.body.error.code]).toEqual([403, 'origin_not_allowed']);
    expect(d.ctx.users.isEmpty()).toBe(true);
    expect((await login(own)).status).toBe(201);
  });
});

describe('the TLS bridge server part', () => {
  it('TLS-3: its TLS options refuse the CBC suites with SHA-1 in TLS 1.2', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'bridge-ciphers-'));
    try {
      const { cert, key } = await makeCertificates();
      await mkdir(join(dataDir, 'certs', SERVER_CERT_FOLDER), { recursive: true });
      await writeFile(join(dataDir, 'certs', SERVER_CERT_FOLDER, 'server.pem'), cert);
      await writeFile(join(dataDir, 'certs', SERVER_CERT_FOLDER, 'key.pem'), key);
      const t: Tls = { ...(v.getDefaults(tlsSchema) as Tls), tlsservercert: 'server.pem', tlsserverkey: 'key.pem', tlsserver_certauth: 0 };
      const server = createTlsServer(await serverTlsOptions(t, dataDir), (s) => s.end());
      server.on('tlsClientError', () => undefined);
      await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
      const port = (server.address() as AddressInfo).port;
      try {
        for (const c of CBC_SHA1) expect(await handshake(port, c), c).toBe(false);
        expect(await handshake(port, AEAD)).toBe(true);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the console over plain HTTP', () => {
  let d: TestDaemon;
  let admin: Client;
  beforeAll(async () => {
    d = await startTestDaemon();
    admin = await d.admin();
  });
  afterAll(() => d?.stop());

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    ask(d.port, 'POST', path, { body, headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/json', ...headers } });
  const mqtt = async () => (await admin.get('/config/pew_mqtt')).body;

  it('HDR-1: sends no Strict-Transport-Security', async () => {
    expect((await ask(d.port, 'GET', '/')).headers['strict-transport-security']).toBeUndefined();
  });

  it('HDR-2: a POST with a foreign or null Origin changes nothing, even with the session and its CSRF token', async () => {
    const before = await mqtt();
    const changed = JSON.stringify({ ...before, keep_alive: before.keep_alive === 60 ? 61 : 60 });
    for (const origin of ['http://attacker.example', 'null', `http://${LOOPBACK}:${d.port}.attacker.example`, `https://${LOOPBACK}:${d.port}`]) {
      const r = await post('/config/pew_mqtt', changed, { origin });
      expect([r.status, r.body.error.code], origin).toEqual([403, 'origin_not_allowed']);
    }
    expect(await mqtt()).toEqual(before);
    // a foreign page cannot even try a password
    const login = await ask(d.port, 'POST', '/rest/api/v1/authentication', {
      body: JSON.stringify(ADMIN),
      headers: { 'content-type': 'application/json', origin: 'http://attacker.example' },
    });
    expect([login.status, login.body.error.code]).toEqual([403, 'origin_not_allowed']);
    // the console's own origin, and no Origin at all (a tool), pass on to the CSRF check
    expect((await post('/config/pew_mqtt', changed, { origin: `http://${LOOPBACK}:${d.port}` })).status).toBe(200);
    expect((await post('/config/pew_mqtt', JSON.stringify(before))).status).toBe(200);
    expect((await post('/config/pew_mqtt', changed, { origin: `http://${LOOPBACK}:${d.port}`, 'x-csrf-token': 'wrong' })).body.error.code).toBe('csrf');
  });

  it('HDR-3: a JSON body over 64 KiB is refused, except on the saves of settings', async () => {
    const pad = (size: number) => `{"pad":"${'a'.repeat(size - 10)}"}`;
    const big = await post('/config/users/add', pad(64 * 1024 + 1));
    expect([big.status, big.body.error.code, big.body.error.params]).toEqual([413, 'body_too_large', { max: 65536 }]);
    const justUnder = await post('/config/users/add', pad(64 * 1024));
    expect([justUnder.status, justUnder.body.error.code]).toEqual([400, 'invalid_input']);
    // a section save of 100 KB reaches the schema (which refuses the unknown key), not the limit
    const section = await post('/config/pew_mqtt', pad(100_000));
    expect([section.status, section.body.error.code]).toEqual([400, 'invalid_input']);
  });

  it('HDR-4: the audit download is a POST, with its audit entry; a GET of it is no route and writes nothing', async () => {
    const count = async () => (await admin.get('/config/audit?size=1')).body.total as number;
    const before = await count();
    const get = await admin.get('/config/audit/download');
    expect([get.status, get.body.error.code]).toEqual([404, 'not_found']);
    expect(await count()).toBe(before);
    const dl = await admin.post('/config/audit/download');
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-disposition')).toBe('attachment; filename="audit.log"');
    expect(await count()).toBe(before + 1);
  });
});
