// The daemon on a real serial device: a socat pseudo-terminal opened with `serialport`, the virtual
// PLC behind it emulating the line (the daemon's own termios settings, read with stty, decide
// whether the bytes arrive or turn to garbage). Several baud rates and parities, the PLC test,
// reads and writes, a mismatch, and autobaud over the pseudo-terminal.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pew } from '../../device/model/sections/pew.ts';
import { type PtyPlc, startPtyPlc } from '../../sim/plc/pty.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import type { SerialFraming } from '../../sim/wire.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';

const plc = new VirtualPlc({ model: 'FP-XH' });
const att = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: { baud: 9600, bits: 8, parity: 'odd', stopbits: 1 } });
let pty: PtyPlc;
let dir: string;
let d: TestDaemon;
let admin: Client;

async function setCom1(f: SerialFraming, extra: Partial<Pew['interfaces'][number]> = {}): Promise<void> {
  const p = (await admin.get('/config/pew')).body as Pew;
  Object.assign(p.interfaces[0]!, {
    enabled: true,
    protocol: 'MEWTOCOL',
    baudrate: f.baud,
    bits: f.bits,
    parity: f.parity,
    stopbits: f.stopbits,
    // the virtual PLC answers from the test's own process, late on a busy machine: these tests are
    // about the line's settings, not about the link's timeout (500 ms failed a busy run)
    timeout: 2000,
    autobaud: false,
    ...extra,
  });
  const r = await admin.post('/config/pew', p);
  expect(r.status, r.text).toBe(200);
  await d.ctx.com.settled();
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pty-'));
  pty = await startPtyPlc(att, { dir, name: 'COM1' });
  d = await startTestDaemon({ serial: { serialMap: { COM1: pty.hostPath } } });
  admin = await d.admin();
});

afterAll(async () => {
  await d?.stop();
  await pty?.close();
  await rm(dir, { recursive: true, force: true });
});

const SETTINGS: SerialFraming[] = [
  { baud: 9600, bits: 8, parity: 'odd', stopbits: 1 },
  { baud: 19200, bits: 8, parity: 'even', stopbits: 1 },
  { baud: 115200, bits: 8, parity: 'none', stopbits: 2 },
  { baud: 38400, bits: 7, parity: 'even', stopbits: 1 },
];

describe('serialport on a pseudo-terminal', () => {
  it.each(SETTINGS)('at $baud baud, $bits bits, parity $parity, $stopbits stop: PLC test, writes and reads', async (f) => {
    att.framing = f;
    await setCom1(f);
    const test = await admin.post('/config/plctest', { id: 0 });
    expect(test.body).toMatchObject({ ok: true, cpu: { name: 'FP-XH' } });
    const link = d.ctx.com.links.get(0)!;
    const words = Array.from({ length: 40 }, (_, i) => (i * 977 + f.baud) & 0xffff);
    await link.writeWords('DT', 500, words);
    expect(plc.memory.readWords('DT', 500, 40)).toEqual(words);
    expect(await link.readWords('DT', 500, 40)).toEqual(words);
    await link.writeWords('WR', 3, [0x00ff]);
    expect(await link.readBits('R', 48, 9)).toEqual([...Array(8).fill(true), false]);
    await link.writeBits('Y', 5, [true]);
    expect(plc.memory.readBits('Y', 5, 1)).toEqual([true]);
    await link.writeWords('LD', 9, [4242]);
    expect(await link.readWords('LD', 9, 1)).toEqual([4242]);
    expect(link.status().stats.bytesIn).toBeGreaterThan(0);
  });

  it('a daemon set to another baud rate than the PLC gets no usable answer', async () => {
    att.framing = { baud: 19200, bits: 8, parity: 'odd', stopbits: 1 };
    await setCom1({ baud: 9600, bits: 8, parity: 'odd', stopbits: 1 });
    const test = await admin.post('/config/plctest', { id: 0 });
    expect(test.body.ok).toBe(false);
    expect(['no_answer', 'bad_reply']).toContain(test.body.reason);
  });

  it("autobaud over the pseudo-terminal finds the PLC's rate", async () => {
    att.framing = { baud: 57600, bits: 8, parity: 'odd', stopbits: 1 };
    await setCom1({ baud: 9600, bits: 8, parity: 'odd', stopbits: 1 }, { autobaud: true });
    const link = d.ctx.com.links.get(0)!;
    // a search that found no rate starts again (with the link's backoff): on a machine so busy that the
    // test's own virtual PLC misses the probes' waits, a later search finds it
    await expect.poll(() => link.status().autobaud, { timeout: 60_000, interval: 100 }).toBe('found');
    expect(link.status()).toMatchObject({ baudRate: 57600, state: 'up' });
    const status = (await admin.get('/config/com_status')).body.links[0];
    expect(status).toMatchObject({ baudRate: 57600, autobaud: 'found', state: 'up' });
    expect((await admin.post('/config/plctest', { id: 0 })).body).toMatchObject({ ok: true, cpu: { name: 'FP-XH' } });
  });
});
