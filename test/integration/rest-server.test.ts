// The unit's REST API and HTTP server end to end (spec §3 REST pew_api, §5, §7 /apitest): a daemon
// with a virtual FP-XH on COM1 (in-process serial wire), its REST port following the saved
// pew_api. Files with their types, 404 and traversal refused; CORS on and off with preflights; the
// ip1..ip2 range with a client bound to 127.0.0.2; HTTPS with a certificate made by openssl now;
// PLC words and bits read and written with the values checked in the PLC's memory; the port
// moving and closing with each save; the REST test passing and failing.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pew } from '../../device/model/sections/pew.ts';
import { type Rest, restSchema } from '../../device/model/sections/rest.ts';
import { serviceTestResultSchema } from '../../device/model/servicetest.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { freePorts, LOOPBACK } from '../support/ports.ts';

const run = promisify(execFile);
const FRAMING = { baud: 115200, bits: 8 as const, parity: 'odd' as const, stopbits: 1 as const };
const plc = new VirtualPlc({ model: 'FP-XH' });
const wire = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: FRAMING });

let d: TestDaemon;
let admin: Client;
let certDir: string;
let certPem: Buffer;
let ports: number[];

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: any;
}

/** One request as a client sends it: the path as written (no normalising), optionally from another local address. */
function ask(
  port: number,
  path: string,
  opts: { method?: string; body?: unknown; headers?: Record<string, string>; tls?: boolean; localAddress?: string } = {},
): Promise<Answer> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers = { ...(payload ? { 'content-type': 'application/json' } : {}), ...opts.headers };
  const req = (opts.tls ? httpsRequest : httpRequest)({
    host: LOOPBACK,
    port,
    path,
    method: opts.method ?? 'GET',
    headers,
    agent: false,
    ...(opts.localAddress ? { localAddress: opts.localAddress } : {}),
    ...(opts.tls ? { ca: certPem, servername: 'localhost' } : {}),
  });
  return new Promise((resolve, reject) => {
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.once('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
    });
    req.once('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.end(payload);
  });
}

const restDefaults = (): Rest => v.getDefaults(restSchema) as Rest;

/** Saves pew_api through the console's API and waits until the server follows it. */
async function saveRest(over: Partial<Rest>): Promise<Rest> {
  const cfg = { ...restDefaults(), ...over };
  const r = await admin.post('/config/pew_api', cfg);
  expect(r.status, r.text).toBe(200);
  await d.ctx.rest.settled();
  return cfg;
}

const apitest = async () => {
  const r = await admin.post('/apitest');
  expect(r.status, r.text).toBe(200);
  return v.parse(serviceTestResultSchema, r.body);
};

beforeAll(async () => {
  d = await startTestDaemon({ serial: { virtualPorts: { COM1: (s) => wire.open(s) } } });
  admin = await d.admin();
  const pew = (await admin.get('/config/pew')).body as Pew;
  Object.assign(pew.interfaces[0]!, {
    enabled: true,
    baudrate: FRAMING.baud,
    bits: FRAMING.bits,
    parity: FRAMING.parity,
    stopbits: FRAMING.stopbits,
    timeout: 300,
    autobaud: false,
    protocol: 'MEWTOCOL',
  });
  expect((await admin.post('/config/pew', pew)).status).toBe(200);
  await d.ctx.com.settled();
  ports = await freePorts(4);
  // a self-signed server certificate for localhost, made now (peers.md)
  certDir = await mkdtemp(join(tmpdir(), 'rest-cert-'));
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout',
    join(certDir, 'key.pem'),
    '-out',
    join(certDir, 'server.pem'),
  ]);
  certPem = await readFile(join(certDir, 'server.pem'));
  const http = join(d.dataDir, 'http');
  await mkdir(http, { recursive: true });
  await writeFile(join(http, 'index.html'), '<!doctype html><title>unit</title>');
  await writeFile(join(http, 'app.js'), 'console.log(1)');
  await writeFile(join(http, 'data.bin'), Buffer.from([0, 1, 2]));
  await writeFile(join(http, 'trend.csv'), 'a;b\n1;2\n');
  await writeFile(join(http, 'logo.gif'), 'GIF89a');
  await writeFile(join(http, 'manual.pdf'), '%PDF-1.4');
  await writeFile(join(d.dataDir, 'secret.txt'), 'outside');
  await symlink(join(d.dataDir, 'secret.txt'), join(http, 'link.txt'));
});

afterAll(async () => {
  await d?.stop();
  if (certDir) await rm(certDir, { recursive: true, force: true });
});

describe('HTTP server files', () => {
  it('serves the uploaded files by name with their type; `/` is index.html; no listing, 404 and traversal refused', async () => {
    const port = ports[0]!;
    await saveRest({ http_server: true, use_encryption: false, http_port: port });
    const html = await ask(port, '/index.html');
    expect(html.status).toBe(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.text).toBe('<!doctype html><title>unit</title>');
    expect((await ask(port, '/')).text).toBe('<!doctype html><title>unit</title>');
    const js = await ask(port, '/app.js');
    expect([js.status, js.headers['content-type'], js.text]).toEqual([200, 'text/javascript; charset=utf-8', 'console.log(1)']);
    const bin = await ask(port, '/data.bin');
    expect([bin.headers['content-type'], bin.headers['content-length']]).toEqual(['application/octet-stream', '3']);
    for (const [name, type] of [
      ['trend.csv', 'text/csv; charset=utf-8'],
      ['logo.gif', 'image/gif'],
      ['manual.pdf', 'application/pdf'],
    ])
      expect((await ask(port, `/${name}`)).headers['content-type'], name).toBe(type);
    const missing = await ask(port, '/nothing.html');
    expect([missing.status, missing.body.error.code]).toEqual([404, 'file_not_found']);
    for (const path of ['/..%2fsecret.txt', '/%2e%2e%2fsecret.txt', '/..%5csecret.txt', '/.hidden', '/a%00b', '/sub/app.js']) {
      const r = await ask(port, path);
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.text, path).not.toContain('outside');
    }
    expect((await ask(port, '/../secret.txt')).text).not.toContain('outside');
    const link = await ask(port, '/link.txt'); // a link out of the folder
    expect([link.status, link.body.error.code]).toEqual([400, 'invalid_file_name']);
    // the API is off: its paths are not files either
    expect((await ask(port, '/api/v1/info')).status).toBe(404);
  });
});

describe('CORS', () => {
  it('sends no CORS headers and grants no preflight when use_cors is off', async () => {
    const port = ports[0]!;
    await saveRest({ api_enable: true, http_server: true, use_encryption: false, http_port: port, use_cors: false });
    const get = await ask(port, '/api/v1/info', { headers: { origin: 'http://example.test' } });
    expect(get.status).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await ask(port, '/api/v1/plc/COM1/DT/0', {
      method: 'OPTIONS',
      headers: { origin: 'http://example.test', 'access-control-request-method': 'PUT' },
    });
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('answers with CORS headers and preflights when use_cors is on', async () => {
    const port = ports[0]!;
    // PUT is granted across origins only while writes need the API key (security.md REST-3; rest-writes.test.ts)
    await saveRest({ api_enable: true, http_server: true, use_encryption: false, http_port: port, use_cors: true, api_key: 'k3y-0f-the-unit-API-2026' });
    const get = await ask(port, '/index.html', { headers: { origin: 'http://example.test' } });
    expect(get.headers['access-control-allow-origin']).toBe('*');
    const pre = await ask(port, '/api/v1/plc/COM1/DT/0', {
      method: 'OPTIONS',
      headers: { origin: 'http://example.test', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-methods']).toContain('PUT');
    expect(pre.headers['access-control-allow-headers']?.toLowerCase()).toContain('content-type');
  });
});

describe('allowed clients (spec §5 ip1..ip2)', () => {
  // a client outside the range is closed as it connects, unanswered (docs/hardening.md DOS-2)
  const closedUnanswered = (from: string) => expect(ask(ports[0]!, '/api/v1/info', { localAddress: from })).rejects.toThrow(/socket hang up|ECONNRESET/);

  it('refuses a client outside the range and answers one inside; the all-addresses form admits both', async () => {
    const port = ports[0]!;
    await saveRest({ api_enable: true, use_encryption: false, http_port: port, ip1: '127.0.0.1', ip2: '127.0.0.1' });
    await closedUnanswered('127.0.0.2');
    expect((await ask(port, '/api/v1/info', { localAddress: '127.0.0.1' })).status).toBe(200);
    await saveRest({ api_enable: true, use_encryption: false, http_port: port, ip1: '127.0.0.2', ip2: '127.0.0.9' });
    expect((await ask(port, '/api/v1/info', { localAddress: '127.0.0.2' })).status).toBe(200);
    await closedUnanswered('127.0.0.1');
    await saveRest({ api_enable: true, use_encryption: false, http_port: port, ip1: '0.0.0.0', ip2: '255.255.255.255' });
    expect((await ask(port, '/api/v1/info', { localAddress: '127.0.0.2' })).status).toBe(200);
  });
});

describe('PLC data through the links', () => {
  it('reads and writes words and bits of the virtual PLC', async () => {
    const port = ports[1]!;
    // writes need a key or the administrator's opt-in, and reach only the listed words (security.md REST-1, REST-2)
    await saveRest({ api_enable: true, use_encryption: false, http_port: port, keyless_writes: true, write_areas: 'DT100-102 WR1-2' });
    const w = await ask(port, '/api/v1/plc/COM1/DT/100', { method: 'PUT', body: { values: [1, 2, 65535] } });
    expect(w.status, w.text).toBe(200);
    expect(w.body).toEqual({ interface: 0, name: 'COM1', area: 'DT', address: '100', written: 3 });
    expect(plc.memory.readWords('DT', 100, 3)).toEqual([1, 2, 65535]);
    plc.memory.writeWords('DT', 200, [7, 0x1234]);
    const r = await ask(port, '/api/v1/plc/0/dt/200?count=2');
    expect(r.body).toEqual({ interface: 0, name: 'COM1', area: 'DT', address: '200', count: 2, values: [7, 0x1234] });
    const bits = await ask(port, '/api/v1/plc/COM1/R/1F', { method: 'PUT', body: { values: [true, true] } });
    expect(bits.status, bits.text).toBe(200);
    expect(plc.memory.readBits('R', 30, 4)).toEqual([false, true, true, false]); // R1F and R20: bits 31, 32
    const rb = await ask(port, '/api/v1/plc/COM1/R/1E?count=4');
    expect(rb.body.values).toEqual([false, true, true, false]);
    plc.memory.writeWords('WR', 5, [0]);
    expect((await ask(port, '/api/v1/plc/COM1/WR/5')).body.values).toEqual([0]);
  });

  it('refuses bad requests with codes before anything reaches the PLC', async () => {
    const port = ports[1]!;
    const before = plc.requests;
    const cases: [string, string, unknown, number, string][] = [
      ['GET', '/api/v1/plc/COM1/DT/999425', undefined, 400, 'address_out_of_range'],
      ['GET', '/api/v1/plc/COM1/DT/999424?count=2', undefined, 400, 'address_out_of_range'],
      ['GET', '/api/v1/plc/COM1/ZZ/1', undefined, 400, 'invalid_value'],
      ['GET', '/api/v1/plc/COM1/DT/1x', undefined, 400, 'invalid_characters'],
      ['GET', '/api/v1/plc/COM1/R/XYZ', undefined, 400, 'invalid_bit_address'],
      ['GET', '/api/v1/plc/COM1/DT/0?count=126', undefined, 400, 'out_of_range'],
      ['GET', '/api/v1/plc/COM1/DT/0?count=0', undefined, 400, 'out_of_range'],
      ['GET', '/api/v1/plc/COM9/DT/0', undefined, 404, 'not_found'],
      ['GET', '/api/v1/plc/COM2/DT/0', undefined, 409, 'interface_not_ready'],
      ['PUT', '/api/v1/plc/COM1/WX/0', { values: [1] }, 403, 'forbidden'],
      ['PUT', '/api/v1/plc/COM1/DT/0', { values: [65536] }, 400, 'invalid_input'],
      ['PUT', '/api/v1/plc/COM1/DT/0', { values: [] }, 400, 'invalid_input'],
      ['PUT', '/api/v1/plc/COM1/DT/0', { values: [1], extra: 1 }, 400, 'invalid_input'],
      ['PUT', '/api/v1/plc/COM1/R/0', { values: [1] }, 400, 'invalid_input'],
      ['PUT', '/api/v1/plc/COM1/DT/0', { values: [1] }, 403, 'area_not_writable'],
      ['PUT', '/api/v1/plc/COM1/DT/102', { values: [1, 2] }, 403, 'area_not_writable'],
    ];
    for (const [method, path, body, status, code] of cases) {
      const r = await ask(port, path, { method, body });
      expect([r.status, r.body?.error?.code], `${method} ${path}`).toEqual([status, code]);
    }
    const raw = await ask(port, '/api/v1/plc/COM1/DT/0', { method: 'PUT', headers: { 'content-type': 'text/plain' } });
    expect([raw.status, raw.body.error.code]).toEqual([415, 'invalid_json']);
    expect(plc.requests).toBe(before);
  });

  it('answers 502 link_failed when the PLC does not answer', async () => {
    const port = ports[1]!;
    plc.setFault({ kind: 'silent' });
    try {
      const r = await ask(port, '/api/v1/plc/COM1/DT/0');
      expect([r.status, r.body.error.code, r.body.error.params.reason]).toEqual([502, 'link_failed', 'no_answer']);
    } finally {
      plc.setFault({ kind: 'none' });
    }
  });
});

describe('HTTPS', () => {
  it('serves the API over TLS with the section certificate; the REST test checks it', async () => {
    const port = ports[2]!;
    await saveRest({ api_enable: true, use_encryption: true, http_port: port });
    expect(d.ctx.rest.status()).toMatchObject({ listening: false, detail: 'certificate_missing' });
    const certs = join(d.dataDir, 'certs', 'pew_api');
    await mkdir(certs, { recursive: true });
    await writeFile(join(certs, 'server.pem'), certPem);
    await writeFile(join(certs, 'key.pem'), await readFile(join(certDir, 'key.pem')));
    // an uploaded certificate is taken up without another save
    const deadline = Date.now() + 10_000;
    while (!d.ctx.rest.status().listening && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(d.ctx.rest.status()).toMatchObject({ listening: true, tls: true, port });
    const info = await ask(port, '/api/v1/info', { tls: true });
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ api: 'v1', limits: { words: 125, bits: 256 } });
    await expect(ask(port, '/api/v1/info')).rejects.toThrow(); // plain HTTP on the TLS port
    const t = await apitest();
    expect(t.ok, JSON.stringify(t)).toBe(true);
    expect(t.steps.map((s) => s.step)).toEqual(['connect', 'tls', 'request']);
    expect(t.peer).toBe(`https://127.0.0.1:${port}`);
  });
});

describe('following the saved section', () => {
  it('moves with the port and closes when disabled', async () => {
    const [a, b] = [ports[1]!, ports[3]!];
    await saveRest({ api_enable: true, use_encryption: false, http_port: a });
    expect((await ask(a, '/api/v1/info')).status).toBe(200);
    await saveRest({ api_enable: true, use_encryption: false, http_port: b });
    expect((await ask(b, '/api/v1/info')).status).toBe(200);
    await expect(ask(a, '/api/v1/info')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await saveRest({ api_enable: false, http_server: false, use_encryption: false, http_port: b });
    await expect(ask(b, '/api/v1/info')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(d.ctx.rest.status()).toMatchObject({ enabled: false, listening: false });
  });
});

describe('POST /apitest', () => {
  it('passes on plain HTTP and reports each step', async () => {
    const port = ports[1]!;
    await saveRest({ api_enable: true, use_encryption: false, http_port: port });
    const t = await apitest();
    expect(t.ok, JSON.stringify(t)).toBe(true);
    expect(t.steps).toEqual([
      { step: 'connect', ok: true },
      { step: 'request', ok: true, note: { code: 'rest_info', args: { version: expect.any(String) } } },
    ]);
  });

  it('fails with the reason: the port held by another program, the test client outside the range; 409 when disabled', async () => {
    const port = ports[3]!;
    const squatter: Server = createServer();
    await new Promise<void>((r) => squatter.listen(port, LOOPBACK, () => r()));
    try {
      await saveRest({ api_enable: true, use_encryption: false, http_port: port });
      expect(d.ctx.rest.status()).toMatchObject({ listening: false, detail: 'EADDRINUSE' });
      squatter.close(); // nothing listens now: the connect step is refused
      const t = await apitest();
      expect(t.ok).toBe(false);
      expect(t.failure?.reason).toBe('refused');
      expect(t.failure?.message).toContain('EADDRINUSE');
      expect(t.steps).toEqual([{ step: 'connect', ok: false }]);
    } finally {
      squatter.close();
    }
    await saveRest({ api_enable: true, use_encryption: false, http_port: ports[1]!, ip1: '127.0.0.2', ip2: '127.0.0.2' });
    const t = await apitest();
    expect([t.ok, t.failure?.reason]).toEqual([false, 'auth_failed']);
    expect(t.steps.map((s) => [s.step, s.ok])).toEqual([
      ['connect', true],
      ['request', false],
    ]);
    await saveRest({ api_enable: false, http_server: true, use_encryption: false, http_port: ports[1]! });
    const r = await admin.post('/apitest');
    expect([r.status, r.body.error.code]).toEqual([409, 'rest_disabled']);
    const user = await d.user();
    expect((await user.post('/apitest')).status).toBe(403);
  });
});
