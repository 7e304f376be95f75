// The one place where a fault caused by a network peer is contained (security.md, issue 15): every
// TCP and serial listener of the unit and of the simulator (redirect threads and the Modbus gateway,
// the REST/HTTP server, the TLS bridge parts, the virtual PLCs' endpoints) runs each connection's
// handlers through a ConnectionGuard. A handler that throws, or a task that rejects, ends only the
// connection that caused it: it is closed (after the protocol's error answer when the listener
// gives one), the fault is logged once with the listener and the peer, and `faults` counts it for the
// listener's status answer. Nothing a peer sends reaches the process's uncaught-exception handler.
// Every fault is counted; the log lines are rate-limited per peer address (system/log-limit.ts), so
// a peer causing one fault after another does not fill the log (docs/hardening.md LOG-2).
//
// The guard also keeps the idle timer of a connection: only `touch()` (a whole frame, or an answer
// sent) counts as activity, so a client dribbling bytes that never form a frame is closed after the
// timeout like an idle one (a socket timeout would restart on every byte).
import { type LimitedWarn, limitedWarn, type WarnLog } from '../system/log-limit.ts';

/** What the guard logs through (the daemon's Logger has it; the simulator passes its own). */
export type FaultLog = WarnLog;

/** A socket-like end: a TCP socket, or a serial line's stream (`destroy` ends it). */
/** A log for callers without the daemon's Logger (the simulator's PLCs): one JSON line on stderr. */
export const stderrFaultLog: FaultLog = {
  warn: (msg, fields) => {
    process.stderr.write(`${JSON.stringify({ level: 'warn', msg, ...fields })}\n`);
  },
};

export interface GuardedEnd {
  remoteAddress?: string | undefined;
  remotePort?: number | undefined;
  destroyed?: boolean;
  destroy(): void;
  /** ends after what is written went out (net.Socket): lets an error answer leave */
  destroySoon?(): void;
  on(event: 'close', fn: () => void): unknown;
  on(event: 'error', fn: (e: Error) => void): unknown;
}

export interface GuardedConnection {
  /** `ip:port` of the peer (or the line's name) */
  readonly peer: string;
  /** Runs `fn`; a throw is a fault of this connection. */
  run(fn: () => void): void;
  /** `fn` guarded as run() guards it, for event handlers. */
  wrap<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void;
  /** A promise whose rejection is a fault of this connection. */
  task(p: Promise<unknown>): void;
  /** Counts as activity: restarts the idle timer. */
  touch(): void;
  /** Closes the connection after `ms` without touch() (0: never). */
  idleAfter(ms: number): void;
  /** Contains `error`: counted, logged once (with `fields`, e.g. the request's path), the connection closed. */
  fault(error: unknown, fields?: Record<string, unknown>): void;
  /** whether a fault ended it */
  readonly faulted: boolean;
}

export interface GuardOptions {
  /** how the listener is named in the log, e.g. `redirect:9094` */
  listener: string;
  log: FaultLog;
  /** the protocol's error answer before the connection closes on a fault (best effort) */
  onFault?(end: GuardedEnd): void;
}

const plainIp = (a: string | undefined) => (a ?? '').replace(/^::ffff:/, '');

export class ConnectionGuard {
  /** faults contained since the listener started */
  faults = 0;
  /** how the listener is named in the log; may be set once its port is bound (port 0 in tests) */
  listener: string;
  private readonly warnings: LimitedWarn;
  constructor(private readonly opts: GuardOptions) {
    this.listener = opts.listener;
    this.warnings = limitedWarn(opts.log);
  }

  /** Takes `end` under guard: an 'error' event is expected (the peer went away), never a fault. */
  adopt(end: GuardedEnd, setup?: (c: GuardedConnection) => void): GuardedConnection {
    const guard = this;
    let faulted = false;
    let idleMs = 0;
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stopTimer = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    };
    // one timer per connection, re-armed for the rest of the time when it fires after activity:
    // touch() only notes the time (it runs for every frame and answer)
    const arm = (ms: number) => {
      timer = setTimeout(() => {
        timer = undefined;
        if (end.destroyed) return;
        const left = last + idleMs - Date.now();
        if (left > 0) arm(left);
        else end.destroy();
      }, ms);
    };
    const c: GuardedConnection = {
      peer: end.remotePort !== undefined ? `${plainIp(end.remoteAddress)}:${end.remotePort}` : plainIp(end.remoteAddress) || 'line',
      get faulted() {
        return faulted;
      },
      run(fn) {
        c.wrap(fn)();
      },
      // the one try of the guard; no closure per call: a redirect client's every frame passes here
      wrap:
        (fn) =>
        (...args) => {
          try {
            fn(...args);
          } catch (e) {
            c.fault(e);
          }
        },
      task(p) {
        p.catch((e: unknown) => c.fault(e));
      },
      touch() {
        last = Date.now();
      },
      idleAfter(ms) {
        stopTimer();
        idleMs = ms;
        last = Date.now();
        if (ms > 0 && !end.destroyed) arm(ms);
      },
      fault(error, fields) {
        if (faulted) return;
        faulted = true;
        guard.faults++;
        const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        guard.warnings.warn(plainIp(end.remoteAddress) || c.peer, 'connection fault contained', {
          listener: guard.listener,
          peer: c.peer,
          error: message,
          ...fields,
        });
        try {
          guard.opts.onFault?.(end);
        } catch {
          /* the answer is best effort: the connection closes anyway */
        }
        stopTimer();
        if (end.destroySoon) end.destroySoon();
        else end.destroy();
      },
    };
    end.on('error', () => {
      /* a reset or a broken pipe: 'close' follows */
    });
    end.on('close', stopTimer);
    if (setup) c.run(() => setup(c));
    return c;
  }
}
