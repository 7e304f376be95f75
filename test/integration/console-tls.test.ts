// security.md TLS-2 (issue 16 item 8): the console over HTTPS, as the unit serves it. A key and a
// self-signed certificate are made at the first start for the unit's names and addresses, shown
// with their fingerprint in the system information (/info), kept across restarts, replaced by an
// uploaded certificate and key (and back when they are removed); the plain HTTP port answers only
// with a redirect; the session cookie is Secure over TLS. Checked with `openssl s_client` as the
// client, and node's HTTPS client trusting exactly the certificate the daemon showed.
import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CERT_CHECK_MS } from '../../device/system/console-tls.ts';
import { ADMIN, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { makeCertificates } from '../support/openssl.ts';
import { LOOPBACK } from '../support/ports.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One request; over TLS trusting only `ca` (servername localhost). */
function ask(opts: {
  port: number;
  method?: string;
  path: string;
  tls?: { ca: string };
  body?: string | object;
  headers?: Record<string, string>;
}): Promise<Answer> {
  const payload = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  const headers = { ...(payload !== undefined && typeof opts.body === 'object' ? { 'content-type': 'application/json' } : {}), ...opts.headers };
  const base = { host: LOOPBACK, port: opts.port, method: opts.method ?? 'GET', path: opts.path, headers, agent: false as const };
  const req = opts.tls ? httpsRequest({ ...base, ca: opts.tls.ca, servername: 'localhost' }) : httpRequest(base);
  return new Promise((resolve, reject) => {
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.once('end', () => {
        const text = Buffer.concat(chunks).toString();
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.once('error', reject);
    req.setTimeout(15_000, () => req.destroy(new Error('timeout')));
    req.end(payload);
  });
}

/** `openssl s_client` against the port: the certificate the server presents (PEM) and the verify result. */
function sClient(port: number, extra: string[] = []): Promise<{ pem: string; out: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn('openssl', ['s_client', '-connect', `${LOOPBACK}:${port}`, '-servername', 'localhost', ...extra]);
    let out = '';
    p.stdout.on('data', (b: Buffer) => {
      out += b.toString();
    });
    p.stderr.on('data', (b: Buffer) => {
      out += b.toString();
    });
    p.once('error', reject);
    p.once('exit', () => {
      const m = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(out);
      if (!m) reject(new Error(`no certificate from s_client: ${out.slice(0, 500)}`));
      else resolve({ pem: `${m[0]}\n`, out });
    });
    p.stdin.end();
  });
}

const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;

let d: TestDaemon;
let dataDir: string;
let shownPem: string;
let generatedFp: string;
let cookie = '';
let csrf = '';

async function consoleCert(): Promise<any> {
  const r = await ask({ port: d.tlsPort!, path: '/rest/api/v1?cache=true&js=true', tls: { ca: shownPem }, headers: { cookie } });
  expect(r.status).toBe(200);
  return r.body.consoleTls;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'console-tls-'));
  d = await startTestDaemon({ dataDir, tls: true });
}, 60_000);
afterAll(async () => {
  await d?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the console over HTTPS', () => {
  it("presents a generated certificate for the unit's names, which openssl verifies for localhost and 127.0.0.1", async () => {
    expect(d.url).toBe(`https://${LOOPBACK}:${d.tlsPort}`);
    const { pem } = await sClient(d.tlsPort!);
    shownPem = pem;
    generatedFp = fingerprint(pem);
    const x = new X509Certificate(pem);
    expect(x.subjectAltName).toContain('DNS:localhost');
    expect(x.subjectAltName).toContain('DNS:communicator-sim');
    expect(x.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(x.checkHost('localhost')).toBe('localhost');
    const ok = await sClient(d.tlsPort!, ['-CAfile', join(dataDir, 'console-tls', 'cert.pem'), '-verify_hostname', 'localhost', '-verify_return_error']);
    expect(ok.out).toMatch(/Verify return code: 0 \(ok\)/);
  });

  it('creates the administrator and logs in over TLS with a Secure session cookie', async () => {
    const setup = await ask({ port: d.tlsPort!, method: 'POST', path: '/rest/api/v1/authentication/setup', tls: { ca: shownPem }, body: ADMIN });
    expect(setup.status).toBe(201);
    const login = await ask({ port: d.tlsPort!, method: 'POST', path: '/rest/api/v1/authentication', tls: { ca: shownPem }, body: ADMIN });
    expect(login.status).toBe(200);
    const set = String(login.headers['set-cookie']);
    expect(set).toMatch(/;\s*Secure/i);
    expect(set).toMatch(/HttpOnly/i);
    cookie = set.split(';')[0]!;
    csrf = login.body.csrfToken;
  });

  it('shows the certificate with its fingerprint in the system information', async () => {
    const tls = await consoleCert();
    expect(tls).toMatchObject({ enabled: true, certificate: { source: 'generated', fingerprint256: generatedFp } });
    expect(tls.certificate.subjectAltName).toContain('DNS:localhost');
  });

  it('answers plain HTTP only with a redirect to the same path over HTTPS, and processes nothing', async () => {
    const get = await ask({ port: d.port, path: '/rest/api/v1/authentication?x=1' });
    expect(get.status).toBe(308);
    expect(get.headers.location).toBe(`https://${LOOPBACK}:${d.tlsPort}/rest/api/v1/authentication?x=1`);
    const post = await ask({ port: d.port, method: 'POST', path: '/rest/api/v1/authentication', body: ADMIN, headers: { host: `localhost:${d.port}` } });
    expect(post.status).toBe(308);
    expect(post.headers['set-cookie']).toBeUndefined();
    expect(post.headers.location).toBe(`https://localhost:${d.tlsPort}/rest/api/v1/authentication`);
    // a foreign name is not echoed into the redirect
    const evil = await ask({ port: d.port, path: '/', headers: { host: 'rebind.attacker.example' } });
    expect(evil.headers.location).toBe(`https://${LOOPBACK}:${d.tlsPort}/`);
  });

  it('takes an uploaded certificate and key without a restart, and returns to the generated one when they are removed', async () => {
    const certs = await makeCertificates();
    const up = (name: string, text: string) =>
      ask({
        port: d.tlsPort!,
        method: 'POST',
        path: `/config/upload?kind=cert&section=console&name=${name}`,
        tls: { ca: shownPem },
        body: text,
        headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/octet-stream' },
      });
    expect((await up('server.pem', certs.cert)).status).toBe(200);
    expect((await up('key.pem', certs.key)).status).toBe(200);
    const uploadedFp = fingerprint(certs.cert);
    await expect.poll(async () => fingerprint((await sClient(d.tlsPort!)).pem), { timeout: CONSOLE_CERT_CHECK_MS * 5, interval: 300 }).toBe(uploadedFp);
    const viaCa = await ask({ port: d.tlsPort!, path: '/rest/api/v1/authentication', tls: { ca: certs.ca }, headers: { cookie } });
    expect(viaCa.status).toBe(200);
    expect(
      (await ask({ port: d.tlsPort!, path: '/rest/api/v1?cache=true&js=true', tls: { ca: certs.ca }, headers: { cookie } })).body.consoleTls.certificate,
    ).toMatchObject({ source: 'uploaded', fingerprint256: uploadedFp });

    for (const name of ['server.pem', 'key.pem']) {
      const del = await ask({
        port: d.tlsPort!,
        method: 'POST',
        path: '/config/delete_cert',
        tls: { ca: certs.ca },
        body: { section: 'console', name },
        headers: { cookie, 'x-csrf-token': csrf },
      });
      expect(del.status, name).toBe(200);
    }
    await expect.poll(async () => fingerprint((await sClient(d.tlsPort!)).pem), { timeout: CONSOLE_CERT_CHECK_MS * 5, interval: 300 }).toBe(generatedFp);
  });

  it('keeps the generated certificate when an uploaded key does not belong to the uploaded certificate', async () => {
    const a = await makeCertificates();
    const b = await makeCertificates();
    const up = (name: string, text: string) =>
      ask({
        port: d.tlsPort!,
        method: 'POST',
        path: `/config/upload?kind=cert&section=console&name=${name}`,
        tls: { ca: shownPem },
        body: text,
        headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/octet-stream' },
      });
    expect((await up('server.pem', a.cert)).status).toBe(200);
    expect((await up('key.pem', b.key)).status).toBe(200);
    await expect.poll(async () => (await consoleCert()).certificate.uploadProblem, { timeout: CONSOLE_CERT_CHECK_MS * 5, interval: 300 }).toBeTruthy();
    expect((await consoleCert()).certificate).toMatchObject({ source: 'generated', fingerprint256: generatedFp });
    expect(fingerprint((await sClient(d.tlsPort!)).pem)).toBe(generatedFp);
    for (const name of ['server.pem', 'key.pem'])
      await ask({
        port: d.tlsPort!,
        method: 'POST',
        path: '/config/delete_cert',
        tls: { ca: shownPem },
        body: { section: 'console', name },
        headers: { cookie, 'x-csrf-token': csrf },
      });
  });

  it('survives garbage on both ports: a failed handshake or a broken request ends only that connection', async () => {
    const { connect } = await import('node:net');
    const junk = (port: number, bytes: Buffer) =>
      new Promise<void>((resolve) => {
        const s = connect({ host: LOOPBACK, port }, () => s.end(bytes));
        s.on('error', () => resolve());
        s.on('close', () => resolve());
        s.setTimeout(5000, () => s.destroy());
      });
    await Promise.all([
      junk(d.tlsPort!, Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n')), // plain HTTP to the TLS port
      junk(d.tlsPort!, Buffer.from([0x16, 0x03, 0x01, 0xff, 0xff, 0, 1, 2, 3])), // a broken ClientHello
      junk(d.port, Buffer.from('\x00\x01garbage\r\n\r\n')),
      junk(d.port, Buffer.from('GET / HTTP/1.1\r\nHost: [bad\r\n\r\n')),
    ]);
    expect((await ask({ port: d.tlsPort!, path: '/rest/api/v1/authentication', tls: { ca: shownPem }, headers: { cookie } })).status).toBe(200);
    expect((await ask({ port: d.port, path: '/x' })).status).toBe(308);
  });

  it('keeps the same generated certificate across a restart', async () => {
    await d.stop();
    d = await startTestDaemon({ dataDir, tls: true });
    expect(fingerprint((await sClient(d.tlsPort!)).pem)).toBe(generatedFp);
  });

  it("leaves the cookie without Secure on a plain HTTP console (the simulator's default)", async () => {
    const plain = await startTestDaemon();
    try {
      await plain.client().post('/rest/api/v1/authentication/setup', ADMIN);
      const r = await plain.client().post('/rest/api/v1/authentication', ADMIN);
      expect(r.status).toBe(200);
      expect(r.headers.get('set-cookie')).not.toMatch(/Secure/i);
      expect(plain.tlsPort).toBeUndefined();
      expect((await (await plain.admin()).get('/rest/api/v1?cache=true&js=true')).body.consoleTls).toEqual({ enabled: false });
    } finally {
      await plain.stop();
    }
  });
});
