// Test and bench support: one MEWTOCOL link over a serial line of our own (no daemon), as the
// daemon's link queue runs it: a virtual PLC on an in-process wire or a pseudo-terminal.
import { Link } from '../../device/com/link.ts';
import type { LinkConfig } from '../../device/com/link-types.ts';
import { MewtocolDriver } from '../../device/com/mewtocol-driver.ts';
import type { MewStation } from '../../device/protocol/index.ts';
import { createLogger, type Logger } from '../../device/system/log.ts';
import type { ByteChannel, SerialSettings } from '../../hw/types.ts';
import { systemClock } from '../../hw/types.ts';
import type { SerialFraming } from '../../sim/wire.ts';

export interface SerialLinkOptions {
  framing: SerialFraming;
  /** opens the line at the link's settings (the baud rate may differ while it searches) */
  open: (settings: SerialSettings) => Promise<ByteChannel> | ByteChannel;
  station?: MewStation;
  /** the interface id and name the link reports */
  id?: number;
  name?: string;
  /** how long the link waits for an answer (default 2 s: a virtual PLC in a busy process answers late) */
  timeoutMs?: number;
  log?: Logger;
  reconnect?: { firstMs: number; maxMs: number };
}

export function serialLink(o: SerialLinkOptions): Link {
  const f = o.framing;
  const cfg: LinkConfig = {
    id: o.id ?? 0,
    name: o.name ?? 'COM1',
    kind: 'serial',
    protocol: 'MEWTOCOL',
    autobaud: false,
    timeoutMs: o.timeoutMs ?? 2000,
    waitMs: 0,
    ipPort: '',
    station: typeof o.station === 'number' ? o.station : 0,
    serial: { baudRate: f.baud, dataBits: f.bits, parity: f.parity, stopBits: f.stopbits, rtscts: false },
  };
  return new Link(cfg, {
    driver: new MewtocolDriver(o.station ?? 'EE'),
    clock: systemClock,
    log: o.log ?? createLogger({ clock: systemClock, sink: null }),
    ...(o.reconnect ? { reconnect: o.reconnect } : {}),
    open: async (baudRate) => o.open({ ...cfg.serial, baudRate }),
  });
}
