// The connection test of the e-mail client (spec §3 pew_email, §5 "SMTP/POP3 port 0 means
// autodetect"; device/model/servicetest.ts) on the saved settings. With POP3 or IMAP before SMTP
// (emailmode 1, 2) that server comes first, as when sending: connect, TLS when SSL is set, and its
// greeting read (+OK, * OK). Then SMTP: connect, TLS (implicit on port 465, else STARTTLS when SSL
// is set), and the login as nodemailer does it when sending (verify: EHLO, TLS, AUTH). With the
// section's SOCKS proxy every connection goes through it, and its step is `proxy` instead of `connect`.

import type { Socket } from 'node:net';
import type { Email } from '../model/sections/email.ts';
import { type ServiceTestResult, type TestNote, testNote } from '../model/servicetest.ts';
import { readCert } from '../system/cert-files.ts';
import { drivers } from './drivers.ts';
import { command, readGreeting, type TlsTrust, tcpConnect, tlsDetail, tlsHandshake, tlsOptions } from './net-probe.ts';
import { type Connect, connectorOf, proxyAddress, socksConnect, socksProxyOf } from './socks-proxy.ts';
import { failureNote, runTest, StepFailure, type TestRun } from './test-run.ts';

/** spec §5 port 0: SMTP over implicit TLS (465), then submission (587) and SMTP (25) with STARTTLS; plain: 587, 25 */
export const smtpCandidates = (ssl: boolean): number[] => (ssl ? [465, 587, 25] : [587, 25]);
/** spec §5 port 0 for the POP3/IMAP server: the protocol's TLS or plain port */
export const pop3imapPort = (mode: Email['emailmode'], ssl: boolean): number => (mode === 1 ? (ssl ? 995 : 110) : ssl ? 993 : 143);
export const IMPLICIT_TLS_PORT = 465;

export async function mailTrust(e: Email, dataDir: string): Promise<TlsTrust> {
  const [ca, cert, key] = await Promise.all([
    readCert(dataDir, 'pew_email', e.ca),
    readCert(dataDir, 'pew_email', e.client),
    readCert(dataDir, 'pew_email', e.key),
  ]);
  return { verify: e.transfermode_verify_ssl, ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
}

/** The first port in `ports` that takes a TCP connection (the error of the last one when none does). */
export async function firstOpen(host: string, ports: number[], connect: Connect = tcpConnect): Promise<number> {
  let last: unknown;
  for (const port of ports) {
    try {
      (await connect(host, port)).destroy();
      return port;
    } catch (e) {
      last = e;
    }
  }
  throw last;
}

/** SMTP over nodemailer to `port` of server_smtp as the section says (TLS, login), through its SOCKS proxy when one is set. */
export async function smtpTransport(e: Email, trust: TlsTrust, port: number, o: { login: boolean; ms: { connect: number; socket: number }; name: string }) {
  const implicit = e.transfermode_ssl && port === IMPLICIT_TLS_PORT;
  const { host: _h, ...tls } = tlsOptions(e.server_smtp, trust);
  const proxy = socksProxyOf(e);
  const transport = (await drivers.nodemailer()).createTransport({
    host: e.server_smtp,
    port,
    secure: implicit,
    requireTLS: e.transfermode_ssl && !implicit,
    ignoreTLS: !e.transfermode_ssl,
    ...(o.login && e.server_user ? { auth: { user: e.server_user, pass: e.server_password } } : {}),
    tls,
    connectionTimeout: o.ms.connect,
    greetingTimeout: o.ms.connect,
    socketTimeout: o.ms.socket,
    name: o.name,
    ...(proxy ? { proxy: `socks5://${proxyAddress(proxy)}` } : {}),
  });
  // nodemailer's own proxy hook, given our SOCKS connection: one way through the proxy, its failures classified alike
  if (proxy) {
    transport.set('proxy_handler_socks5', (_url, _opts, done) => {
      socksConnect(proxy, e.server_smtp, port).then(
        (connection) => done(null, { connection }),
        (err: Error) => done(err),
      );
    });
  }
  return transport;
}

/** The server reached at `address`, with the SOCKS proxy it went through and whether its port was found by trying. */
const reachedNote = (e: Email, server: string, address: string, auto: boolean): TestNote => {
  const proxy = socksProxyOf(e);
  const args = { server, address, ...(proxy ? { proxy: proxyAddress(proxy) } : {}) };
  return testNote(proxy ? (auto ? 'server_reached_proxy_auto' : 'server_reached_proxy') : auto ? 'server_reached_auto' : 'server_reached', args);
};

async function testPop3Imap(t: TestRun, e: Email, trust: TlsTrust): Promise<void> {
  const host = e.server_pop3imap;
  const name = e.emailmode === 1 ? 'POP3' : 'IMAP';
  const port = e.server_port_pop3imap || pop3imapPort(e.emailmode, e.transfermode_ssl);
  const connect = connectorOf(socksProxyOf(e));
  let socket: Socket = await t.step(e.proxy_ip ? 'proxy' : 'connect', () => connect(host, port), {
    note: () => reachedNote(e, name, `${host}:${port}`, e.server_port_pop3imap === 0),
  });
  try {
    if (e.transfermode_ssl)
      socket = await t.step('tls', () => tlsHandshake(host, port, trust, socket), {
        note: (s) => testNote('server_tls', { server: name, handshake: tlsDetail(s) }),
      });
    const ready = e.emailmode === 1 ? (l: string) => l.startsWith('+OK') : (l: string) => /^\* (OK|PREAUTH)\b/i.test(l);
    await t.step('read', () => readGreeting(socket, ready), { note: (l) => testNote('greeting', { server: name }, l) });
  } finally {
    socket.destroy();
  }
}

/** STARTTLS by hand (greeting, EHLO, STARTTLS, handshake), to report the TLS step on its own. */
async function startTls(host: string, port: number, trust: TlsTrust, connect: Connect): Promise<TestNote> {
  const s = await connect(host, port);
  try {
    await readGreeting(s, (l) => l.startsWith('220'));
    await command(s, 'EHLO pew-connection-test', (r) => r.startsWith('250'));
    await command(s, 'STARTTLS', (r) => r.startsWith('220')).catch((e: unknown) => {
      // the server's refusal alone ("500 command not recognized") would not say what it refused
      throw e instanceof StepFailure ? failureNote(e.reason, testNote('starttls_refused', undefined, e.message), `STARTTLS refused: ${e.message}`) : e;
    });
    const tls = await tlsHandshake(host, port, trust, s);
    const d = tlsDetail(tls);
    tls.destroy();
    return testNote('tls_starttls', { handshake: d });
  } finally {
    s.destroy();
  }
}

/** nodemailer's errors: EAUTH a refused login (the server's 535 line kept), the rest by the runner. */
function smtpFailure(err: unknown): unknown {
  const e = err as { code?: string; response?: string; message?: string };
  if (e?.code === 'EAUTH') return new StepFailure('auth_failed', e.response || e.message || 'authentication failed');
  return err;
}

export async function testMail(e: Email, dataDir: string): Promise<ServiceTestResult> {
  const host = e.server_smtp;
  const trust = await mailTrust(e, dataDir);
  const mailbox = e.emailmode !== 0 ? ` (${e.emailmode === 1 ? 'POP3' : 'IMAP'} ${e.server_pop3imap}:${e.server_port_pop3imap || 'auto'})` : '';
  const proxy = socksProxyOf(e);
  const peer = `${host}:${e.server_smtp_port || 'auto'}${mailbox}${proxy ? ` via ${proxyAddress(proxy)}` : ''}`;
  return runTest(peer, async (t) => {
    if (e.emailmode !== 0) await testPop3Imap(t, e, trust);
    const ports = e.server_smtp_port ? [e.server_smtp_port] : smtpCandidates(e.transfermode_ssl);
    const connect = connectorOf(socksProxyOf(e));
    const port = await t.step(e.proxy_ip ? 'proxy' : 'connect', () => firstOpen(host, ports, connect), {
      note: (p) => reachedNote(e, 'SMTP', `${host}:${p}`, !e.server_smtp_port),
    });
    const implicit = e.transfermode_ssl && port === IMPLICIT_TLS_PORT;
    if (e.transfermode_ssl) {
      await t.step(
        'tls',
        async () => {
          if (!implicit) return startTls(host, port, trust, connect);
          const s = await tlsHandshake(host, port, trust, await connect(host, port));
          const d = tlsDetail(s);
          s.destroy();
          return testNote('tls_implicit', { handshake: d });
        },
        { note: (n) => n },
      );
    }
    const transport = await smtpTransport(e, trust, port, { login: true, ms: { connect: 10_000, socket: 10_000 }, name: 'pew-connection-test' });
    try {
      await t.step(
        'login',
        async () => {
          try {
            await transport.verify();
          } catch (err) {
            throw smtpFailure(err);
          }
        },
        { note: () => (e.server_user ? testNote('login_as', { user: e.server_user }) : testNote('login_anonymous')) },
      );
    } finally {
      transport.close();
    }
  });
}
