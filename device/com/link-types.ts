// The shapes of a PLC link (link.ts): its configuration from pew, what it depends on, and the
// status and statistics it reports (GET /config/com_status).
import type { ByteChannel, Clock, SerialSettings } from '../../hw/types.ts';
import type { Tap } from '../diag/capture.ts';
import type { StatusReason } from '../model/reasons.ts';
import type { Logger } from '../system/log.ts';
import type { PlcDriver } from './driver.ts';
import type { LineStats } from './line-guard.ts';
import type { QueueStats } from './queue.ts';

export type LinkKind = 'serial' | 'tcp' | 'internal';
export type LinkState = 'connecting' | 'up' | 'down' | 'absent';
export type Protocol = 'MEWTOCOL' | 'MEWTOCOL7' | 'MODBUS';

export interface LinkConfig {
  id: number;
  name: string;
  kind: LinkKind;
  protocol: Protocol;
  serial: SerialSettings;
  autobaud: boolean;
  timeoutMs: number;
  /** pause after each answer before the next request (pew `wait`) */
  waitMs: number;
  /** COM4: "a.b.c.d:port" */
  ipPort: string;
  /** station the link's own requests address: 1-99 (MEWTOCOL), 1-247 (Modbus); 0 = any (EE) / unit 1 */
  station: number;
}

export interface LinkDeps {
  /** opens the channel of this link at a baud rate (ignored by TCP and INTERNAL) */
  open(baudRate: number): Promise<ByteChannel>;
  driver: PlcDriver;
  /** a driver that addresses another station on the same line (RS485 multi-drop: the logger's plc_addr) */
  driverAt?: (station: number) => PlcDriver;
  clock: Clock;
  log: Logger;
  retries?: number;
  reconnect?: { firstMs: number; maxMs: number };
  /** the link's handle on the monitor's capture (device/diag/capture.ts) */
  tap?: Tap;
}

export interface LinkStats extends QueueStats, LineStats {
  bytesOut: number;
  bytesIn: number;
  /** times the channel was opened again after it had been lost (port closed, TCP connection ended) */
  reconnects: number;
  /** share of the time since the counters started (`since`) that the wire was busy, 0-1 */
  busyShare: number;
  /** when the counters started: the link's start or their last reset (ms since the epoch; absent for a disabled interface) */
  since?: number;
}

export interface LinkStatus {
  id: number;
  name: string;
  protocol: Protocol;
  transport: LinkKind;
  state: LinkState;
  /** why the link is not up (absent when it is) */
  reason?: StatusReason;
  baudRate?: number;
  autobaud?: 'searching' | 'found' | 'failed';
  stats: LinkStats;
}

/** Thrown when the channel cannot be opened: `absent` for a connector the unit does not have; `reason` for the console. */
export class OpenError extends Error {
  constructor(
    readonly absent: boolean,
    message: string,
    readonly reason: StatusReason,
    readonly refused = false,
  ) {
    super(message);
  }
}
