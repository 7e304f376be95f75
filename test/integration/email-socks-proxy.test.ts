// The e-mail engine and the /smtp connection test through the section's SOCKS5 proxy (spec §3
// pew_email proxy_ip, proxy_port; docs/services.md "E-mail"), against Debian's danted on a free
// port (test/support/dante.ts) and smtp-server on another, a virtual FP-XH on COM1 asking for the
// mails: the mail arrives and dante's log shows its connection to the SMTP server; STARTTLS runs
// inside the tunnel, the certificate verified against the server's address; POP3 before
// SMTP logs in through the proxy too; with the proxy down the mail waits in the queue (refused,
// the message naming the proxy) although the SMTP server is up, and goes through the proxy once
// it is back; the connection test's `proxy` step and its failures (proxy down, server refused
// behind the proxy).

import { createServer, type Server } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ERROR, STATE } from '../../device/model/blocks/convention.ts';
import { EMAIL_BLOCK } from '../../device/model/blocks/email.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { type Email, pew_email } from '../../device/model/sections/email.ts';
import { putBytes, readBlock, setBlock } from '../../sim/plc/blocks.ts';
import { type Dante, startDante } from '../support/dante.ts';
import { makeCertificates } from '../support/openssl.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { serviceEntry } from '../support/service-status.ts';
import { until } from './logger-rig.ts';
import { type MqttRig, startMqttRig } from './mqtt-rig.ts';
import { serviceTestCalls, stepsOf } from './service-test-calls.ts';

const DT = 230;
let rig: MqttRig;
let dante: Dante;
let smtp: SMTPServer;
let smtpPort: number;
/** the same with STARTTLS, its certificate for 127.0.0.1 */
let smtpTls: SMTPServer;
let tlsPort: number;
let certs: Awaited<ReturnType<typeof makeCertificates>>;
const mails: string[] = [];
/** a POP3 server that opens any mailbox; what it was sent, in order */
let pop3: Server;
let pop3Port: number;
const pop3Lines: string[] = [];
const { putCert, save, runTest } = serviceTestCalls(() => ({ d: rig.d, admin: rig.admin }));

const block = () => readBlock(rig.plc.memory, EMAIL_BLOCK, DT);
/** smtp-server taking any mail, with or without a login (POP3 before SMTP sends without) */
function smtpServer(tls: { key: string; cert: string } | undefined): SMTPServer {
  return new SMTPServer({
    secure: false,
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    ...(tls ?? { disabledCommands: ['STARTTLS'] }),
    onAuth: (auth, _s, cb) => (auth.password === 'Secret-1' ? cb(null, { user: auth.username }) : cb(new Error('bad login'))),
    onData: (stream, _s, cb) => {
      const parts: Buffer[] = [];
      stream.on('data', (c: Buffer) => parts.push(c));
      stream.on('end', () => {
        mails.push(Buffer.concat(parts).toString());
        cb();
      });
    },
  });
}

function ask(text: string): number {
  const before = block().counter!;
  setBlock(rig.plc.memory, EMAIL_BLOCK, DT, { text_addr: 3000, text_len: putBytes(rig.plc.memory, 3000, text), request: EMAIL_BLOCK.requests.send! });
  return before;
}

const email = (over: Partial<Email> = {}) =>
  save('pew_email', {
    ...defaultsOf(pew_email),
    enable_email: true,
    plc_poll: 1,
    transfermode_ssl: false,
    server_smtp: LOOPBACK,
    server_smtp_port: smtpPort,
    server_user: 'plc@example.com',
    server_password: 'Secret-1',
    sender: '<plc@example.com>',
    recipients: '<a@example.com>',
    subject: 'Via proxy',
    proxy_ip: LOOPBACK,
    proxy_port: dante.port,
    ...over,
  } satisfies Email);

beforeAll(async () => {
  [smtpPort, tlsPort] = [await freePort(), await freePort()];
  certs = await makeCertificates();
  smtp = smtpServer(undefined);
  smtpTls = smtpServer(certs);
  await new Promise<void>((r) => smtp.listen(smtpPort, LOOPBACK, () => r()));
  await new Promise<void>((r) => smtpTls.listen(tlsPort, LOOPBACK, () => r()));
  pop3Port = await freePort();
  pop3 = createServer((s) => {
    s.on('error', () => {});
    s.write('+OK POP3 ready\r\n');
    s.on('data', (d: Buffer) => {
      for (const line of d.toString('latin1').split('\r\n').filter(Boolean)) {
        pop3Lines.push(line);
        s.write('+OK\r\n');
        if (line === 'QUIT') s.end();
      }
    });
  });
  await new Promise<void>((r) => pop3.listen(pop3Port, LOOPBACK, () => r()));
  dante = await startDante();
  rig = await startMqttRig();
  await email();
  await rig.d.ctx.services.settled();
}, 60_000);

afterAll(async () => {
  await rig?.d.stop();
  await dante?.stop();
  await new Promise((r) => (smtp ? smtp.close(() => r(undefined)) : r(undefined)));
  pop3?.close();
  await new Promise((r) => (smtpTls ? smtpTls.close(() => r(undefined)) : r(undefined)));
});

describe('e-mail through the SOCKS5 proxy', () => {
  it("the PLC's mail arrives, and the proxy made the connection to the SMTP server", async () => {
    const before = ask('Level high, sent through the proxy');
    await until(() => block().counter === before + 1, 30_000, 'mail sent');
    expect(block()).toMatchObject({ request: 0, state: STATE.done, error: 0, queue_waiting: 0 });
    expect(mails.at(-1)).toContain('Level high, sent through the proxy');
    expect(mails.at(-1)).toMatch(/^Subject: Via proxy\r$/m);
    // the port probe and the mail's own SMTP connection, both made by dante
    expect((await dante.connections()).filter((c) => c === `${LOOPBACK}.${smtpPort}`).length).toBeGreaterThanOrEqual(2);
  });

  it('the connection test goes through the proxy: step proxy, then the login', async () => {
    const seen = (await dante.connections()).length;
    const r = await runTest('pew_email');
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(stepsOf(r)).toEqual(['proxy:ok', 'login:ok']);
    expect(r.steps[0]!.note).toEqual({
      code: 'server_reached_proxy',
      args: { server: 'SMTP', address: `${LOOPBACK}:${smtpPort}`, proxy: `${LOOPBACK}:${dante.port}` },
    });
    expect((await dante.connections()).slice(seen)).toEqual([`${LOOPBACK}.${smtpPort}`, `${LOOPBACK}.${smtpPort}`]);
    expect(r.peer).toBe(`${LOOPBACK}:${smtpPort} via ${LOOPBACK}:${dante.port}`);
  });

  it('STARTTLS inside the tunnel, verified against the uploaded CA: the mail arrives; the test shows proxy, tls, login', async () => {
    await putCert('pew_email', 'ca.pem', certs.ca);
    await email({ server_smtp_port: tlsPort, transfermode_ssl: true, ca: 'ca.pem' });
    try {
      const before = ask('over TLS through the proxy');
      await until(() => block().counter === before + 1, 30_000, 'mail sent');
      expect(block()).toMatchObject({ state: STATE.done, error: 0 });
      expect(mails.at(-1)).toContain('over TLS through the proxy');
      expect(await dante.connections()).toContain(`${LOOPBACK}.${tlsPort}`);
      const r = await runTest('pew_email');
      expect(r.ok, JSON.stringify(r)).toBe(true);
      expect(stepsOf(r)).toEqual(['proxy:ok', 'tls:ok', 'login:ok']);
      expect(r.steps[1]!.note).toEqual({ code: 'tls_starttls', args: { handshake: expect.stringMatching(/^TLSv1\.3, /) } });
    } finally {
      await email();
    }
  });

  it('POP3 before SMTP: the mailbox login goes through the proxy as well, in the engine and in the connection test', async () => {
    await email({ emailmode: 1, server_pop3imap: LOOPBACK, server_port_pop3imap: pop3Port });
    try {
      const seen = (await dante.connections()).length;
      const before = ask('after the mailbox login');
      await until(() => block().counter === before + 1, 30_000, 'mail sent');
      expect(block()).toMatchObject({ state: STATE.done, error: 0 });
      expect(mails.at(-1)).toContain('after the mailbox login');
      expect(pop3Lines.slice(-3)).toEqual(['USER plc@example.com', 'PASS Secret-1', 'QUIT']);
      expect((await dante.connections()).slice(seen)).toContain(`${LOOPBACK}.${pop3Port}`);

      const r = await runTest('pew_email');
      expect(r.ok, JSON.stringify(r)).toBe(true);
      expect(stepsOf(r)).toEqual(['proxy:ok', 'read:ok', 'proxy:ok', 'login:ok']);
      expect(r.steps[0]!.note).toEqual({
        code: 'server_reached_proxy',
        args: { server: 'POP3', address: `${LOOPBACK}:${pop3Port}`, proxy: `${LOOPBACK}:${dante.port}` },
      });
    } finally {
      await email();
    }
  });

  it("behind the proxy a refused SMTP port is refused, in the proxy's words; an unknown proxy name is unknown_host", async () => {
    const closed = await freePort();
    await email({ server_smtp_port: closed });
    const r = await runTest('pew_email');
    expect(r.failure, JSON.stringify(r)).toMatchObject({ reason: 'refused' });
    expect(r.failure!.message).toBe(`SOCKS proxy ${LOOPBACK}:${dante.port} to ${LOOPBACK}:${closed}: Socks5 proxy rejected connection - ConnectionRefused`);
    expect(stepsOf(r)).toEqual(['proxy:failed']);
    // a proxy name that does not resolve is unknown_host, naming the proxy
    await email({ proxy_ip: 'no-such-proxy.invalid' });
    const unknown = await runTest('pew_email');
    expect(unknown.failure).toMatchObject({ reason: 'unknown_host' });
    expect(unknown.failure!.message).toMatch(/^SOCKS proxy no-such-proxy\.invalid:\d+: getaddrinfo \w+ no-such-proxy\.invalid/);
    await email();
  });

  it('proxy down: the mail waits in the queue (refused, naming the proxy), nothing goes directly; the proxy back: it is sent', async () => {
    await rig.d.ctx.services.settled();
    const port = dante.port;
    await dante.stop();
    const n = mails.length;
    const before = ask('waits for the proxy');
    await until(() => block().queue_waiting === 1 && block().state === STATE.waiting, 30_000, 'queued');
    expect(block().error).toBe(SERVICE_ERROR.refused);
    const entry = await serviceEntry(rig.admin, 'email');
    expect(entry.lastError).toMatchObject({ code: 'refused', number: SERVICE_ERROR.refused });
    expect(entry.lastError!.message).toBe(`SOCKS proxy ${LOOPBACK}:${port}: connect ECONNREFUSED ${LOOPBACK}:${port}`);
    expect(entry.queue.waiting).toBe(1);

    const test = await runTest('pew_email');
    expect(test.failure).toMatchObject({ reason: 'refused' });
    expect(stepsOf(test)).toEqual(['proxy:failed']);
    expect(mails.length, 'the SMTP server is up, yet nothing went to it directly').toBe(n);

    dante = await startDante(port);
    await until(() => block().counter === before + 1, 60_000, 'sent once the proxy is back');
    expect(block()).toMatchObject({ state: STATE.done, error: 0, queue_waiting: 0 });
    expect(mails.at(-1)).toContain('waits for the proxy');
    expect(await dante.connections()).toContain(`${LOOPBACK}.${smtpPort}`);
  });
});
