// The Hw seam on the unit itself: system files under /proc, /etc, /sys and /run, systemctl for
// services, the storage folders and the serial device nodes.

import os from 'node:os';
import path from 'node:path';
import { exists, readText, rooted } from './linux/files.ts';
import { type OsInterfaces, readInterfaces } from './linux/network.ts';
import { readSystemTcpPorts } from './linux/ports.ts';
import { readSerialPorts, serialPaths } from './linux/serial.ts';
import { setSystemClock } from './linux/set-clock.ts';
import { parseApps, parseDefaultGateway, parseNtpConf, parseOsRelease, parseResolvConf, parseUptime } from './linux/system.ts';
import { applyService } from './linux/systemctl.ts';
import { readTimeZone } from './linux/time-zone.ts';
import { readVolumes } from './linux/volumes.ts';
import { openSerialChannel } from './serial-channel.ts';
import { createServiceStore } from './services.ts';
import { type ClockSetting, type Hw, type SystemInfo, systemClock, type Versions } from './types.ts';

export interface LinuxHwOptions {
  /** prefix of every absolute system path (default '/'); tests point it at a fake tree */
  root?: string;
  /** the daemon's data folder; services.json and the internal volume live here */
  dataDir: string;
  /** connector (COM1..COM3) → device path, overriding the BSP defaults */
  serialMap?: Record<string, string>;
  versions: Versions;
  /** run `systemctl enable|disable --now` on a service change, and `date -s` on a clock sync (only on the unit) */
  applyServices?: boolean;
  /** the USB stick's mount point (default `${root}/media/usb0`) */
  usbPath?: string;
  /** source of interface addresses (default os.networkInterfaces); tests pass a fixed table */
  networkInterfaces?: () => OsInterfaces;
}

export function createLinuxHw(opts: LinuxHwOptions): Hw {
  const root = opts.root ?? '/';
  const sys = (p: string) => rooted(root, p);
  const services = createServiceStore({
    file: path.join(opts.dataDir, 'services.json'),
    ...(opts.applyServices ? { apply: applyService } : {}),
  });
  const serial = serialPaths(root, opts.serialMap);
  const volumes = {
    internal: path.join(opts.dataDir, 'volumes', 'internal'),
    usb: opts.usbPath ?? sys('/media/usb0'),
    temp: sys('/tmp/communicator'),
  };
  const netSource = opts.networkInterfaces ?? os.networkInterfaces;
  const clock = systemClock;

  async function systemInfo(): Promise<SystemInfo> {
    // /usr/lib/os-release is the fallback location named by os-release(5).
    const release = parseOsRelease((await readText(sys('/etc/os-release'))) ?? (await readText(sys('/usr/lib/os-release'))) ?? '');
    const uptime = parseUptime((await readText(sys('/proc/uptime'))) ?? '');
    const ntpEnabled = await services.enabled('ntpd');
    return {
      os: {
        name: release.name ?? os.type(),
        version: release.version ?? '',
        kernel: os.release(),
        hostname: os.hostname(),
        uptimeSeconds: uptime ?? Math.floor(os.uptime()),
        arch: os.arch(),
      },
      network: {
        interfaces: await readInterfaces(sys('/sys/class/net'), netSource()),
        gateway: parseDefaultGateway((await readText(sys('/proc/net/route'))) ?? ''),
        dns: parseResolvConf((await readText(sys('/etc/resolv.conf'))) ?? ''),
      },
      datetime: {
        iso: new Date(clock.now()).toISOString(),
        timezone: await readTimeZone(root),
        ntp: {
          enabled: ntpEnabled,
          servers: parseNtpConf((await readText(sys('/etc/ntp.conf'))) ?? ''),
          // systemd-timesyncd touches this file once the clock is synchronised; no file, no claim.
          synchronized: await exists(sys('/run/systemd/timesync/synchronized')),
        },
      },
      // apps.json sits beside the data dir: the firmware image writes it, the daemon only reads it.
      apps: parseApps((await readText(path.join(opts.dataDir, '..', 'apps.json'))) ?? ''),
      versions: { ...opts.versions },
      memory: { totalBytes: os.totalmem(), freeBytes: os.freemem() },
    };
  }

  return {
    kind: 'linux',
    clock,
    systemInfo,
    services: () => services.list(),
    setService: (name, enabled) => services.set(name, enabled),
    volumes: () => readVolumes(volumes),
    serialPorts: () => readSerialPorts(serial),
    openSerial: async (connector, settings) => {
      const dev = serial[connector];
      if (dev === undefined) throw new RangeError(`unknown serial connector: ${connector}`);
      return openSerialChannel(dev, settings);
    },
    systemTcpPorts: () => readSystemTcpPorts(root),
    setClock: async (epochMs): Promise<ClockSetting> => {
      if (await services.enabled('ntpd')) return 'ntp';
      if (!opts.applyServices) throw new Error('the clock is set only on the unit itself');
      await setSystemClock(epochMs);
      return 'set';
    },
  };
}
