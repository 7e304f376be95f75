// The TLS bridge end to end (spec §3 pew_tls, §5 IP ranges and ports): the daemon's client part
// against real `openssl s_server` processes, its server part with real `openssl s_client`
// processes in front of a plain TCP echo; certificates made by openssl in a temp folder.
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Tls, tlsSchema } from '../../device/model/sections/tls.ts';
import type { TlsStatus } from '../../device/model/tls-status.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { type CertFiles, makeCa, makeLeaf, type OpensslProcess, sClient, sServer, tcpEcho } from '../support/openssl.ts';
import { freePorts, LOOPBACK } from '../support/ports.ts';
import { statusDetail } from '../support/service-status.ts';

let d: TestDaemon;
let admin: Client;
let dir: string;
let ca: CertFiles;
let otherCa: CertFiles;
let server: CertFiles;
let client: CertFiles;
let strangerClient: CertFiles;
let ports: number[];

const base = (): Tls => v.getDefaults(tlsSchema) as Tls;

async function saveTls(over: Partial<Tls>): Promise<void> {
  const r = await admin.post('/config/pew_tls', { ...base(), ...over });
  expect(r.status, r.text).toBe(200);
  await d.ctx.tls.settled();
}

async function status(): Promise<TlsStatus> {
  return statusDetail(await d.user(), 'tls');
}

/** Puts a file into the certificate folder of a part, under the name the section gives. */
async function install(folder: 'pew_tls_client' | 'pew_tls_server', file: string, name: string): Promise<void> {
  await mkdir(join(d.dataDir, 'certs', folder), { recursive: true });
  await copyFile(file, join(d.dataDir, 'certs', folder, name));
}

/** A plain client of the client part: what it receives, and whether the bridge closed it. */
function plainClient(port: number): { socket: Socket; got: () => Buffer; closed: Promise<void> } {
  const socket = connect({ host: LOOPBACK, port });
  const chunks: Buffer[] = [];
  socket.on('data', (b) => chunks.push(b));
  socket.on('error', () => {});
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  return { socket, got: () => Buffer.concat(chunks), closed };
}

/** `p`, or a failure after `ms` (a bridge that keeps a refused client open fails here, not at the test timeout). */
function within(p: Promise<void>, ms: number, what: string): Promise<void> {
  return Promise.race([p, new Promise<void>((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), ms))]);
}

async function until(cond: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tls-bridge-'));
  ca = await makeCa(dir, 'ca');
  otherCa = await makeCa(dir, 'other-ca');
  server = await makeLeaf(dir, 'server', ca);
  client = await makeLeaf(dir, 'client', ca);
  strangerClient = await makeLeaf(dir, 'stranger', otherCa);
  ports = await freePorts(8);
  d = await startTestDaemon();
  admin = await d.admin();
  await install('pew_tls_client', ca.cert, 'ca.pem');
  await install('pew_tls_client', otherCa.cert, 'ca.crt');
  await install('pew_tls_server', server.cert, 'server.pem');
  await install('pew_tls_server', server.key, 'key.pem');
  await install('pew_tls_server', ca.cert, 'ca.pem');
});

afterAll(async () => {
  await d?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('client part: plain clients carried over TLS to s_server', () => {
  let s: OpensslProcess;
  let s12: OpensslProcess;
  beforeAll(async () => {
    s = await sServer(ports[0]!, server);
    s12 = await sServer(ports[1]!, server, ['-tls1_2']);
  });
  afterAll(async () => {
    await s?.stop();
    await s12?.stop();
  });

  const clientPart = (over: Partial<Tls> = {}): Partial<Tls> => ({
    enable_tlsclient: true,
    nontls_server_port: ports[2]!,
    tls_server_host: '127.0.0.1',
    tls_destination_port: ports[0]!,
    ca_verification_tlsclient: true,
    tlsclientca: 'ca.pem',
    tls_min_version_client: '1.2',
    ...over,
  });

  it('carries data both ways, byte-exact, and counts it', async () => {
    await saveTls(clientPart());
    expect((await status()).client).toMatchObject({ enabled: true, listening: true, port: ports[2] });
    const c = plainClient(ports[2]!);
    const up = randomBytes(100_000);
    s.clear();
    c.socket.write(up);
    expect((await s.receive(up.length)).equals(up)).toBe(true);
    const down = randomBytes(50_000);
    s.send(down);
    await until(() => c.got().length >= down.length, 20_000, 'bytes from s_server');
    expect(c.got().equals(down)).toBe(true);
    const st = (await status()).client;
    expect(st).toMatchObject({ connections: 1, accepted: 1, tlsFailures: 0, bytesIn: up.length, bytesOut: down.length });
    c.socket.destroy();
    await until(async () => (await status()).client.connections === 0, 10_000, 'connection closed');
  });

  it('a server whose CA is not trusted: the connection is refused and counted', async () => {
    await saveTls(clientPart({ tlsclientca: 'ca.crt' })); // the other CA
    const c = plainClient(ports[2]!);
    c.socket.write('never delivered');
    await within(c.closed, 15_000, 'the bridge closes the client');
    expect(c.got().length).toBe(0);
    expect((await status()).client).toMatchObject({ accepted: 0, tlsFailures: 1 });
  });

  it('without CA verification the same server is accepted', async () => {
    await saveTls(clientPart({ tlsclientca: 'ca.crt', ca_verification_tlsclient: false }));
    const c = plainClient(ports[2]!);
    s.clear();
    c.socket.write('hello');
    expect((await s.receive(5)).toString()).toBe('hello');
    c.socket.destroy();
  });

  it('minimum TLS 1.3 against an s_server limited to 1.2: refused', async () => {
    await saveTls(clientPart({ tls_destination_port: ports[1]!, tls_min_version_client: '1.3' }));
    const c = plainClient(ports[2]!);
    s12.clear();
    c.socket.write('never delivered');
    await within(c.closed, 15_000, 'the bridge closes the client');
    expect(s12.output().length).toBe(0);
    expect((await status()).client).toMatchObject({ accepted: 0, tlsFailures: 1 });
    // the same server with a minimum of 1.2 is fine
    await saveTls(clientPart({ tls_destination_port: ports[1]!, tls_min_version_client: '1.2' }));
    const ok = plainClient(ports[2]!);
    ok.socket.write('twelve');
    expect((await s12.receive(6)).toString()).toBe('twelve');
    ok.socket.destroy();
  });

  it('allowed addresses: a client outside the range is refused, inside it passes', async () => {
    await saveTls(clientPart({ nontls_accessability: true, nontls_access_ip1: '10.0.0.1', nontls_access_ip2: '10.0.0.9' }));
    const c = plainClient(ports[2]!);
    await within(c.closed, 15_000, 'the bridge closes the client');
    expect((await status()).client).toMatchObject({ refused: 1, accepted: 0 });
    await saveTls(clientPart({ nontls_accessability: true, nontls_access_ip1: '127.0.0.1', nontls_access_ip2: '127.0.0.2' }));
    const ok = plainClient(ports[2]!);
    s.clear();
    ok.socket.write('inside');
    expect((await s.receive(6)).toString()).toBe('inside');
    expect((await status()).client).toMatchObject({ refused: 0, accepted: 1 });
    ok.socket.destroy();
  });

  it('a config change moves the port', async () => {
    await saveTls(clientPart({ nontls_server_port: ports[3]! }));
    const old = plainClient(ports[2]!);
    await within(old.closed, 15_000, 'the old port is closed'); // nothing listens there any more
    expect(old.got().length).toBe(0);
    const c = plainClient(ports[3]!);
    s.clear();
    c.socket.write('moved');
    expect((await s.receive(5)).toString()).toBe('moved');
    expect((await status()).client).toMatchObject({ port: ports[3], listening: true });
    c.socket.destroy();
    await saveTls({ enable_tlsclient: false });
    expect((await status()).client).toMatchObject({ enabled: false, listening: false });
  });
});

describe('server part: s_client carried in clear text to a TCP echo', () => {
  let echo: Awaited<ReturnType<typeof tcpEcho>>;
  beforeAll(async () => {
    echo = await tcpEcho();
  });
  afterAll(async () => {
    await echo?.close();
  });

  const serverPart = (over: Partial<Tls> = {}): Partial<Tls> => ({
    enable_tlsserver: true,
    tls_server_port: ports[4]!,
    nontls_server_host: '127.0.0.1',
    nontls_destination_port: echo.port,
    tlsservercert: 'server.pem',
    tlsserverkey: 'key.pem',
    tlsserver_certauth: 1,
    tlsserverca: 'ca.pem',
    ...over,
  });

  it('with the right client certificate: data both ways, byte-exact', async () => {
    await saveTls(serverPart());
    expect((await status()).server).toMatchObject({ enabled: true, listening: true, port: ports[4] });
    const c = sClient(ports[4]!, ca.cert, client);
    const data = randomBytes(60_000);
    c.send(data);
    const back = await c.receive(data.length);
    expect(back.equals(data)).toBe(true);
    expect(echo.received().equals(data)).toBe(true);
    expect((await status()).server).toMatchObject({ accepted: 1, tlsFailures: 0, connections: 1, bytesIn: data.length, bytesOut: data.length });
    await c.stop();
    await until(async () => (await status()).server.connections === 0, 10_000, 'connection closed');
  });

  it('client certificate required: without one the handshake is refused', async () => {
    const before = echo.connections();
    const c = sClient(ports[4]!, ca.cert);
    c.send(Buffer.from('never delivered\n'));
    expect(await c.exitWithin(20_000)).not.toBe(0);
    expect(c.output().length).toBe(0);
    expect(echo.connections()).toBe(before);
    expect((await status()).server.tlsFailures).toBe(1);
  });

  it('a client certificate of another CA is refused', async () => {
    const before = echo.connections();
    const c = sClient(ports[4]!, ca.cert, strangerClient);
    c.send(Buffer.from('never delivered\n'));
    expect(await c.exitWithin(20_000)).not.toBe(0);
    expect(c.output().length).toBe(0);
    expect(echo.connections()).toBe(before);
    expect((await status()).server.tlsFailures).toBe(2);
  });

  it('allowed addresses: outside the range refused before any handshake', async () => {
    await saveTls(serverPart({ tls_accessability: true, tls_access_ip1: '192.168.1.1', tls_access_ip2: '192.168.1.20' }));
    const c = sClient(ports[4]!, ca.cert, client);
    c.send(Buffer.from('x'));
    expect(await c.exitWithin(20_000)).not.toBe(0);
    expect((await status()).server).toMatchObject({ refused: 1, tlsFailures: 0, accepted: 0 });
  });

  it('a certificate file that is missing keeps the part closed and says which', async () => {
    await saveTls(serverPart({ tlsservercert: 'server.crt' }));
    const st = (await status()).server;
    expect(st).toMatchObject({ enabled: true, listening: false });
    expect(st.reason).toEqual({ code: 'cert_missing', args: { name: 'server.crt' } });
    // a key that does not belong to the certificate: refused by the TLS library, reported the same way
    await install('pew_tls_server', client.key, 'key.key');
    await saveTls(serverPart({ tlsserverkey: 'key.key' }));
    expect((await status()).server).toMatchObject({ listening: false, reason: { code: 'cert_unusable' } });
  });

  it('without client authentication any client passes; the port moves with the settings', async () => {
    await saveTls(serverPart({ tlsserver_certauth: 0, tls_server_port: ports[5]! }));
    const c = sClient(ports[5]!, ca.cert);
    c.send(Buffer.from('open door'));
    expect((await c.receive(9)).toString()).toBe('open door');
    await c.stop();
    expect((await status()).server).toMatchObject({ port: ports[5], accepted: 1 });
  });
});

describe('PLC registers through the service control interface (INTERNAL, the default)', () => {
  // docs/tls.md: DT n control (1 stops the part), DT n+1 status (bit 0 listening, bit 1 stopped by
  // the PLC, bit 2 error since the previous poll, bits 8-15 open connections)
  const words = () => d.ctx.com.links.internal.words;
  const CONTROL = 360;

  it('status word follows the part; the PLC stops and restarts it', async () => {
    words()[CONTROL] = 0;
    await saveTls({
      enable_tlsclient: true,
      plc_control_dt: CONTROL,
      plc_poll: 1,
      nontls_server_port: ports[6]!,
      tls_server_host: '127.0.0.1',
      tls_destination_port: ports[7]!, // nothing listens there: a connection is an error
    });
    await until(() => words()[CONTROL + 1] === 1, 10_000, 'status: listening');
    const c = plainClient(ports[6]!);
    await within(c.closed, 15_000, 'the bridge closes the client');
    await until(() => words()[CONTROL + 1] === 5, 10_000, 'status: listening + error');
    expect((await status()).client).toMatchObject({ errors: 1, tlsFailures: 0 });
    await until(() => words()[CONTROL + 1] === 1, 10_000, 'error bit cleared at the next poll');

    words()[CONTROL] = 1;
    await until(() => words()[CONTROL + 1] === 2, 10_000, 'status: stopped by the PLC');
    expect((await status()).client).toMatchObject({ listening: false, stoppedByPlc: true });
    const refused = plainClient(ports[6]!);
    await within(refused.closed, 15_000, 'nothing listens while stopped');
    words()[CONTROL] = 0;
    await until(() => words()[CONTROL + 1] === 1, 10_000, 'status: listening again');
    expect((await status()).client).toMatchObject({ listening: true, stoppedByPlc: false });
    await saveTls({ enable_tlsclient: false });
  });
});
