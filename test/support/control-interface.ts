// Test and bench support: COM1 as the service control interface (the PLC that drives the services).
import type { Pew } from '../../device/model/sections/pew.ts';

export const COM1 = 0; // interface id of COM1 (device/com/links.ts CONNECTOR_OF)

/** `pew` with COM1 enabled as a MEWTOCOL line at `framing` (no autobaud) and made the control interface to station 1. */
export function com1AsControlInterface(pew: Pew, framing: { baud: number; bits: number; parity: string; stopbits: number }): Pew {
  Object.assign(pew.interfaces.find((i) => i.id === COM1)!, {
    enabled: true,
    mode: 1,
    protocol: 'MEWTOCOL',
    baudrate: framing.baud,
    bits: framing.bits,
    parity: framing.parity,
    stopbits: framing.stopbits,
    // the virtual PLC answers from the test's own process, late on a busy machine: the services'
    // tests are not about the link's timeout (a PLC write that timed out would show as an error)
    timeout: 2000,
    autobaud: false,
  });
  return Object.assign(pew, { interface_plc: COM1, address_plc: 1 });
}
