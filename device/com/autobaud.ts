// Autobaud (pew `autobaud`): the order in which rates are tried and how long to wait at each.
// The configured rate goes first (a PLC left at its setting is found at once), then the rates
// FP PLCs are most often set to (mewtocol.md §7: 19200, 115200, 9600 …), then the rest of spec §3.
import type { SerialSettings } from '../../hw/types.ts';
import { BAUD_RATES } from '../model/plc.ts';

const COMMON_FIRST = [19200, 115200, 9600, 57600, 38400, 230400, 4800, 2400, 1200];

export function autobaudOrder(configured: number): number[] {
  const rest = [...COMMON_FIRST, ...BAUD_RATES].filter((b, i, all) => all.indexOf(b) === i && b !== configured);
  return (BAUD_RATES as readonly number[]).includes(configured) ? [configured, ...rest] : rest;
}

/** chars of the longest probe exchange (request + answer: an EXRT/STRD status is ~60 chars) */
const PROBE_CHARS = 80;
/** the PLC's scan and turnaround, and the host's scheduling */
const PROBE_SLACK_MS = 150;

/** How long to wait for a probe's answer at this rate: twice the wire time plus slack. */
export function probeTimeoutMs(baud: number, s: Pick<SerialSettings, 'dataBits' | 'parity' | 'stopBits'>): number {
  const bits = 1 + s.dataBits + (s.parity === 'none' ? 0 : 1) + s.stopBits;
  return Math.ceil((2 * PROBE_CHARS * bits * 1000) / baud) + PROBE_SLACK_MS;
}
