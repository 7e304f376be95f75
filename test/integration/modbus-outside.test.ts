// Our Modbus side checked against Modbus clients written by others: Debian's `mbpoll` (libmodbus)
// and the npm package `modbus-serial`, both over Modbus/TCP and over Modbus RTU on a
// pseudo-terminal (socat, sim/plc/pty.ts) whose line is emulated: the client must use the PLC's
// baud rate, parity and stop bits or it gets no answer. Addresses follow the Panasonic Modbus map
// (mewtocol.md §8): holding registers DT n, coils Y (word×16+bit) and R from 2048, discrete inputs
// X, input registers WL n and LD at 2000+n. mbpoll and socat are installed by `npm test`; when one
// is missing this file fails, it never skips.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import modbusSerial from 'modbus-serial';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CpuModel } from '../../sim/plc/profiles.ts';
import { startPtyPlc } from '../../sim/plc/pty.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { startTcpPlc } from '../../sim/plc/tcp.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { formatFraming, type SerialFraming } from '../../sim/wire.ts';

// a CommonJS package: its `default` is the client class (as is the module itself)
const ModbusRTU = modbusSerial.default;
type ModbusClient = InstanceType<typeof ModbusRTU>;

const HOST = '127.0.0.1';

// ---- mbpoll -----------------------------------------------------------------------------------

interface MbpollRun {
  /** exit code (0 = success) */
  code: number;
  stdout: string;
  stderr: string;
  /** the `[ref]: value` lines of a read, as [reference, value] pairs */
  values: [number, number][];
}

/** Runs mbpoll once; a non-zero exit is a result, but a missing binary or a hung run is an error. */
function mbpoll(args: string[]): Promise<MbpollRun> {
  return new Promise((resolve, reject) => {
    execFile('mbpoll', args, { timeout: 8000 }, (err, stdout, stderr) => {
      if (err && (typeof err.code !== 'number' || err.killed)) {
        reject(new Error(`mbpoll ${args.join(' ')} did not run to its end: ${err.message}`));
        return;
      }
      const values = [...stdout.matchAll(/^\[(\d+)\]:\s+(\d+)/gm)].map((m): [number, number] => [Number(m[1]), Number(m[2])]);
      resolve({ code: typeof err?.code === 'number' ? err.code : 0, stdout, stderr, values });
    });
  });
}

/** mbpoll's data types: -t 0 coils, 1 discrete inputs, 3 input registers, 4 holding registers */
type MbTable = 0 | 1 | 3 | 4;

/** How mbpoll reaches the PLC: the mode options and the host or device. */
interface MbTarget {
  mode: string[];
  target: string;
}

const tcpTarget = (port: number): MbTarget => ({ mode: ['-m', 'tcp', '-p', String(port)], target: HOST });
const rtuTarget = (device: string, f: SerialFraming): MbTarget => ({
  mode: ['-m', 'rtu', '-b', String(f.baud), '-P', f.parity, '-d', String(f.bits), '-s', String(f.stopbits)],
  target: device,
});

interface MbOptions {
  unit?: number;
  /** seconds mbpoll waits for an answer */
  timeoutS?: number;
  /** 0-based protocol addresses (-0, the default here) or mbpoll's 1-based references */
  zeroBased?: boolean;
}

const common = (t: MbTarget, table: MbTable, ref: number, o: MbOptions) => [
  ...t.mode,
  '-a',
  String(o.unit ?? 1),
  '-t',
  String(table),
  ...(o.zeroBased === false ? [] : ['-0']),
  '-r',
  String(ref),
  '-o',
  String(o.timeoutS ?? 1),
];

const mbRead = (t: MbTarget, table: MbTable, ref: number, count: number, o: MbOptions = {}) =>
  mbpoll([...common(t, table, ref, o), '-c', String(count), '-1', t.target]);

const mbWrite = (t: MbTarget, table: MbTable, ref: number, values: number[], o: MbOptions = {}) =>
  mbpoll([...common(t, table, ref, o), t.target, ...values.map(String)]);

/** [reference, value] pairs for consecutive references from `ref` */
const refs = (ref: number, values: number[]): [number, number][] => values.map((v, i) => [ref + i, v]);

// ---- resources, all closed at the end --------------------------------------------------------

let dir: string;
const closers: (() => Promise<void>)[] = [];
let ptys = 0;

beforeAll(async () => {
  expect(
    () => execFileSync('mbpoll', ['-V'], { stdio: 'pipe' }),
    'mbpoll must be installed for this test (apt-get install mbpoll; npm test does it)',
  ).not.toThrow();
  expect(() => execFileSync('which', ['socat'], { stdio: 'pipe' }), 'socat must be installed for this test (apt-get install socat)').not.toThrow();
  dir = await mkdtemp(path.join(tmpdir(), 'modbus-outside-'));
});

/** socat processes of this file still running */
const ourSocats = () => {
  try {
    return execFileSync('pgrep', ['-af', 'socat'], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.includes(dir));
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
};

afterAll(async () => {
  const whileOpen = dir ? ourSocats().length : 0;
  for (const close of closers.splice(0).reverse()) await close();
  if (!dir) return;
  const left = ourSocats();
  await rm(dir, { recursive: true, force: true });
  // ourSocats() does see them: one socat per pseudo-terminal while they were open
  expect(whileOpen).toBe(ptys);
  expect(left, 'socat processes left behind').toEqual([]);
});

async function tcpPlc(model: CpuModel, station = 1) {
  const plc = new VirtualPlc({ model, station, scanMs: 1 });
  const tcp = await startTcpPlc(plc, { host: HOST, mewtocolPort: 0, modbusPort: 0 });
  closers.push(() => tcp.close());
  return { plc, port: tcp.ports.modbus };
}

async function ptyPlc(model: CpuModel, station: number, framing: SerialFraming, name: string) {
  const plc = new VirtualPlc({ model, station, scanMs: 1 });
  const attachment = new SerialPlcAttachment(plc, { protocol: 'MODBUS', framing });
  const pty = await startPtyPlc(attachment, { dir, name });
  ptys++;
  closers.push(() => pty.close());
  return { plc, attachment, device: pty.hostPath };
}

async function client(connect: (c: ModbusClient) => Promise<void>, unit: number): Promise<ModbusClient> {
  const c = new ModbusRTU();
  await connect(c);
  c.setID(unit);
  c.setTimeout(1000);
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        if (c.isOpen) c.close(() => resolve());
        else resolve();
      }),
  );
  return c;
}

// ---- mbpoll over Modbus/TCP -------------------------------------------------------------------

describe('mbpoll over Modbus/TCP', () => {
  let plc: VirtualPlc;
  let t: MbTarget;
  beforeAll(async () => {
    const s = await tcpPlc('FP-XH');
    plc = s.plc;
    t = tcpTarget(s.port);
  });

  it('writes holding registers DT100..102 and reads them back, 0-based and 1-based', async () => {
    const w = await mbWrite(t, 4, 100, [11, 0xabcd, 65535]);
    expect(w.code, w.stderr).toBe(0);
    expect(w.stdout).toContain('Written 3 references.');
    expect(plc.memory.readWords('DT', 100, 3)).toEqual([11, 0xabcd, 65535]);
    const r = await mbRead(t, 4, 99, 5);
    expect(r.code, r.stderr).toBe(0);
    expect(r.values).toEqual(refs(99, [0, 11, 0xabcd, 65535, 0]));
    // mbpoll's own numbering: reference 101 is protocol address 100
    const r1 = await mbRead(t, 4, 101, 3, { zeroBased: false });
    expect(r1.values).toEqual(refs(101, [11, 0xabcd, 65535]));
    // a single register
    expect((await mbWrite(t, 4, 102, [4242])).code).toBe(0);
    expect(plc.memory.readWords('DT', 100, 3)).toEqual([11, 0xabcd, 4242]);
  });

  it('reads what the PLC holds in DT, up to the last DT of the model and 125 registers at once', async () => {
    plc.memory.writeWords('DT', 65530, [1, 2, 3]);
    expect((await mbRead(t, 4, 65530, 3)).values).toEqual(refs(65530, [1, 2, 3]));
    const block = Array.from({ length: 125 }, (_, i) => (i * 523 + 7) & 0xffff);
    plc.memory.writeWords('DT', 5000, block);
    const r = await mbRead(t, 4, 5000, 125);
    expect(r.code, r.stderr).toBe(0);
    expect(r.values).toEqual(refs(5000, block));
  });

  it('writes Y and R coils, and reads them back', async () => {
    // Y2.3 .. Y2.5 = coils 35..37; R10.5 = R word 10 bit 5 = coil 2048 + 165
    expect((await mbWrite(t, 0, 35, [1, 0, 1])).code).toBe(0);
    expect(plc.memory.readBits('Y', 34, 5)).toEqual([false, true, false, true, false]);
    expect((await mbWrite(t, 0, 2048 + 165, [1])).code).toBe(0);
    expect(plc.memory.readBits('R', 164, 3)).toEqual([false, true, false]);
    expect(plc.memory.readWords('WR', 10, 1)).toEqual([1 << 5]);
    plc.memory.writeBits('Y', 36, [true]);
    expect((await mbRead(t, 0, 34, 5)).values).toEqual(refs(34, [0, 1, 1, 1, 0]));
    expect((await mbRead(t, 0, 2048 + 164, 3)).values).toEqual(refs(2048 + 164, [0, 1, 0]));
    // a coil switched off again
    expect((await mbWrite(t, 0, 2048 + 165, [0])).code).toBe(0);
    expect(plc.memory.readWords('WR', 10, 1)).toEqual([0]);
  });

  it('reads discrete inputs X', async () => {
    // X3.1 .. X3.4 = inputs 49..52
    plc.memory.writeBits('X', 49, [true, false, true, true]);
    const r = await mbRead(t, 1, 48, 6);
    expect(r.code, r.stderr).toBe(0);
    expect(r.values).toEqual(refs(48, [0, 1, 0, 1, 1, 0]));
    plc.memory.writeBits('X', 1759, [true]); // the last X of FP-XH (X109F)
    expect((await mbRead(t, 1, 1759, 1)).values).toEqual([[1759, 1]]);
  });

  it('reads input registers WL n and LD n at 2000+n', async () => {
    plc.memory.writeWords('WL', 5, [0x1111, 0xfedc]);
    plc.memory.writeWords('LD', 7, [321, 54321]);
    expect((await mbRead(t, 3, 4, 4)).values).toEqual(refs(4, [0, 0x1111, 0xfedc, 0]));
    expect((await mbRead(t, 3, 2007, 2)).values).toEqual(refs(2007, [321, 54321]));
    plc.memory.writeWords('LD', 255, [77]); // the last LD of FP-XH
    expect((await mbRead(t, 3, 2255, 1)).values).toEqual([[2255, 77]]);
  });

  it('an address outside the memory gives "Illegal data address" and changes nothing', async () => {
    plc.memory.writeWords('DT', 65531, [5, 6]);
    const writes = plc.memory.writes;
    const reads = [
      await mbRead(t, 4, 65532, 2), // DT65533 does not exist on FP-XH
      await mbRead(t, 0, 1759, 2), // Y coil 1760 is past WY109
      await mbRead(t, 1, 1760, 1),
      await mbRead(t, 3, 128, 1), // WL128
      await mbRead(t, 3, 2256, 1), // LD256
      await mbRead(t, 3, 1000, 1), // between WL and LD: not in the map
    ];
    for (const r of reads) {
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/Illegal data address/);
      expect(r.values).toEqual([]);
    }
    const failedWrites = [
      await mbWrite(t, 4, 65531, [9, 9, 9]),
      await mbWrite(t, 4, 65533, [9]),
      await mbWrite(t, 0, 1759, [1, 1]),
      await mbWrite(t, 0, 1760, [1]),
    ];
    for (const w of failedWrites) {
      expect(w.code).not.toBe(0);
      expect(w.stderr).toMatch(/Illegal data address/);
    }
    expect(plc.memory.writes).toBe(writes);
    expect(plc.memory.readWords('DT', 65531, 2)).toEqual([5, 6]);
    expect(plc.memory.readBits('Y', 1759, 1)).toEqual([false]);
  });

  it('a silent PLC: mbpoll times out; once the PLC speaks again, the next request is answered', async () => {
    plc.memory.writeWords('DT', 10, [1010]);
    // silent until told otherwise: on a busy machine mbpoll may give up and close its connection
    // before the PLC took its request, which then never reaches it (a silence for one request would
    // be left for the next one)
    plc.setFault({ kind: 'silent' });
    const lost = await mbRead(t, 4, 10, 1, { timeoutS: 0.3 });
    expect(lost.code).not.toBe(0);
    expect(lost.stderr).toMatch(/timed out/i);
    expect(lost.values).toEqual([]);
    plc.setFault({ kind: 'none' });
    expect((await mbRead(t, 4, 10, 1)).values).toEqual([[10, 1010]]);
  });
});

// ---- mbpoll over Modbus RTU on a pseudo-terminal -----------------------------------------------

const RTU_LINES: { framing: SerialFraming; unit: number }[] = [
  { framing: { baud: 9600, bits: 8, parity: 'even', stopbits: 1 }, unit: 1 },
  { framing: { baud: 19200, bits: 8, parity: 'none', stopbits: 2 }, unit: 17 },
  { framing: { baud: 115200, bits: 8, parity: 'odd', stopbits: 1 }, unit: 247 },
];

for (const { framing, unit } of RTU_LINES)
  describe(`mbpoll over Modbus RTU on a pseudo-terminal at ${formatFraming(framing)}, unit ${unit}`, () => {
    let plc: VirtualPlc;
    let attachment: SerialPlcAttachment;
    let device: string;
    let t: MbTarget;
    beforeAll(async () => {
      const s = await ptyPlc('FP7', unit, framing, `mbpoll-${framing.baud}`);
      plc = s.plc;
      attachment = s.attachment;
      device = s.device;
      t = rtuTarget(device, framing);
    });

    it('writes and reads holding registers, coils, discrete inputs and input registers', async () => {
      const w = await mbWrite(t, 4, 300, [7, 0x8001, 9], { unit });
      expect(w.code, w.stderr).toBe(0);
      expect(plc.memory.readWords('DT', 300, 3)).toEqual([7, 0x8001, 9]);
      plc.memory.writeWords('DT', 65535, [0xbeef]); // the last holding register of FP7's map
      expect((await mbRead(t, 4, 299, 5, { unit })).values).toEqual(refs(299, [0, 7, 0x8001, 9, 0]));
      expect((await mbRead(t, 4, 65535, 1, { unit })).values).toEqual([[65535, 0xbeef]]);

      expect((await mbWrite(t, 0, 2048 + 33, [1, 1], { unit })).code).toBe(0); // R2.1, R2.2
      expect(plc.memory.readWords('WR', 2, 1)).toEqual([0b110]);
      plc.memory.writeBits('X', 20, [true]);
      expect((await mbRead(t, 1, 19, 3, { unit })).values).toEqual(refs(19, [0, 1, 0]));
      plc.memory.writeWords('LD', 16383, [4321]); // FP7: LD16383 = input register 2000 + 16383
      expect((await mbRead(t, 3, 18383, 1, { unit })).values).toEqual([[18383, 4321]]);
    });

    it('an address outside the map gives "Illegal data address"', async () => {
      const r = await mbRead(t, 3, 18384, 1, { unit });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/Illegal data address/);
    });

    it('another unit id gets no answer: mbpoll times out', async () => {
      const requests = plc.requests;
      const r = await mbRead(t, 4, 300, 1, { unit: unit === 1 ? 2 : 1, timeoutS: 0.3 });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/timed out/i);
      expect(r.values).toEqual([]);
      expect(plc.requests).toBe(requests);
      // its own unit id is still answered
      expect((await mbRead(t, 4, 300, 1, { unit })).values).toEqual([[300, 7]]);
    });

    it('mbpoll at another baud rate gets no answer: the line is emulated', async () => {
      const other = rtuTarget(device, { ...framing, baud: framing.baud === 9600 ? 38400 : 9600 });
      const carried = attachment.counters.toPlc;
      const requests = plc.requests;
      const r = await mbRead(other, 4, 300, 1, { unit, timeoutS: 0.3 });
      expect(r.code).not.toBe(0);
      expect(r.values).toEqual([]);
      // the request crossed the wire (on a busy machine it may do so after mbpoll gave up) but the PLC heard only garbage
      await expect.poll(() => attachment.counters.toPlc).toBeGreaterThan(carried);
      expect(plc.requests).toBe(requests);
      // straight after, the right settings work again
      expect((await mbRead(t, 4, 300, 1, { unit })).values).toEqual([[300, 7]]);
    });

    it('a silent PLC: mbpoll times out; once the PLC speaks again, the next request is answered', async () => {
      // silent until told otherwise: on a busy machine mbpoll may give up and close the line before
      // the PLC's side read its request (and the line's settings), so the PLC may never hear it as
      // a request (a silence for one request would be left for the next one)
      plc.setFault({ kind: 'silent' });
      const r = await mbRead(t, 4, 301, 1, { unit, timeoutS: 0.3 });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/timed out/i);
      plc.setFault({ kind: 'none' });
      expect((await mbRead(t, 4, 301, 1, { unit })).values).toEqual([[301, 0x8001]]);
    });
  });

// ---- modbus-serial over Modbus/TCP and Modbus RTU -----------------------------------------------

const RTU_FRAMING: SerialFraming = { baud: 38400, bits: 8, parity: 'odd', stopbits: 1 };

const TRANSPORTS = [
  {
    name: 'Modbus/TCP',
    async start(): Promise<{ plc: VirtualPlc; c: ModbusClient }> {
      const s = await tcpPlc('FP-XH');
      return { plc: s.plc, c: await client((c) => c.connectTCP(HOST, { port: s.port }), 1) };
    },
  },
  {
    name: `Modbus RTU on a pseudo-terminal at ${formatFraming(RTU_FRAMING)}`,
    async start(): Promise<{ plc: VirtualPlc; c: ModbusClient }> {
      const s = await ptyPlc('FP-XH', 5, RTU_FRAMING, 'modbus-serial');
      const f = RTU_FRAMING;
      const c = await client((c) => c.connectRTUBuffered(s.device, { baudRate: f.baud, parity: f.parity, dataBits: f.bits, stopBits: f.stopbits }), 5);
      return { plc: s.plc, c };
    },
  },
];

for (const { name, start } of TRANSPORTS)
  describe(`modbus-serial over ${name}`, () => {
    let plc: VirtualPlc;
    let c: ModbusClient;
    beforeAll(async () => {
      ({ plc, c } = await start());
    });

    it('FC16 writes and FC3 reads holding registers DT; FC6 writes one', async () => {
      expect(await c.writeRegisters(400, [1, 0x7fff, 0x8000, 0xffff])).toEqual({ address: 400, length: 4 });
      expect(plc.memory.readWords('DT', 400, 4)).toEqual([1, 0x7fff, 0x8000, 0xffff]);
      expect((await c.readHoldingRegisters(399, 6)).data).toEqual([0, 1, 0x7fff, 0x8000, 0xffff, 0]);
      expect(await c.writeRegister(401, 0x1234)).toEqual({ address: 401, value: 0x1234 });
      expect(plc.memory.readWords('DT', 401, 1)).toEqual([0x1234]);
      const block = Array.from({ length: 125 }, (_, i) => (i * 4099) & 0xffff);
      plc.memory.writeWords('DT', 60000, block);
      expect((await c.readHoldingRegisters(60000, 125)).data).toEqual(block);
    });

    it('FC5 and FC15 write coils Y and R; FC1 reads them', async () => {
      // Y1.0 = coil 16; R3.15 .. R4.2 = coils 2048 + 63 .. 2048 + 66
      expect(await c.writeCoil(16, true)).toEqual({ address: 16, state: true });
      expect(plc.memory.readWords('WY', 1, 1)).toEqual([1]);
      expect(await c.writeCoils(2048 + 63, [true, false, true, true])).toEqual({ address: 2048 + 63, length: 4 });
      expect(plc.memory.readWords('WR', 3, 2)).toEqual([0x8000, 0b110]);
      const y = await c.readCoils(14, 4);
      expect(y.data.slice(0, 4)).toEqual([false, false, true, false]);
      const r = await c.readCoils(2048 + 62, 6);
      expect(r.data.slice(0, 6)).toEqual([false, true, false, true, true, false]);
      expect(await c.writeCoil(16, false)).toEqual({ address: 16, state: false });
      expect(plc.memory.readWords('WY', 1, 1)).toEqual([0]);
    });

    it('FC2 reads discrete inputs X; FC4 reads input registers WL and LD', async () => {
      plc.memory.writeWords('WX', 7, [0b1010_0000_0000_0101]);
      const x = await c.readDiscreteInputs(7 * 16, 16);
      expect(x.data.slice(0, 16)).toEqual(Array.from({ length: 16 }, (_, i) => [0, 2, 13, 15].includes(i)));
      plc.memory.writeWords('WL', 127, [0xcafe]);
      plc.memory.writeWords('LD', 0, [10, 20, 30]);
      expect((await c.readInputRegisters(126, 2)).data).toEqual([0, 0xcafe]);
      expect((await c.readInputRegisters(2000, 3)).data).toEqual([10, 20, 30]);
    });

    it('an address outside the memory comes back as exception 02 and nothing is written', async () => {
      plc.memory.writeWords('DT', 65530, [1, 2, 3]);
      const writes = plc.memory.writes;
      await expect(c.readHoldingRegisters(65532, 2)).rejects.toMatchObject({ modbusCode: 2 });
      await expect(c.writeRegisters(65530, [9, 9, 9, 9])).rejects.toMatchObject({ modbusCode: 2 });
      await expect(c.writeRegister(65533, 9)).rejects.toMatchObject({ modbusCode: 2 });
      await expect(c.readCoils(1750, 11)).rejects.toMatchObject({ modbusCode: 2 });
      await expect(c.writeCoils(1758, [true, true, true])).rejects.toMatchObject({ modbusCode: 2 });
      await expect(c.writeCoil(2048 + 512 * 16, true)).rejects.toMatchObject({ modbusCode: 2 }); // R512.0 on a 512-word WR
      await expect(c.readDiscreteInputs(1760, 1)).rejects.toMatchObject({ modbusCode: 2 });
      await expect(c.readInputRegisters(128, 1)).rejects.toMatchObject({ modbusCode: 2 });
      await expect(c.readInputRegisters(2256, 1)).rejects.toMatchObject({ modbusCode: 2 });
      expect(plc.memory.writes).toBe(writes);
      expect(plc.memory.readWords('DT', 65530, 3)).toEqual([1, 2, 3]);
      expect(plc.memory.readBits('Y', 1758, 2)).toEqual([false, false]);
      // the connection is still good
      expect((await c.readHoldingRegisters(65530, 3)).data).toEqual([1, 2, 3]);
    });

    it('a silent PLC: the request times out once, the next one on the same connection is answered', async () => {
      plc.memory.writeWords('DT', 20, [2020, 2121]);
      plc.setFault({ kind: 'silent', count: 1 });
      c.setTimeout(300);
      try {
        await expect(c.readHoldingRegisters(20, 1)).rejects.toMatchObject({ errno: 'ETIMEDOUT' });
        c.setTimeout(1000);
        // on a busy machine the client may give up while its request is still on the line: the PLC
        // hears it (and stays silent to it) a little later
        await expect.poll(() => plc.fault).toEqual({ kind: 'none' });
        expect((await c.readHoldingRegisters(20, 2)).data).toEqual([2020, 2121]);
      } finally {
        c.setTimeout(1000);
      }
    });
  });
