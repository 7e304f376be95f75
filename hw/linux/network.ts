// The unit's network interfaces: addresses from node:os, plus /sys/class/net so that a port with
// no cable (and so no address, which node:os leaves out) is still listed, as down.

import { readdir } from 'node:fs/promises';
import type os from 'node:os';
import path from 'node:path';
import type { NetworkInterface } from '../types.ts';
import { readText } from './files.ts';

export type OsInterfaces = ReturnType<typeof os.networkInterfaces>;

const NO_MAC = '00:00:00:00:00:00';

export async function readInterfaces(sysNet: string, fromOs: OsInterfaces): Promise<NetworkInterface[]> {
  const names = new Set<string>();
  for (const [name, addrs] of Object.entries(fromOs)) {
    if (addrs && !addrs.every((a) => a.internal)) names.add(name);
  }
  for (const name of await readdir(sysNet).catch(() => [] as string[])) {
    if (name !== 'lo') names.add(name);
  }

  const out: NetworkInterface[] = [];
  for (const name of [...names].sort()) {
    const addrs = fromOs[name] ?? [];
    // Node 18.0-18.3 reported the family as a number.
    const ipv4 = addrs.filter((a) => (a.family as string | number) === 'IPv4' || (a.family as string | number) === 4).flatMap((a) => (a.cidr ? [a.cidr] : []));
    const osMac = addrs.find((a) => a.mac && a.mac !== NO_MAC)?.mac;
    const sysMac = (await readText(path.join(sysNet, name, 'address')))?.trim();
    const operstate = (await readText(path.join(sysNet, name, 'operstate')))?.trim();
    out.push({
      name,
      mac: osMac ?? (sysMac || NO_MAC),
      ipv4,
      dhcp: false, // which addresses came from a DHCP lease is not visible here; reported as static
      up: isUp(operstate, addrs.length > 0),
    });
  }
  return out;
}

// operstate "unknown" is common for drivers that do not report carrier (tun, some USB NICs): such
// an interface counts as up when it holds an address, as it does when there is no /sys at all.
function isUp(operstate: string | undefined, hasAddress: boolean): boolean {
  if (operstate === 'up') return true;
  if (operstate === undefined || operstate === 'unknown') return hasAddress;
  return false;
}
