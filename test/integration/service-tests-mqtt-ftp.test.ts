// The connection tests of /mqtt and /ftp through the daemon (POST /config/servicetest/<section>,
// spec §2, §3, §8) against real peers on 127.0.0.1: an aedes broker over TCP, TLS (one listener
// capped at TLS 1.2) and WebSocket, with a user and password; mosquitto with a generated config,
// a password file and a TLS listener; ftp-srv plain with explicit FTPS
// and with implicit SSL, a user with a password, and a small FTP proxy of the USER user@host
// kind. Each case checks the reason and the peer's (or the system's) own words.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type Server as HttpServer, createServer as httpServer } from 'node:http';
import { connect as netConnect, createServer as netServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as tlsServer } from 'node:tls';
import { Aedes, type AuthenticateError } from 'aedes';
import { FtpSrv } from 'ftp-srv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { defaultsOf } from '../../device/model/section.ts';
import { type Ftpc, pew_ftpc } from '../../device/model/sections/ftpc.ts';
import { type Mqtt, pew_mqtt } from '../../device/model/sections/mqtt.ts';
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
let work: string;
const closers: (() => Promise<unknown> | void)[] = [];

const listening = (s: Server | HttpServer, port: number) => new Promise<void>((resolve) => s.listen(port, LOOPBACK, () => resolve()));

const { putCert, save, runTest } = serviceTestCalls(() => ({ d, admin }));

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'servicetest-mqtt-ftp-'));
  certs = await makeCertificates();
  d = await startTestDaemon();
  admin = await d.admin();
}, 60_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await d?.stop();
  await rm(work, { recursive: true, force: true });
});

describe('MQTT connection test', () => {
  const ports = { tcp: 0, tls: 0, tls12: 0, ws: 0 };
  const mqtt = (over: Partial<Mqtt>) => save('pew_mqtt', { ...defaultsOf(pew_mqtt), broker_user: USER, broker_password: PASSWORD, ...over });

  beforeAll(async () => {
    const broker = await Aedes.createBroker({
      authenticate: (_client, username, password, done) => {
        if (username === USER && password?.toString() === PASSWORD) return done(null, true);
        const e = new Error('Bad username or password') as AuthenticateError;
        e.returnCode = 4;
        done(e, null);
      },
    });
    [ports.tcp, ports.tls, ports.tls12, ports.ws] = (await freePorts(4)) as [number, number, number, number];
    const tcp = netServer(broker.handle);
    const tls = tlsServer({ cert: certs.cert, key: certs.key }, broker.handle);
    const tls12 = tlsServer({ cert: certs.cert, key: certs.key, maxVersion: 'TLSv1.2' }, broker.handle);
    const http = httpServer();
    const wss = new WebSocketServer({ server: http });
    wss.on('connection', (ws, req) => broker.handle(createWebSocketStream(ws) as never, req));
    await Promise.all([listening(tcp, ports.tcp), listening(tls, ports.tls), listening(tls12, ports.tls12), listening(http, ports.ws)]);
    closers.push(async () => {
      for (const s of [tcp, tls, tls12, http]) s.close();
      wss.close();
      await new Promise<void>((r) => broker.close(() => r()));
    });
    await putCert('pew_mqtt', 'ca.pem', certs.ca);
  });

  it('passes against the broker: connect, login, a test message published and received back', async () => {
    await mqtt({ broker_addr: `mqtt://${LOOPBACK}:${ports.tcp}`, qos: 1 });
    const r = await runTest('pew_mqtt');
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(r.peer).toBe(`mqtt://${LOOPBACK}:${ports.tcp}`);
    expect(stepsOf(r)).toEqual(['connect:ok', 'login:ok', 'write:ok', 'read:ok']);
    expect(r.steps[2]!.note).toEqual({ code: 'published', args: { topic: expect.stringMatching(/^pew\/connection-test\/[0-9a-f]{12}$/), qos: 1 } });
    expect(r.failure).toBeUndefined();
  });

  it("a wrong password is auth_failed with the broker's refusal", async () => {
    await mqtt({ broker_addr: `${LOOPBACK}:${ports.tcp}`, broker_password: 'Wrong-1' });
    const r = await runTest('pew_mqtt');
    expect(r).toMatchObject({ ok: false, failure: { reason: 'auth_failed' } });
    expect(r.failure!.message).toMatch(/Bad username or password/);
    expect(stepsOf(r)).toEqual(['connect:ok', 'login:failed']);
  });

  it('a port where nothing listens is refused; an unknown host is unknown_host', async () => {
    const closed = await freePort();
    await mqtt({ broker_addr: `mqtt://${LOOPBACK}:${closed}` });
    const refused = await runTest('pew_mqtt');
    expect(refused.failure).toMatchObject({ reason: 'refused' });
    expect(refused.failure!.message).toContain(`ECONNREFUSED ${LOOPBACK}:${closed}`);
    await mqtt({ broker_addr: `mqtt://${UNKNOWN_HOST}:1883` });
    const unknown = await runTest('pew_mqtt');
    expect(unknown.failure).toMatchObject({ reason: 'unknown_host' });
    expect(unknown.failure!.message).toContain(UNKNOWN_HOST);
  });

  it('mqtts with the uploaded CA passes with the TLS step; without it the certificate is not trusted; insecure accepts it', async () => {
    await mqtt({ broker_addr: `mqtts://localhost:${ports.tls}`, ca: 'ca.pem', tls_version: '1.2' });
    const ok = await runTest('pew_mqtt');
    expect(ok.ok, JSON.stringify(ok)).toBe(true);
    expect(stepsOf(ok)).toEqual(['connect:ok', 'tls:ok', 'login:ok', 'write:ok', 'read:ok']);
    expect(ok.steps[1]!.note).toEqual({ code: 'tls_verified_ca', args: { handshake: expect.stringMatching(/^TLSv1\.3, TLS_\w+, CN=localhost$/) } });

    await mqtt({ broker_addr: `mqtts://localhost:${ports.tls}`, ca: '' });
    const untrusted = await runTest('pew_mqtt');
    expect(untrusted.failure).toMatchObject({ reason: 'tls_untrusted' });
    expect(untrusted.failure!.message).toMatch(/unable to (get local issuer|verify the first) certificate/);
    expect(stepsOf(untrusted)).toEqual(['connect:ok', 'tls:failed']);

    await mqtt({ broker_addr: `mqtts://localhost:${ports.tls}`, ca: '', insecure: true });
    expect((await runTest('pew_mqtt')).ok).toBe(true);
  });

  it('a broker that offers at most TLS 1.2 fails a minimum of 1.3 with tls_version; 1.2 passes', async () => {
    await mqtt({ broker_addr: `localhost:${ports.tls12}`, ca: 'ca.pem', tls_version: '1.3' });
    const r = await runTest('pew_mqtt');
    expect(r.failure, JSON.stringify(r)).toMatchObject({ reason: 'tls_version' });
    expect(r.failure!.message).toMatch(/protocol version|unsupported protocol/i);
    await mqtt({ broker_addr: `localhost:${ports.tls12}`, ca: 'ca.pem', tls_version: '1.2' });
    const ok = await runTest('pew_mqtt');
    expect(ok.ok, JSON.stringify(ok)).toBe(true);
    expect(ok.steps[1]!.note).toEqual({ code: 'tls_verified_ca', args: { handshake: expect.stringMatching(/^TLSv1\.2, /) } });
  });

  it('over WebSocket (ws://) the same steps pass', async () => {
    await mqtt({ broker_addr: `ws://${LOOPBACK}:${ports.ws}`, qos: 0 });
    const r = await runTest('pew_mqtt');
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(stepsOf(r)).toEqual(['connect:ok', 'login:ok', 'write:ok', 'read:ok']);
  });

  it('refuses to run without a saved broker or with a certificate file that is missing; unknown sections are 404; the user role is 403', async () => {
    await mqtt({ broker_addr: '' });
    const none = await admin.post('/config/servicetest/pew_mqtt', {});
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('service_not_configured');
    await mqtt({ broker_addr: `mqtts://localhost:${ports.tls}`, ca: 'ca.crt' });
    const missing = await admin.post('/config/servicetest/pew_mqtt', {});
    expect(missing.status).toBe(409);
    expect(missing.body.error).toMatchObject({ code: 'certificate_missing', params: { name: 'ca.crt' } });
    expect((await admin.post('/config/servicetest/pew_sql', {})).status).toBe(404);
    expect((await admin.post('/config/servicetest/pew_nothing', {})).status).toBe(404);
    expect((await (await d.user()).post('/config/servicetest/pew_mqtt', {})).status).toBe(403);
  });
});

describe('MQTT connection test against mosquitto', () => {
  const ports = { plain: 0, tls: 0 };
  let broker: ChildProcess | undefined;
  const mqtt = (over: Partial<Mqtt>) => save('pew_mqtt', { ...defaultsOf(pew_mqtt), broker_user: USER, broker_password: PASSWORD, ...over });

  /** resolves once the broker takes connections on `port` */
  async function accepting(port: number): Promise<void> {
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((resolve) => {
        const s = netConnect({ host: LOOPBACK, port }, () => {
          s.destroy();
          resolve(true);
        });
        s.once('error', () => resolve(false));
      });
      if (up) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`mosquitto does not listen on ${port}`);
  }

  beforeAll(async () => {
    const dir = join(work, 'mosquitto');
    await mkdir(dir, { recursive: true });
    [ports.plain, ports.tls] = (await freePorts(2)) as [number, number];
    await Promise.all([
      writeFile(join(dir, 'ca.pem'), certs.ca),
      writeFile(join(dir, 'server.pem'), certs.cert),
      writeFile(join(dir, 'server.key'), certs.key),
    ]);
    execFileSync('mosquitto_passwd', ['-b', '-c', join(dir, 'passwd'), USER, PASSWORD], { stdio: 'ignore' });
    await writeFile(
      join(dir, 'mosquitto.conf'),
      [
        'user root',
        'persistence false',
        'log_dest stderr',
        'log_type error',
        'allow_anonymous false',
        `password_file ${join(dir, 'passwd')}`,
        `listener ${ports.plain} ${LOOPBACK}`,
        `listener ${ports.tls} ${LOOPBACK}`,
        `cafile ${join(dir, 'ca.pem')}`,
        `certfile ${join(dir, 'server.pem')}`,
        `keyfile ${join(dir, 'server.key')}`,
        '',
      ].join('\n'),
    );
    broker = spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    await Promise.all([accepting(ports.plain), accepting(ports.tls)]);
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          if (!broker || broker.exitCode !== null) return resolve();
          broker.once('exit', () => resolve());
          broker.kill('SIGTERM');
        }),
    );
    await putCert('pew_mqtt', 'ca.pem', certs.ca);
  });

  it("passes with the password file's user over TLS with the uploaded CA", async () => {
    await mqtt({ broker_addr: `mqtts://localhost:${ports.tls}`, ca: 'ca.pem', tls_version: '1.2', qos: 2 });
    const r = await runTest('pew_mqtt');
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(stepsOf(r)).toEqual(['connect:ok', 'tls:ok', 'login:ok', 'write:ok', 'read:ok']);
    expect(r.steps[3]!.note).toMatchObject({ code: 'published', args: { qos: 2 } });
  });

  it("a wrong password is auth_failed with mosquitto's refusal", async () => {
    await mqtt({ broker_addr: `mqtt://${LOOPBACK}:${ports.plain}`, broker_password: 'Wrong-1' });
    const r = await runTest('pew_mqtt');
    expect(r.failure, JSON.stringify(r)).toMatchObject({ reason: 'auth_failed' });
    expect(r.failure!.message).toBe('Connection refused: Not authorized');
  });
});

describe('FTP connection test', () => {
  const ports = { plain: 0, implicit: 0, proxy: 0 };
  let root: string;
  const ftp = (over: Partial<Ftpc>) =>
    save('pew_ftpc', { ...defaultsOf(pew_ftpc), server_ip: LOOPBACK, server_user: USER, server_password: PASSWORD, ...over });

  // ftp-srv logs through bunyan: its refusals are what the tests provoke, not worth printing
  const quiet = { child: () => quiet, trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} };

  function ftpServer(url: string, tls: boolean) {
    const srv = new FtpSrv({
      url,
      pasv_url: LOOPBACK,
      anonymous: false,
      log: quiet as never,
      greeting: ['test FTP server ready'],
      ...(tls ? { tls: { cert: certs.cert, key: certs.key } } : {}),
    });
    srv.on('login', ({ username, password }, resolve, reject) => {
      if (username === USER && password === PASSWORD) resolve({ root });
      else reject(new Error('Login incorrect'));
    });
    return srv;
  }

  /** An FTP proxy of the USER user@host[:port] kind: reads the target from the user name, then relays. */
  function ftpProxy(): Server {
    return netServer((client) => {
      client.write('220 test proxy ready\r\n');
      client.once('data', (first) => {
        const m = /^USER ([^@\r\n]+)@([^:\r\n]+)(?::(\d+))?\r\n/.exec(first.toString());
        if (!m) return client.end('530 USER user@host expected\r\n');
        const up = netConnect({ host: m[2], port: Number(m[3] ?? 21) });
        up.once('error', () => client.end('421 the server cannot be reached\r\n'));
        // the server's greeting (its last line starts with "220 ") is the proxy's to read
        let greeting = '';
        const onGreeting = (d: Buffer) => {
          greeting += d.toString();
          if (!/^220 .*\r\n/m.test(greeting)) return;
          up.off('data', onGreeting);
          up.write(`USER ${m[1]}\r\n`);
          up.pipe(client);
          client.pipe(up);
        };
        up.on('data', onGreeting);
        client.on('error', () => up.destroy());
        client.on('close', () => up.destroy());
      });
    });
  }

  beforeAll(async () => {
    root = join(work, 'ftp-root');
    await mkdir(join(root, 'upload'), { recursive: true });
    await writeFile(join(root, 'upload', 'existing.csv'), 'a;b\r\n');
    [ports.plain, ports.implicit, ports.proxy] = (await freePorts(3)) as [number, number, number];
    const plain = ftpServer(`ftp://${LOOPBACK}:${ports.plain}`, true);
    const implicit = ftpServer(`ftps://${LOOPBACK}:${ports.implicit}`, true);
    const proxy = ftpProxy();
    await Promise.all([plain.listen(), implicit.listen(), listening(proxy, ports.proxy)]);
    closers.push(
      () => plain.close(),
      () => implicit.close(),
      () => {
        proxy.close();
      },
    );
    await putCert('pew_ftpc', 'ca.pem', certs.ca);
  });

  it('plain passive: connect, login, the server directory listed, a test file written and deleted', async () => {
    await ftp({ server_port: ports.plain, server_dir: 'upload' });
    const r = await runTest('pew_ftpc');
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(stepsOf(r)).toEqual(['connect:ok', 'login:ok', 'list:ok', 'write:ok']);
    expect(r.steps[0]!.note).toEqual({ code: 'greeting', args: { server: 'FTP' }, words: expect.stringContaining('test FTP server ready') });
    expect(r.steps[2]!.note).toEqual({ code: 'listed', args: { count: 1, dir: 'upload', mode: 'passive' } });
    expect(r.steps[3]!.note).toEqual({
      code: 'file_written',
      args: { bytes: expect.any(Number), file: expect.stringMatching(/^upload\/pew_test_[0-9a-f]{8}\.txt$/) },
    });
  });

  it('active mode and ASCII transfers pass too', async () => {
    await ftp({ server_port: ports.plain, server_dir: 'upload', transfermode_passive: false, transfermode_ascii: true });
    const r = await runTest('pew_ftpc');
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(r.steps.find((s) => s.step === 'login')!.note).toMatchObject({ code: 'login_ascii' });
    expect(r.steps.find((s) => s.step === 'list')!.note).toEqual({ code: 'listed', args: { count: 1, dir: 'upload', mode: 'active' } });
  });

  it('a wrong password is auth_failed (530); a missing directory is not_found', async () => {
    await ftp({ server_port: ports.plain, server_password: 'Wrong-1' });
    const bad = await runTest('pew_ftpc');
    expect(bad.failure).toMatchObject({ reason: 'auth_failed' });
    expect(bad.failure!.message).toMatch(/^530 Login incorrect/);
    await ftp({ server_port: ports.plain, server_dir: 'no-such-dir' });
    const missing = await runTest('pew_ftpc');
    expect(missing.failure, JSON.stringify(missing)).toMatchObject({ reason: 'not_found' });
    // ftp-srv answers a missing directory with 451 and the system's words (most servers: 550)
    expect(missing.failure!.message).toMatch(/^451 ENOENT: no such file or directory, stat '.*no-such-dir'$/);
    expect(stepsOf(missing)).toEqual(['connect:ok', 'login:ok', 'list:failed']);
  });

  it('a closed port is refused; an unknown host is unknown_host', async () => {
    const closed = await freePort();
    await ftp({ server_port: closed });
    const refused = await runTest('pew_ftpc');
    expect(refused.failure).toMatchObject({ reason: 'refused' });
    expect(refused.failure!.message).toContain('ECONNREFUSED');
    await ftp({ server_ip: UNKNOWN_HOST, server_port: ports.plain });
    const unknown = await runTest('pew_ftpc');
    expect(unknown.failure).toMatchObject({ reason: 'unknown_host' });
    expect(unknown.failure!.message).toContain(UNKNOWN_HOST);
  });

  it('explicit FTPS with the uploaded CA passes with the TLS step; without it the certificate is not trusted; unverified is accepted', async () => {
    await ftp({ server_ip: 'localhost', server_port: ports.plain, server_dir: 'upload', transfermode_ftps: true, ca: 'ca.pem' });
    const ok = await runTest('pew_ftpc');
    expect(ok.ok, JSON.stringify(ok)).toBe(true);
    expect(stepsOf(ok)).toEqual(['connect:ok', 'tls:ok', 'login:ok', 'list:ok', 'write:ok']);
    expect(ok.steps[1]!.note).toEqual({ code: 'tls_verified_ca', args: { handshake: expect.stringMatching(/^TLSv1\.[23], .*CN=localhost$/) } });

    await ftp({ server_ip: 'localhost', server_port: ports.plain, transfermode_ftps: true });
    const untrusted = await runTest('pew_ftpc');
    expect(untrusted.failure).toMatchObject({ reason: 'tls_untrusted' });
    expect(untrusted.failure!.message).toMatch(/unable to (get local issuer|verify the first) certificate/);

    await ftp({
      server_ip: 'localhost',
      server_port: ports.plain,
      server_dir: 'upload',
      transfermode_ftps: true,
      transfermode_verify_ssl: false,
      transfermode_passive: false,
    });
    const active = await runTest('pew_ftpc');
    expect(active.ok, JSON.stringify(active)).toBe(true); // active mode over TLS data connections
  });

  it('implicit SSL: connect, then TLS from the first byte, then the rest', async () => {
    await ftp({ server_ip: 'localhost', server_port: ports.implicit, server_dir: 'upload', transfermode_ssl: true, ca: 'ca.pem' });
    const r = await runTest('pew_ftpc');
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(stepsOf(r)).toEqual(['connect:ok', 'tls:ok', 'login:ok', 'list:ok', 'write:ok']);
    expect(r.steps[1]!.note).toMatchObject({ code: 'tls_verified_ca', words: expect.stringContaining('test FTP server ready') });
  });

  it("through an FTP proxy (USER user@host): the proxy step, then the server's login", async () => {
    await ftp({ server_port: ports.plain, server_dir: 'upload', proxy_ip: LOOPBACK, proxy_port: ports.proxy, proxy_mode_ascii: true });
    const r = await runTest('pew_ftpc');
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(r.peer).toBe(`${LOOPBACK}:${ports.plain} via ${LOOPBACK}:${ports.proxy} (ftp)`);
    expect(stepsOf(r)).toEqual(['proxy:ok', 'login:ok', 'list:ok', 'write:ok']);
    expect(r.steps[0]!.note).toEqual({ code: 'greeting', args: { server: `${LOOPBACK}:${ports.proxy}` }, words: expect.stringContaining('test proxy ready') });
    await ftp({ server_port: ports.plain, server_password: 'Wrong-1', proxy_ip: LOOPBACK, proxy_port: ports.proxy, proxy_mode_ascii: true });
    const bad = await runTest('pew_ftpc');
    expect(bad.failure).toMatchObject({ reason: 'auth_failed' });
    expect(bad.failure!.message).toMatch(/^530 Login incorrect/);
  });
});
