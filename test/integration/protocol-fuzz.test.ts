// The protocol fuzzer of issue 15 against every listener of the unit and of the simulator: redirect
// threads in both protocols (MEWTOCOL on a serial MEWTOCOL line, plain Modbus on an RTU line and on
// INTERNAL, Modbus gateways in front of MEWTOCOL and RTU lines), the REST/HTTP server, both TLS bridge
// parts, the console's own listeners (its HTTP port, and on a daemon with the console over HTTPS its
// HTTPS port and the HTTP port that redirects to it), the IEC 104 station's listener (started on its own here until the
// daemon runs it: a started connection of another group must keep getting its events), the virtual PLCs' TCP ports and their serial endpoints. Bounded: a fixed seed and a few
// thousand frames per listener (test/support/protocol-fuzz.ts). After each batch the daemon still
// answers HTTP, a good request on the same listener gets its right answer, and no fault had to be
// contained (every handler copes with what it was sent). FUZZ_SEED / FUZZ_SCALE replay or lengthen it.

import { mkdir, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Iec104Listener, startIec104Listener } from '../../device/iec104/listener.ts';
import { connectionSchema, type IecConnection } from '../../device/model/sections/iec.ts';
import type { Pew } from '../../device/model/sections/pew.ts';
import type { Thread } from '../../device/model/sections/redirect.ts';
import type { Rest } from '../../device/model/sections/rest.ts';
import type { Tls } from '../../device/model/sections/tls.ts';
import { encodeApdu } from '../../device/protocol/iec104/apci.ts';
import { createIec104Framer } from '../../device/protocol/iec104/framer.ts';
import { asciiToBytes, bytesToAscii, encodeRtuFrame, encodeTcpFrame, mewCommandFrames } from '../../device/protocol/index.ts';
import { entry } from '../../device/redirect/testing.ts';
import type { ByteChannel } from '../../hw/types.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { startTcpPlc, type TcpPlc } from '../../sim/plc/tcp.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { makeCertificates, tcpEcho, tlsEcho } from '../support/openssl.ts';
import { freePorts } from '../support/ports.ts';
import { FRAME_OF, type FuzzProtocol, fuzzTcp, prng, type Rng } from '../support/protocol-fuzz.ts';
import { statusDetail } from '../support/service-status.ts';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261126;
const SCALE = process.env.FUZZ_SCALE ? Number(process.env.FUZZ_SCALE) : 1;
const BATCHES = 3;
/** frames per batch and listener: 3 × 700 = 2100 per listener */
const PER_BATCH = Math.round(700 * SCALE);

const FRAMING = { baud: 115200, bits: 8 as const, parity: 'odd' as const, stopbits: 1 as const };
const mewPlc = new VirtualPlc({ model: 'FP-XH' });
const rtuPlc = new VirtualPlc({ model: 'FP-X', station: 1 });
const mewWire = new SerialPlcAttachment(mewPlc, { protocol: 'MEWTOCOL', framing: FRAMING });
const rtuWire = new SerialPlcAttachment(rtuPlc, { protocol: 'MODBUS', framing: FRAMING });
/** lines of their own for fuzzing the serial endpoints straight (the daemon holds the two above) */
const lonePlc = new VirtualPlc({ model: 'FP-XH', station: 1 });
const FAST = { ...FRAMING, baud: 921_600 };
const loneMew = new SerialPlcAttachment(lonePlc, { protocol: 'MEWTOCOL', framing: FAST });
const loneRtu = new SerialPlcAttachment(lonePlc, { protocol: 'MODBUS', framing: FAST });
const tcpPlc = new VirtualPlc({ model: 'FP2' });

let d: TestDaemon;
/** a daemon with the console over HTTPS (port `tlsPort`; `port` answers with redirects) */
let dTls: TestDaemon;
let admin: Client;
let plcTcp: TcpPlc;
let echo: Awaited<ReturnType<typeof tcpEcho>>;
let tlsDest: Awaited<ReturnType<typeof tlsEcho>>;
let ports: number[];
let iec: Iec104Listener;
/** a started connection of the IEC 104 station's first group (from 127.0.0.2); the fuzz comes from 127.0.0.1 into the second */
let iecKept: Socket;
let iecKeptEvents = 0;
let iecKeptVr = 0;
let iecEventNo = 0;

const thread = (port: number, over: Partial<Thread>): Thread => ({
  port,
  mb_translation: false,
  monitoring_cmd: true,
  service: 0,
  clients: 16,
  timeout: 10,
  ip_start: '0.0.0.0',
  ip_end: '0.0.0.0',
  mapping: [],
  ...over,
});

/** Sends `bytes` on a fresh connection and resolves with what came back once `done` says so (or after `ms`). */
function exchange(port: number, bytes: Uint8Array, done: (got: Uint8Array) => boolean, ms = 3000): Promise<Uint8Array> {
  return new Promise((resolve) => {
    const s: Socket = connect({ host: '127.0.0.1', port });
    let got = new Uint8Array(0);
    const end = () => {
      clearTimeout(timer);
      s.destroy();
      resolve(got);
    };
    const timer = setTimeout(end, ms);
    s.on('data', (b: Buffer) => {
      got = new Uint8Array([...got, ...b]);
      if (done(got)) end();
    });
    s.on('error', end);
    s.write(bytes);
  });
}
const mbapDone = (g: Uint8Array) => g.length >= 6 && g.length >= 6 + ((g[4]! << 8) | g[5]!);
const crDone = (g: Uint8Array) => g.includes(13);

/**
 * Waits until the redirect thread on `port` (if it is one) has no client left: a half-closed fuzz
 * connection stays until the thread has answered everything it sent, and a probe asked before that
 * waits behind the fuzz frames in the link's queue (on a busy machine longer than any fixed time).
 */
async function drained(port: number): Promise<void> {
  const clientsOn = async () =>
    ((await admin.get('/config/port_status')).body as { threads: { port: number; clients: number }[] }).threads.find((t) => t.port === port)?.clients ?? 0;
  await expect.poll(clientsOn, { timeout: 60_000, interval: 100 }).toBe(0);
}

/**
 * Asks until `good` holds, for up to 60 s: fuzz frames the PLC ignores may have marked the thread's
 * link down (no answer from its own station twice), and the link comes back on its own probe
 * schedule (doubling up to 10 s between attempts, device/com/link.ts).
 */
async function until(ask: () => Promise<Uint8Array>, good: (got: Uint8Array) => boolean): Promise<Uint8Array> {
  const t0 = Date.now();
  let got = await ask();
  while (!good(got) && Date.now() - t0 < 60_000) {
    await new Promise((r) => setTimeout(r, 250));
    got = await ask();
  }
  return got;
}
/** A good FC3 read of one register: the answer has our transaction id and FC3 with 2 bytes. */
async function probeModbus(port: number, address: number): Promise<void> {
  await drained(port);
  const head = (g: Uint8Array) => [...g.subarray(0, 2), ...g.subarray(7, 9)];
  const got = await until(
    () => exchange(port, encodeTcpFrame({ transaction: 0x4242, unit: 1, pdu: Uint8Array.from([3, address >> 8, address & 0xff, 0, 1]) }), mbapDone),
    (g) => head(g).join() === '66,66,3,2',
  );
  expect(head(got), `Modbus probe on ${port}`).toEqual([0x42, 0x42, 3, 2]);
}
async function probeMew(port: number): Promise<void> {
  await drained(port);
  const want = /^%01\$RD[0-9A-F]{4}[0-9A-F]{2}\r$/;
  const got = await until(
    () => exchange(port, asciiToBytes(mewCommandFrames(1, { cmd: 'RD', area: 'DT', start: 0, count: 1 })[0]!), crDone),
    (g) => want.test(bytesToAscii(g)),
  );
  expect(bytesToAscii(got), `MEWTOCOL probe on ${port}`).toMatch(want);
}
async function probeHttp(port: number): Promise<void> {
  const got = bytesToAscii(
    await exchange(port, asciiToBytes('GET /rest/api/v1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), (g) => bytesToAscii(g).includes('\r\n\r\n')),
  );
  expect(got, `HTTP probe on ${port}`).toMatch(/^HTTP\/1\.1 [1-5]\d\d /);
}
async function probeHttps(port: number): Promise<void> {
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port, path: '/rest/api/v1/authentication', rejectUnauthorized: false, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    req.end();
  });
  expect(status, `HTTPS probe on ${port}`).toBe(401);
}
async function probeRedirect(port: number, tlsPort: number): Promise<void> {
  const got = bytesToAscii(await exchange(port, asciiToBytes('GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'), (g) => bytesToAscii(g).includes('\r\n\r\n')));
  expect(got, `redirect probe on ${port}`).toMatch(new RegExp(`^HTTP/1\\.1 308 [^]*Location: https://127\\.0\\.0\\.1:${tlsPort}/x\r\n`));
}
async function probeTlsServer(port: number): Promise<void> {
  const back = await new Promise<string>((resolve, reject) => {
    const s = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => s.write('ping'));
    s.on('data', (b: Buffer) => {
      resolve(b.toString());
      s.destroy();
    });
    s.on('error', reject);
    setTimeout(() => {
      s.destroy();
      resolve('(no answer)');
    }, 5000);
  });
  expect(back).toBe('ping');
}
async function probeTlsClient(port: number): Promise<void> {
  const got = await exchange(port, asciiToBytes('pong'), (g) => g.length >= 4, 5000);
  expect(bytesToAscii(got)).toBe('pong');
}

const IEC_STARTDT = encodeApdu({ format: 'U', fn: 'startdt_act' });
const IEC_STARTDT_CON = encodeApdu({ format: 'U', fn: 'startdt_con' });
/** A fresh connection gets STARTDT con, and the kept connection of the other group receives an event and acknowledges it. */
async function probeIec104(port: number): Promise<void> {
  const got = await until(
    () => exchange(port, IEC_STARTDT, (g) => g.length >= 6),
    (g) => g.length === 6 && g.every((b, i) => b === IEC_STARTDT_CON[i]),
  );
  expect([...got], `IEC 104 probe on ${port}`).toEqual([...IEC_STARTDT_CON]);
  const before = iecKeptEvents;
  iec.sendEvent(0, Uint8Array.from([1, 1, 3, 0, 1, 0, ++iecEventNo, 0, 0, 1]));
  const t0 = Date.now();
  while (iecKeptEvents === before && Date.now() - t0 < 15_000) await new Promise((r) => setTimeout(r, 20));
  expect(iecKeptEvents, 'the kept IEC 104 connection receives its event').toBe(before + 1);
  iecKept.write(encodeApdu({ format: 'S', nr: iecKeptVr }));
  expect(iec.status().groups[0]!.connections).toMatchObject([{ state: 'started', active: true }]);
}

/** Feeds a serial endpoint frames straight (a wire of its own), then a good request must be answered. */
async function fuzzSerial(wire: SerialPlcAttachment, protocol: FuzzProtocol, r: Rng, frames: number): Promise<void> {
  const ch: ByteChannel = wire.open({ baudRate: 921_600, dataBits: 8, parity: 'odd', stopBits: 1, rtscts: false });
  let got = new Uint8Array(0);
  ch.onData((b: Uint8Array) => {
    got = new Uint8Array([...got, ...b]);
  });
  try {
    for (let i = 0; i < frames; i++) ch.write(FRAME_OF[protocol](r));
    // the good request is sent again every second until its answer shows up behind the fuzz answers
    // still crossing the wire (each at 115200 baud); RTU: a silence first ends the garbage frame
    const good = protocol === 'mewtocol' ? asciiToBytes(`\r${mewCommandFrames(1, { cmd: 'RT' })[0]!}`) : encodeRtuFrame(1, Uint8Array.from([3, 0, 7, 0, 1]));
    const answered = () => (protocol === 'mewtocol' ? bytesToAscii(got).includes('%01$RT') : Buffer.from(got).includes(Buffer.from([1, 3, 2])));
    const t0 = Date.now();
    let sent = 0;
    while (!answered() && Date.now() - t0 < 15_000) {
      if (Date.now() - t0 >= sent * 1000) {
        got = new Uint8Array(0);
        ch.write(good);
        sent++;
      }
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(answered(), `${protocol} endpoint answers a good request after the fuzz`).toBe(true);
  } finally {
    await ch.close();
  }
}

beforeAll(async () => {
  ports = await freePorts(10);
  d = await startTestDaemon({ serial: { virtualPorts: { COM1: (s) => mewWire.open(s), COM2: (s) => rtuWire.open(s) } } });
  dTls = await startTestDaemon({ tls: true });
  admin = await d.admin();
  plcTcp = await startTcpPlc(tcpPlc, { host: '127.0.0.1', mewtocolPort: 0, modbusPort: 0 });
  echo = await tcpEcho();
  const certs = await makeCertificates();
  tlsDest = await tlsEcho(certs);
  const pew = (await admin.get('/config/pew')).body as Pew;
  const iface = (name: string) => pew.interfaces.find((i) => i.name === name)!;
  Object.assign(iface('COM1'), { enabled: true, baudrate: 115200, timeout: 50 });
  Object.assign(iface('COM2'), { enabled: true, baudrate: 115200, protocol: 'MODBUS', timeout: 50 });
  const rest = { ...((await admin.get('/config/pew_api')).body as Rest), api_enable: true, http_server: true, http_port: ports[6]!, use_encryption: false };
  const folder = join(d.dataDir, 'certs', 'pew_tls_server');
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'server.pem'), certs.cert);
  await writeFile(join(folder, 'key.pem'), certs.key);
  const tls: Tls = {
    ...((await admin.get('/config/pew_tls')).body as Tls),
    enable_tlsserver: true,
    tls_server_port: ports[7]!,
    nontls_server_host: '127.0.0.1',
    nontls_destination_port: echo.port,
    tlsservercert: 'server.pem',
    tlsserverkey: 'key.pem',
    tlsserver_certauth: 0,
    enable_tlsclient: true,
    nontls_server_port: ports[8]!,
    tls_server_host: '127.0.0.1',
    tls_destination_port: tlsDest.port,
    ca_verification_tlsclient: false,
  };
  const all = [entry('DT', 0, 199, 'R/W'), entry('WY', 0, 3, 'R/W')];
  const gw = [entry('DT', 0, 199, 'R/W'), entry('WY', 0, 3, 'R/W', 2, 1000)]; // coils from Modbus address 1000
  const com2 = iface('COM2').id;
  const r = await admin.post('/config', {
    pew,
    pew_api: rest,
    pew_tls: tls,
    pew_redirect: {
      threads: [
        thread(ports[0]!, { mapping: all }), // MEWTOCOL, serial MEWTOCOL PLC
        thread(ports[1]!, { mb_translation: true, mapping: gw }), // gateway → MEWTOCOL line
        thread(ports[2]!, { service: com2, mapping: all }), // plain Modbus on an RTU line
        thread(ports[3]!, { service: com2, mb_translation: true, mapping: gw }), // gateway → RTU line
        thread(ports[4]!, { service: 4, mapping: all }), // INTERNAL (Modbus)
      ],
    },
  });
  expect(r.status, r.text).toBe(200);
  await d.ctx.com.settled();
  await d.ctx.redirects.settled();
  await d.ctx.rest.settled();
  await d.ctx.tls.settled();
  const iecEntry = v.getDefaults(connectionSchema) as IecConnection;
  iec = await startIec104Listener({
    settings: { port: ports[9]!, connections: [{ ...iecEntry, ip1: '127.0.0.2', ip2: '127.0.0.2' }, iecEntry] },
    host: '127.0.0.1',
    log: { info: () => undefined, warn: () => undefined },
    handler: { asdu: () => undefined },
  });
  iecKept = connect({ host: '127.0.0.1', port: ports[9]!, localAddress: '127.0.0.2', noDelay: true });
  const framer = createIec104Framer();
  let started = false;
  iecKept.on('data', (b: Buffer) => {
    for (const e of framer.push(b)) {
      if (e.type !== 'apdu') continue;
      if (e.apdu.format === 'U' && e.apdu.fn === 'startdt_con') started = true;
      if (e.apdu.format === 'U' && e.apdu.fn === 'testfr_act') iecKept.write(encodeApdu({ format: 'U', fn: 'testfr_con' })); // t3 of a long run
      if (e.apdu.format === 'I') {
        iecKeptEvents++;
        iecKeptVr++;
      }
    }
  });
  iecKept.write(IEC_STARTDT);
  const t0 = Date.now();
  while (!started && Date.now() - t0 < 15_000) await new Promise((r) => setTimeout(r, 20));
  expect(started, 'the kept IEC 104 connection is started').toBe(true);
}, 60_000);

afterAll(async () => {
  await d?.stop();
  await dTls?.stop();
  await plcTcp?.close();
  await echo?.close();
  await tlsDest?.close();
  iecKept?.destroy();
  await iec?.close();
});

interface Target {
  name: string;
  port: () => number;
  protocol: FuzzProtocol;
  probe(): Promise<void>;
}
const TARGETS: Target[] = [
  { name: 'redirect MEWTOCOL → serial MEWTOCOL', port: () => ports[0]!, protocol: 'mewtocol', probe: () => probeMew(ports[0]!) },
  { name: 'gateway → serial MEWTOCOL', port: () => ports[1]!, protocol: 'modbus-tcp', probe: () => probeModbus(ports[1]!, 100) },
  { name: 'redirect Modbus → RTU line', port: () => ports[2]!, protocol: 'modbus-tcp', probe: () => probeModbus(ports[2]!, 0) },
  { name: 'gateway → RTU line', port: () => ports[3]!, protocol: 'modbus-tcp', probe: () => probeModbus(ports[3]!, 0) },
  { name: 'redirect Modbus → INTERNAL', port: () => ports[4]!, protocol: 'modbus-tcp', probe: () => probeModbus(ports[4]!, 0) },
  { name: 'REST/HTTP server', port: () => ports[6]!, protocol: 'http', probe: () => probeHttp(ports[6]!) },
  { name: 'TLS server part', port: () => ports[7]!, protocol: 'tls', probe: () => probeTlsServer(ports[7]!) },
  { name: 'TLS client part', port: () => ports[8]!, protocol: 'tls', probe: () => probeTlsClient(ports[8]!) },
  { name: 'console HTTP', port: () => d.port, protocol: 'http', probe: () => probeHttp(d.port) },
  { name: 'console HTTPS', port: () => dTls.tlsPort!, protocol: 'tls', probe: () => probeHttps(dTls.tlsPort!) },
  { name: 'console HTTP → HTTPS redirect', port: () => dTls.port, protocol: 'http', probe: () => probeRedirect(dTls.port, dTls.tlsPort!) },
  { name: 'IEC 104 station', port: () => ports[9]!, protocol: 'iec104', probe: () => probeIec104(ports[9]!) },
  { name: 'virtual PLC MEWTOCOL/TCP', port: () => plcTcp.ports.mewtocol, protocol: 'mewtocol', probe: () => probeMew(plcTcp.ports.mewtocol) },
  { name: 'virtual PLC Modbus/TCP', port: () => plcTcp.ports.modbus, protocol: 'modbus-tcp', probe: () => probeModbus(plcTcp.ports.modbus, 0) },
];

async function daemonAnswers(): Promise<void> {
  expect((await admin.get('/rest/api/v1/authentication')).status).toBe(200);
}

async function faults(): Promise<Record<string, number>> {
  const threads = ((await admin.get('/config/port_status')).body as { threads: { port: number; faults: number }[] }).threads;
  const tls = await statusDetail(admin, 'tls');
  // the console's listeners, from the system information /info reads
  const listeners = ((await admin.get('/rest/api/v1')).body as { consoleListeners: { role: string; tls: boolean; faults: number }[] }).consoleListeners;
  const tlsListeners = dTls.ctx.consoleListeners!();
  expect(listeners.map((l) => [l.role, l.tls])).toEqual([['console', false]]);
  expect(tlsListeners.map((l) => [l.role, l.tls])).toEqual([
    ['console', true],
    ['redirect', false],
  ]);
  return {
    'console http': listeners[0]!.faults,
    'console https': tlsListeners[0]!.faults,
    'console redirect': tlsListeners[1]!.faults,
    ...Object.fromEntries(threads.map((t) => [`thread ${t.port}`, t.faults])),
    'tls client': tls.client.faults,
    'tls server': tls.server.faults,
    rest: d.ctx.rest.status().faults,
    iec104: iec.status().faults,
    'plc tcp': plcTcp.faults(),
    'plc serial': loneMew.faults + loneRtu.faults,
  };
}

describe('protocol fuzzer: no frame ends the process or another connection (issue 15)', () => {
  it.each(TARGETS.map((t, i) => [t.name, i] as const))('%s', async (_name, i) => {
    const t = TARGETS[i]!;
    const rng = prng(SEED + i);
    for (let b = 0; b < BATCHES; b++) {
      await fuzzTcp({ port: t.port(), protocol: t.protocol, rng, frames: PER_BATCH });
      await daemonAnswers();
      await t.probe();
    }
  });

  it('serial endpoints of the virtual PLC: MEWTOCOL and Modbus RTU frames straight on the line', async () => {
    const rng = prng(SEED + 100);
    for (let b = 0; b < BATCHES; b++) {
      await fuzzSerial(loneMew, 'mewtocol', rng, PER_BATCH);
      await fuzzSerial(loneRtu, 'modbus-rtu', rng, PER_BATCH);
    }
  });

  it('no fault had to be contained, and the counters are in every status answer', async () => {
    const f = await faults();
    expect(Object.keys(f)).toHaveLength(14);
    expect(f).toEqual(Object.fromEntries(Object.keys(f).map((k) => [k, 0])));
  });
});
