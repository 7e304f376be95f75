// The connection tests answered as they run (POST /config/servicetest/<section> with
// `Accept: application/x-ndjson`, docs/api.md): against a broker that takes the TCP connection and
// never answers, the connect step and the start of the login arrive at once, the login's timeout
// and the result about 8 s later; every line matches the schema, and the result is the one the
// plain JSON answer gives. Refusals stay error envelopes with their status.

import { createServer, type Server, type Socket } from 'node:net';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultsOf } from '../../device/model/section.ts';
import { pew_mqtt } from '../../device/model/sections/mqtt.ts';
import { type TestProgressLine, testProgressLineSchema } from '../../device/model/servicetest.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';

let d: TestDaemon;
let admin: Client;
let silent: Server;
const sockets = new Set<Socket>();
let port = 0;

beforeAll(async () => {
  port = await freePort();
  silent = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => silent.listen(port, LOOPBACK, resolve));
  d = await startTestDaemon();
  admin = await d.admin();
}, 60_000);

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
  await d?.stop();
});

/** POSTs the test asking for lines; each line with the ms since the request when it arrived. */
async function lines(section: string): Promise<{ status: number; type: string | null; lines: { at: number; line: TestProgressLine }[] }> {
  const t0 = performance.now();
  const res = await fetch(`${d.url}/config/servicetest/${section}`, {
    method: 'POST',
    body: '{}',
    headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/json', accept: 'application/x-ndjson' },
  });
  const out: { at: number; line: TestProgressLine }[] = [];
  if (res.headers.get('content-type')?.startsWith('application/x-ndjson')) {
    const decoder = new TextDecoder();
    let rest = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      rest += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = rest.indexOf('\n')) >= 0) {
        out.push({ at: performance.now() - t0, line: v.parse(testProgressLineSchema, JSON.parse(rest.slice(0, nl))) });
        rest = rest.slice(nl + 1);
      }
    }
    expect(rest).toBe('');
  } else await res.text();
  return { status: res.status, type: res.headers.get('content-type'), lines: out };
}

describe('connection test steps as they happen', () => {
  it('a silent broker: connect and the start of the login at once, the timeout and the result when they come', async () => {
    expect((await admin.post('/config/pew_mqtt', { ...defaultsOf(pew_mqtt), broker_addr: `mqtt://${LOOPBACK}:${port}` })).status).toBe(200);
    const r = await lines('pew_mqtt');
    expect(r.status).toBe(200);
    const shape = r.lines.map(({ line }) =>
      'running' in line ? `running:${line.running}` : 'step' in line ? `${line.step.step}:${line.step.ok}` : Object.keys(line)[0],
    );
    expect(shape).toEqual(['running:connect', 'connect:true', 'running:login', 'login:false', 'result']);
    const at = Object.fromEntries(shape.map((s, i) => [s, r.lines[i]!.at]));
    expect(at['running:login']!).toBeLessThan(2000); // shown while the login waits
    expect(at['login:false']! - at['running:login']!).toBeGreaterThan(6000); // the broker's 8 s
    const last = r.lines.at(-1)!.line;
    expect('result' in last && last.result.failure?.reason).toBe('timeout');
    expect('result' in last && last.result.steps.map((s) => s.step)).toEqual(['connect', 'login']);
  });

  it('without the lines in Accept the answer is the one JSON result; a refusal is an envelope either way', async () => {
    expect((await admin.post('/config/pew_mqtt', { ...defaultsOf(pew_mqtt), broker_addr: `mqtt://${LOOPBACK}:${await freePort()}` })).status).toBe(200);
    const plain = await admin.post('/config/servicetest/pew_mqtt', {});
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    expect(plain.body).toMatchObject({ ok: false, failure: { reason: 'refused' }, steps: [{ step: 'connect', ok: false }] });
    const refused = await lines('pew_none');
    expect([refused.status, refused.type?.split(';')[0], refused.lines]).toEqual([404, 'application/json', []]);
    expect((await admin.post('/config/pew_mqtt', { ...defaultsOf(pew_mqtt), broker_addr: '' })).status).toBe(200);
    expect((await lines('pew_mqtt')).status).toBe(409);
  });
});
