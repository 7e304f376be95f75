import { mkdir, mkdtemp, rm, stat, statfs, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OsInterfaces } from './linux/network.ts';
import { dateArgs } from './linux/set-clock.ts';
import { createLinuxHw } from './linux.ts';

const versions = { app: '1.4.5', bsp: '1.3.2', hmi: '4.5.0' };

// A fixed address table in place of the test machine's own.
const NET: OsInterfaces = {
  lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' }],
  eth0: [
    { address: '192.168.0.20', netmask: '255.255.255.0', family: 'IPv4', mac: '00:11:22:33:44:55', internal: false, cidr: '192.168.0.20/24' },
    {
      address: 'fe80::211:22ff:fe33:4455',
      netmask: 'ffff:ffff:ffff:ffff::',
      family: 'IPv6',
      mac: '00:11:22:33:44:55',
      internal: false,
      cidr: 'fe80::211:22ff:fe33:4455/64',
      scopeid: 2,
    },
  ],
};

const FILES: Record<string, string> = {
  'etc/os-release': 'NAME="Communicator OS"\nVERSION="1.3.2 (kirkstone)"\nVERSION_ID=1.3.2\n',
  'proc/uptime': '3725.41 7000.12\n',
  'proc/net/route':
    'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n' +
    'eth0\t00000000\t0100A8C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n' +
    'eth0\t0000A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n',
  'etc/resolv.conf': 'search plant.local\nnameserver 192.168.0.1\nnameserver 9.9.9.9\n',
  'etc/ntp.conf': 'server ntp.plant.local iburst\npool 0.pool.ntp.org\n',
  'run/systemd/timesync/synchronized': '',
  'sys/class/net/lo/operstate': 'unknown\n',
  'sys/class/net/eth0/operstate': 'up\n',
  'sys/class/net/eth0/address': '00:11:22:33:44:55\n',
  'sys/class/net/eth1/operstate': 'down\n',
  'sys/class/net/eth1/address': '00:11:22:33:44:56\n',
  'proc/net/tcp':
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n' +
    '   0: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 15432 1 0 100 0 0 10 0\n' +
    '   1: 0100007F:0CEA 00000000:0000 0A 00000000:00000000 00:00000000 00000000   102        0 17001 1 0 100 0 0 10 0\n' +
    '   2: 00000000:2386 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 99999 1 0 100 0 0 10 0\n' +
    '   3: 0A00A8C0:0016 0100A8C0:D431 01 00000000:00000000 02:0009B6E5 00000000     0        0 18222 4 0 20 4 29 10 -1\n' +
    '   4: 0A00A8C0:1F90 0100A8C0:D432 06 00000000:00000000 03:00001770 00000000     0        0 0 3 0\n',
  'proc/net/tcp6':
    '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n' +
    '   0: 00000000000000000000000000000000:0016 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 15434 1 0 100 0 0 10 0\n' +
    '   1: 00000000000000000000000000000000:01BB 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 15500 1 0 100 0 0 10 0\n' +
    '   2: 00000000000000000000000001000000:0050 00000000000000000000000001000000:C350 01 00000000:00000000 00:00000000 00000000     0        0 16000 1 0 100 0 0 10 0\n',
  'dev/ttymxc1': '',
};

let tmp: string;
let root: string;
let dataDir: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'hw-linux-'));
  root = path.join(tmp, 'root');
  dataDir = path.join(tmp, 'data');
  await mkdir(root);
});
afterEach(() => rm(tmp, { recursive: true, force: true }));

async function fakeTree(): Promise<void> {
  for (const [rel, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  }
  // This process holds the socket with inode 99999 (port 9094): one of the daemon's own listeners.
  await mkdir(path.join(root, 'proc/self/fd'), { recursive: true });
  await symlink('socket:[99999]', path.join(root, 'proc/self/fd/12'));
  await writeFile(path.join(tmp, 'apps.json'), JSON.stringify([{ name: 'HMI runtime', version: '4.5.0' }]));
}

describe('createLinuxHw on a fake root', () => {
  it('system information comes from the files, exactly', async () => {
    await fakeTree();
    const hw = createLinuxHw({ root, dataDir, versions, networkInterfaces: () => NET });
    const info = await hw.systemInfo();
    expect(hw.kind).toBe('linux');
    expect(info.os).toEqual({
      name: 'Communicator OS',
      version: '1.3.2',
      kernel: os.release(),
      hostname: os.hostname(),
      uptimeSeconds: 3725,
      arch: os.arch(),
    });
    expect(info.network).toEqual({
      interfaces: [
        { name: 'eth0', mac: '00:11:22:33:44:55', ipv4: ['192.168.0.20/24'], dhcp: false, up: true },
        { name: 'eth1', mac: '00:11:22:33:44:56', ipv4: [], dhcp: false, up: false },
      ],
      gateway: os.endianness() === 'LE' ? '192.168.0.1' : '1.0.168.192',
      dns: ['192.168.0.1', '9.9.9.9'],
    });
    expect(info.datetime.timezone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(Math.abs(Date.parse(info.datetime.iso) - Date.now())).toBeLessThan(5000);
    expect(info.datetime.ntp).toEqual({ enabled: true, servers: ['ntp.plant.local', '0.pool.ntp.org'], synchronized: true });
    expect(info.apps).toEqual([{ name: 'HMI runtime', version: '4.5.0' }]);
    expect(info.versions).toEqual(versions);
    expect(info.memory.totalBytes).toBe(os.totalmem());
  });

  it('NTP enabled follows the ntpd service', async () => {
    const hw = createLinuxHw({ root, dataDir, versions, networkInterfaces: () => ({}) });
    await hw.setService('ntpd', false);
    expect((await hw.systemInfo()).datetime.ntp.enabled).toBe(false);
  });

  it('a clock sync is left to NTP while it is on, and is set only on the unit itself', async () => {
    const hw = createLinuxHw({ root, dataDir, versions, networkInterfaces: () => ({}) });
    expect(await hw.setClock(Date.UTC(2026, 0, 1))).toBe('ntp');
    await hw.setService('ntpd', false);
    // a development machine (applyServices off) never has its clock set
    await expect(hw.setClock(Date.UTC(2026, 0, 1))).rejects.toThrow('only on the unit');
  });

  it('the clock is set by date with the instant in UTC to the millisecond, and nothing else', () => {
    expect(dateArgs(Date.UTC(2026, 11, 2, 8, 30, 0, 7))).toEqual(['-u', '-s', '@1796200200.007']);
    expect(dateArgs(0)).toEqual(['-u', '-s', '@0.000']);
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => dateArgs(bad)).toThrow('not an instant');
  });

  it('missing files give fallbacks, never an exception', async () => {
    const hw = createLinuxHw({ root, dataDir, versions, networkInterfaces: () => ({}) });
    const info = await hw.systemInfo();
    expect(info.os.name).toBe(os.type());
    expect(info.os.version).toBe('');
    expect(Math.abs(info.os.uptimeSeconds - os.uptime())).toBeLessThan(5);
    expect(info.network).toEqual({ interfaces: [], gateway: '', dns: [] });
    expect(info.datetime.ntp).toEqual({ enabled: true, servers: [], synchronized: false });
    expect(info.apps).toEqual([]);
    expect(await hw.systemTcpPorts()).toEqual([]);
    expect(await hw.serialPorts()).toEqual([
      { connector: 'COM1', path: path.join(root, 'dev/ttymxc1'), present: false },
      { connector: 'COM2', path: path.join(root, 'dev/ttymxc2'), present: false },
      { connector: 'COM3', path: path.join(root, 'dev/ttyACM0'), present: false },
    ]);
  });

  it('system TCP ports: LISTEN only, IPv4 and IPv6, unique, ascending, without our own sockets', async () => {
    await fakeTree();
    const hw = createLinuxHw({ root, dataDir, versions });
    expect(await hw.systemTcpPorts()).toEqual([22, 443, 3306]);
  });

  it('services round-trip, persist across instances, and unknown names are rejected', async () => {
    const a = createLinuxHw({ root, dataDir, versions });
    expect((await a.services()).filter((s) => s.enabled).map((s) => s.name)).toEqual(['ntpd', 'firewall']);
    await a.setService('sshd', true);
    await a.setService('firewall', false);
    const b = createLinuxHw({ root, dataDir, versions });
    expect((await b.services()).filter((s) => s.enabled).map((s) => s.name)).toEqual(['sshd', 'ntpd']);
    await expect(b.setService('telnetd' as never, true)).rejects.toThrow('unknown service');
  });

  it('volumes: internal and temp created; a plain USB folder is not a mounted stick', async () => {
    await mkdir(path.join(root, 'media/usb0'), { recursive: true });
    const hw = createLinuxHw({ root, dataDir, versions });
    const [internal, usb, temp] = await hw.volumes();
    const internalDir = path.join(dataDir, 'volumes/internal');
    const fsInfo = await statfs(internalDir);
    expect(internal).toEqual({ id: 'internal', path: internalDir, mounted: true, totalBytes: fsInfo.blocks * fsInfo.bsize, freeBytes: expect.any(Number) });
    expect(internal!.freeBytes).toBeGreaterThan(0);
    expect(internal!.freeBytes).toBeLessThanOrEqual(internal!.totalBytes);
    expect(usb).toEqual({ id: 'usb', path: path.join(root, 'media/usb0'), mounted: false, totalBytes: 0, freeBytes: 0 });
    expect(temp).toMatchObject({ id: 'temp', path: path.join(root, 'tmp/communicator'), mounted: true });
    expect((await stat(temp!.path)).isDirectory()).toBe(true);
  });

  it('volumes: a USB path that is a mount point counts as mounted', async () => {
    // /proc is a mount point on every Linux system; it stands in for a mounted stick.
    const hw = createLinuxHw({ root, dataDir, versions, usbPath: '/proc' });
    const usb = (await hw.volumes())[1]!;
    expect(usb).toMatchObject({ id: 'usb', path: '/proc', mounted: true });
  });

  it('serial ports: defaults under root, overrides as given, present when the node exists', async () => {
    await fakeTree();
    const pty = path.join(tmp, 'pty-com3');
    await writeFile(pty, '');
    const hw = createLinuxHw({ root, dataDir, versions, serialMap: { COM3: pty } });
    expect(await hw.serialPorts()).toEqual([
      { connector: 'COM1', path: path.join(root, 'dev/ttymxc1'), present: true },
      { connector: 'COM2', path: path.join(root, 'dev/ttymxc2'), present: false },
      { connector: 'COM3', path: pty, present: true },
    ]);
    expect(() => createLinuxHw({ root, dataDir, versions, serialMap: { COM4: pty } })).toThrow('unknown serial connector');
  });
});
