// The unit's serial connectors and the device node behind each.

import type { SerialPortInfo } from '../types.ts';
import { exists, rooted } from './files.ts';

/** Device nodes of the unit's connectors (BSP device tree: two i.MX UARTs and a USB CDC port). */
export const SERIAL_DEFAULTS: Readonly<Record<string, string>> = {
  COM1: '/dev/ttymxc1',
  COM2: '/dev/ttymxc2',
  COM3: '/dev/ttyACM0',
};

/**
 * Connector → device path. Default paths sit under `root`; paths from `serialMap` are taken as
 * given, since they usually name a pseudo-terminal of a test or a bench set-up.
 */
export function serialPaths(root: string, serialMap: Record<string, string> = {}): Record<string, string> {
  for (const connector of Object.keys(serialMap)) {
    // A typo here would silently leave a connector on its default device: fail at start-up instead.
    if (!(connector in SERIAL_DEFAULTS)) throw new RangeError(`unknown serial connector: ${connector}`);
  }
  return Object.fromEntries(Object.entries(SERIAL_DEFAULTS).map(([c, dev]) => [c, serialMap[c] ?? rooted(root, dev)]));
}

export async function readSerialPorts(paths: Record<string, string>): Promise<SerialPortInfo[]> {
  return Promise.all(Object.entries(paths).map(async ([connector, path]) => ({ connector, path, present: await exists(path) })));
}
