// A Hono application on node:http through honoListener (hono-listener.ts), with the daemon's fetch
// classes in the globals as in the daemon: answers with their length and type, request bodies read
// from the socket (plain, chunked, through a body limit), streams with backpressure and cancel,
// requests the URL cannot carry, failures thrown on to the guard.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installDaemonFetchClasses } from './fetch/install.ts';
import { honoListener, type NodeBindings } from './hono-listener.ts';

installDaemonFetchClasses();

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let server: Server;
let port: number;
const failures: unknown[] = [];
const events: string[] = [];
let released: () => void = () => undefined;

function call(method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** the raw bytes of one exchange over a fresh connection */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let out = '';
    s.on('data', (b) => (out += b.toString()));
    s.on('end', () => resolve(out));
    s.on('error', reject);
    s.end(text);
  });
}

beforeAll(async () => {
  const app = new Hono<{ Bindings: NodeBindings }>();
  app.get('/json', (c) => {
    c.header('Set-Cookie', 'a=1; Path=/', { append: true });
    c.header('Set-Cookie', 'b=2; Path=/', { append: true });
    return c.json({ ok: true, peer: c.env.incoming.socket.remoteAddress });
  });
  app.get('/bytes', (c) => c.body(new Uint8Array([0, 1, 2, 255])));
  app.get('/empty', (c) => c.body(null, 204));
  app.get('/blob', () => new Response(new Blob(['blob!'], { type: 'text/x-blob' })));
  app.get('/url', (c) => c.text(c.req.url));
  app.post('/echo', async (c) => c.json({ got: await c.req.json(), type: c.req.header('content-type') }));
  app.post('/limited', bodyLimit({ maxSize: 64, onError: (c) => c.text('too large', 413) }), async (c) => c.text(await c.req.text()));
  app.post('/ignore', (c) => c.text('not read'));
  // as an upload over its cap (device/system/upload-files.ts): read the stream, cancel it at the cap
  app.post('/capped', async (c) => {
    const reader = (c.req.raw.body as ReadableStream<Uint8Array>).getReader();
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return c.text(String(size));
      size += value.length;
      if (size > 1 << 20) {
        await reader.cancel();
        return c.text('over the cap', 413, { connection: 'close' });
      }
      await new Promise((r) => setTimeout(r, 1)); // a write to disk, while more of the body arrives
    }
  });
  app.get('/big', (c) => {
    let sent = 0;
    const chunk = new Uint8Array(64 * 1024).fill(97);
    const stream = new ReadableStream<Uint8Array>({
      pull(ctl) {
        if (sent >= 4 * 1024 * 1024) return ctl.close();
        sent += chunk.length;
        ctl.enqueue(chunk);
      },
    });
    return c.body(stream, 200, { 'content-type': 'application/octet-stream' });
  });
  app.get('/endless', (c) => {
    c.req.raw.signal.addEventListener('abort', () => events.push('signal'));
    const stream = new ReadableStream<Uint8Array>({
      start(ctl) {
        ctl.enqueue(new TextEncoder().encode('first\n'));
        events.push('started');
      },
      pull: () => new Promise<void>((r) => (released = r)),
      cancel: () => {
        events.push('cancelled');
      },
    });
    return c.body(stream);
  });
  app.get('/throws', () => {
    throw new Error('unexpected');
  });
  app.onError((e) => {
    throw e; // the guard's business (guarded-http.ts), here the listener's caller
  });
  const listener = honoListener(app.fetch);
  server = createServer((req, res) => {
    listener(req, res)?.catch((e: unknown) => {
      failures.push(e);
      res.destroy();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('honoListener', () => {
  it('a JSON answer with its length, its type and each Set-Cookie; c.env is the node request', async () => {
    const a = await call('GET', '/json');
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toEqual({ ok: true, peer: '127.0.0.1' });
    expect(a.headers['content-length']).toBe(String(Buffer.byteLength(a.body)));
    expect(a.headers['content-type']).toMatch(/^application\/json/);
    expect(a.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  it('bytes with the default type, an empty 204, and HEAD without a body', async () => {
    const b = await call('GET', '/bytes');
    expect([...Buffer.from(b.body, 'latin1')].length).toBe(4);
    expect([b.headers['content-type'], b.headers['content-length']]).toEqual(['text/plain; charset=UTF-8', '4']);
    const blob = await call('GET', '/blob');
    expect([blob.body, blob.headers['content-type'], blob.headers['content-length']]).toEqual(['blob!', 'text/x-blob', '5']);
    const e = await call('GET', '/empty');
    expect([e.status, e.body, e.headers['content-length']]).toEqual([204, '', undefined]);
    const h = await call('HEAD', '/json');
    expect([h.status, h.body]).toEqual([200, '']);
  });

  it('reads a JSON body from the socket, sent whole or chunked', async () => {
    const whole = await call('POST', '/echo', '{"a":[1,2]}', { 'content-type': 'application/json' });
    expect(JSON.parse(whole.body)).toEqual({ got: { a: [1, 2] }, type: 'application/json' });
    const chunked = await raw(
      'POST /echo HTTP/1.1\r\nHost: unit\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n4\r\n{"b"\r\n3\r\n:3}\r\n0\r\n\r\n',
    );
    expect(chunked).toMatch(/^HTTP\/1\.1 200/);
    expect(chunked).toContain('{"got":{"b":3}');
  });

  it('a body limit reads a chunked body through the stream and passes it on, or refuses it', async () => {
    const small = await raw('POST /limited HTTP/1.1\r\nHost: unit\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n');
    expect(small).toMatch(/^HTTP\/1\.1 200[\s\S]*\r\n\r\nhello$/);
    const big = await raw(
      `POST /limited HTTP/1.1\r\nHost: unit\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n64\r\n${'x'.repeat(100)}\r\n0\r\n\r\n`,
    );
    expect(big).toMatch(/^HTTP\/1\.1 413[\s\S]*too large$/);
    const declared = await call('POST', '/limited', 'y'.repeat(65));
    expect(declared.status).toBe(413);
  });

  it('a request body no route read does not hold the connection: the next request on it is answered', async () => {
    const body = 'z'.repeat(50_000);
    const two = await raw(
      `POST /ignore HTTP/1.1\r\nHost: unit\r\nContent-Length: ${body.length}\r\n\r\n${body}GET /url HTTP/1.1\r\nHost: unit\r\nConnection: close\r\n\r\n`,
    );
    expect(two.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
    expect(two).toContain('not read');
    expect(two).toContain('http://unit/url');
  });

  it('a body stream cancelled at a cap while the client still sends: 413, nothing thrown, the listener serves on', async () => {
    // chunked, 64 KiB at a time as the socket drains, 8 MiB in all: the route is still reading when it cancels
    const sendSlowly = () =>
      new Promise<string>((resolve) => {
        const s = connect(port, '127.0.0.1');
        let out = '';
        s.on('data', (b) => (out += b.toString()));
        s.on('close', () => resolve(out));
        s.on('error', () => undefined);
        s.write('POST /capped HTTP/1.1\r\nHost: unit\r\nTransfer-Encoding: chunked\r\n\r\n');
        const chunk = `10000\r\n${'x'.repeat(0x10000)}\r\n`;
        let sent = 0;
        const more = () => {
          while (sent < 128 && !s.destroyed) {
            sent++;
            if (!s.write(chunk)) return void s.once('drain', more);
          }
          if (!s.destroyed) s.write('0\r\n\r\n');
        };
        more();
      });
    const answers = await Promise.all(Array.from({ length: 6 }, sendSlowly));
    for (const a of answers) expect(a).toMatch(/^HTTP\/1\.1 413/);
    expect(failures).toEqual([]);
    const small = await call('POST', '/capped', 'y'.repeat(100));
    expect([small.status, small.body]).toEqual([200, '100']);
  });

  it('a large stream arrives whole, written as the client reads it', async () => {
    const a = await call('GET', '/big');
    expect(a.status).toBe(200);
    expect(a.body.length).toBe(4 * 1024 * 1024);
    expect(a.headers['transfer-encoding']).toBe('chunked');
  });

  it('a client that goes away cancels the stream and aborts the request signal', async () => {
    events.length = 0;
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/endless', agent: false }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      req.end();
      setTimeout(() => reject(new Error('no first chunk')), 5000);
    });
    await expect.poll(() => events, { timeout: 5000 }).toEqual(expect.arrayContaining(['started', 'cancelled', 'signal']));
    released();
  });

  it('the URL: the Host and path as sent; a missing Host, a backslash or a Host that is no host name is 400', async () => {
    expect((await call('GET', '/url', undefined, { host: 'unit.local:8080' })).body).toBe('http://unit.local:8080/url');
    expect((await call('GET', '/url?x=%20a', undefined, { host: 'UNIT' })).body).toBe('http://unit/url?x=%20a');
    expect(await raw('GET http://other:81/url HTTP/1.1\r\nHost: unit\r\nConnection: close\r\n\r\n')).toContain('http://other:81/url');
    for (const bad of [
      'GET /url HTTP/1.0\r\n\r\n',
      'GET /a\\b HTTP/1.1\r\nHost: unit\r\nConnection: close\r\n\r\n',
      'GET /url HTTP/1.1\r\nHost: evil.example/x\r\nConnection: close\r\n\r\n',
      'GET /url HTTP/1.1\r\nHost: a@b\r\nConnection: close\r\n\r\n',
    ]) {
      expect(await raw(bad), bad).toMatch(/^HTTP\/1\.1 400/);
    }
    expect((await call('GET', '/url')).status).toBe(200); // and the listener still serves
  });

  it("a failure of the application is thrown on to the listener's caller", async () => {
    failures.length = 0;
    await call('GET', '/throws').catch(() => undefined);
    expect(failures).toHaveLength(1);
    expect((failures[0] as Error).message).toBe('unexpected');
  });
});
