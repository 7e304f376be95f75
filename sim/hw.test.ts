import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../hw/types.ts';
import { createSimHw } from './hw.ts';

const versions = { app: '1.4.5', bsp: '1.3.2', hmi: '4.5.0' };
const START = Date.UTC(2025, 0, 15, 8, 30, 0);

let dataDir: string;
let now: number;
const clock: Clock = { now: () => now };
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sim-hw-'));
  now = START;
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('createSimHw', () => {
  it('reports the fixed virtual unit, uptime from the injected clock', async () => {
    const hw = createSimHw({ dataDir, clock, versions });
    now = START + 90_999;
    expect(hw.kind).toBe('sim');
    expect(hw.clock.now()).toBe(now);
    expect(await hw.systemInfo()).toEqual({
      os: { name: 'Communicator OS (simulated)', version: '1.3.2', kernel: '5.15.71-sim', hostname: 'communicator-sim', uptimeSeconds: 90, arch: 'arm' },
      network: {
        interfaces: [{ name: 'eth0', mac: '02:00:00:c0:a8:0a', ipv4: ['192.168.0.10/24'], dhcp: false, up: true }],
        gateway: '192.168.0.1',
        dns: ['192.168.0.1'],
      },
      datetime: { iso: '2025-01-15T08:31:30.999Z', timezone: 'UTC', ntp: { enabled: true, servers: ['pool.ntp.org'], synchronized: true } },
      apps: [{ name: 'HMI runtime', version: '4.5.0' }],
      versions,
      memory: { totalBytes: 536870912, freeBytes: 268435456 },
    });
  });

  it("services use the unit's file and defaults, persist, and follow into NTP", async () => {
    const a = createSimHw({ dataDir, clock, versions });
    expect((await a.services()).filter((s) => s.enabled).map((s) => s.name)).toEqual(['ntpd', 'firewall']);
    await a.setService('x11vnc', true);
    await a.setService('ntpd', false);
    const b = createSimHw({ dataDir, clock, versions });
    expect((await b.services()).filter((s) => s.enabled).map((s) => s.name)).toEqual(['x11vnc', 'firewall']);
    expect((await b.systemInfo()).datetime.ntp).toEqual({ enabled: false, servers: ['pool.ntp.org'], synchronized: false });
    expect(JSON.parse(await readFile(path.join(dataDir, 'services.json'), 'utf8'))).toMatchObject({ x11vnc: true, ntpd: false });
    await expect(b.setService('telnetd' as never, true)).rejects.toThrow('unknown service');
  });

  it("a clock sync moves the virtual unit's clock while NTP is off, and is left to NTP while it is on", async () => {
    const hw = createSimHw({ dataDir, clock, versions });
    expect(await hw.setClock(START + 3_600_000)).toBe('ntp'); // NTP is on by default
    expect(hw.clock.now()).toBe(START);
    await hw.setService('ntpd', false);
    expect(await hw.setClock(START + 3_600_000)).toBe('set');
    expect(hw.clock.now()).toBe(START + 3_600_000);
    now = START + 1000; // the clock runs on from the instant it was set to
    expect(hw.clock.now()).toBe(START + 3_601_000);
    expect((await hw.systemInfo()).datetime.iso).toBe('2025-01-15T09:30:01.000Z');
  });

  it('volumes are created folders in the data dir with real sizes', async () => {
    const hw = createSimHw({ dataDir, clock, versions });
    const vols = await hw.volumes();
    expect(vols.map((v) => [v.id, v.path, v.mounted])).toEqual([
      ['internal', path.join(dataDir, 'volumes/internal'), true],
      ['usb', path.join(dataDir, 'volumes/usb'), true],
      ['temp', path.join(dataDir, 'volumes/temp'), true],
    ]);
    for (const v of vols) {
      expect((await stat(v.path)).isDirectory()).toBe(true);
      expect(v.totalBytes).toBeGreaterThan(0);
      expect(v.freeBytes).toBeGreaterThan(0);
      expect(v.freeBytes).toBeLessThanOrEqual(v.totalBytes);
    }
  });

  it('serial connectors are absent unless mapped; an unknown connector is refused', async () => {
    expect(await createSimHw({ dataDir, clock, versions }).serialPorts()).toEqual([
      { connector: 'COM1', path: '', present: false },
      { connector: 'COM2', path: '', present: false },
      { connector: 'COM3', path: '', present: false },
    ]);
    const hw = createSimHw({ dataDir, clock, versions, serialMap: { COM2: '/tmp/virtual-plc-1' } });
    expect((await hw.serialPorts())[1]).toEqual({ connector: 'COM2', path: '/tmp/virtual-plc-1', present: true });
    expect(() => createSimHw({ dataDir, versions, serialMap: { COM9: 'x' } })).toThrow('unknown serial connector');
  });

  it("system TCP ports are the virtual unit's sshd and web ports, and callers get a copy", async () => {
    const hw = createSimHw({ dataDir, clock, versions });
    const ports = await hw.systemTcpPorts();
    expect(ports).toEqual([22, 80, 443]);
    ports.push(9094);
    expect(await hw.systemTcpPorts()).toEqual([22, 80, 443]);
  });
});
