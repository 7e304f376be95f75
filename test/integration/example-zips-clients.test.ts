// The client example zips as shipped, end to end (issue 33 item 6): MQTT, e-mail, the HTTP
// client, the FTP send, the REST API and the TLS bridge. Each zip is downloaded from the daemon; its peer side is set up as its README and peer
// file say (mosquitto.conf run by Debian's mosquitto with its password file and certificates, an
// SMTP server with STARTTLS and a login, an HTTPS server that logs what it gets, an FTP server with
// explicit FTPS and the user the README names); its settings.json
// is saved through POST /config/<section> after the edits the README asks of the technician
// (server, port, password, the uploaded CA); the connection test passes, and one request set in
// the virtual PLC's control block arrives at the peer.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { promisify } from 'node:util';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATE } from '../../device/model/blocks/convention.ts';
import { EMAIL_BLOCK } from '../../device/model/blocks/email.ts';
import { FTP_BLOCK } from '../../device/model/blocks/ftp.ts';
import { HTTP_BLOCK } from '../../device/model/blocks/httpc.ts';
import type { ServiceTestResult } from '../../device/model/servicetest.ts';
import { putBytes, readBlock, setBlock } from '../../sim/plc/blocks.ts';
import { listening } from '../support/entry-process.ts';
import { startFtpServer } from '../support/ftp-server.ts';
import { makeCertificates, tcpEcho, tlsEcho } from '../support/openssl.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { unzipText } from '../support/unzip.ts';
import { until } from './logger-rig.ts';
import { type MqttRig, plcPublish, startMqttRig } from './mqtt-rig.ts';
import { serviceTestCalls } from './service-test-calls.ts';

const run = promisify(execFile);
/** the password the technician gives the unit's login on each peer */
const PASSWORD = 'Unit01-Passw0rd';

let rig: MqttRig;
let certs: Awaited<ReturnType<typeof makeCertificates>>;
let dir: string;
const calls = serviceTestCalls(() => ({ d: rig.d, admin: rig.admin }));
const cleanups: (() => Promise<unknown> | void)[] = [];

beforeAll(async () => {
  [certs, rig, dir] = await Promise.all([makeCertificates(), startMqttRig(), mkdtemp(join(tmpdir(), 'example-peers-'))]);
  await chmod(dir, 0o755); // mosquitto reads its files as the user it drops to
}, 120_000);

afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  await rig?.d.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

/** The files of an example zip, downloaded as the console does. */
async function exampleZip(kind: string): Promise<Record<string, string>> {
  const res = await fetch(`${rig.admin.base}/download/examples/${kind}.zip`, { headers: { cookie: rig.admin.cookie ?? '' } });
  expect(res.status).toBe(200);
  return unzipText(new Uint8Array(await res.arrayBuffer()));
}

async function connectionTest(section: string): Promise<ServiceTestResult> {
  const r = await calls.runTest(section);
  expect(r.ok, JSON.stringify(r)).toBe(true);
  return r;
}

/** settings.json with the technician's edits, saved as the README's curl line does. */
async function saveExample(section: string, settings: Record<string, unknown>, edits: Record<string, unknown>): Promise<void> {
  await calls.save(section, { ...settings, ...edits });
  await rig.d.ctx.services.settled();
}

/** A PLC request on a block with pointer words: texts placed in DT memory, then the request word; waits for the counter. */
async function plcRequest(block: typeof EMAIL_BLOCK, start: number, texts: Record<string, [number, string]>, request: number): Promise<Record<string, number>> {
  const read = () => readBlock(rig.plc.memory, block, start);
  const before = read().counter!;
  const words: Record<string, number> = {};
  for (const [name, [at, text]] of Object.entries(texts)) Object.assign(words, { [`${name}_addr`]: at, [`${name}_len`]: putBytes(rig.plc.memory, at, text) });
  setBlock(rig.plc.memory, block, start, { ...words, request });
  await until(() => read().counter === ((before + 1) & 0xffff), 30_000, `${block.service} request finished`);
  return read();
}

describe('the mqtt example', () => {
  it('mosquitto.conf as shipped (paths and port of this machine), a password file; the connection test passes and a PLC publish reaches mosquitto_sub', async () => {
    const zip = await exampleZip('mqtt');
    const settings = JSON.parse(zip['settings.json']!);
    const port = await freePort();
    const files = { 'ca.crt': certs.ca, 'server.crt': certs.cert, 'server.key': certs.key };
    for (const [name, pem] of Object.entries(files)) await writeFile(join(dir, name), pem, { mode: 0o644 });
    await run('mosquitto_passwd', ['-c', '-b', join(dir, 'passwd'), settings.broker_user, PASSWORD]);
    await chmod(join(dir, 'passwd'), 0o644);
    const conf = zip['mosquitto.conf']!.replaceAll('/etc/mosquitto/certs/', `${dir}/`)
      .replaceAll('/etc/mosquitto/passwd', join(dir, 'passwd'))
      .replace(/^listener \d+$/m, `listener ${port} ${LOOPBACK}`);
    expect(conf).toContain(`password_file ${join(dir, 'passwd')}`);
    await writeFile(join(dir, 'mosquitto.conf'), conf, { mode: 0o644 });
    const broker = spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
    cleanups.push(() => stopChild(broker));

    await calls.putCert('pew_mqtt', settings.ca, certs.ca); // the README: upload the broker's CA as ca.crt
    await saveExample('pew_mqtt', settings, { broker_addr: `mqtts://${LOOPBACK}:${port}`, broker_password: PASSWORD });
    await until(async () => (await calls.runTest('pew_mqtt')).ok, 30_000, 'broker up');
    await connectionTest('pew_mqtt');

    // the README's mosquitto_sub line, on this broker
    expect(zip['README.txt']).toContain(`mosquitto_sub -h broker.example.com -p 8883 --cafile ca.crt -u ${settings.broker_user} -P <password> -t '#' -v`);
    const sub = spawn('mosquitto_sub', [
      '-h',
      LOOPBACK,
      '-p',
      String(port),
      '--cafile',
      join(dir, 'ca.crt'),
      '-u',
      settings.broker_user,
      '-P',
      PASSWORD,
      '-t',
      '#',
      '-v',
    ]);
    cleanups.push(() => stopChild(sub));
    let seen = '';
    sub.stdout.on('data', (c: Buffer) => {
      seen += c.toString();
    });
    await plcPublish(rig, 'plant/unit01/temperature', '21.5', { qos: 1, retain: 1 }); // retained: the subscriber may come later
    await until(() => seen.includes('plant/unit01/temperature 21.5'), 30_000, 'publish at mosquitto_sub');
    await until(() => rig.block().state !== STATE.running, 30_000, 'publish finished'); // the broker's PUBACK may come after the delivery
    expect(rig.block()).toMatchObject({ state: STATE.done, error: 0 });
  }, 120_000);
});

describe('the email example', () => {
  it('an SMTP server with STARTTLS and a login for the sender; the connection test passes and a PLC request sends the mail to both recipients', async () => {
    const zip = await exampleZip('email');
    const settings = JSON.parse(zip['settings.json']!);
    const mails: { to: string[]; data: string; user: string }[] = [];
    const smtp = new SMTPServer({
      secure: false, // STARTTLS on a port of this machine (the example's 465 speaks TLS at once)
      key: certs.key,
      cert: certs.cert,
      logger: false,
      onAuth: (auth, _s, cb) =>
        auth.username === settings.server_user && auth.password === PASSWORD ? cb(null, { user: auth.username }) : cb(new Error('bad login')),
      onData: (stream, session, cb) => {
        const parts: Buffer[] = [];
        stream.on('data', (c: Buffer) => parts.push(c));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data: Buffer.concat(parts).toString(), user: String(session.user) });
          cb();
        });
      },
    });
    const port = await freePort();
    await new Promise<void>((r) => smtp.listen(port, LOOPBACK, () => r()));
    cleanups.push(() => new Promise((r) => smtp.close(() => r(undefined))));

    await calls.putCert('pew_email', 'ca.pem', certs.ca);
    await saveExample('pew_email', settings, { server_smtp: LOOPBACK, server_smtp_port: port, server_password: PASSWORD, ca: 'ca.pem' });
    await connectionTest('pew_email');
    const b = await plcRequest(EMAIL_BLOCK, settings.plc_control_dt, { text: [3000, 'Level high: 21.5 m'] }, EMAIL_BLOCK.requests.send!);
    expect(b).toMatchObject({ state: STATE.done, error: 0 });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: ['maintenance@example.com', 'shift.lead@example.com'], user: settings.server_user });
    expect(mails[0]!.data).toMatch(new RegExp(`^Subject: ${settings.subject}\\r$`, 'm'));
    expect(mails[0]!.data).toContain('Level high: 21.5 m');
  }, 120_000);
});

describe('the httpc example', () => {
  it('an HTTPS server with basic authentication; the connection test passes and a PLC POST arrives under server_addr', async () => {
    const zip = await exampleZip('httpc');
    const settings = JSON.parse(zip['settings.json']!);
    const got: { method: string; url: string; auth: string; body: string }[] = [];
    const server: Server = createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        got.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization ?? '', body });
        res.end('ok');
      });
    });
    const port = await freePort();
    await new Promise<void>((r) => server.listen(port, LOOPBACK, () => r()));
    cleanups.push(() => new Promise((r) => server.close(() => r(undefined))));

    const path = new URL(settings.server_addr).pathname;
    await calls.putCert('pew_httpc', 'ca.pem', certs.ca);
    await saveExample('pew_httpc', settings, { server_addr: `https://${LOOPBACK}:${port}${path}`, server_password: PASSWORD, ca: 'ca.pem' });
    await connectionTest('pew_httpc');
    const b = await plcRequest(HTTP_BLOCK, settings.plc_control_dt, { path: [2000, '/tank1'], body: [2100, '{"level":21.5}'] }, HTTP_BLOCK.requests.post!);
    expect(b).toMatchObject({ state: STATE.done, error: 0, status_code: 200 });
    const basic = `Basic ${Buffer.from(`${settings.server_user}:${PASSWORD}`).toString('base64')}`;
    expect(got.at(-1)).toEqual({ method: 'POST', url: `${path}/tank1`, auth: basic, body: '{"level":21.5}' });
  }, 120_000);
});

describe('the ftp example', () => {
  it('an FTP server with explicit FTPS and the user with write access to the folder; the connection test passes and a PLC send puts the file there', async () => {
    const zip = await exampleZip('ftp');
    const settings = JSON.parse(zip['settings.json']!);
    expect(zip['README.txt']).toContain(
      `create the user ${settings.server_user} with write access to the folder ${settings.server_dir}, and allow explicit FTPS`,
    );
    const root = join(dir, 'ftp-root');
    await mkdir(join(root, settings.server_dir), { recursive: true });
    const ftp = await startFtpServer(root, { user: settings.server_user, password: PASSWORD, tls: { key: certs.key, cert: certs.cert } });
    cleanups.push(() => ftp.close());

    // local_dir empty: the data logger's folder on the internal volume; local_file the name prefix
    const logDir = join(rig.d.dataDir, 'volumes', 'internal', 'log');
    await mkdir(logDir, { recursive: true });
    await writeFile(join(logDir, settings.local_file), 'Date,Time,temperature\r\n2026-12-01,10:00:00,21.5\r\n');
    await calls.putCert('pew_ftpc', 'ca.pem', certs.ca);
    await saveExample('pew_ftpc', settings, { server_ip: LOOPBACK, server_port: ftp.port, server_password: PASSWORD, ca: 'ca.pem' });
    await connectionTest('pew_ftpc');
    const b = await plcRequest(FTP_BLOCK, settings.plc_control_dt, {}, FTP_BLOCK.requests.send!);
    expect(b).toMatchObject({ state: STATE.done, error: 0, sent: 1, failed: 0 });
    expect(await readFile(join(root, settings.server_dir, settings.local_file), 'utf8')).toContain('2026-12-01,10:00:00,21.5');
  }, 120_000);
});

describe('the rest example', () => {
  it("HTTPS with the uploaded certificate, the range set to this PC; the REST test passes and rest_test.sh reads the PLC's words", async () => {
    const zip = await exampleZip('rest');
    const settings = JSON.parse(zip['settings.json']!);
    const port = await freePort();
    await calls.putCert('pew_api', 'server.pem', certs.cert); // the README: the certificate and key the unit presents
    await calls.putCert('pew_api', 'key.pem', certs.key);
    await saveExample('pew_api', settings, { ip1: LOOPBACK, ip2: LOOPBACK, http_port: port });
    await until(() => rig.d.ctx.rest.status().listening, 15_000, 'REST port open');
    const test = await rig.admin.post('/apitest', {});
    expect(test.status, test.text).toBe(200);
    expect(test.body.ok, JSON.stringify(test.body)).toBe(true);
    rig.plc.memory.writeWords('DT', 100, [11, 22, 33, 44, 55]);
    // the script as shipped, on the port set here, trusting the test CA instead of -k
    const script = zip['rest_test.sh']!.replaceAll(`:${settings.http_port}`, `:${port}`).replaceAll('curl -k ', `curl --cacert ${join(dir, 'rest-ca.pem')} `);
    await writeFile(join(dir, 'rest-ca.pem'), certs.ca);
    await writeFile(join(dir, 'rest_test.sh'), script);
    const { stdout } = await run('sh', [join(dir, 'rest_test.sh'), LOOPBACK], { timeout: 60_000 });
    expect(stdout.match(/^HTTP 200$/gm)).toHaveLength(2); // the unit's information and the PLC's words
    expect(stdout).toMatch(/11\D+22\D+33\D+44\D+55/);
    expect(stdout).not.toContain('no answer');
  }, 120_000);
});

describe('the tls example', () => {
  it("both parts as shipped with this machine's hosts and ports: a plain connection reaches a TLS server through the client part, a TLS one a plain server through the server part", async () => {
    const zip = await exampleZip('tls');
    const settings = JSON.parse(zip['settings.json']!);
    const [remote, device] = await Promise.all([tlsEcho(certs), tcpEcho()]); // tls_test.sh: test servers in place of the real ones
    cleanups.push(
      () => remote.close(),
      () => device.close(),
    );
    const [plainPort, tlsPort] = [await freePort(), await freePort()];
    await calls.putCert('pew_tls_client', settings.tlsclientca, certs.ca); // the README: the certificates settings.json names, on the TLS pages
    await calls.putCert('pew_tls_server', settings.tlsservercert, certs.cert);
    await calls.putCert('pew_tls_server', settings.tlsserverkey, certs.key);
    await saveExample('pew_tls', settings, {
      tls_server_host: 'localhost',
      tls_destination_port: remote.port,
      nontls_server_port: plainPort,
      nontls_server_host: LOOPBACK,
      nontls_destination_port: device.port,
      tls_server_port: tlsPort,
    });
    await rig.d.ctx.tls.settled();
    await until(() => listening(plainPort, LOOPBACK), 15_000, 'client part listening');
    await until(() => listening(tlsPort, LOOPBACK), 15_000, 'server part listening');
    expect(await roundTrip(connect(plainPort, LOOPBACK), 'through the client part')).toBe('through the client part');
    expect(await roundTrip(tlsConnect({ port: tlsPort, host: LOOPBACK, ca: certs.ca, servername: 'localhost' }), 'through the server part')).toBe(
      'through the server part',
    );
    expect(device.received().toString()).toBe('through the server part');
  }, 120_000);
});

/** Sends `text` on a new connection and answers what comes back (an echo). */
function roundTrip(socket: Socket, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    socket.on('error', reject);
    socket.on('data', (b: Buffer) => {
      got += b.toString();
      if (got.length >= text.length) {
        socket.destroy();
        resolve(got);
      }
    });
    socket.write(text);
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
