import net from 'node:net';
import modbusSerial from 'modbus-serial';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeStrdData, encodeMew7Message, encodeMew7Request } from '../../device/protocol/index.ts';
import { effectivePort, startTcpPlc, type TcpPlc } from './tcp.ts';
import { VirtualPlc } from './virtual-plc.ts';

/** Sends `text` on a new connection and resolves with what arrives up to the first CR. */
function askTcp(host: string, port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, host, () => s.write(text));
    let got = '';
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error(`no answer to ${JSON.stringify(text)}, got ${JSON.stringify(got)}`));
    }, 2000);
    s.on('data', (b) => {
      got += b.toString('latin1');
      if (got.endsWith('\r')) {
        clearTimeout(timer);
        s.destroy();
        resolve(got);
      }
    });
    s.on('error', reject);
  });
}

// a CommonJS package: its `default` is the client class (as is the module itself)
const ModbusRTU = modbusSerial.default;

const started: TcpPlc[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.close()));
});
const start = async (...args: Parameters<typeof startTcpPlc>) => {
  const p = await startTcpPlc(...args);
  started.push(p);
  return p;
};

describe('a virtual PLC on TCP', () => {
  it('moves privileged ports up by 10000 unless root; 0 stays 0 (a free port)', () => {
    expect(effectivePort(502, false)).toBe(10502);
    expect(effectivePort(502, true)).toBe(502);
    expect(effectivePort(9094, false)).toBe(9094);
    expect(effectivePort(0, false)).toBe(0);
  });

  it('answers MEWTOCOL-COM and, on FP7, MEWTOCOL7 on the MEWTOCOL port', async () => {
    const plc = new VirtualPlc({ model: 'FP7', station: 2, scanMs: 1 });
    plc.memory.writeWords('DT', 100, [0x1234]);
    const p = await start(plc, { host: '127.0.0.2', mewtocolPort: 0, modbusPort: 0 });
    expect(p.host).toBe('127.0.0.2');
    expect(p.ports.mewtocol).toBeGreaterThan(0);
    expect(p.ports.modbus).not.toBe(p.ports.mewtocol);
    expect(await askTcp(p.host, p.ports.mewtocol, '%02#RDD0010000100**\r')).toMatch(/^%02\$RD3412[0-9A-F]{2}\r$/);
    const strd = await askTcp(
      p.host,
      p.ports.mewtocol,
      encodeMew7Message({ kind: 'command', station: 'EEE', frameNo: 0, text: encodeMew7Request({ cmd: 'STRD' }) })[0]!,
    );
    const data = /^>@EEE00\$30STRD(.*)[0-9A-F]{4}\r$/.exec(strd)?.[1] ?? '';
    expect(decodeStrdData(data)).toMatchObject({ ok: true, value: { cpu: { name: 'FP7' }, modelName: 'CPS41E' } });
  });

  it('answers Modbus/TCP FC16 and FC3 to an independent client', async () => {
    const plc = new VirtualPlc({ model: 'FP-X', station: 1, scanMs: 1 });
    const p = await start(plc, { host: '127.0.0.1', mewtocolPort: 0, modbusPort: 0 });
    const client = new ModbusRTU();
    await client.connectTCP(p.host, { port: p.ports.modbus });
    client.setID(1);
    client.setTimeout(2000);
    try {
      expect(await client.writeRegisters(300, [7, 0xabcd, 9])).toEqual({ address: 300, length: 3 });
      expect((await client.readHoldingRegisters(299, 5)).data).toEqual([0, 7, 0xabcd, 9, 0]);
      expect(plc.memory.readWords('DT', 300, 3)).toEqual([7, 0xabcd, 9]);
      await expect(client.readHoldingRegisters(32764, 2)).rejects.toMatchObject({ modbusCode: 2 });
    } finally {
      await new Promise((r) => client.close(r));
    }
  });

  it('falls back to another host when the address is not on this machine, and says why otherwise', async () => {
    const plc = new VirtualPlc({ model: 'FP-X' });
    const p = await start(plc, { host: '192.0.2.1', fallbackHost: '127.0.0.1', mewtocolPort: 0, modbusPort: 0 });
    expect(p.host).toBe('127.0.0.1');
    await expect(startTcpPlc(plc, { host: '192.0.2.1', mewtocolPort: 0, modbusPort: 0 })).rejects.toThrow(/192\.0\.2\.1 is not an address of this machine/);
    await expect(startTcpPlc(plc, { host: '127.0.0.1', mewtocolPort: p.ports.mewtocol, modbusPort: 0 })).rejects.toThrow(
      `127.0.0.1:${p.ports.mewtocol} is in use`,
    );
  });

  it('unplugged it hears nothing and sends nothing; plugged again it answers on the same connection', async () => {
    const plc = new VirtualPlc({ model: 'FP-X', scanMs: 1 });
    const p = await start(plc, { host: '127.0.0.1', mewtocolPort: 0, modbusPort: 0 });
    const s = net.connect(p.ports.mewtocol, p.host);
    await new Promise((r) => s.once('connect', r));
    let got = '';
    s.on('data', (b) => {
      got += b.toString('latin1');
    });
    p.unplug();
    s.write('%01#RT**\r');
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toBe('');
    expect(plc.requests).toBe(0);
    expect(p.connections()).toBe(1);
    p.plug();
    s.write('%01#RT**\r');
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toMatch(/^%01\$RT/);
    s.destroy();
  });
});
