// The connection tests of /httpc and /smtp through the daemon (POST /config/servicetest/<section>,
// spec §2, §3, §5 port 0 autodetect, §8) against real peers on 127.0.0.1: node HTTP and HTTPS
// servers with basic authentication, proxy-chain as a proxy that wants a user and password,
// smtp-server plain, with STARTTLS and with implicit TLS (AUTH PLAIN/LOGIN), and small POP3/IMAP
// servers that greet. Each case checks the reason and the peer's (or the system's) own words.

import { randomInt } from 'node:crypto';
import { createServer as httpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as httpsServer } from 'node:https';
import { createServer as netServer, type Server } from 'node:net';
import { createServer as tlsServer } from 'node:tls';
import { Server as ProxyServer } from 'proxy-chain';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultsOf } from '../../device/model/section.ts';
import { type Email, pew_email } from '../../device/model/sections/email.ts';
import { type Httpc, pew_httpc } from '../../device/model/sections/httpc.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { makeCertificates } from '../support/openssl.ts';
import { freePort, freePorts, LOOPBACK } from '../support/ports.ts';
import { serviceTestCalls, stepsOf } from './service-test-calls.ts';

const USER = 'plc';
const PASSWORD = 'Secret-1';
const UNKNOWN_HOST = 'no-such-host.invalid';

let d: TestDaemon;
let admin: Client;
let certs: Awaited<ReturnType<typeof makeCertificates>>;
const closers: (() => Promise<unknown> | void)[] = [];

const listening = (s: Server, port: number, host = LOOPBACK) =>
  new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, host, () => resolve());
  });

const { putCert, save, runTest } = serviceTestCalls(() => ({ d, admin }));

beforeAll(async () => {
  certs = await makeCertificates();
  d = await startTestDaemon();
  admin = await d.admin();
}, 60_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await d?.stop();
});

describe('HTTP client connection test', () => {
  const ports = { http: 0, https: 0, proxy: 0 };
  const httpc = (over: Partial<Httpc>) => save('pew_httpc', { ...defaultsOf(pew_httpc), transfermode_ssl: false, ...over });

  // /status answers anyone, /plc wants the basic login, /keyed an API key header and JSON, anything else is 404
  const site = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/status') return res.end('running');
    if (req.url === '/keyed') {
      if (req.headers['content-type'] !== 'application/json') return res.writeHead(415).end('JSON only');
      return res.writeHead(req.headers['x-api-key'] === 'k-12345' ? 200 : 403).end();
    }
    if (req.url === '/plc') {
      const ok = req.headers.authorization === `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
      res.writeHead(ok ? 200 : 401, ok ? {} : { 'www-authenticate': 'Basic realm="plc"' });
      return res.end(ok ? 'welcome' : 'who are you?');
    }
    res.writeHead(404).end('nothing here');
  };

  beforeAll(async () => {
    [ports.http, ports.https, ports.proxy] = (await freePorts(3)) as [number, number, number];
    const http = httpServer(site);
    const https = httpsServer({ cert: certs.cert, key: certs.key }, site);
    await Promise.all([listening(http, ports.http), listening(https, ports.https)]);
    const proxy = new ProxyServer({
      port: ports.proxy,
      host: LOOPBACK,
      verbose: false,
      prepareRequestFunction: ({ username, password }) => ({ requestAuthentication: username !== 'proxyuser' || password !== 'Proxy-Pw1' }),
    });
    await proxy.listen();
    closers.push(
      () => {
        http.closeAllConnections();
        http.close();
      },
      () => {
        https.closeAllConnections();
        https.close();
      },
      () => proxy.close(true),
    );
    await putCert('pew_httpc', 'ca.pem', certs.ca);
  });

  it('plain http: connect, then the request with its status line', async () => {
    await httpc({ server_addr: `http://${LOOPBACK}:${ports.http}/status` });
    const r = await runTest('pew_httpc');
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(stepsOf(r)).toEqual(['connect:ok', 'request:ok']);
    expect(r.steps[1]!.note).toEqual({ code: 'http_get', args: { path: '/status' }, words: '200 OK' });
  });

  it("the server user's basic login: right passes, wrong is auth_failed (401); a wrong path is not_found (404)", async () => {
    await httpc({ server_addr: `http://${LOOPBACK}:${ports.http}/plc`, server_user: USER, server_password: PASSWORD });
    expect((await runTest('pew_httpc')).ok).toBe(true);
    await httpc({ server_addr: `http://${LOOPBACK}:${ports.http}/plc`, server_user: USER, server_password: 'Wrong-1' });
    const bad = await runTest('pew_httpc');
    expect(bad.failure).toEqual({ reason: 'auth_failed', message: '401 Unauthorized' });
    await httpc({ server_addr: `http://${LOOPBACK}:${ports.http}/nothing` });
    const missing = await runTest('pew_httpc');
    expect(missing.failure).toEqual({ reason: 'not_found', message: '404 Not Found' });
  });

  it('a closed port is refused; an unknown host is unknown_host', async () => {
    const closed = await freePort();
    await httpc({ server_addr: `http://${LOOPBACK}:${closed}/` });
    const refused = await runTest('pew_httpc');
    expect(refused.failure).toMatchObject({ reason: 'refused' });
    expect(refused.failure!.message).toContain(`ECONNREFUSED ${LOOPBACK}:${closed}`);
    await httpc({ server_addr: `http://${UNKNOWN_HOST}/` });
    const unknown = await runTest('pew_httpc');
    expect(unknown.failure).toMatchObject({ reason: 'unknown_host' });
    expect(unknown.failure!.message).toContain(UNKNOWN_HOST);
  });

  it('the request carries the content type and the custom headers the PLC’s requests carry', async () => {
    const keyed = { server_addr: `http://${LOOPBACK}:${ports.http}/keyed`, content_type: 'json' as const };
    await httpc({ ...keyed, headers: [{ name: 'X-Api-Key', value: 'k-12345', secret: true }] });
    const ok = await runTest('pew_httpc');
    expect(ok.ok, JSON.stringify(ok)).toBe(true);
    expect(ok.steps[1]!.note).toEqual({ code: 'http_get_headers', args: { path: '/keyed', headers: 'X-Api-Key' }, words: '200 OK' }); // the name, never the secret value
    await httpc({ ...keyed, headers: [{ name: 'X-Api-Key', value: 'wrong', secret: false }] });
    expect((await runTest('pew_httpc')).failure).toEqual({ reason: 'peer_error', message: '403 Forbidden' });
    await httpc({ ...keyed, content_type: 'octet-stream', headers: [{ name: 'X-Api-Key', value: 'k-12345', secret: true }] });
    expect((await runTest('pew_httpc')).failure).toEqual({ reason: 'peer_error', message: '415 Unsupported Media Type' });
  });

  it('https with the uploaded CA passes with the TLS step; without it the certificate is not trusted; unverified is accepted', async () => {
    await httpc({ server_addr: `https://localhost:${ports.https}/status`, transfermode_ssl: true, ca: 'ca.pem' });
    const ok = await runTest('pew_httpc');
    expect(ok.ok, JSON.stringify(ok)).toBe(true);
    expect(stepsOf(ok)).toEqual(['connect:ok', 'tls:ok', 'request:ok']);
    expect(ok.steps[1]!.note).toEqual({ code: 'tls_verified_ca', args: { handshake: expect.stringMatching(/^TLSv1\.3, TLS_\w+, CN=localhost$/) } });
    await httpc({ server_addr: `https://localhost:${ports.https}/status`, transfermode_ssl: true });
    const untrusted = await runTest('pew_httpc');
    expect(untrusted.failure).toMatchObject({ reason: 'tls_untrusted' });
    expect(untrusted.failure!.message).toMatch(/unable to (get local issuer|verify the first) certificate/);
    await httpc({ server_addr: `https://localhost:${ports.https}/status`, transfermode_ssl: true, transfermode_verify_ssl: false });
    expect((await runTest('pew_httpc')).ok).toBe(true);
  });

  it('through the proxy with its user and password: the proxy step, TLS inside the tunnel, the request; a wrong proxy password is auth_failed (407)', async () => {
    const proxy = { proxy_addr: LOOPBACK, proxy_port: ports.proxy, proxy_user: 'proxyuser', proxy_password: 'Proxy-Pw1' };
    await httpc({
      server_addr: `https://localhost:${ports.https}/plc`,
      transfermode_ssl: true,
      ca: 'ca.pem',
      server_user: USER,
      server_password: PASSWORD,
      ...proxy,
    });
    const ok = await runTest('pew_httpc');
    expect(ok.ok, JSON.stringify(ok)).toBe(true);
    expect(stepsOf(ok)).toEqual(['proxy:ok', 'tls:ok', 'request:ok']);
    expect(ok.peer).toBe(`https://localhost:${ports.https}/plc via ${LOOPBACK}:${ports.proxy}`);
    expect(ok.steps[2]!.note).toEqual({ code: 'http_get', args: { path: '/plc' }, words: '200 OK' });

    await httpc({ server_addr: `http://${LOOPBACK}:${ports.http}/status`, ...proxy });
    const plain = await runTest('pew_httpc');
    expect(plain.ok, JSON.stringify(plain)).toBe(true);
    expect(stepsOf(plain)).toEqual(['proxy:ok', 'request:ok']);

    await httpc({ server_addr: `http://${LOOPBACK}:${ports.http}/status`, ...proxy, proxy_password: 'Wrong-1' });
    const bad = await runTest('pew_httpc');
    expect(bad.failure).toMatchObject({ reason: 'auth_failed' });
    expect(bad.failure!.message).toMatch(/^proxy: 407 /);
    expect(bad.failure!.note).toEqual({ code: 'proxy_answer', words: expect.stringMatching(/^407 /) });
    expect(stepsOf(bad)).toEqual(['proxy:failed']);
  });
});

describe('E-mail connection test', () => {
  const ports = { starttls: 0, plain: 0, pop3: 0, imaps: 0 };
  /** a loopback address of its own, so the autodetect case may take port 465 without meeting anyone */
  const implicitHost = `127.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(2, 250)}`;
  const email = (over: Partial<Email>) =>
    save('pew_email', { ...defaultsOf(pew_email), server_smtp: LOOPBACK, server_user: USER, server_password: PASSWORD, ...over });

  function smtp(opts: SMTPServerOptions): SMTPServer {
    return new SMTPServer({
      banner: 'test SMTP ready',
      logger: false,
      key: certs.key,
      cert: certs.cert,
      authMethods: ['PLAIN', 'LOGIN'],
      onAuth: (auth, _session, cb) =>
        auth.username === USER && auth.password === PASSWORD
          ? cb(null, { user: USER })
          : cb(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 })),
      ...opts,
    });
  }
  const smtpListening = (s: SMTPServer, port: number, host = LOOPBACK) =>
    new Promise<void>((resolve, reject) => {
      s.on('error', reject);
      s.listen(port, host, () => resolve());
    });

  beforeAll(async () => {
    [ports.starttls, ports.plain, ports.pop3, ports.imaps] = (await freePorts(4)) as [number, number, number, number];
    const starttls = smtp({});
    const plain = smtp({ disabledCommands: ['STARTTLS'], allowInsecureAuth: true });
    const implicit = smtp({ secure: true });
    const pop3 = netServer((s) => s.end('+OK test POP3 ready\r\n'));
    const imaps = tlsServer({ cert: certs.cert, key: certs.key }, (s) => s.end('* OK [CAPABILITY IMAP4rev1] test IMAP ready\r\n'));
    await Promise.all([
      smtpListening(starttls, ports.starttls),
      smtpListening(plain, ports.plain),
      smtpListening(implicit, 465, implicitHost),
      listening(pop3, ports.pop3),
      listening(imaps, ports.imaps),
    ]);
    closers.push(
      () => new Promise<void>((r) => starttls.close(() => r())),
      () => new Promise<void>((r) => plain.close(() => r())),
      () => new Promise<void>((r) => implicit.close(() => r())),
      () => {
        pop3.close();
      },
      () => {
        imaps.close();
      },
    );
    await putCert('pew_email', 'ca.pem', certs.ca);
  });

  it('STARTTLS with the uploaded CA: connect, TLS, login', async () => {
    await email({ server_smtp: 'localhost', server_smtp_port: ports.starttls, ca: 'ca.pem' });
    const r = await runTest('pew_email');
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(stepsOf(r)).toEqual(['connect:ok', 'tls:ok', 'login:ok']);
    expect(r.steps[1]!.note).toEqual({ code: 'tls_starttls', args: { handshake: expect.stringMatching(/^TLSv1\.3, TLS_\w+, CN=localhost$/) } });
    expect(r.steps[2]!.note).toEqual({ code: 'login_as', args: { user: USER } });
  });

  it("a wrong password is auth_failed with the server's 535", async () => {
    await email({ server_smtp: 'localhost', server_smtp_port: ports.starttls, ca: 'ca.pem', server_password: 'Wrong-1' });
    const r = await runTest('pew_email');
    expect(r.failure, JSON.stringify(r)).toMatchObject({ reason: 'auth_failed' });
    expect(r.failure!.message).toMatch(/^535 .*Authentication credentials invalid/);
    expect(stepsOf(r)).toEqual(['connect:ok', 'tls:ok', 'login:failed']);
  });

  it('without the CA the certificate is not trusted; unverified is accepted', async () => {
    await email({ server_smtp: 'localhost', server_smtp_port: ports.starttls });
    const r = await runTest('pew_email');
    expect(r.failure).toMatchObject({ reason: 'tls_untrusted' });
    expect(r.failure!.message).toMatch(/unable to (get local issuer|verify the first) certificate/);
    await email({ server_smtp: 'localhost', server_smtp_port: ports.starttls, transfermode_verify_ssl: false });
    expect((await runTest('pew_email')).ok).toBe(true);
  });

  it('without SSL: no TLS step, the login in plain text', async () => {
    await email({ server_smtp_port: ports.plain, transfermode_ssl: false });
    const r = await runTest('pew_email');
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(stepsOf(r)).toEqual(['connect:ok', 'login:ok']);
    // a server without STARTTLS fails a test that asks for SSL, in the server's words
    await email({ server_smtp_port: ports.plain, transfermode_ssl: true });
    const none = await runTest('pew_email');
    expect(none.failure).toMatchObject({ reason: 'peer_error' });
    expect(none.failure!.message).toBe('STARTTLS refused: 500 Error: command not recognized');
    expect(none.failure!.note).toEqual({ code: 'starttls_refused', words: '500 Error: command not recognized' });
  });

  it('a closed port is refused; an unknown host is unknown_host', async () => {
    const closed = await freePort();
    await email({ server_smtp_port: closed });
    const refused = await runTest('pew_email');
    expect(refused.failure).toMatchObject({ reason: 'refused' });
    expect(refused.failure!.message).toContain(`ECONNREFUSED ${LOOPBACK}:${closed}`);
    await email({ server_smtp: UNKNOWN_HOST, server_smtp_port: 25 });
    const unknown = await runTest('pew_email');
    expect(unknown.failure).toMatchObject({ reason: 'unknown_host' });
    expect(unknown.failure!.message).toContain(UNKNOWN_HOST);
  });

  it('port 0 autodetects SMTP over implicit TLS on 465', async () => {
    await email({ server_smtp: implicitHost, server_smtp_port: 0, transfermode_verify_ssl: false });
    const r = await runTest('pew_email');
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(r.steps[0]!.note).toEqual({ code: 'server_reached_auto', args: { server: 'SMTP', address: `${implicitHost}:465` } });
    expect(r.steps[1]!.note).toEqual({ code: 'tls_implicit', args: { handshake: expect.stringMatching(/^TLSv1\.3, /) } });
  });

  it('POP3 before SMTP reads the POP3 greeting first; IMAP over TLS greets with * OK', async () => {
    await email({ emailmode: 1, server_pop3imap: LOOPBACK, server_port_pop3imap: ports.pop3, server_smtp_port: ports.plain, transfermode_ssl: false });
    const pop = await runTest('pew_email');
    expect(pop.ok, JSON.stringify(pop)).toBe(true);
    expect(stepsOf(pop)).toEqual(['connect:ok', 'read:ok', 'connect:ok', 'login:ok']);
    expect(pop.steps[1]!.note).toEqual({ code: 'greeting', args: { server: 'POP3' }, words: '+OK test POP3 ready' });

    await email({
      emailmode: 2,
      server_pop3imap: 'localhost',
      server_port_pop3imap: ports.imaps,
      server_smtp: 'localhost',
      server_smtp_port: ports.starttls,
      ca: 'ca.pem',
    });
    const imap = await runTest('pew_email');
    expect(imap.ok, JSON.stringify(imap)).toBe(true);
    expect(stepsOf(imap)).toEqual(['connect:ok', 'tls:ok', 'read:ok', 'connect:ok', 'tls:ok', 'login:ok']);
    expect(imap.steps[2]!.note).toEqual({ code: 'greeting', args: { server: 'IMAP' }, words: '* OK [CAPABILITY IMAP4rev1] test IMAP ready' });

    // a POP3 port that is not there stops the test before SMTP
    const closed = await freePort();
    await email({ emailmode: 1, server_pop3imap: LOOPBACK, server_port_pop3imap: closed, server_smtp_port: ports.plain, transfermode_ssl: false });
    const down = await runTest('pew_email');
    expect(down.failure).toMatchObject({ reason: 'refused' });
    expect(stepsOf(down)).toEqual(['connect:failed']);
  });
});
