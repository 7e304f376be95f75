import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, type Socket } from 'node:net';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../hw/types.ts';
import { makeCertificates } from '../../test/support/openssl.ts';
import type { ConsoleTls } from '../system/console-tls.ts';
import { createLogger } from '../system/log.ts';
import type { Env } from './context.ts';
import { errorResponse } from './errors.ts';
import { type ConsoleListeners, listenConsole } from './listen.ts';

const HOST = '127.0.0.1';
let open: ConsoleListeners | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** a console app with a route that works and one whose handler fails with an unexpected error */
function app() {
  const a = new Hono<Env>();
  a.get('/ok', (c) => c.json({ ok: true }));
  a.get('/boom', () => {
    throw new TypeError('cannot read x of undefined');
  });
  a.onError((err, c) =>
    errorResponse(c, err, () => {
      throw new Error('a guarded request must not reach the app log');
    }),
  );
  return a;
}

function get(port: number, path: string, tls = false): Promise<{ status: number; body: string; connection?: string }> {
  return new Promise((resolve, reject) => {
    const opts = { host: HOST, port, path, agent: false as const };
    const req = tls ? httpsRequest({ ...opts, rejectUnauthorized: false }) : httpRequest(opts);
    req.once('response', (res) => {
      let body = '';
      res.on('data', (b: Buffer) => (body += b.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ...(res.headers.connection ? { connection: res.headers.connection } : {}) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A raw keep-alive connection: sends requests, collects what comes back, reports its close. */
function raw(port: number) {
  const s: Socket = connect({ host: HOST, port });
  let got = '';
  let closed = false;
  s.on('data', (b: Buffer) => (got += b.toString()));
  s.on('close', () => (closed = true));
  const until = async (ok: () => boolean) => {
    for (let i = 0; i < 250 && !ok(); i++) await new Promise((r) => setTimeout(r, 20));
  };
  return {
    send: (path: string) => s.write(`GET ${path} HTTP/1.1\r\nHost: ${HOST}\r\n\r\n`),
    got: () => got,
    closed: () => closed,
    until,
    destroy: () => s.destroy(),
  };
}

const faultsLogged = (log: ReturnType<typeof createLogger>) => log.recent().filter((e) => e.msg === 'connection fault contained');

describe('the console listeners run under the connection guard', () => {
  it('a failing request ends only its own connection: 500, logged once with listener, peer and request, counted', async () => {
    const log = createLogger({ clock: systemClock, sink: null });
    open = await listenConsole(app(), { host: HOST, port: 0, log, names: () => ({ hostname: 'unit', configured: [] }) });
    const other = raw(open.port);
    other.send('/ok');
    await other.until(() => other.got().includes('"ok":true'));

    const victim = raw(open.port);
    victim.send('/boom');
    await victim.until(() => victim.closed());
    expect(victim.got()).toMatch(/^HTTP\/1\.1 500 /);
    expect(victim.got()).toContain('"code":"internal"');
    expect(victim.closed()).toBe(true);

    const logged = faultsLogged(log);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.fields).toMatchObject({ listener: `console-console:${open.port}`, request: 'GET /boom', error: 'TypeError: cannot read x of undefined' });
    expect(String(logged[0]!.fields!.peer)).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(open.status()).toEqual([{ role: 'console', port: open.port, tls: false, faults: 1 }]);

    // the connection opened before goes on, and new ones are served
    other.send('/ok');
    await other.until(() => other.got().split('"ok":true').length === 3);
    expect(other.closed()).toBe(false);
    expect((await get(open.port, '/ok')).status).toBe(200);
    other.destroy();
  });

  it('with TLS: the HTTPS console and the redirect port each count their own faults', async () => {
    const certs = await makeCertificates();
    const tls: ConsoleTls = {
      pair: () => ({ cert: certs.cert, key: certs.key }),
      certificate: () => {
        throw new Error('unused');
      },
      watch: () => undefined,
      close: () => undefined,
    };
    const log = createLogger({ clock: systemClock, sink: null });
    open = await listenConsole(app(), { host: HOST, port: 0, tls: { port: 0, certs: tls }, log, names: () => ({ hostname: 'unit', configured: [] }) });
    const tlsPort = open.tlsPort!;
    const failed = await get(tlsPort, '/boom', true);
    expect(failed.status).toBe(500);
    expect(failed.connection).toBe('close');
    expect((await get(tlsPort, '/ok', true)).status).toBe(200);
    const moved = await get(open.port, '/ok');
    expect(moved.status).toBe(308);
    expect(faultsLogged(log).map((e) => e.fields?.listener)).toEqual([`console-console:${tlsPort}`]);
    expect(open.status()).toEqual([
      { role: 'console', port: tlsPort, tls: true, faults: 1 },
      { role: 'redirect', port: open.port, tls: false, faults: 0 },
    ]);
  });
});

describe('closing the listeners', () => {
  it('waits for an answer under way whose client went away (a login check still hashing), so that nothing is written after the close', async () => {
    const events: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const inHandler = new Promise<void>((r) => (reached = r));
    const a = app();
    a.get('/slow', async (c) => {
      reached();
      await held;
      events.push('handler wrote');
      return c.json({ ok: true });
    });
    const log = createLogger({ clock: systemClock, sink: null });
    open = await listenConsole(a, { host: HOST, port: 0, log, names: () => ({ hostname: 'unit', configured: [] }) });
    const client = raw(open.port);
    client.send('/slow');
    await inHandler;
    const closing = open.close().then(() => events.push('closed'));
    open = undefined;
    // the connection is cut at once, the handler goes on
    await client.until(() => client.closed());
    expect(client.closed()).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual([]);
    release();
    await closing;
    expect(events).toEqual(['handler wrote', 'closed']);
  });
});
