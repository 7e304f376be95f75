// Unit id routing of issue 15 against virtual PLCs on shared lines (RS485 multi-drop): a Modbus thread
// in front of an RTU line with slaves 2 and 3 forwards to the unit the client sent (mbpoll -a and the
// modbus-serial client), unit 0 is a broadcast write that both slaves execute and nobody answers; a
// gateway in front of a MEWTOCOL line with stations 1 and 2 takes the unit id as the station, 255
// as the interface's own, and refuses 100-254 with exception 0A.
import { execFile } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { promisify } from 'node:util';
import modbusSerial from 'modbus-serial';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pew } from '../../device/model/sections/pew.ts';
import type { Thread } from '../../device/model/sections/redirect.ts';
import { encodeTcpFrame } from '../../device/protocol/index.ts';
import { entry } from '../../device/redirect/testing.ts';
import type { ByteChannel, SerialSettings } from '../../hw/types.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { freePorts } from '../support/ports.ts';

const run = promisify(execFile);
const FRAMING = { baud: 115200, bits: 8 as const, parity: 'odd' as const, stopbits: 1 as const };
const slave2 = new SerialPlcAttachment(new VirtualPlc({ model: 'FP-X', station: 2 }), { protocol: 'MODBUS', framing: FRAMING });
const slave3 = new SerialPlcAttachment(new VirtualPlc({ model: 'FP-X', station: 3 }), { protocol: 'MODBUS', framing: FRAMING });
const mew1 = new SerialPlcAttachment(new VirtualPlc({ model: 'FP-XH', station: 1 }), { protocol: 'MEWTOCOL', framing: FRAMING });
const mew2 = new SerialPlcAttachment(new VirtualPlc({ model: 'FP-XH', station: 2 }), { protocol: 'MEWTOCOL', framing: FRAMING });

/** One RS485 line: what the daemon writes reaches every PLC, what any PLC answers reaches the daemon. */
function bus(...plcs: SerialPlcAttachment[]) {
  return (s: SerialSettings): ByteChannel => {
    const ends = plcs.map((p) => p.open(s));
    return {
      write: (b) => ends.forEach((e) => e.write(b)),
      onData: (h) => ends.forEach((e) => e.onData(h)),
      onClose: (h) => ends.forEach((e) => e.onClose(h)),
      close: async () => {
        await Promise.all(ends.map((e) => e.close()));
      },
      get isOpen() {
        return ends.every((e) => e.isOpen);
      },
    };
  };
}

let d: TestDaemon;
const P = { rtu: 0, gw: 0 };
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

/** One MBAP request; the answer's PDU, or undefined when nothing came within `ms`. */
function ask(port: number, unit: number, pdu: number[], ms = 2000): Promise<number[] | undefined> {
  return new Promise((resolve) => {
    const s: Socket = connect({ host: '127.0.0.1', port });
    let got: number[] = [];
    const end = (v: number[] | undefined) => {
      clearTimeout(timer);
      s.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => end(undefined), ms);
    s.on('data', (b: Buffer) => {
      got = [...got, ...b];
      if (got.length >= 6 && got.length >= 6 + ((got[4]! << 8) | got[5]!)) end(got.slice(7));
    });
    s.on('error', () => end(undefined));
    s.write(encodeTcpFrame({ transaction: 7, unit, pdu: Uint8Array.from(pdu) }));
  });
}

beforeAll(async () => {
  d = await startTestDaemon({ serial: { virtualPorts: { COM1: bus(mew1, mew2), COM2: bus(slave2, slave3) } } });
  const admin = await d.admin();
  const pew = (await admin.get('/config/pew')).body as Pew;
  const iface = (name: string) => pew.interfaces.find((i) => i.name === name)!;
  Object.assign(iface('COM1'), { enabled: true, baudrate: 115200, timeout: 300 });
  Object.assign(iface('COM2'), { enabled: true, baudrate: 115200, protocol: 'MODBUS', timeout: 300 });
  pew.interface_plc = iface('COM2').id; // the COM2 link's own station: 2
  pew.address_plc = 2;
  [P.rtu, P.gw] = (await freePorts(2)) as [number, number];
  const r = await admin.post('/config', {
    pew,
    pew_redirect: {
      threads: [
        thread(P.rtu, { service: iface('COM2').id, mapping: [entry('DT', 0, 99, 'R/W')] }),
        thread(P.gw, { mb_translation: true, mapping: [entry('DT', 0, 99, 'R/W')] }),
      ],
    },
  });
  expect(r.status, r.text).toBe(200);
  await d.ctx.com.settled();
  await d.ctx.redirects.settled();
});

afterAll(async () => {
  await d?.stop();
});

describe('a Modbus thread in front of an RTU line with slaves 2 and 3', () => {
  it('mbpoll -a 2 and -a 3 read each slave; the modbus-serial client too', async () => {
    slave2.plc.memory.writeWords('DT', 10, [222]);
    slave3.plc.memory.writeWords('DT', 10, [333]);
    const mb = (unit: number) =>
      run('mbpoll', ['-m', 'tcp', '-p', String(P.rtu), '-a', String(unit), '-0', '-1', '-t', '4', '-r', '10', '127.0.0.1'], { timeout: 10_000 });
    expect((await mb(2)).stdout).toMatch(/\[10\]:\s+222/);
    expect((await mb(3)).stdout).toMatch(/\[10\]:\s+333/);
    const c = new modbusSerial.default();
    await c.connectTCP('127.0.0.1', { port: P.rtu });
    c.setTimeout(3000);
    try {
      c.setID(3);
      await c.writeRegister(11, 3003);
      c.setID(2);
      await c.writeRegister(11, 2002);
      expect(slave3.plc.memory.readWords('DT', 11, 1)).toEqual([3003]);
      expect(slave2.plc.memory.readWords('DT', 11, 1)).toEqual([2002]);
      c.setID(3);
      expect((await c.readHoldingRegisters(10, 2)).data).toEqual([333, 3003]);
    } finally {
      c.close(() => undefined);
    }
  });

  it('a unit without a slave gets 0B; 248-254 get 0A', async () => {
    expect(await ask(P.rtu, 9, [3, 0, 10, 0, 1])).toEqual([0x83, 0x0b]);
    expect(await ask(P.rtu, 250, [3, 0, 10, 0, 1])).toEqual([0x83, 0x0a]);
    expect(await ask(P.rtu, 2, [3, 0, 10, 0, 1])).toEqual([3, 2, 0, 222]); // the line is still up
  });

  it('unit 0: a broadcast write both slaves execute, and no answer', async () => {
    expect(await ask(P.rtu, 0, [6, 0, 12, 0x12, 0x34], 800)).toBeUndefined();
    await new Promise((r) => setTimeout(r, 300));
    expect(slave2.plc.memory.readWords('DT', 12, 1)).toEqual([0x1234]);
    expect(slave3.plc.memory.readWords('DT', 12, 1)).toEqual([0x1234]);
    expect(await ask(P.rtu, 0, [3, 0, 12, 0, 1], 800)).toBeUndefined(); // a read cannot be broadcast
  });
});

describe('a gateway in front of a MEWTOCOL line with stations 1 and 2', () => {
  it('the unit id is the station: 1 and 2 each their PLC, 255 the own station, 150 exception 0A', async () => {
    mew1.plc.memory.writeWords('DT', 5, [101]);
    mew2.plc.memory.writeWords('DT', 5, [202]);
    expect(await ask(P.gw, 1, [3, 0, 5, 0, 1])).toEqual([3, 2, 0, 101]);
    expect(await ask(P.gw, 2, [3, 0, 5, 0, 1])).toEqual([3, 2, 0, 202]);
    expect(await ask(P.gw, 2, [6, 0, 6, 0, 77])).toEqual([6, 0, 6, 0, 77]);
    expect(mew2.plc.memory.readWords('DT', 6, 1)).toEqual([77]);
    expect(mew1.plc.memory.readWords('DT', 6, 1)).toEqual([0]);
    expect(await ask(P.gw, 150, [3, 0, 5, 0, 1])).toEqual([0x83, 0x0a]);
    const own = await ask(P.gw, 255, [3, 0, 5, 0, 1]);
    expect(own?.slice(0, 2)).toEqual([3, 2]); // the own station (EE): one of the PLCs answers
  });
});
