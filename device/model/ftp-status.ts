// The live state of the FTP send (spec §3 pew_ftpc and pew_script, §4 rename after a send):
// `GET /config/ftp_status`; plain types, so the console can import them. docs/ftp.md.

/** what started a send: the PLC's request word, or the script's transmission cycle */
export type FtpTrigger = 'plc' | 'cycle';

/** DT n+1 of the control block: idle, running (retries included), done, error */
export type FtpSendState = 'idle' | 'running' | 'done' | 'error';

export interface FtpLastSend {
  trigger: FtpTrigger;
  /** unit clock, ms since the epoch */
  started: number;
  finished: number;
  result: 'done' | 'error';
  /** local names of the files sent (each renamed afterwards) */
  files: string[];
  bytes: number;
  /** files that matched but were not sent (still waiting under their names) */
  failed: number;
  /** logger files held back because the logger may still write to them */
  held: string[];
  /** attempts made: 1 + retries */
  attempts: number;
  /** files an earlier send renamed and this one deleted (store_send off) */
  deleted: number;
  error?: { code: string; number: number; message: string };
}

export interface FtpStatus {
  /** enable_ftp of the saved pew_ftpc */
  enabled: boolean;
  /** the script's transmission cycle runs (ftp_transmission) */
  cycle: boolean;
  /** the next send of the cycle, unit clock ms */
  nextCycle?: number;
  running: boolean;
  state: FtpSendState;
  /** while a failed attempt waits for its retry: when it is tried again (unit clock ms) */
  retryAt?: number;
  /** the local directory as resolved (`<volume>/<path>`) */
  localDir: string;
  /** why the PLC's control block cannot be read or written now ('' when it can) */
  plc: string;
  lastSend?: FtpLastSend;
}
