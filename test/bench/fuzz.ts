// The protocol fuzzer of `npm run bench -- fuzz` (issue 15): the test's fuzzer (test/support/
// protocol-fuzz.ts), longer, against the bundled simulator in a process of its own, so that a frame
// that ended the process would show as an exit. Every listener: redirect threads (MEWTOCOL on a serial
// MEWTOCOL PLC and on the TCP PLC, plain Modbus on an RTU line and on INTERNAL, gateways in front of
// MEWTOCOL and RTU lines), the REST/HTTP server, both TLS bridge parts, the virtual PLC's TCP ports.
// Figures: frames per listener, faults contained (the status answers' counters), process exits.
// FUZZ_FRAMES=<n> frames per listener (default 20000), FUZZ_SEED=<n>.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pew } from '../../device/model/sections/pew.ts';
import type { Thread } from '../../device/model/sections/redirect.ts';
import { ADMIN, Client } from '../support/daemon.ts';
import { makeCertificates, tcpEcho, tlsEcho } from '../support/openssl.ts';
import { type FuzzProtocol, fuzzTcp, prng } from '../support/protocol-fuzz.ts';
import { statusDetail } from '../support/service-status.ts';
import { freePorts, HOST, startServer } from './processes.ts';
import type { Row } from './stats.ts';

const FRAMES = process.env.FUZZ_FRAMES ? Number(process.env.FUZZ_FRAMES) : 20_000;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261126;

const thread = (port: number, service: Thread['service'], over: Partial<Thread> = {}): Thread => ({
  port,
  mb_translation: false,
  monitoring_cmd: true,
  service,
  clients: 16,
  timeout: 10,
  ip_start: '0.0.0.0',
  ip_end: '0.0.0.0',
  mapping: [{ type: 0, area: 'DT', register_area_start: 0, register_area_end: 999, register_area_mapped: 0, read_write: 'R/W' }],
  ...over,
});

export async function measureFuzz(rows: Row[], daemon: string[]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-fuzz-'));
  const framing = { baud: 115200, bits: 8 as const, parity: 'odd' as const, stopbits: 1 as const };
  const ports = await freePorts(12);
  const [httpPort, mewPort, mbPort, restPort, tlsServerPort, tlsClientPort] = ports as [number, number, number, number, number, number];
  const plcs = join(dir, 'plcs.json');
  await writeFile(
    plcs,
    JSON.stringify({
      COM1: { cpu: 'FP-XH', protocol: 'MEWTOCOL', ...framing, pty: false },
      COM2: { cpu: 'FP-X', protocol: 'MODBUS', ...framing, pty: false },
      COM3: null,
      COM4: { cpu: 'FP-X', host: HOST, mewtocolPort: mewPort, modbusPort: mbPort },
    }),
  );
  const certs = await makeCertificates();
  const echo = await tcpEcho();
  const tlsDest = await tlsEcho(certs);
  const server = await startServer(
    [...daemon, '--port', String(httpPort), '--data', join(dir, 'data'), '--plcs', plcs],
    httpPort,
    '/rest/api/v1/authentication',
  );
  let exits = 0;
  server.child.once('exit', () => {
    exits++;
  });
  try {
    const admin = new Client(`http://${HOST}:${httpPort}`);
    await admin.post('/rest/api/v1/authentication/setup', ADMIN);
    await admin.login(ADMIN);
    const pew = (await admin.get('/config/pew')).body as Pew;
    const iface = (name: string) => pew.interfaces.find((i) => i.name === name)!;
    Object.assign(iface('COM1'), { enabled: true, baudrate: 115200, timeout: 200 });
    Object.assign(iface('COM2'), { enabled: true, baudrate: 115200, protocol: 'MODBUS', timeout: 200 });
    Object.assign(iface('COM4'), { enabled: true, ip_port: `${HOST}:${mewPort}`, timeout: 200 });
    const certDir = join(dir, 'data', 'certs', 'pew_tls_server');
    await mkdir(certDir, { recursive: true });
    await writeFile(join(certDir, 'server.pem'), certs.cert);
    await writeFile(join(certDir, 'key.pem'), certs.key);
    const t = ports.slice(6);
    const gw = [{ type: 0 as const, area: 'DT' as const, register_area_start: 0, register_area_end: 999, register_area_mapped: 0, read_write: 'R/W' as const }];
    const threads = [
      thread(t[0]!, iface('COM1').id),
      thread(t[1]!, iface('COM1').id, { mb_translation: true, mapping: gw }),
      thread(t[2]!, iface('COM2').id),
      thread(t[3]!, iface('COM2').id, { mb_translation: true, mapping: gw }),
      thread(t[4]!, iface('INTERNAL').id),
      thread(t[5]!, iface('COM4').id),
    ];
    const saved = await admin.post('/config', {
      pew,
      pew_redirect: { threads },
      pew_api: { ...(await admin.get('/config/pew_api')).body, api_enable: true, http_server: true, http_port: restPort, use_encryption: false },
      pew_tls: {
        ...(await admin.get('/config/pew_tls')).body,
        enable_tlsserver: true,
        tls_server_port: tlsServerPort,
        nontls_server_host: HOST,
        nontls_destination_port: echo.port,
        tlsservercert: 'server.pem',
        tlsserverkey: 'key.pem',
        tlsserver_certauth: 0,
        enable_tlsclient: true,
        nontls_server_port: tlsClientPort,
        tls_server_host: HOST,
        tls_destination_port: tlsDest.port,
        ca_verification_tlsclient: false,
      },
    });
    if (saved.status !== 200) throw new Error(`saving the bench settings failed: ${saved.text}`);
    await new Promise((r) => setTimeout(r, 1000)); // the engines follow the save

    const targets: [string, number, FuzzProtocol][] = [
      ['thread MEWTOCOL → COM1', t[0]!, 'mewtocol'],
      ['gateway → COM1 MEWTOCOL', t[1]!, 'modbus-tcp'],
      ['thread Modbus → COM2 RTU', t[2]!, 'modbus-tcp'],
      ['gateway → COM2 RTU', t[3]!, 'modbus-tcp'],
      ['thread Modbus → INTERNAL', t[4]!, 'modbus-tcp'],
      ['thread MEWTOCOL → COM4 TCP', t[5]!, 'mewtocol'],
      ['REST/HTTP server', restPort, 'http'],
      ['TLS server part', tlsServerPort, 'tls'],
      ['TLS client part', tlsClientPort, 'tls'],
      ['virtual PLC MEWTOCOL/TCP', mewPort, 'mewtocol'],
      ['virtual PLC Modbus/TCP', mbPort, 'modbus-tcp'],
    ];
    let total = 0;
    const t0 = performance.now();
    for (const [i, [, port, protocol]] of targets.entries()) {
      if (exits) break;
      total += (await fuzzTcp({ host: HOST, port, protocol, rng: prng(SEED + i), frames: FRAMES, concurrency: 8 })).frames;
    }
    const seconds = (performance.now() - t0) / 1000;
    let faults = 0;
    let answers = 'the daemon answered the status requests after the fuzz';
    try {
      const threadsNow = ((await admin.get('/config/port_status')).body as { threads: { faults: number }[] }).threads;
      const tls = await statusDetail(admin, 'tls');
      const rest = (await admin.get('/config/rest_status')).body as { faults: number };
      const sim = (await admin.get('/sim/plcs')).body as { plcs: { faults: number }[] };
      faults = threadsNow.reduce((n, x) => n + x.faults, 0) + tls.client.faults + tls.server.faults + rest.faults + sim.plcs.reduce((n, p) => n + p.faults, 0);
    } catch (e) {
      answers = `status after the fuzz failed: ${(e as Error).message}`;
    }
    rows.push({
      figure: 'fuzz: frames per listener',
      ours: FRAMES,
      note: `${targets.length} listeners, ${total} frames in ${seconds.toFixed(0)} s; seed ${SEED}`,
    });
    rows.push({ figure: 'fuzz: faults contained', ours: faults, note: 'sum of the faults counters of threads, TLS parts, REST server and virtual PLCs' });
    rows.push({ figure: 'fuzz: process exits', ours: exits, note: `must be 0; ${answers}` });
    if (exits) throw new Error(`the daemon exited during the fuzz: ${server.output().slice(-500)}`);
  } finally {
    await server.stop();
    await echo.close();
    await tlsDest.close();
    await rm(dir, { recursive: true, force: true });
  }
}
