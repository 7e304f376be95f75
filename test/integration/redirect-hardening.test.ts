// Issue 15 against virtual PLCs: the frames that ended the daemon get exception 01 (daemon and
// virtual PLC, Modbus/TCP), answers leave in request order (MEWTOCOL refusals included, the gateway
// too), garbage bytes do not hold a client slot, and a client that half-closes still gets the
// PLC's answer. Debian's mbpoll and the modbus-serial client where they can express it.
import { execFile } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { promisify } from 'node:util';
import modbusSerial from 'modbus-serial';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pew } from '../../device/model/sections/pew.ts';
import type { Thread } from '../../device/model/sections/redirect.ts';
import { asciiToBytes, bytesToAscii, encodeTcpFrame, mewCommandFrames } from '../../device/protocol/index.ts';
import { entry } from '../../device/redirect/testing.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { startTcpPlc, type TcpPlc } from '../../sim/plc/tcp.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { freePorts } from '../support/ports.ts';

const run = promisify(execFile);
const FRAMING = { baud: 115200, bits: 8 as const, parity: 'odd' as const, stopbits: 1 as const };
const plc = new VirtualPlc({ model: 'FP-XH' });
const wire = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: FRAMING });
const tcpPlc = new VirtualPlc({ model: 'FP-X' });

let d: TestDaemon;
let admin: Client;
let plcTcp: TcpPlc;
const P = { mew: 0, gw: 0, few: 0 };

const thread = (port: number, over: Partial<Thread>): Thread => ({
  port,
  mb_translation: false,
  monitoring_cmd: true,
  service: 0,
  clients: 4,
  timeout: 60,
  ip_start: '0.0.0.0',
  ip_end: '0.0.0.0',
  mapping: [],
  ...over,
});

/** Writes `bytes` in one segment (then FIN when `halfClose`); resolves with everything received until `enough` or `ms`. */
function talk(port: number, bytes: Uint8Array, enough: (got: Uint8Array) => boolean, opts: { ms?: number; halfClose?: boolean } = {}): Promise<Uint8Array> {
  return new Promise((resolve) => {
    const s: Socket = connect({ host: '127.0.0.1', port, allowHalfOpen: true });
    let got = new Uint8Array(0);
    const end = () => {
      clearTimeout(timer);
      s.destroy();
      resolve(got);
    };
    const timer = setTimeout(end, opts.ms ?? 3000);
    s.on('data', (b: Buffer) => {
      got = new Uint8Array([...got, ...b]);
      if (enough(got)) end();
    });
    s.on('error', end);
    s.on('close', end);
    s.write(bytes);
    if (opts.halfClose) s.end();
  });
}
const frames = (got: Uint8Array) => bytesToAscii(got).split('\r').filter(Boolean);
const mbapFrames = (got: Uint8Array): Uint8Array[] => {
  const out: Uint8Array[] = [];
  for (let i = 0; i + 6 <= got.length; ) {
    const n = 6 + ((got[i + 4]! << 8) | got[i + 5]!);
    if (i + n > got.length) break;
    out.push(got.subarray(i, i + n));
    i += n;
  }
  return out;
};
const ISSUE_FRAME = (fc: number) => Uint8Array.from([0, 1, 0, 0, 0, 2, 1, fc]);

beforeAll(async () => {
  d = await startTestDaemon({ serial: { virtualPorts: { COM1: (s) => wire.open(s) } } });
  admin = await d.admin();
  plcTcp = await startTcpPlc(tcpPlc, { host: '127.0.0.1', mewtocolPort: 0, modbusPort: 0 });
  const pew = (await admin.get('/config/pew')).body as Pew;
  Object.assign(pew.interfaces[0]!, { enabled: true, baudrate: 115200, timeout: 300 });
  [P.mew, P.gw, P.few] = (await freePorts(3)) as [number, number, number];
  const r = await admin.post('/config', {
    pew,
    pew_redirect: {
      threads: [
        thread(P.mew, { mapping: [entry('DT', 0, 99, 'RO'), entry('DT', 100, 199, 'R/W')] }),
        thread(P.gw, { mb_translation: true, mapping: [entry('DT', 0, 99, 'R/W')] }),
        thread(P.few, { clients: 2, timeout: 1, mapping: [entry('DT', 0, 9, 'RO')], mb_translation: true }),
      ],
    },
  });
  expect(r.status, r.text).toBe(200);
  await d.ctx.com.settled();
  await d.ctx.redirects.settled();
});

afterAll(async () => {
  await d?.stop();
  await plcTcp?.close();
});

describe('function codes 0 and 0x80-0xFF (the frames that ended the daemon)', () => {
  it.each([0x00, 0x80, 0x81, 0xc3, 0xff])('FC 0x%s: exception 01 from the gateway and from the virtual PLC; both serve on', async (fc) => {
    for (const port of [P.gw, plcTcp.ports.modbus]) {
      const got = await talk(port, ISSUE_FRAME(fc), (g) => g.length >= 9);
      expect([...got], `port ${port}`).toEqual([0, 1, 0, 0, 0, 3, 1, (fc & 0x7f) | 0x80, 1]);
    }
    const status = (await admin.get('/config/port_status')).body.threads[1];
    expect(status.faults).toBe(0);
    plc.memory.writeWords('DT', 5, [4242]);
    const mb = await run('mbpoll', ['-m', 'tcp', '-p', String(P.gw), '-a', '1', '-0', '-1', '-t', '4', '-r', '5', '127.0.0.1'], { timeout: 10_000 });
    expect(mb.stdout).toMatch(/\[5\]:\s+4242/);
  });
});

describe('reply order', () => {
  it('MEWTOCOL: an RD and a refused WD in one segment are answered RD first, then !65', async () => {
    plc.memory.writeWords('DT', 10, [0x1234]);
    const rd = mewCommandFrames(1, { cmd: 'RD', area: 'DT', start: 10, count: 1 })[0]!;
    const wd = mewCommandFrames(1, { cmd: 'WD', area: 'DT', start: 10, words: [1] })[0]!; // DT 0-99 is read-only
    const got = frames(await talk(P.mew, asciiToBytes(rd + wd + rd), (g) => frames(g).length >= 3));
    expect(got).toHaveLength(3);
    expect(got[0]).toMatch(/^%01\$RD3412/);
    expect(got[1]).toMatch(/^%01!65/);
    expect(got[2]).toMatch(/^%01\$RD3412/);
    expect(plc.memory.readWords('DT', 10, 1)).toEqual([0x1234]);
  });

  it('gateway: a pipelined read of the PLC and a refused read are answered in request order', async () => {
    const read = (tid: number, address: number) => encodeTcpFrame({ transaction: tid, unit: 1, pdu: Uint8Array.from([3, 0, address, 0, 1]) });
    const got = mbapFrames(
      await talk(
        P.gw,
        Uint8Array.from([...read(1, 5), ...read(2, 200 & 0xff), ...ISSUE_FRAME(0x80).map((b, i) => (i === 1 ? 3 : b)), ...read(4, 6)]),
        (g) => mbapFrames(g).length >= 4,
      ),
    );
    expect(got.map((f) => f[1])).toEqual([1, 2, 3, 4]);
    expect([...got[1]!.subarray(7)]).toEqual([0x83, 2]); // DT 200 is not mapped
    expect([...got[2]!.subarray(7)]).toEqual([0x80, 1]);
    expect(got[3]![7]).toBe(3);
  });
});

describe('client slots', () => {
  it('clients that only dribble garbage are closed after the timeout; then a modbus-serial client gets its answer', async () => {
    const dribblers = [0, 1].map(() => connect({ host: '127.0.0.1', port: P.few }));
    const closedAt = dribblers.map(
      (s) =>
        new Promise<number>((r) => {
          s.on('error', () => undefined);
          s.once('close', () => r(Date.now()));
        }),
    );
    await Promise.all(dribblers.map((s) => new Promise((r) => s.once('connect', r))));
    const t0 = Date.now();
    const timer = setInterval(() => {
      for (const s of dribblers) if (!s.destroyed) s.write(Buffer.from([0x42]));
    }, 200);
    const times = await Promise.all(closedAt);
    clearInterval(timer);
    for (const t of times) {
      expect(t - t0).toBeGreaterThanOrEqual(800); // timeout 1 s
      expect(t - t0).toBeLessThan(4000);
    }
    plc.memory.writeWords('DT', 3, [77]);
    const c = new modbusSerial.default();
    await c.connectTCP('127.0.0.1', { port: P.few });
    c.setID(1);
    c.setTimeout(3000);
    try {
      expect((await c.readHoldingRegisters(3, 1)).data).toEqual([77]);
    } finally {
      c.close(() => undefined);
    }
  });
});

describe('half-close', () => {
  it('a client that sends its request and FIN still gets the PLC answer (thread and virtual PLC)', async () => {
    plc.memory.writeWords('DT', 20, [0xbeef]);
    const rd = asciiToBytes(mewCommandFrames(1, { cmd: 'RD', area: 'DT', start: 20, count: 1 })[0]!);
    expect(bytesToAscii(await talk(P.mew, rd, (g) => g.includes(13), { halfClose: true }))).toMatch(/^%01\$RDEFBE/);
    const gw = encodeTcpFrame({ transaction: 9, unit: 1, pdu: Uint8Array.from([3, 0, 20, 0, 1]) });
    expect([...(await talk(P.gw, gw, (g) => g.length >= 11, { halfClose: true })).subarray(7)]).toEqual([3, 2, 0xbe, 0xef]);
    tcpPlc.memory.writeWords('DT', 20, [0x0102]);
    expect([...(await talk(plcTcp.ports.modbus, gw, (g) => g.length >= 11, { halfClose: true })).subarray(7)]).toEqual([3, 2, 1, 2]);
  });
});

describe('MEWTOCOL details: the thread and the virtual PLC answer alike (docs/redirect.md)', () => {
  const long = `%01#RDD${'0'.repeat(150)}**\r`; // over the 118 characters of a `%` frame
  it.each([
    ['a % frame over 118 characters: !27 frame over', long, /^%01!27/],
    ['a frame without #: !43 (a continuation frame without its first frame)', '%01RDD0000000001**\r', /^%01!43/],
    ['a stray frame request %01**&: !43 procedure error', '%01**&\r', /^%01!43/],
  ])('%s', async (_name, frame, want) => {
    for (const port of [P.mew, plcTcp.ports.mewtocol]) {
      const got = bytesToAscii(await talk(port, asciiToBytes(frame), (g) => g.includes(13)));
      expect(got, `port ${port}`).toMatch(want);
    }
  });
});
