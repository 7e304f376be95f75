// The PLC's two registers of each part of the TLS bridge (spec §9: TLS control register offset 2,
// client part plc_control_dt default DT360, server part plc_status_dt default DT362), read and
// written through the service control interface (pew.interface_plc) every plc_poll /
// plc_poll_tlsserver seconds. Layout (docs/tls.md):
//
//   DT n     control, written by the PLC: 0 the part runs (the PLC's power-on value), 1 the PLC stops
//            it (listener and connections closed until the word is 0 again)
//   DT n+1   status, written by the unit when it changes:
//              bit 0  listening          bit 1  stopped by the PLC
//              bit 2  error: a TLS handshake failed, a destination could not be reached, or the
//                     port cannot be opened, since the previous poll
//              bits 8-15  connections open now (at most 255)
import type { PartStatus } from './part.ts';

export const CONTROL_STOP = 1;
export const STATUS_LISTENING = 1;
export const STATUS_STOPPED = 2;
export const STATUS_ERROR = 4;
export const MAX_CONNECTIONS_SHOWN = 255;

/** The status word of a part; `failures` is how many handshakes and destinations failed since the previous poll. */
export function statusWord(s: PartStatus, failures: number): number {
  let w = 0;
  if (s.listening) w |= STATUS_LISTENING;
  if (s.stoppedByPlc) w |= STATUS_STOPPED;
  if (failures > 0 || (!s.listening && !s.stoppedByPlc)) w |= STATUS_ERROR;
  return w | (Math.min(s.connections, MAX_CONNECTIONS_SHOWN) << 8);
}

/** Whether the control word asks the part to stop. */
export const stopRequested = (control: number): boolean => (control & CONTROL_STOP) !== 0;
