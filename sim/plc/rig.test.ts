import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bytesToAscii, decodeModbusResponse, decodeRtuFrame, encodeModbusRequest, encodeRtuFrame, type ModbusRequest } from '../../device/protocol/index.ts';
import type { ByteChannel, SerialSettings } from '../../hw/types.ts';
import { createSimHw } from '../hw.ts';
import { DEFAULT_PLC_CONFIG, parsePlcConfig } from './config.ts';
import { createPlcRig, type PlcRig } from './rig.ts';
import { effectivePort } from './tcp.ts';

const s8O1: SerialSettings = { baudRate: 9600, dataBits: 8, parity: 'odd', stopBits: 1, rtscts: false };
const versions = { app: '1.5.0', bsp: '1.3.2', hmi: '4.5.2' };

/** Writes and collects what comes back within `ms` (real timers: the in-process wire takes real time). */
/** Writes `bytes` and collects the answer for `ms`, or until `expect` bytes have come (an answer of known length). */
async function exchange(ch: ByteChannel, bytes: Uint8Array | string, ms: number, expect = Number.POSITIVE_INFINITY): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let got = 0;
  let complete: () => void = () => undefined;
  const enough = new Promise<void>((r) => (complete = r));
  ch.onData((b) => {
    chunks.push(b.slice());
    got += b.length;
    if (got >= expect) complete();
  });
  ch.write(typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes);
  await Promise.race([enough, new Promise((r) => setTimeout(r, ms))]);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

let dir: string;
let rig: PlcRig | undefined;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'plc-rig-'));
});
afterEach(async () => {
  await rig?.close();
  rig = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe("the simulator's PLC rig", () => {
  it('describes the default PLCs for the start-up banner', () => {
    rig = createPlcRig(DEFAULT_PLC_CONFIG, { dir });
    const modbus = effectivePort(502);
    expect(rig.describe()).toEqual([
      'COM1  FP-XH station 1  MEWTOCOL 9600 8O1  in-process',
      'COM2  FP0R station 1  MODBUS 9600 8O1  in-process',
      'COM3  FP7 station 1  MEWTOCOL + MEWTOCOL7 9600 8O1  in-process',
      `COM4  FP-X station 1  127.0.0.2:9094 MEWTOCOL, :${modbus} Modbus${modbus === 502 ? '' : ' (502 needs root)'}`,
    ]);
    expect([...rig.plcs.keys()]).toEqual(['COM1', 'COM2', 'COM3', 'COM4']);
    expect(Object.keys(rig.virtualPorts)).toEqual(['COM1', 'COM2', 'COM3']);
    expect(rig.serialMap).toEqual({});
  });

  it('in-process connectors plug into the simulated hw as virtualPorts', async () => {
    rig = createPlcRig(parsePlcConfig({ COM3: null, COM4: null }), { dir });
    rig.plcs.get('COM1')!.memory.writeWords('DT', 10, [0x0102]);
    const hw = createSimHw({ dataDir: dir, versions, virtualPorts: rig.virtualPorts });
    expect((await hw.serialPorts()).map((p) => p.present)).toEqual([true, true, false]);
    const ch = await hw.openSerial('COM1', s8O1);
    expect(bytesToAscii(await exchange(ch, '%01#RDD0001000010**\r', 120))).toMatch(/^%01\$RD0201[0-9A-F]{2}\r$/);
    await ch.close();
    rig.unplug('COM1');
    expect(rig.describe()[0]).toMatch(/UNPLUGGED$/);
    const again = await hw.openSerial('COM1', s8O1);
    expect(await exchange(again, '%01#RT**\r', 120)).toEqual(new Uint8Array());
    rig.plug('COM1');
    expect(bytesToAscii(await exchange(again, '%01#RT**\r', 120))).toMatch(/^%01\$RT/);
    expect(() => rig!.unplug('COM3')).toThrow('no virtual PLC on COM3 (connectors with one: COM1, COM2)');
  });

  it('pty connectors get a device path after start(), for the simulated hw as serialMap', async () => {
    rig = createPlcRig(parsePlcConfig({ COM1: null, COM2: { pty: true, station: 5 }, COM3: null, COM4: null }), { dir });
    expect(rig.virtualPorts).toEqual({});
    await rig.start();
    expect(rig.serialMap).toEqual({ COM2: path.join(dir, 'COM2') });
    expect(rig.describe()).toEqual([`COM2  FP0R station 5  MODBUS 9600 8O1  pty ${path.join(dir, 'COM2')}`]);
    const hw = createSimHw({ dataDir: dir, versions, serialMap: rig.serialMap });
    const ch = await hw.openSerial('COM2', s8O1);
    try {
      const req: ModbusRequest = { fc: 16, address: 4, values: [1, 2] };
      // the answer to FC16 is 8 bytes; over a pty and socat on a busy machine it may take longer than a wire would
      const f = decodeRtuFrame(await exchange(ch, encodeRtuFrame(5, encodeModbusRequest(req)), 10_000, 8));
      expect(f.ok && decodeModbusResponse(f.value.pdu, req)).toEqual({ ok: true, value: { fc: 16, address: 4, quantity: 2 } });
    } finally {
      await ch.close();
    }
    await expect(rig.start()).rejects.toThrow('already started');
    await rig.close();
    expect(rig.serialMap).toEqual({});
    expect(existsSync(path.join(dir, 'COM2'))).toBe(false);
  });

  it('COM4 listens on TCP after start(); unplugged it goes quiet', async () => {
    rig = createPlcRig(parsePlcConfig({ COM1: null, COM2: null, COM3: null, COM4: { mewtocolPort: 0, modbusPort: 0, station: 3 } }), { dir });
    await rig.start();
    const line = rig.describe()[0]!;
    const m = /^COM4 {2}FP-X station 3 {2}(127\.0\.0\.[12]):(\d+) MEWTOCOL, :(\d+) Modbus$/.exec(line);
    expect(m, line).not.toBeNull();
    const ask = (text: string) =>
      new Promise<string>((resolve) => {
        const s = net.connect(Number(m![2]), m![1]!, () => s.write(text));
        let got = '';
        s.on('data', (b) => {
          got += b.toString('latin1');
        });
        setTimeout(() => {
          s.destroy();
          resolve(got);
        }, 100);
      });
    expect(await ask('%03#RT**\r')).toMatch(/^%03\$RT20/);
    rig.unplug('COM4');
    expect(rig.describe()[0]).toMatch(/UNPLUGGED$/);
    expect(await ask('%03#RT**\r')).toBe('');
    rig.plug('COM4');
    expect(await ask('%03#RT**\r')).toMatch(/^%03\$RT/);
  });
});
