// The HTTP client engine (device/httpc; spec §3 pew_httpc, §9 HTTP block of 14 words at DT240)
// against a small node HTTP server started by the test, with a virtual FP-XH on COM1 whose
// control block is set through the simulator's block helper: a POST with a body from PLC memory
// arrives with its path, body and basic authentication, and the answer (status, length, body cut
// to the area) is in the PLC; a refused request; the section's content type and custom headers (a
// secret one masked by the API and sent as stored); a log file body is the data logger's newest
// file, not a newer CSV of the script; a server that is down keeps the request queued.

import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ERROR, STATE } from '../../device/model/blocks/convention.ts';
import { HTTP_BLOCK } from '../../device/model/blocks/httpc.ts';
import { PASSWORD_MASK } from '../../device/model/fields.ts';
import { defaultsOf, withDefaults } from '../../device/model/section.ts';
import { type Httpc, pew_httpc } from '../../device/model/sections/httpc.ts';
import { pew_log } from '../../device/model/sections/log.ts';
import { logFileSchema } from '../../device/model/sections/logfile.ts';
import type { ServicesStatus } from '../../device/model/service-status.ts';
import { getBytes, putBytes, readBlock, setBlock } from '../../sim/plc/blocks.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { until } from './logger-rig.ts';
import { type MqttRig, startMqttRig } from './mqtt-rig.ts';

const DT = 240; // spec §9: HTTP control register default
let rig: MqttRig;
let server: Server | undefined;
let port: number;
const seen: { method: string; url: string; auth: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];

function startServer(): Promise<Server> {
  const s = createServer((req: IncomingMessage, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization ?? '', headers: req.headers, body });
      if (req.url === '/api/missing') {
        res.writeHead(404);
        res.end('no such thing');
        return;
      }
      res.writeHead(201, { 'content-type': 'text/plain' });
      res.end(`got ${body.length} bytes: ${body.toString()}`);
    });
  });
  return new Promise((resolve) => s.listen(port, LOOPBACK, () => resolve(s)));
}

const block = () => readBlock(rig.plc.memory, HTTP_BLOCK, DT);
const set = (v: Record<string, number>) => setBlock(rig.plc.memory, HTTP_BLOCK, DT, v);

async function request(req: number, path: string, body: string, answerSize = 64): Promise<void> {
  const before = block().counter!;
  set({
    path_addr: 2000,
    path_len: putBytes(rig.plc.memory, 2000, path),
    body_addr: 2100,
    body_len: putBytes(rig.plc.memory, 2100, body),
    answer_addr: 2200,
    answer_size: answerSize,
    request: req,
  });
  await until(() => block().request === 0, 15_000, 'request taken');
  await until(() => block().counter === ((before + 1) & 0xffff), 15_000, 'request finished');
}

beforeAll(async () => {
  port = await freePort();
  server = await startServer();
  rig = await startMqttRig();
  const r = await rig.admin.post('/config/pew_httpc', {
    ...defaultsOf(pew_httpc),
    enable_httpc: true,
    plc_poll: 1,
    server_addr: `http://${LOOPBACK}:${port}/api`,
    transfermode_ssl: false,
    server_user: 'plc',
    server_password: 'Secret-1',
  } satisfies Httpc);
  expect(r.status, r.text).toBe(200);
  await rig.d.ctx.services.settled();
}, 60_000);

afterAll(async () => {
  await rig?.d.stop();
  await new Promise((r) => server?.close(r));
});

describe('HTTP client engine', () => {
  it('a POST with a body from the PLC arrives, and the answer is in the PLC', async () => {
    await request(HTTP_BLOCK.requests.post!, '/tank1?x=1', '{"level":21.5}', 16);
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/tank1?x=1', auth: `Basic ${Buffer.from('plc:Secret-1').toString('base64')}` });
    expect(seen.at(-1)!.body.toString()).toBe('{"level":21.5}');
    const answer = 'got 14 bytes: {"level":21.5}';
    expect(block(), JSON.stringify(block())).toMatchObject({ state: STATE.done, error: 0, status_code: 201, answer_len: answer.length, queue_waiting: 0 });
    expect(Buffer.from(getBytes(rig.plc.memory, 2200, 16)).toString()).toBe(answer.slice(0, 16)); // cut to the area
    const s = ((await rig.admin.get('/config/service_status')).body as ServicesStatus).services.find((x) => x.service === 'httpc')!;
    expect(s).toMatchObject({ enabled: true, counters: { requests: 1, failed: 0 }, queue: { waiting: 0 } });
  });

  it('a 404 is error server_refused with the status in the PLC; a bad method is bad_request and nothing is sent', async () => {
    await request(HTTP_BLOCK.requests.get!, '/missing', '');
    expect(block()).toMatchObject({ state: STATE.error, error: SERVICE_ERROR.server_refused, status_code: 404, answer_len: 13 });
    const n = seen.length;
    await request(7, '/x', '');
    expect(block()).toMatchObject({ state: STATE.error, error: SERVICE_ERROR.bad_request });
    await request(HTTP_BLOCK.requests.post!, '/x', 'y'.repeat(10), 5000);
    expect(block()).toMatchObject({ state: STATE.error, error: SERVICE_ERROR.too_large });
    expect(seen.length).toBe(n);
  });

  it('the content type and the custom headers go with the request; a secret header is masked by the API and sent as stored', async () => {
    const stored = (await rig.admin.get('/config/pew_httpc')).body as Httpc;
    expect(stored).toMatchObject({ content_type: 'octet-stream', headers: [] }); // stored settings keep their behaviour
    const headers = [
      { name: 'X-Api-Key', value: 'k-12345', secret: true },
      { name: 'X-Site', value: 'north plant', secret: false },
    ];
    let r = await rig.admin.post('/config/pew_httpc', { ...stored, content_type: 'json', headers });
    expect(r.status, r.text).toBe(200);
    const shown = (await rig.admin.get('/config/pew_httpc')).body as Httpc;
    expect(shown.headers).toEqual([{ ...headers[0], value: PASSWORD_MASK }, headers[1]]);
    expect(JSON.stringify(shown)).not.toContain('k-12345');
    r = await rig.admin.post('/config/pew_httpc', shown); // the page saves what it was shown: the mask keeps the key
    expect(r.status, r.text).toBe(200);
    await rig.d.ctx.services.settled();

    await request(HTTP_BLOCK.requests.post!, '/json', '{"level":21.5}');
    expect(seen.at(-1)!.headers).toMatchObject({ 'content-type': 'application/json', 'x-api-key': 'k-12345', 'x-site': 'north plant' });
    expect(seen.at(-1)!.body.toString()).toBe('{"level":21.5}');
    await request(HTTP_BLOCK.requests.get!, '/json', '');
    expect(seen.at(-1)!.headers['content-type']).toBeUndefined(); // no body, no content type
    expect(seen.at(-1)!.headers['x-api-key']).toBe('k-12345');

    const refused = await rig.admin.post('/config/pew_httpc', { ...shown, headers: [{ name: 'Content-Type', value: 'text/xml', secret: false }] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.issues).toEqual([expect.objectContaining({ path: 'headers.0.name', code: 'header_reserved', params: { name: 'Content-Type' } })]);
  });

  it('post_logfile sends the data logger’s newest file, not a newer CSV file of the script', async () => {
    const dir = join(rig.d.dataDir, 'volumes', 'internal', 'log');
    await mkdir(dir, { recursive: true });
    const logger = 'Date,Time,level\r\n2026/01/01,10:00:00,21.5\r\n';
    await writeFile(join(dir, 'trend_20260101.csv'), logger);
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(join(dir, 'trend_20260101.csv'), hourAgo, hourAgo);
    await writeFile(join(dir, 'script_values.csv'), 'date;time;v\n2026-01-01;10:30:00;7\n'); // the script's, written since
    const log = { ...defaultsOf(pew_log), log_def: [withDefaults(logFileSchema, { id: 1, name: 'trend' })] };
    const r = await rig.admin.post('/config/pew_log', log);
    expect(r.status, r.text).toBe(200);

    await request(HTTP_BLOCK.requests.post_logfile!, '/upload', '');
    expect(block(), JSON.stringify(block())).toMatchObject({ state: STATE.done, error: 0, status_code: 201 });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/upload' });
    expect(seen.at(-1)!.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(seen.at(-1)!.body.toString()).toBe(logger);
  });

  it('a server that is down keeps the request queued and sends it when it is back', async () => {
    await new Promise((r) => server!.close(r));
    server = undefined;
    const before = block().counter!;
    set({
      path_addr: 2000,
      path_len: putBytes(rig.plc.memory, 2000, '/later'),
      body_addr: 2100,
      body_len: putBytes(rig.plc.memory, 2100, 'kept'),
      answer_addr: 2200,
      answer_size: 0,
      request: HTTP_BLOCK.requests.put!,
    });
    await until(() => block().queue_waiting === 1 && block().state === STATE.waiting, 15_000, 'queued while down');
    expect(block().error).toBe(SERVICE_ERROR.refused);
    server = await startServer();
    await until(() => block().counter === ((before + 1) & 0xffff), 60_000, 'sent after the server came back');
    expect(seen.at(-1)).toMatchObject({ method: 'PUT', url: '/api/later' });
    expect(seen.at(-1)!.body.toString()).toBe('kept');
    expect(block(), JSON.stringify(block())).toMatchObject({ state: STATE.done, error: 0, status_code: 201, queue_waiting: 0 });
  });
});
