// The PLC's control register block of the FTP send (spec §3 pew_ftpc plc_control_dt, §9 FTP control
// register offset 6, default DT200), read and written through the service control interface
// (pew.interface_plc) every plc_poll seconds. Its layout is the table device/model/blocks/ftp.ts
// (request, state, error code, files sent, files failed, counter; docs/ftp.md).

import { errorOfFailure, offsetOf, SERVICE_ERROR } from '../model/blocks/convention.ts';
import { FTP_BLOCK } from '../model/blocks/ftp.ts';
import { FTP_REGISTERS } from '../model/sections/ftpc.ts';
import type { TestFailure } from '../model/servicetest.ts';

export { FTP_REGISTERS };

/** the offsets of the block's words, from its table (device/model/blocks/ftp.ts) */
export const REG = {
  request: offsetOf(FTP_BLOCK, 'request'),
  state: offsetOf(FTP_BLOCK, 'state'),
  error: offsetOf(FTP_BLOCK, 'error'),
  sent: offsetOf(FTP_BLOCK, 'sent'),
  failed: offsetOf(FTP_BLOCK, 'failed'),
  counter: offsetOf(FTP_BLOCK, 'counter'),
} as const;
// taking a request writes the request and state words in one write (engine.ts)
if (REG.state !== REG.request + 1) throw new Error('the FTP block needs its state word right after its request word');

export const FTP_STATE = { idle: 0, running: 1, done: 2, error: 3 } as const;
export type FtpState = keyof typeof FTP_STATE;

/** The error codes of DT n+2: the part of the one classification (SERVICE_ERROR) an FTP send can end in. */
export const FTP_ERROR = {
  none: SERVICE_ERROR.none,
  unknown_host: SERVICE_ERROR.unknown_host,
  refused: SERVICE_ERROR.refused,
  timeout: SERVICE_ERROR.timeout,
  tls: SERVICE_ERROR.tls,
  auth_failed: SERVICE_ERROR.auth_failed,
  server_refused: SERVICE_ERROR.server_refused,
  local: SERVICE_ERROR.local,
  other: SERVICE_ERROR.other,
} as const;
export type FtpErrorName = keyof typeof FTP_ERROR;

/** The error name of a classified remote failure. */
export function errorOf(reason: TestFailure): FtpErrorName {
  return errorOfFailure(reason) as FtpErrorName;
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
