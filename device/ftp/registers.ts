// The PLC's control register block of the FTP send (spec §3 pew_ftpc plc_control_dt, §9 FTP control
// register offset 6, default DT200), read and written through the service control interface
// (pew.interface_plc) every plc_poll seconds. Layout (docs/ftp.md):
//
//   DT n     request, written by the PLC: ≠ 0 asks for a send; the unit writes 0 back when it
//            takes the request (at once when idle, after the running send otherwise)
//   DT n+1   state, written by the unit: 0 idle, 1 running (retries included), 2 done, 3 error
//   DT n+2   error code of the last send (0 when it succeeded), see FTP_ERROR below
//   DT n+3   files sent by the last send
//   DT n+4   files of the last send that could not be sent (still waiting, not renamed)
//   DT n+5   sends finished since the engine started (done or error, 0–65535, wraps): a new
//            result shows even when state and code repeat
import { FTP_REGISTERS } from '../model/sections/ftpc.ts';
import type { TestFailure } from '../model/servicetest.ts';

export { FTP_REGISTERS };

export const REG = { request: 0, state: 1, error: 2, sent: 3, failed: 4, counter: 5 } as const;

export const FTP_STATE = { idle: 0, running: 1, done: 2, error: 3 } as const;
export type FtpState = keyof typeof FTP_STATE;

/** The error codes of DT n+2: a remote failure by its reason, a local one, or none. */
export const FTP_ERROR = {
  none: 0,
  unknown_host: 1, // the server's (or proxy's) name does not resolve
  refused: 2, // nothing listens, or the connection broke during the send
  timeout: 3, // no answer in time
  tls: 4, // TLS handshake failed: certificate not trusted, version refused
  auth_failed: 5, // user or password refused
  server_refused: 6, // the server refused the directory or a file (missing directory, no permission)
  local: 7, // the local directory or a local file cannot be read, or a sent file not renamed
  other: 8, // an answer not understood, any other failure
} as const;
export type FtpErrorName = keyof typeof FTP_ERROR;

/** The error name of a classified remote failure. */
export function errorOf(reason: TestFailure): FtpErrorName {
  switch (reason) {
    case 'unknown_host': return 'unknown_host';
    case 'refused': return 'refused';
    case 'timeout': return 'timeout';
    case 'tls_untrusted':
    case 'tls_version': return 'tls';
    case 'auth_failed': return 'auth_failed';
    case 'not_found':
    case 'peer_error': return 'server_refused';
    default: return 'other';
  }
}

export interface StatusWords {
  state: FtpState;
  error: FtpErrorName;
  sent: number;
  failed: number;
  counter: number;
}

const word = (n: number): number => Math.max(0, Math.min(0xffff, Math.trunc(n)));

/** The words DT n+1 … n+5 of a status, in register order. */
export function statusWords(s: StatusWords): number[] {
  return [FTP_STATE[s.state], FTP_ERROR[s.error], word(s.sent), word(s.failed), s.counter & 0xffff];
}
