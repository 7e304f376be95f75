// Redirect threads end to end: clients on TCP, the daemon's thread, the link, a virtual PLC on a
// serial wire with real timing. Allowed MEWTOCOL commands reach the PLC, refused ones never do (its
// request counter proves it); the Modbus gateway with Debian mbpoll; limits and malformed frames.
import { execFile } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pew } from '../../device/model/sections/pew.ts';
import type { Redirect, Thread } from '../../device/model/sections/redirect.ts';
import { asciiToBytes, bytesToAscii, type MewRequest, mewCommandFrames } from '../../device/protocol/index.ts';
import { entry } from '../../device/redirect/testing.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { freePorts } from '../support/ports.ts';

const run = promisify(execFile);
const FRAMING = { baud: 115200, bits: 8 as const, parity: 'odd' as const, stopbits: 1 as const };
const plc = new VirtualPlc({ model: 'FP-XH' });
const wire = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: FRAMING });

let d: TestDaemon;
let admin: Client;
const PORTS = { mew: 0, gw: 0, strict: 0, few: 0 };

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

/** One request frame, the first answer frame (or '' after `ms`). */
function ask(port: number, frame: string | Uint8Array, ms = 1500): Promise<Uint8Array> {
  return new Promise((resolve) => {
    const s: Socket = connect({ host: '127.0.0.1', port });
    const got: number[] = [];
    const timer = setTimeout(() => {
      s.destroy();
      resolve(new Uint8Array(got));
    }, ms);
    s.on('data', (b) => {
      got.push(...b);
      const text = bytesToAscii(new Uint8Array(got));
      if (typeof frame === 'string' ? text.endsWith('\r') : got.length >= 9 && got.length >= 6 + ((got[4]! << 8) | got[5]!)) {
        clearTimeout(timer);
        s.destroy();
        resolve(new Uint8Array(got));
      }
    });
    s.on('error', () => {
      clearTimeout(timer);
      resolve(new Uint8Array(got));
    });
    s.write(typeof frame === 'string' ? asciiToBytes(frame) : frame);
  });
}
const mew = async (port: number, req: MewRequest) => bytesToAscii(await ask(port, mewCommandFrames('EE', req)[0]!));

beforeAll(async () => {
  d = await startTestDaemon({ serial: { virtualPorts: { COM1: (s) => wire.open(s) } } });
  admin = await d.admin();
  const pew = (await admin.get('/config/pew')).body as Pew;
  Object.assign(pew.interfaces[0]!, { enabled: true, baudrate: 115200, timeout: 300 });
  [PORTS.mew, PORTS.gw, PORTS.strict, PORTS.few] = (await freePorts(4)) as [number, number, number, number];
  const redirect: Redirect = {
    threads: [
      thread(PORTS.mew, { mapping: [entry('DT', 0, 99, 'RO'), entry('DT', 100, 199, 'R/W'), entry('DT', 150, 159, 'BLK'), entry('WY', 0, 3, 'R/W')] }),
      thread(PORTS.gw, {
        mb_translation: true,
        mapping: [entry('DT', 100, 199, 'R/W', 0, 0), entry('DT', 0, 9, 'RO', 0, 500), entry('WR', 0, 9, 'R/W', 2, 1000), entry('DT', 150, 159, 'BLK', 0, 50)],
      }),
      thread(PORTS.strict, { monitoring_cmd: false, mapping: [entry('DT', 0, 9, 'RO')], ip_start: '10.0.0.1', ip_end: '10.0.0.9' }),
      thread(PORTS.few, { clients: 1, timeout: 1, mapping: [entry('DT', 0, 9, 'RO')] }),
    ],
  };
  const r = await admin.post('/config', { pew, pew_redirect: redirect });
  expect(r.status, r.text).toBe(200);
  await d.ctx.com.settled();
  await d.ctx.redirects.settled();
});

afterAll(async () => {
  await d?.stop();
});

describe('MEWTOCOL through a redirect thread', () => {
  it('allowed reads and writes reach the PLC; refused ones get !65 and never arrive', async () => {
    plc.memory.writeWords('DT', 10, [0x1234]);
    expect(await mew(PORTS.mew, { cmd: 'RD', area: 'DT', start: 10, count: 1 })).toMatch(/^%EE\$RD3412[0-9A-F]{2}\r$/);
    const before = plc.requests;
    expect(await mew(PORTS.mew, { cmd: 'WD', area: 'DT', start: 10, words: [1] })).toMatch(/^%EE!65/); // RO
    expect(await mew(PORTS.mew, { cmd: 'RD', area: 'DT', start: 155, count: 1 })).toMatch(/^%EE!65/); // BLK wins
    expect(await mew(PORTS.mew, { cmd: 'RD', area: 'DT', start: 195, count: 10 })).toMatch(/^%EE!65/); // runs past the grant
    expect(await mew(PORTS.mew, { cmd: 'RD', area: 'LD', start: 0, count: 1 })).toMatch(/^%EE!65/); // no entry
    expect(await mew(PORTS.mew, { cmd: 'WCS', contact: { area: 'R', word: 0, bit: 1 }, value: true })).toMatch(/^%EE!65/);
    expect(plc.requests).toBe(before);
    expect(plc.memory.readWords('DT', 10, 1)).toEqual([0x1234]);
    expect(await mew(PORTS.mew, { cmd: 'WD', area: 'DT', start: 120, words: [7, 8] })).toMatch(/^%EE\$WD/);
    expect(plc.memory.readWords('DT', 120, 2)).toEqual([7, 8]);
    expect(await mew(PORTS.mew, { cmd: 'WCS', contact: { area: 'Y', word: 2, bit: 5 }, value: true })).toMatch(/^%EE\$WC/);
    expect(plc.memory.readBits('Y', 37, 1)).toEqual([true]);
    expect(plc.requests).toBe(before + 2);
    const s = (await admin.get('/config/port_status')).body.threads[0];
    expect(s).toMatchObject({ port: PORTS.mew, listening: true });
    expect(s.refused).toBeGreaterThanOrEqual(5);
  });

  it('status commands pass with monitoring_cmd and are refused without; a bad BCC gets !40 and the thread lives on', async () => {
    expect(await mew(PORTS.mew, { cmd: 'RT' })).toMatch(/^%EE\$RT20/);
    expect(bytesToAscii(await ask(PORTS.mew, '%EE#RT01\r'))).toMatch(/^%EE!40/);
    expect(await mew(PORTS.mew, { cmd: 'RD', area: 'DT', start: 0, count: 1 })).toMatch(/^%EE\$RD/);
  });

  it('a client outside the address range is refused at once', async () => {
    const got = await ask(PORTS.strict, mewCommandFrames('EE', { cmd: 'RT' })[0]!, 800);
    expect(got.length).toBe(0);
    expect((await admin.get('/config/port_status')).body.threads[2].refused).toBeGreaterThanOrEqual(1);
  });

  it('clients + 1 is refused; the idle timeout closes a silent client', async () => {
    const status = async () => (await admin.get('/config/port_status')).body.threads[3] as { clients: number; refused: number };
    const first = connect({ host: '127.0.0.1', port: PORTS.few });
    await new Promise((r) => first.once('connect', r));
    await expect.poll(async () => (await status()).clients).toBe(1);
    const { refused } = await status();
    // the second is closed by the thread as one client too many (counted as refused), not later
    // by the idle timeout as a client it took
    const second = connect({ host: '127.0.0.1', port: PORTS.few });
    second.on('error', () => {});
    await new Promise((r) => second.once('close', r));
    expect(await status()).toMatchObject({ clients: 1, refused: refused + 1 });
    // the silent first client is closed by the idle timeout (1 s), no sooner
    const t0 = Date.now();
    await new Promise((r) => first.once('close', r));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(500);
    await expect.poll(async () => (await status()).clients).toBe(0);
  });

  it('the connection test sends a real request through the thread', async () => {
    const r = await admin.post('/config/porttest', { index: 0 });
    expect(r.body).toMatchObject({ ok: true, index: 0 });
    expect(r.body.raw).toMatch(/^%EE\$RT/);
    const strict = await admin.post('/config/porttest', { index: 2 });
    expect(strict.body).toMatchObject({ ok: false, reason: 'refused' });
    expect((await admin.post('/config/porttest', { index: 7 })).status).toBe(409);
  });
});

describe('Modbus/TCP gateway', () => {
  const mbpoll = (args: string[]) =>
    run('mbpoll', ['-m', 'tcp', '-p', String(PORTS.gw), '-a', '1', '-0', '-1', '-o', '2', ...args], { timeout: 10_000 }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, out: (e.stdout ?? '') + (e.stderr ?? '') }),
    );

  it('mbpoll reads DT and coils mapped from a serial MEWTOCOL PLC, and its writes land in the PLC', async () => {
    plc.memory.writeWords('DT', 100, [11, 22, 33]);
    const read = await mbpoll(['-t', '4', '-r', '0', '-c', '3', '127.0.0.1']);
    expect(read.out).toMatch(/\[0\]:\s+11\s[\s\S]*\[1\]:\s+22\s[\s\S]*\[2\]:\s+33/);
    const w = await mbpoll(['-t', '4', '-r', '5', '127.0.0.1', '4321', '99']);
    expect(w.code, w.out).toBe(0);
    expect(plc.memory.readWords('DT', 105, 2)).toEqual([4321, 99]);
    plc.memory.writeWords('DT', 3, [777]);
    expect((await mbpoll(['-t', '4', '-r', '503', '127.0.0.1'])).out).toMatch(/\[503\]:\s+777/);
    const coil = await mbpoll(['-t', '0', '-r', '1017', '127.0.0.1', '1']); // WR1 bit 1 = R11
    expect(coil.code, coil.out).toBe(0);
    expect(plc.memory.readBits('R', 17, 1)).toEqual([true]);
  });

  it('a blocked or unmapped range gets exception 02, a read-only one refuses writes', async () => {
    const before = plc.requests;
    expect((await mbpoll(['-t', '4', '-r', '50', '127.0.0.1'])).out).toMatch(/Illegal data address/i);
    expect((await mbpoll(['-t', '4', '-r', '300', '127.0.0.1'])).out).toMatch(/Illegal data address/i);
    expect((await mbpoll(['-t', '4', '-r', '500', '127.0.0.1', '1'])).out).toMatch(/Illegal data address/i);
    expect(plc.requests).toBe(before);
  });

  it('an unplugged PLC gets exception 0B within the link timeout', async () => {
    wire.unplug();
    try {
      // exception 0B is the gateway's answer once the link's timeout (300 ms, one retry) has run
      // out; mbpoll giving up by itself (-o 2: after 2 s) prints a timeout instead
      const r = await mbpoll(['-t', '4', '-r', '0', '127.0.0.1']);
      expect(r.out).toMatch(/Target device failed to respond|0x0B|11/i);
    } finally {
      wire.plug();
    }
  });

  it('malformed MBAP (protocol id not 0) closes the connection; over-limit quantities get exception 03', async () => {
    const bad = new Uint8Array([0, 1, 0, 7, 0, 6, 1, 3, 0, 0, 0, 1]);
    expect((await ask(PORTS.gw, bad, 800)).length).toBe(0);
    const tooMany = new Uint8Array([0, 2, 0, 0, 0, 6, 1, 3, 0, 0, 0, 200]);
    const r = await ask(PORTS.gw, tooMany);
    expect(Array.from(r.slice(7))).toEqual([0x83, 3]);
    expect((await mbpoll(['-t', '4', '-r', '0', '127.0.0.1'])).code).toBe(0); // still serving
  });
});
