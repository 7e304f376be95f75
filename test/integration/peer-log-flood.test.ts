// Unauthenticated peers filling the log (issue 34 item 4; docs/hardening.md LOG-2): a request body
// the client cut off was answered 500, counted and logged as a contained fault; every failed TLS
// handshake on the bridge logged one warning (3,000 lines in 38 s). Now a cut-off body is the
// client's business (no 500, no fault, no line), and the warnings of one source are rate-limited:
// the first few of a window are logged, the rest summarised in one line when the window ends (here:
// when the part closes).
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Tls, tlsSchema } from '../../device/model/sections/tls.ts';
import { WARN_LIMITS } from '../../device/system/log-limit.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { makeCa, makeLeaf, tcpEcho } from '../support/openssl.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { bodyToCome, served } from '../support/slow-clients.ts';

const LOGIN = '/rest/api/v1/authentication';

let d: TestDaemon;
let admin: Client;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'peer-log-'));
  d = await startTestDaemon();
  admin = await d.admin();
});

afterAll(async () => {
  await d?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const lines = (msg: string) => d.ctx.log.recent().filter((e) => e.msg === msg);

describe('a request body the client cut off (LOG-2)', () => {
  it('is no 500, no fault and no log line; the console serves on', async () => {
    for (let i = 0; i < 20; i++) {
      const s = connect({ host: LOOPBACK, port: d.port, localAddress: `127.0.11.${1 + (i % 4)}` });
      s.on('error', () => undefined);
      await new Promise<void>((resolve) => s.once('connect', () => resolve()));
      // the route is reading the body when the client goes away
      s.write(`${bodyToCome(LOGIN)}{"username":"adm`);
      s.destroy();
      // a request after each: the daemon has seen the close by the time it answers
      expect(await served(d.port, LOGIN, '127.0.0.1', 1, 401)).toBe(1);
    }
    expect(d.ctx.consoleListeners!().map((l) => l.faults)).toEqual([0]);
    expect(lines('connection fault contained')).toEqual([]);
  });
});

describe('failed TLS handshakes on the bridge (LOG-2)', () => {
  let echo: Awaited<ReturnType<typeof tcpEcho>>;
  let port: number;
  beforeAll(async () => {
    const ca = await makeCa(dir, 'ca');
    const server = await makeLeaf(dir, 'server', ca);
    const certs = join(d.dataDir, 'certs', 'pew_tls_server');
    await mkdir(certs, { recursive: true });
    await copyFile(server.cert, join(certs, 'server.pem'));
    await copyFile(server.key, join(certs, 'key.pem'));
    echo = await tcpEcho();
    port = await freePort();
  });
  afterAll(async () => {
    await echo?.close();
  });

  const saveTls = async (over: Partial<Tls>) => {
    const r = await admin.post('/config/pew_tls', { ...(v.getDefaults(tlsSchema) as Tls), ...over });
    expect(r.status, r.text).toBe(200);
    await d.ctx.tls.settled();
  };

  /** `n` clients from `from` that speak plain HTTP to the TLS port, each closed by the server */
  const plainClients = async (from: string, n: number) => {
    for (let k = 0; k < n; k += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, n - k) }, async () => {
          const s = connect({ host: LOOPBACK, port, localAddress: from });
          s.on('error', () => undefined);
          s.on('data', () => undefined);
          s.once('connect', () => s.write('GET / HTTP/1.1\r\nHost: unit\r\n\r\n'));
          await new Promise<void>((resolve) => s.once('close', () => resolve()));
        }),
      );
    }
  };

  it('each is counted; each source logs its first few, the rest are one summary line', async () => {
    await saveTls({
      enable_tlsserver: true,
      tls_server_port: port,
      nontls_server_host: '127.0.0.1',
      nontls_destination_port: echo.port,
      tlsservercert: 'server.pem',
      tlsserverkey: 'key.pem',
      tlsserver_certauth: 0,
    });
    expect(d.ctx.tls.status().server.listening).toBe(true);
    await plainClients('127.0.12.1', 300);
    await plainClients('127.0.12.2', 10);
    await expect.poll(() => d.ctx.tls.status().server.tlsFailures).toBe(310);
    const each = lines('TLS server: handshake failed');
    expect(each.map((e) => e.fields?.client)).toEqual([...Array(WARN_LIMITS.perSource).fill('127.0.12.1'), ...Array(WARN_LIMITS.perSource).fill('127.0.12.2')]);
    // the window ends when the part closes: one summary line of what was left out
    await saveTls({ enable_tlsserver: false });
    const summary = lines('TLS server: handshake failed (repeated)');
    expect(summary).toHaveLength(1);
    expect(summary[0]!.fields).toMatchObject({
      suppressed: 310 - 2 * WARN_LIMITS.perSource,
      sources: 2,
      top: [
        { source: '127.0.12.1', count: 300 - WARN_LIMITS.perSource },
        { source: '127.0.12.2', count: 10 - WARN_LIMITS.perSource },
      ],
    });
  });
});
