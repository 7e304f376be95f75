// The HTTP client engine (device/httpc; spec §3 pew_httpc, §9 HTTP block of 14 words at DT240)
// against a small node HTTP server started by the test, with a virtual FP-XH on COM1 whose
// control block is set through the simulator's block helper: a POST with a body from PLC memory
// arrives with its path, body and basic authentication, and the answer (status, length, body cut
// to the area) is in the PLC; a refused request; a server that is down keeps the request queued.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ERROR, STATE } from '../../device/model/blocks/convention.ts';
import { HTTP_BLOCK } from '../../device/model/blocks/httpc.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { type Httpc, pew_httpc } from '../../device/model/sections/httpc.ts';
import type { ServicesStatus } from '../../device/model/service-status.ts';
import { getBytes, putBytes, readBlock, setBlock } from '../../sim/plc/blocks.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { until } from './logger-rig.ts';
import { type MqttRig, startMqttRig } from './mqtt-rig.ts';

const DT = 240; // spec §9: HTTP control register default
let rig: MqttRig;
let server: Server | undefined;
let port: number;
const seen: { method: string; url: string; auth: string; body: Buffer }[] = [];

function startServer(): Promise<Server> {
  const s = createServer((req: IncomingMessage, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization ?? '', body });
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
  }, 60_000);

  it('a 404 is error server_refused with the status in the PLC; a bad method is bad_request and nothing is sent', async () => {
    await request(HTTP_BLOCK.requests.get!, '/missing', '');
    expect(block()).toMatchObject({ state: STATE.error, error: SERVICE_ERROR.server_refused, status_code: 404, answer_len: 13 });
    const n = seen.length;
    await request(7, '/x', '');
    expect(block()).toMatchObject({ state: STATE.error, error: SERVICE_ERROR.bad_request });
    await request(HTTP_BLOCK.requests.post!, '/x', 'y'.repeat(10), 5000);
    expect(block()).toMatchObject({ state: STATE.error, error: SERVICE_ERROR.too_large });
    expect(seen.length).toBe(n);
  }, 60_000);

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
  }, 90_000);
});
