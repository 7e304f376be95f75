// The Hw seam of the simulator: a virtual unit on a laptop. System facts are fixed and plausible,
// services are stored exactly as on the unit (hw/services.ts), volumes are folders in the data dir.
import path from 'node:path';
import { openSerialChannel } from '../hw/serial-channel.ts';
import { createServiceStore } from '../hw/services.ts';
import {
  type ByteChannel,
  type Clock,
  type ClockSetting,
  type Hw,
  type SerialPortInfo,
  type SerialSettings,
  type SystemInfo,
  systemClock,
  type Versions,
  VOLUME_IDS,
} from '../hw/types.ts';
import { ensureDir, volumeAt } from '../hw/volumes.ts';

export interface SimHwOptions {
  /** the simulator's data folder; services.json and volumes/ live here */
  dataDir: string;
  clock?: Clock;
  versions: Versions;
  /** connector (COM1..COM3) → path of an attached virtual wire; unmapped connectors are absent */
  serialMap?: Record<string, string>;
  /** connector → in-process wire to a virtual PLC (sim/plc), used when the connector has no device path */
  virtualPorts?: Record<string, (settings: SerialSettings) => ByteChannel>;
}

export const SIM_CONNECTORS = ['COM1', 'COM2', 'COM3'] as const;

/**
 * The simulated unit's own sshd (22) and web server (80, 443). Fixed, not read from the laptop:
 * the laptop's listeners say nothing about the unit, and port checks must give the same answer
 * on every developer's machine.
 */
export const SIM_SYSTEM_TCP_PORTS: readonly number[] = [22, 80, 443];

const MIB = 1024 * 1024;

export function createSimHw(opts: SimHwOptions): Hw {
  // the virtual unit's clock: the simulator's (or the test's) clock, moved by a control station's
  // clock sync as the unit's own clock would be
  const base = opts.clock ?? systemClock;
  let offsetMs = 0;
  const clock: Clock = { now: () => base.now() + offsetMs };
  const bootedAt = clock.now();
  const serialMap = opts.serialMap ?? {};
  const virtualPorts = opts.virtualPorts ?? {};
  for (const connector of [...Object.keys(serialMap), ...Object.keys(virtualPorts)]) {
    if (!(SIM_CONNECTORS as readonly string[]).includes(connector)) throw new RangeError(`unknown serial connector: ${connector}`);
  }
  const services = createServiceStore({ file: path.join(opts.dataDir, 'services.json') });

  async function systemInfo(): Promise<SystemInfo> {
    const ntpEnabled = await services.enabled('ntpd');
    return {
      os: {
        name: 'Communicator OS (simulated)',
        version: opts.versions.bsp,
        kernel: '5.15.71-sim',
        hostname: 'communicator-sim',
        uptimeSeconds: Math.max(0, Math.floor((clock.now() - bootedAt) / 1000)),
        arch: 'arm',
      },
      network: {
        interfaces: [
          // 02:… is a locally administered MAC: it can never clash with a real vendor's address.
          { name: 'eth0', mac: '02:00:00:c0:a8:0a', ipv4: ['192.168.0.10/24'], dhcp: false, up: true },
        ],
        gateway: '192.168.0.1',
        dns: ['192.168.0.1'],
      },
      datetime: {
        iso: new Date(clock.now()).toISOString(),
        timezone: 'UTC',
        // The virtual unit's clock is the simulator's clock: synchronised whenever NTP is on.
        ntp: { enabled: ntpEnabled, servers: ['pool.ntp.org'], synchronized: ntpEnabled },
      },
      apps: [{ name: 'HMI runtime', version: opts.versions.hmi }],
      versions: { ...opts.versions },
      memory: { totalBytes: 512 * MIB, freeBytes: 256 * MIB },
    };
  }

  return {
    kind: 'sim',
    clock,
    systemInfo,
    services: () => services.list(),
    setService: (name, enabled) => services.set(name, enabled),
    setClock: async (epochMs): Promise<ClockSetting> => {
      if (await services.enabled('ntpd')) return 'ntp';
      offsetMs = epochMs - base.now();
      return 'set';
    },
    volumes: () =>
      Promise.all(
        VOLUME_IDS.map(async (id) => {
          const dir = path.join(opts.dataDir, 'volumes', id);
          return volumeAt(id, dir, await ensureDir(dir));
        }),
      ),
    serialPorts: async (): Promise<SerialPortInfo[]> =>
      SIM_CONNECTORS.map((connector) => {
        const mapped = serialMap[connector];
        if (mapped !== undefined) return { connector, path: mapped, present: true };
        // An unmapped connector has no path: nothing on the laptop may be opened in its name.
        return { connector, path: virtualPorts[connector] ? `virtual:${connector}` : '', present: connector in virtualPorts };
      }),
    openSerial: async (connector, settings) => {
      const mapped = serialMap[connector];
      if (mapped !== undefined) return openSerialChannel(mapped, settings);
      const wire = virtualPorts[connector];
      if (!wire) throw new Error(`${connector} is not present on this unit`);
      return wire(settings);
    },
    systemTcpPorts: async () => [...SIM_SYSTEM_TCP_PORTS],
  };
}
