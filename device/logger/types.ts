// The data logger's shared vocabulary (spec §3 Data logger; architecture: device/logger). The pure
// cores (values, planner, CSV text, file names, triggers) and the shells (the CSV store on a volume,
// the engine on the links, the file routes) meet on these types only.
import type { VolumeId } from '../../hw/types.ts';
import type { StatusReason } from '../model/reasons.ts';
import type { Log } from '../model/sections/log.ts';
import type { LogFile, LogRecord } from '../model/sections/logfile.ts';

export type { Log, LogFile, LogRecord };

/** The word areas a data point is read from: X, Y, R points are bits of WX, WY, WR words. */
export type LogWordArea = 'DT' | 'FL' | 'LD' | 'WX' | 'WY' | 'WR';

/** Where one data point's words are in the PLC, resolved from its record (area, reg_addr, type). */
export interface PointSource {
  /** the point's key: `<log file index>.<record index>` in pew_log.log_def */
  key: string;
  /** interface id (spec §3 COM: 1–5, INTERNAL) */
  interfaceId: number;
  /** station of the request, 0 = the link's own */
  station: number;
  area: LogWordArea;
  /** first word */
  word: number;
  /** words the value occupies (types.ts typeWords) */
  words: number;
  /** X, Y, R points: the bit 0–15 in `word` */
  bit?: number;
}

/** One block read the planner asks the link for; `points` are the keys it serves. */
export interface BlockRead {
  interfaceId: number;
  station: number;
  area: LogWordArea;
  start: number;
  count: number;
  points: string[];
}

/** A value ready for the CSV: a number (scaled, unrounded), a text (ascii, string, dt) or missing (read failed). */
export type LogValue = number | bigint | string | null;

/** One line of a log file: the time it stands for and a value per data point, in record order. */
export interface LogLine {
  /** ms since the epoch: the unit's clock, or the PLC's (plc_rtc_dt) */
  at: number;
  values: LogValue[];
}

/** What a log file's writer reports (spec §4: the write status signals stop, error or low memory). */
export type WriteState = 'ok' | 'stopped' | 'error' | 'low_memory';

export interface WriteStatus {
  state: WriteState;
  /** the causes, none when ok (device/model/reasons.ts: usb_removed, volume_full …) */
  reasons: StatusReason[];
  volume: VolumeId;
  /** the file written last, relative to the volume's log folder */
  file?: string;
}

/** Log files live in this folder of their volume (spec §3 storage internal / USB / temp). */
export const LOG_FOLDER = 'log';
