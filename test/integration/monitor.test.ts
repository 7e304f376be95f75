// The traffic monitor against a virtual PLC on a serial wire and a redirect thread with
// restrictions: a PLC test's frames decoded with their round trip, an injected PLC error decoded
// with its table key, a refused redirect request shown as refused, filters, bad input, the bound
// of the ring, the capture ending by itself, and the pcap download read by tshark.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorAnswer, MonitorRecord } from '../../device/model/monitor.ts';
import { connectionSchema, type Iec, type IecConnection, iecSchema } from '../../device/model/sections/iec.ts';
import type { Pew } from '../../device/model/sections/pew.ts';
import type { Redirect } from '../../device/model/sections/redirect.ts';
import { asciiToBytes, bytesToAscii, encodeTcpFrame, mewCommandFrames } from '../../device/protocol/index.ts';
import { entry } from '../../device/redirect/testing.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { anyText } from '../support/any-text.ts';
import { type Client, startTestDaemon, type TestDaemon, USER } from '../support/daemon.ts';
import { ControlStation } from '../support/iec104-control.ts';
import { freePorts } from '../support/ports.ts';

const run = promisify(execFile);
const FRAMING = { baud: 115200, bits: 8 as const, parity: 'odd' as const, stopbits: 1 as const };
const plc = new VirtualPlc({ model: 'FP-XH' });
const wire = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: FRAMING });
/** a capture's minute in this test: the capture that ends by itself ends within a second */
const MINUTE_MS = 400;

let d: TestDaemon;
let admin: Client;
let user: Client;
let mewPort = 0;
let gwPort = 0;

/** Sends one request frame to a thread and resolves with the bytes of the first whole answer. */
function ask(port: number, frame: Uint8Array, whole: (got: number[]) => boolean): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const s: Socket = connect({ host: '127.0.0.1', port });
    const got: number[] = [];
    s.on('data', (b) => {
      got.push(...b);
      if (whole(got)) {
        s.destroy();
        resolve(new Uint8Array(got));
      }
    });
    s.on('error', reject);
    s.write(frame);
  });
}

/** A download as the browser makes it: the session's cookie, the bytes as they came. */
const download = (query: string) => fetch(`${admin.base}/config/monitor/download?${query}`, { headers: { cookie: admin.cookie } });

async function read(query = ''): Promise<MonitorAnswer> {
  const r = await admin.get(`/config/monitor${query}`);
  expect(r.status, r.text).toBe(200);
  return r.body as MonitorAnswer;
}

/** Every record after `after` once `until` holds for them (polled: waits for the condition, not a time). */
async function recordsUntil(after: number, until: (rs: MonitorRecord[]) => boolean, query = ''): Promise<MonitorRecord[]> {
  let got: MonitorRecord[] = [];
  await expect
    .poll(
      async () => {
        got = (await read(`?after=${after}${query}`)).records;
        return until(got);
      },
      { timeout: 20_000, interval: 100 },
    )
    .toBe(true);
  return got;
}

beforeAll(async () => {
  d = await startTestDaemon({ serial: { virtualPorts: { COM1: (s) => wire.open(s) } }, captureMinuteMs: MINUTE_MS, healthIntervalMs: 250 });
  admin = await d.admin();
  user = await d.user();
  const pew = (await admin.get('/config/pew')).body as Pew;
  // an interface named by its user: the monitor still names the link by its connector
  Object.assign(pew.interfaces[0]!, { enabled: true, baudrate: 115200, timeout: 2000, name: 'Boiler' });
  [mewPort, gwPort] = (await freePorts(2)) as [number, number];
  const base = { monitoring_cmd: true, service: 0 as const, clients: 4, timeout: 60, ip_start: '0.0.0.0', ip_end: '0.0.0.0' };
  const redirect: Redirect = {
    threads: [
      { ...base, port: mewPort, mb_translation: false, mapping: [entry('DT', 0, 99, 'RO')] },
      { ...base, port: gwPort, mb_translation: true, mapping: [entry('DT', 0, 99, 'RO', 0, 0)] },
    ],
  };
  const r = await admin.post('/config', { pew, pew_redirect: redirect });
  expect(r.status, r.text).toBe(200);
  await d.ctx.com.settled();
  await d.ctx.redirects.settled();
  for (let i = 0; i < 300 && d.ctx.com.links.get(0)?.status().state !== 'up'; i++) await new Promise((r) => setTimeout(r, 50));
});

afterAll(async () => {
  await d?.stop();
});

describe('the traffic monitor', () => {
  it('lists the sources; nothing is captured while nobody captures', async () => {
    await admin.post('/config/monitor/stop', {});
    const a = await read();
    expect(a.sources).toEqual(
      expect.arrayContaining([
        { id: 'COM1', kind: 'link', protocol: 'mewtocol', active: true },
        { id: `port:${mewPort}`, kind: 'thread', protocol: 'mewtocol', active: true },
        { id: `port:${gwPort}`, kind: 'thread', protocol: 'modbus_tcp', active: true },
      ]),
    );
    const before = d.ctx.capture.held().records;
    expect((await admin.post('/config/plctest', { id: 0 })).body).toMatchObject({ ok: true });
    expect(d.ctx.capture.held().records).toBe(before);
  });

  it('a PLC test shows its frames decoded, with the round trip; at level raw with the bytes', async () => {
    const start = await user.post('/config/monitor/start', { sources: ['COM1'], level: 'raw', minutes: 5 });
    expect(start.status, start.text).toBe(200);
    expect(start.body).toMatchObject({ on: true, sources: ['COM1'], level: 'raw', by: USER.username });
    const after = (await read()).next - 1; // the capture_started event and what follows
    expect((await admin.post('/config/plctest', { id: 0 })).body).toMatchObject({ ok: true });
    const rs = await recordsUntil(after, (r) => r.some((x) => x.dir === 'in' && x.decoded?.command === 'RT'));
    expect(rs[0]).toMatchObject({ kind: 'event', event: 'capture_started', source: 'COM1', args: { level: 'raw', minutes: 5 } });
    const req = rs.find((x) => x.dir === 'out' && x.decoded?.command === 'RT')!;
    expect(req).toMatchObject({ source: 'COM1', protocol: 'mewtocol', decoded: { what: 'request', command: 'RT', station: 'EE' } });
    expect(req.text).toMatch(/^%EE#RT[0-9A-F*]{2}⏎$/);
    expect(req.hex).toMatch(/^25 45 45 23 52 54/);
    const ans = rs.find((x) => x.dir === 'in' && x.decoded?.command === 'RT')!;
    expect(ans).toMatchObject({ decoded: { what: 'answer' } });
    expect(ans.text).toMatch(/^%EE\$RT/);
    expect(ans.rttMs).toBeGreaterThanOrEqual(0);
  });

  it('a read answer shows its values against its request; an injected PLC error shows the code and its table key', async () => {
    const after = (await read()).next;
    plc.memory.writeWords('DT', 10, [0x1234, 7]);
    expect(await d.ctx.com.links.get(0)!.readWords('DT', 10, 2)).toEqual([0x1234, 7]);
    let rs = await recordsUntil(after, (r) => r.some((x) => x.dir === 'in' && x.decoded?.command === 'RD'));
    expect(rs.find((x) => x.dir === 'out')).toMatchObject({ decoded: { what: 'request', command: 'RD', area: 'DT', start: 10, count: 2 } });
    expect(rs.find((x) => x.dir === 'in')).toMatchObject({ decoded: { what: 'answer', command: 'RD', area: 'DT', start: 10, values: [0x1234, 7] } });

    const next = (await read()).next;
    plc.setFault({ kind: 'error', code: 61, count: 1 });
    await expect(d.ctx.com.links.get(0)!.readWords('DT', 10, 1)).rejects.toMatchObject({ reason: 'plc_error', code: 61 });
    rs = await recordsUntil(next, (r) => r.some((x) => x.decoded?.what === 'error'), '&errors=1');
    expect(rs).toEqual([
      expect.objectContaining({ dir: 'in', decoded: expect.objectContaining({ what: 'error', error: { table: 'mewtocol', code: 61, key: 'data_error' } }) }),
    ]);
  });

  it('a redirect request refused by a restriction shows as refused, its answer decoded; the gateway too', async () => {
    const start = await admin.post('/config/monitor/start', { sources: [`port:${mewPort}`, `port:${gwPort}`], level: 'frames' });
    expect(start.status, start.text).toBe(200);
    const after = (await read()).next;
    const write = mewCommandFrames('EE', { cmd: 'WD', area: 'DT', start: 5, words: [1] })[0]!;
    expect(bytesToAscii(await ask(mewPort, asciiToBytes(write), (g) => g.at(-1) === 13))).toMatch(/^%EE!65/);
    const fc6 = encodeTcpFrame({ transaction: 77, unit: 1, pdu: Uint8Array.of(6, 0, 5, 0, 1) });
    const gw = await ask(gwPort, fc6, (g) => g.length >= 9);
    expect([...gw.slice(7)]).toEqual([0x86, 2]);
    const rs = await recordsUntil(
      after,
      (r) => r.filter((x) => x.event === 'request_refused').length === 2 && r.some((x) => x.decoded?.error?.table === 'modbus'),
    );
    const mewRefusal = rs.find((x) => x.event === 'request_refused' && x.source === `port:${mewPort}`)!;
    expect(mewRefusal.args).toEqual({ code: 65 });
    expect(mewRefusal.peer).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(rs.find((x) => x.source === `port:${mewPort}` && x.dir === 'in')).toMatchObject({
      decoded: { what: 'request', command: 'WD', area: 'DT', start: 5, values: [1] },
    });
    expect(rs.find((x) => x.source === `port:${mewPort}` && x.dir === 'out')).toMatchObject({
      decoded: { what: 'error', error: { code: 65, key: 'protect_error' } },
    });
    expect(rs.find((x) => x.source === `port:${gwPort}` && x.dir === 'in')).toMatchObject({
      decoded: { what: 'request', command: 'FC6', id: 77, start: 5, values: [1] },
    });
    expect(rs.find((x) => x.source === `port:${gwPort}` && x.dir === 'out')).toMatchObject({
      decoded: { what: 'error', command: 'FC6', error: { table: 'modbus', code: 2, key: 'illegal_data_address' } },
    });
    expect(rs.some((x) => x.event === 'client_connected')).toBe(true);
    // filters: one source, one direction, one command
    const only = (await read(`?after=${after}&source=port:${gwPort}&dir=in`)).records;
    expect(only.length).toBeGreaterThan(0);
    expect(only.every((x) => x.source === `port:${gwPort}` && x.dir === 'in')).toBe(true);
    const wd = (await read(`?after=${after}&command=wd`)).records;
    expect(wd.map((x) => x.decoded?.command)).toEqual(['WD']);
  });

  it('the pcap download opens in tshark with the frames intact and Modbus/TCP decoded', async () => {
    const r = await download(`format=pcap&source=port:${gwPort}`);
    expect(r.status).toBe(200);
    const file = join(tmpdir(), `capture-${process.pid}.pcap`);
    await writeFile(file, Buffer.from(await r.arrayBuffer()));
    // the command of docs/monitor.md: the thread's port is no Modbus/TCP port Wireshark knows, so it is named
    const { stdout } = await run('tshark', [
      '-r',
      file,
      '-d',
      `tcp.port==${gwPort},mbtcp`,
      '-T',
      'fields',
      '-e',
      'mbtcp.trans_id',
      '-e',
      'modbus.func_code',
      '-e',
      'modbus.exception_code',
    ]);
    const rows = stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows).toContainEqual(['77', '6', '']);
    expect(rows).toContainEqual(['77', '6', '2']); // the exception answer: function 6, exception code 2
    // a serial line's frames: the payloads as they went over the wire
    const com = await download('format=pcap&source=COM1');
    const comFile = join(tmpdir(), `capture-com-${process.pid}.pcap`);
    await writeFile(comFile, Buffer.from(await com.arrayBuffer()));
    const payloads = (await run('tshark', ['-r', comFile, '-T', 'fields', '-e', 'tcp.payload'])).stdout.trim().split('\n');
    const ascii = payloads.map((h) => Buffer.from(h.replace(/:/g, ''), 'hex').toString('latin1'));
    expect(ascii).toContain(d.ctx.capture.read(0, 100_000).records.find((x) => x.source === 'COM1' && x.kind === 'frame')!.data);
    expect(ascii.some((a) => /^%EE#RT[0-9A-F*]{2}\r$/.test(a))).toBe(true);
    const text = await download('format=text');
    expect(text.status).toBe(200);
    const body = await text.text();
    expect(body.split('\n')[0]).toBe('time\tsource\tdirection\tpeer\tmeaning\tround trip\ttext\thex');
    expect(body).toMatch(/\tevent\t127\.0\.0\.1:\d+\trequest_refused \{"code":65\}/);
    expect(body).toMatch(/error FC6 station 1 .*error 2 illegal_data_address/);
  });

  it('the IEC 104 station: the APCI of each frame decoded; the pcap read by tshark as IEC 104', async () => {
    const iecPort = (await freePorts(1))[0]!;
    const saved = await admin.post('/config/pew_60870', {
      ...(v.getDefaults(iecSchema) as Iec),
      enable_60870: true,
      port: iecPort,
      connections: [
        {
          ...(v.getDefaults(connectionSchema) as IecConnection),
          area: 'DT',
          plc_buffer_rbm: 2000,
          plc_buffer_m: 2010,
          plc_buffer_m_depth: 501,
          plc_buffer_c: 2600,
        },
      ],
    });
    expect(saved.status, saved.text).toBe(200);
    await d.ctx.iec104.settled();
    expect((await admin.post('/config/monitor/start', { sources: ['iec104'], level: 'frames' })).status).toBe(200);
    const after = (await read()).next;
    const station = await ControlStation.open(iecPort);
    try {
      station.send({ format: 'U', fn: 'testfr_act' });
      const rs = await recordsUntil(after, (r) => r.some((x) => x.dir === 'out' && x.decoded?.iec?.u === 'testfr_con'), '&source=iec104');
      expect(rs.find((x) => x.dir === 'in')).toMatchObject({ protocol: 'iec104', decoded: { what: 'iec', command: 'U', iec: { u: 'testfr_act' } } });
      expect(rs.find((x) => x.event === 'client_connected')!.peer).toMatch(/^127\.0\.0\.1:\d+$/);
    } finally {
      station.close();
    }
    const r = await download('format=pcap&source=iec104');
    const file = join(tmpdir(), `capture-iec-${process.pid}.pcap`);
    await writeFile(file, Buffer.from(await r.arrayBuffer()));
    const { stdout } = await run('tshark', ['-r', file, '-d', `tcp.port==${iecPort},iec60870_104`]);
    // Wireshark's own dissector: the control station's TESTFR act to the unit, the unit's con back
    expect(stdout).toMatch(/127\.0\.0\.1 → 10\.0\.0\.1\s+IEC 60870-5-104 \d+ <- U \(TESTFR act\)/);
    expect(stdout).toMatch(/10\.0\.0\.1 → 127\.0\.0\.1\s+IEC 60870-5-104 \d+ -> U \(TESTFR con\)/);
    await admin.post('/config/pew_60870', { ...(v.getDefaults(iecSchema) as Iec), enable_60870: false });
  });

  it('refuses malformed requests with the field and what is allowed, and sources the unit does not have', async () => {
    const bad = [
      { sources: [], level: 'raw' },
      { sources: ['COM9'], level: 'raw' },
      { sources: ['COM1'], level: 'loud' },
      { sources: ['COM1'], level: 'raw', minutes: 61 },
      { sources: ['COM1'], level: 'raw', extra: 1 },
    ];
    for (const body of bad) {
      const r = await admin.post('/config/monitor/start', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('invalid_input');
    }
    const unknown = await admin.post('/config/monitor/start', { sources: ['COM3'], level: 'raw' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.issues[0]).toMatchObject({ path: 'sources', code: 'invalid_value' });
    for (const q of ['?after=-1', '?after=x', '?max=0', '?max=501', '?dir=up', '?command=R%20D', '?source=COM9', '?errors=2', '?other=1']) {
      const r = await admin.get(`/config/monitor${q}`);
      expect(r.status, q).toBe(400);
    }
    expect((await admin.get('/config/monitor/download?format=zip')).status).toBe(400);
    // any query at all: answered 200 or refused 400, never a fault
    const samples = fc.sample(
      fc.dictionary(fc.constantFrom('after', 'max', 'source', 'dir', 'command', 'errors', 'format', 'x'), anyText(12), {
        maxKeys: 4,
      }),
      { numRuns: 60, seed: 7 },
    );
    for (const q of samples) {
      const qs = new URLSearchParams(q).toString();
      for (const path of ['/config/monitor', '/config/monitor/download']) {
        const r = await admin.get(`${path}?${qs}`);
        expect([200, 400], `${path}?${qs}`).toContain(r.status);
      }
    }
  });

  it("the thread counters' reset: every thread or one, audited; refused for the user role and for a thread that is not there", async () => {
    const status = async () => (await admin.get('/config/port_status')).body.threads as { port: number; requests: number; refused: number; since: number }[];
    const before = await status();
    expect(before.find((t) => t.port === mewPort)!.requests).toBeGreaterThan(0);
    expect((await user.post('/config/port_status/reset', {})).status).toBe(403);
    expect((await admin.post('/config/port_status/reset', { index: 7 })).status).toBe(400);
    expect((await status()).find((t) => t.port === mewPort)!.requests).toBe(before.find((t) => t.port === mewPort)!.requests);
    const t0 = Date.now();
    const r = await admin.post('/config/port_status/reset', { index: 0 });
    expect(r.status, r.text).toBe(200);
    const after = r.body.threads as typeof before;
    expect(after[0]).toMatchObject({ port: mewPort, requests: 0, refused: 0, errors: 0, bytesIn: 0, bytesOut: 0 });
    expect(after[0]!.since).toBeGreaterThanOrEqual(t0);
    expect(after[1]!.requests).toBe(before[1]!.requests); // the other thread keeps its counts
    const entries = (await admin.get('/config/audit?size=20')).body.entries as { action: string; detail?: unknown }[];
    expect(entries).toContainEqual(expect.objectContaining({ action: 'thread_counters_reset', detail: { ports: [mewPort] } }));
  });

  it('the health history samples the links, the volumes and the daemon', async () => {
    const link = d.ctx.com.links.get(0)!;
    let seen: { links: Record<string, { requests: number; busy: number }>; volumes: Record<string, { free: number; total: number }>; rss: number } | undefined;
    await expect
      .poll(
        async () => {
          await link.readWords('DT', 0, 4);
          const h = await user.get('/config/health');
          expect(h.status).toBe(200);
          expect(h.body.intervalMs).toBe(250);
          seen = h.body.samples.at(-1);
          // busy time is counted in whole ms: a sample taken in the ms its request started has none yet
          return (seen?.links.COM1?.requests ?? 0) > 0 && (seen?.links.COM1?.busy ?? 0) > 0;
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBe(true);
    expect(seen!.links.COM1!.busy).toBeLessThanOrEqual(1);
    expect(seen!.volumes.internal!.free).toBeGreaterThan(0);
    expect(seen!.volumes.internal!.free).toBeLessThanOrEqual(seen!.volumes.internal!.total);
    expect(seen!.rss).toBeGreaterThan(10 * 1024 * 1024);
  });

  it('ends by itself after its time, with an event that says so', async () => {
    const r = await admin.post('/config/monitor/start', { sources: ['COM1'], level: 'events', minutes: 1 });
    expect(r.body).toMatchObject({ on: true, level: 'events' });
    expect(r.body.until - r.body.startedAt).toBe(MINUTE_MS);
    await expect.poll(async () => (await read()).capture, { timeout: 20_000, interval: 100 }).toMatchObject({ on: false, ended: 'timeout' });
    const rs = (await read('?after=0&source=COM1')).records;
    expect(rs.at(-1)).toMatchObject({ kind: 'event', event: 'capture_stopped', args: { why: 'timeout' } });
    // off: the link's traffic goes on, nothing more is kept
    const held = d.ctx.capture.held().records;
    await d.ctx.com.links.get(0)!.readWords('DT', 0, 1);
    expect(d.ctx.capture.held().records).toBe(held);
  });
});
