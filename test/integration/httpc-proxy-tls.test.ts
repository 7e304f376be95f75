// The HTTP client engine (device/httpc; spec §3 pew_httpc: proxy_addr/port/user/password,
// transfermode_ssl, transfermode_verify_ssl; docs/services.md "HTTP client") through a proxy that
// wants a user and password (proxy-chain) and to an HTTPS server with a self-signed certificate made
// by openssl in the test, with a virtual FP-XH on COM1 whose control block asks for the requests:
// - through the proxy with its login: the request arrives and its answer is in the PLC; the proxy
//   saw the unit's login; a wrong proxy password ends the request with auth_failed, nothing arrives;
// - TLS with verification on: the self-signed server is refused (error tls), nothing arrives, and
//   the request does not wait in the queue; with verification off it is accepted;
// - HTTPS through the proxy: the tunnel carries TLS to the server.

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as httpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as httpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Server as ProxyServer } from 'proxy-chain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ERROR, STATE } from '../../device/model/blocks/convention.ts';
import { HTTP_BLOCK } from '../../device/model/blocks/httpc.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { type Httpc, pew_httpc } from '../../device/model/sections/httpc.ts';
import { getBytes, putBytes, readBlock, setBlock } from '../../sim/plc/blocks.ts';
import { freePorts, LOOPBACK } from '../support/ports.ts';
import { serviceEntry } from '../support/service-status.ts';
import { until } from './logger-rig.ts';
import { type MqttRig, startMqttRig } from './mqtt-rig.ts';

const DT = 240; // spec §9: HTTP control register default
const PROXY = { proxy_user: 'proxyuser', proxy_password: 'Proxy-Pw1' };
let rig: MqttRig;
let work: string;
const ports = { http: 0, https: 0, proxy: 0 };
const seen: { scheme: string; url: string; body: string }[] = [];
const proxyLogins: string[] = [];
const closers: (() => unknown)[] = [];

const site = (scheme: string) => (req: IncomingMessage, res: ServerResponse) => {
  const parts: Buffer[] = [];
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', () => {
    seen.push({ scheme, url: req.url!, body: Buffer.concat(parts).toString() });
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`${scheme} ok`);
  });
};

const block = () => readBlock(rig.plc.memory, HTTP_BLOCK, DT);

/** The PLC asks for a POST of `body` to `path`; resolves once the request is finished (counter moved). */
async function post(path: string, body: string): Promise<Record<string, number>> {
  const before = block().counter!;
  setBlock(rig.plc.memory, HTTP_BLOCK, DT, {
    path_addr: 2000,
    path_len: putBytes(rig.plc.memory, 2000, path),
    body_addr: 2100,
    body_len: putBytes(rig.plc.memory, 2100, body),
    answer_addr: 2200,
    answer_size: 32,
    request: HTTP_BLOCK.requests.post!,
  });
  await until(() => block().request === 0, 15_000, 'request taken');
  await until(() => block().counter === ((before + 1) & 0xffff), 20_000, 'request finished').catch(async (e: unknown) => {
    throw new Error(`${String(e)}; block ${JSON.stringify(block())}; status ${JSON.stringify(await serviceEntry(rig.admin, 'httpc'))}`);
  });
  return block();
}

async function save(over: Partial<Httpc>): Promise<void> {
  const r = await rig.admin.post('/config/pew_httpc', {
    ...defaultsOf(pew_httpc),
    enable_httpc: true,
    plc_poll: 1,
    transfermode_ssl: false,
    ...over,
  } satisfies Httpc);
  expect(r.status, r.text).toBe(200);
  await rig.d.ctx.services.settled();
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'httpc-proxy-tls-'));
  // a self-signed certificate for 127.0.0.1 and localhost: no CA the unit could know signed it
  const [cert, key] = [join(work, 'self.pem'), join(work, 'self.key')];
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ]);
  [ports.http, ports.https, ports.proxy] = (await freePorts(3)) as [number, number, number];
  const http = httpServer(site('http'));
  const https = httpsServer({ cert: await readFile(cert), key: await readFile(key) }, site('https'));
  await Promise.all([
    new Promise<void>((r) => http.listen(ports.http, LOOPBACK, () => r())),
    new Promise<void>((r) => https.listen(ports.https, LOOPBACK, () => r())),
  ]);
  const proxy = new ProxyServer({
    port: ports.proxy,
    host: LOOPBACK,
    verbose: false,
    prepareRequestFunction: ({ username, password }) => {
      proxyLogins.push(`${username}:${password}`);
      return { requestAuthentication: username !== PROXY.proxy_user || password !== PROXY.proxy_password };
    },
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
  rig = await startMqttRig();
}, 60_000);

afterAll(async () => {
  await rig?.d.stop();
  for (const close of closers) await close();
  await rm(work, { recursive: true, force: true });
});

describe('HTTP client engine: proxy with its login, TLS verification', () => {
  it('through the proxy with its user and password the request arrives; a wrong proxy password is auth_failed and nothing arrives', async () => {
    await save({ server_addr: `http://${LOOPBACK}:${ports.http}/api`, proxy_addr: LOOPBACK, proxy_port: ports.proxy, ...PROXY });
    seen.length = 0;
    proxyLogins.length = 0;
    const ok = await post('/via-proxy', 'level=4');
    expect(ok, JSON.stringify(ok)).toMatchObject({ state: STATE.done, error: 0, status_code: 200, queue_waiting: 0 });
    expect(seen).toEqual([{ scheme: 'http', url: '/api/via-proxy', body: 'level=4' }]);
    expect(proxyLogins).toContain(`${PROXY.proxy_user}:${PROXY.proxy_password}`);
    expect(Buffer.from(getBytes(rig.plc.memory, 2200, 7)).toString()).toBe('http ok');

    await save({ server_addr: `http://${LOOPBACK}:${ports.http}/api`, proxy_addr: LOOPBACK, proxy_port: ports.proxy, ...PROXY, proxy_password: 'Wrong-1' });
    const refused = await post('/via-proxy', 'level=5');
    expect(refused, JSON.stringify(refused)).toMatchObject({ state: STATE.error, error: SERVICE_ERROR.auth_failed, queue_waiting: 0 });
    expect(seen).toHaveLength(1);
  });

  it('TLS with verification: the self-signed server is refused (tls) and the request does not wait; without verification it is accepted', async () => {
    seen.length = 0;
    await save({ server_addr: `https://localhost:${ports.https}/api`, transfermode_ssl: true, transfermode_verify_ssl: true });
    const refused = await post('/verified', 'a');
    expect(refused, JSON.stringify(refused)).toMatchObject({ state: STATE.error, error: SERVICE_ERROR.tls, queue_waiting: 0 });
    expect(seen).toEqual([]);

    await save({ server_addr: `https://localhost:${ports.https}/api`, transfermode_ssl: true, transfermode_verify_ssl: false });
    const ok = await post('/not-verified', 'b');
    expect(ok, JSON.stringify(ok)).toMatchObject({ state: STATE.done, error: 0, status_code: 200 });
    expect(seen).toEqual([{ scheme: 'https', url: '/api/not-verified', body: 'b' }]);
  });

  it('HTTPS through the proxy: verified refused (tls), not verified accepted', async () => {
    seen.length = 0;
    const via = { proxy_addr: LOOPBACK, proxy_port: ports.proxy, ...PROXY };
    await save({ server_addr: `https://localhost:${ports.https}/api`, transfermode_ssl: true, transfermode_verify_ssl: true, ...via });
    const refused = await post('/tunnel', 'c');
    expect(refused, JSON.stringify(refused)).toMatchObject({ state: STATE.error, error: SERVICE_ERROR.tls });
    await save({ server_addr: `https://localhost:${ports.https}/api`, transfermode_ssl: true, transfermode_verify_ssl: false, ...via });
    const ok = await post('/tunnel', 'd');
    expect(ok, JSON.stringify(ok)).toMatchObject({ state: STATE.done, error: 0, status_code: 200 });
    expect(seen).toEqual([{ scheme: 'https', url: '/api/tunnel', body: 'd' }]);
  });
});
