// A virtual PLC on a serial wire. The daemon opens the connector with its line settings and gets an
// in-process ByteChannel; what it writes crosses the wire at the host's framing to the PLC, which
// receives it with its own framing (a mismatch garbles exactly as `received()` in sim/wire.ts), and
// the answers come back the same way at wire speed. The PLC's framing can be changed at run time
// (somebody reconfigured the PLC); unplugging loses what is on the wire and everything written
// until it is plugged again, both ways, while the channel stays open, as with a pulled RS232 cable.

import { ConnectionGuard, type GuardedConnection, stderrFaultLog } from '../../device/net/connection-guard.ts';
import type { ByteChannel, SerialSettings } from '../../hw/types.ts';
import { framingOf, realTimers, type SerialFraming, type Timers, WireDirection, wireMs } from '../wire.ts';
import { createPlcEndpoint, type PlcEndpoint, type PlcProtocol } from './endpoint.ts';
import type { VirtualPlc } from './virtual-plc.ts';

export interface SerialAttachmentOptions {
  protocol: PlcProtocol;
  /** the PLC's own line settings */
  framing: SerialFraming;
  timers?: Timers;
  /** contains a fault to the line (device/net/connection-guard.ts): what the PLC was assembling is forgotten */
  guard?: ConnectionGuard;
}

/** An open host end: where the PLC's answers go while it is open. */
interface HostEnd {
  framing: () => SerialFraming;
  deliver(bytes: Uint8Array): void;
}

export class SerialPlcAttachment {
  /** the PLC's own line settings; assign to reconfigure the PLC at run time */
  framing: SerialFraming;
  readonly protocol: PlcProtocol;
  private readonly endpoint: PlcEndpoint;
  private readonly toPlc: WireDirection;
  private readonly toHost: WireDirection;
  private host: HostEnd | undefined;
  /** framing of the last host end, for bytes still on the wire after it closed */
  private hostFraming: () => SerialFraming;
  private readonly guard: ConnectionGuard;
  private line: GuardedConnection;

  constructor(
    readonly plc: VirtualPlc,
    opts: SerialAttachmentOptions,
  ) {
    const timers = opts.timers ?? realTimers;
    this.protocol = opts.protocol;
    this.framing = { ...opts.framing };
    this.hostFraming = () => this.framing;
    this.guard = opts.guard ?? new ConnectionGuard({ listener: 'plc-serial', log: stderrFaultLog });
    this.line = this.adoptLine();
    this.toPlc = new WireDirection(
      () => this.hostFraming(),
      () => this.framing,
      (b) => this.line.run(() => this.endpoint.receive(b)),
      timers,
    );
    this.toHost = new WireDirection(
      () => this.framing,
      () => this.hostFraming(),
      (b) => this.host?.deliver(b),
      timers,
    );
    this.endpoint = createPlcEndpoint(plc, {
      protocol: opts.protocol,
      transport: 'serial',
      timers,
      send: (b) => this.toHost.write(b),
      gapMs: () => wireMs(3.5, this.framing),
    });
  }

  /** connections (here: the line) a contained fault reset */
  get faults(): number {
    return this.guard.faults;
  }

  /** The line under the guard: a fault forgets what the PLC was assembling, and the line goes on. */
  private adoptLine(): GuardedConnection {
    return this.guard.adopt({
      remoteAddress: 'line',
      destroy: () => {
        this.endpoint.reset();
        this.line = this.adoptLine();
      },
      on: () => undefined,
    });
  }

  /** The daemon's end of the wire, opened with these line settings (the hw seam's `openSerial`). */
  open(settings: SerialSettings): ByteChannel {
    const framing = framingOf(settings);
    return this.connect(() => framing);
  }

  /**
   * A host end whose framing is asked for at every write and delivery (a pseudo-terminal whose
   * settings the daemon may change while it is open). One host end at a time, like a serial device.
   */
  connect(framing: () => SerialFraming): ByteChannel {
    if (this.host) throw new Error("the PLC's serial port is already open");
    let handler: (bytes: Uint8Array) => void = () => {};
    const end: HostEnd = { framing, deliver: (b) => handler(b) };
    this.host = end;
    this.hostFraming = framing;
    const isOpen = () => this.host === end;
    return {
      write: (bytes) => {
        if (isOpen()) this.toPlc.write(bytes);
      },
      onData: (h) => {
        handler = h;
      },
      // an in-process wire never ends by itself: unplugging leaves the port open, as on a real connector
      onClose: () => {},
      close: async () => {
        if (isOpen()) this.host = undefined;
      },
      get isOpen() {
        return isOpen();
      },
    };
  }

  unplug(): void {
    this.toPlc.unplug();
    this.toHost.unplug();
  }

  plug(): void {
    this.toPlc.plug();
    this.toHost.plug();
  }

  get plugged(): boolean {
    return this.toPlc.isPlugged;
  }

  /** characters put on the wire each way */
  get counters(): { toPlc: number; toHost: number } {
    return { toPlc: this.toPlc.carried, toHost: this.toHost.carried };
  }

  /** Forgets partial frames and answers not sent yet (e.g. when the PLC is reconfigured). */
  reset(): void {
    this.endpoint.reset();
  }
}
