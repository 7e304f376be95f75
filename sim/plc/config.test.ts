import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INTERFACES } from '../../device/model/sections/pew.ts';
import { DEFAULT_PLC_CONFIG, loadPlcConfig, PlcConfigError, parsePlcConfig, SERIAL_CONNECTORS } from './config.ts';

describe('simulator PLC configuration', () => {
  it("defaults: the unit's default COM settings, another CPU on each connector, COM4 on 127.0.0.2", () => {
    const com1 = DEFAULT_INTERFACES[0]!;
    for (const c of SERIAL_CONNECTORS) {
      expect(DEFAULT_PLC_CONFIG[c]).toMatchObject({
        baud: com1.baudrate,
        bits: com1.bits,
        parity: com1.parity,
        stopbits: com1.stopbits,
        station: 1,
        pty: false,
      });
    }
    expect([DEFAULT_PLC_CONFIG.COM1?.cpu, DEFAULT_PLC_CONFIG.COM2?.cpu, DEFAULT_PLC_CONFIG.COM3?.cpu, DEFAULT_PLC_CONFIG.COM4?.cpu]).toEqual([
      'FP-XH',
      'FP0R',
      'FP7',
      'FP-X',
    ]);
    expect([DEFAULT_PLC_CONFIG.COM1?.protocol, DEFAULT_PLC_CONFIG.COM2?.protocol, DEFAULT_PLC_CONFIG.COM3?.protocol]).toEqual([
      'MEWTOCOL',
      'MODBUS',
      'MEWTOCOL',
    ]);
    expect(DEFAULT_PLC_CONFIG.COM4).toEqual({ cpu: 'FP-X', station: 1, host: '127.0.0.2', mewtocolPort: 9094, modbusPort: 502, scanMs: 5 });
  });

  it('fills in what a connector leaves out and keeps null as "no PLC"', () => {
    const c = parsePlcConfig({ COM1: { baud: 19200, pty: true }, COM2: null, COM4: { modbusPort: 1502 } });
    expect(c.COM1).toEqual({ ...DEFAULT_PLC_CONFIG.COM1, baud: 19200, pty: true });
    expect(c.COM2).toBeNull();
    expect(c.COM3).toEqual(DEFAULT_PLC_CONFIG.COM3);
    expect(c.COM4).toEqual({ ...DEFAULT_PLC_CONFIG.COM4, modbusPort: 1502 });
  });

  it.each([
    [{ COM1: { baud: 9601 } }, 'COM1.baud: expected one of 230400, 115200'],
    [{ COM2: { parity: 'odd ' } }, 'COM2.parity: expected one of none, odd, even'],
    [{ COM3: { cpu: 'FP5' } }, 'COM3.cpu: expected one of FP7, FP0, FP0R, FP-X, FP-XH, FP2'],
    [{ COM1: { station: 100 } }, 'COM1.station: expected a whole number 1-99 for MEWTOCOL'],
    [{ COM2: { station: 248 } }, 'COM2.station: expected a whole number 1-247'],
    [{ COM1: { baudrate: 9600 } }, 'COM1.baudrate: unknown field (known: cpu, station, protocol'],
    [{ COM5: {} }, 'COM5: unknown field (known: COM1, COM2, COM3, COM4)'],
    [{ COM4: { host: 'localhost' } }, 'COM4.host: expected an IPv4 address'],
    [{ COM4: { modbusPort: 70000 } }, 'COM4.modbusPort: expected a TCP port 0-65535'],
    [{ COM1: { pty: 'yes' } }, 'COM1.pty: expected true or false'],
    [[], '(top level): expected an object'],
    [{ COM2: [] }, 'COM2: expected an object'],
  ])('%j is refused naming the field', (input, message) => {
    expect(() => parsePlcConfig(input)).toThrow(PlcConfigError);
    expect(() => parsePlcConfig(input)).toThrow(message);
  });

  it('allows MODBUS stations up to 247 on serial connectors', () => {
    expect(parsePlcConfig({ COM2: { station: 247 } }).COM2?.station).toBe(247);
  });

  it('loads a file, naming it in errors; the example file is valid', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'plc-config-'));
    try {
      const file = path.join(dir, 'plcs.json');
      await writeFile(file, JSON.stringify({ COM3: { scanMs: 20 } }));
      expect((await loadPlcConfig(file)).COM3?.scanMs).toBe(20);
      await writeFile(file, '{ "COM1": ');
      await expect(loadPlcConfig(file)).rejects.toThrow(`${file}: not valid JSON`);
      await writeFile(file, '{ "COM1": { "bits": 9 } }');
      await expect(loadPlcConfig(file)).rejects.toThrow(`${file}: COM1.bits: expected one of 7, 8`);
      await expect(loadPlcConfig(path.join(dir, 'missing.json'))).rejects.toThrow('missing.json: cannot be read');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const example = new URL('../plcs.example.json', import.meta.url);
    expect(() => parsePlcConfig(JSON.parse(readFileSync(example, 'utf8')))).not.toThrow();
  });
});
