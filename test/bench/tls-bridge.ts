// TLS bridge figures of `npm run bench` (part `tls bridge`), measured side by side in one run: a
// plain client through the daemon's TLS client part to a node TLS echo, against a TLS client of
// this process talking to the same echo directly (what the bridge replaces):
//   - throughput: MB/s of a stream sent and echoed back;
//   - latency: request/answer of 64 bytes, p50 in µs, and what the bridge adds.
// The daemon is the bundled simulator in a process of its own, as on the unit.

import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { ADMIN, Client } from '../support/daemon.ts';
import { makeCa, makeLeaf, tlsEcho } from '../support/openssl.ts';
import { freePorts } from '../support/ports.ts';
import { statusDetail } from '../support/service-status.ts';
import { HOST, startServer } from './processes.ts';
import { median, type Row } from './stats.ts';

const STREAM_BYTES = 32 * 1024 * 1024;
const MESSAGE = 64;
const ROUNDS = 4;
const ROUND_MS = 500;

/** Sends `total` bytes and waits until as many came back; ms taken. */
async function stream(s: Socket, total: number): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, 0x5a);
  let back = 0;
  const t0 = performance.now();
  const done = new Promise<void>((resolve) => {
    const on = (b: Buffer) => {
      back += b.length;
      if (back >= total) {
        s.off('data', on);
        resolve();
      }
    };
    s.on('data', on);
  });
  for (let sent = 0; sent < total; sent += chunk.length) {
    if (!s.write(chunk)) await new Promise((r) => s.once('drain', r));
  }
  await done;
  return performance.now() - t0;
}

/** Request/answer of `MESSAGE` bytes for `ms`; each latency in ms. */
async function pingPong(s: Socket, ms: number): Promise<number[]> {
  const msg = Buffer.alloc(MESSAGE, 0x41);
  const lat: number[] = [];
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      let got = 0;
      const on = (b: Buffer) => {
        got += b.length;
        if (got >= MESSAGE) {
          s.off('data', on);
          resolve();
        }
      };
      s.on('data', on);
      s.write(msg);
    });
    lat.push(performance.now() - t0);
  }
  return lat;
}

const opened = (s: Socket, event: 'connect' | 'secureConnect') =>
  new Promise<Socket>((resolve, reject) => {
    s.once(event, () => resolve(s));
    s.once('error', reject);
  });

/** `daemon`: the node arguments that start the daemon (the bundle, as `npm run bench` does). */
export async function measureTlsBridge(rows: Row[], daemon: string[]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-tls-'));
  const dataDir = join(dir, 'data');
  const ca = await makeCa(dir, 'ca');
  const leaf = await makeLeaf(dir, 'server', ca);
  const echo = await tlsEcho({ cert: await readFile(leaf.cert, 'utf8'), key: await readFile(leaf.key, 'utf8') });
  await mkdir(join(dataDir, 'certs', 'pew_tls_client'), { recursive: true });
  await copyFile(ca.cert, join(dataDir, 'certs', 'pew_tls_client', 'ca.pem'));
  const [httpPort, bridgePort] = (await freePorts(2)) as [number, number];
  const server = await startServer([...daemon, '--port', String(httpPort), '--data', dataDir], httpPort, '/rest/api/v1/authentication');
  const caPem = await readFile(ca.cert, 'utf8');
  try {
    const admin = new Client(`http://${HOST}:${httpPort}`);
    await admin.post('/rest/api/v1/authentication/setup', ADMIN);
    await admin.login(ADMIN);
    const tls = (await admin.get('/config/pew_tls')).body as Record<string, unknown>;
    const saved = await admin.post('/config/pew_tls', {
      ...tls,
      enable_tlsclient: true,
      nontls_server_port: bridgePort,
      tls_server_host: HOST,
      tls_destination_port: echo.port,
      tlsclientca: 'ca.pem',
      ca_verification_tlsclient: true,
      tls_min_version_client: '1.3',
    });
    if (saved.status !== 200) throw new Error(`saving pew_tls failed: ${saved.text}`);
    const status = await statusDetail(admin, 'tls');
    if (!status.client.listening) throw new Error(`the client part does not listen: ${JSON.stringify(status.client.reason)}`);

    const via = await opened(netConnect({ host: HOST, port: bridgePort }), 'connect');
    const direct = await opened(tlsConnect({ host: HOST, port: echo.port, ca: caPem, minVersion: 'TLSv1.3' }), 'secureConnect');
    via.setNoDelay(true);
    direct.setNoDelay(true);
    await pingPong(via, 200); // the bridge's TLS connection is up once the first answer is back
    await pingPong(direct, 200);

    // alternating rounds, so that both see the same machine load
    const latVia: number[] = [];
    const latDirect: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      latDirect.push(...(await pingPong(direct, ROUND_MS)));
      latVia.push(...(await pingPong(via, ROUND_MS)));
    }
    const msVia: number[] = [];
    const msDirect: number[] = [];
    for (let r = 0; r < 2; r++) {
      msDirect.push(await stream(direct, STREAM_BYTES));
      msVia.push(await stream(via, STREAM_BYTES));
    }
    via.destroy();
    direct.destroy();
    const mbps = (ms: number[]) => STREAM_BYTES / 1024 / 1024 / (median(ms) / 1000);
    rows.push({
      figure: 'TLS bridge client part, stream echo (MB/s)',
      ours: mbps(msVia),
      baseline: mbps(msDirect),
      note: `${STREAM_BYTES / 1024 / 1024} MB out and back, median of 2; baseline: a TLS 1.3 client straight to the same node TLS echo`,
    });
    rows.push({
      figure: 'TLS bridge 64 B request/answer p50 (µs)',
      ours: median(latVia) * 1000,
      baseline: median(latDirect) * 1000,
      note: `added p50 ${((median(latVia) - median(latDirect)) * 1000).toFixed(0)} µs; ${latVia.length} + ${latDirect.length} exchanges; daemon bundled, own process`,
    });
  } finally {
    await server.stop();
    await echo.close();
    await rm(dir, { recursive: true, force: true });
  }
}
