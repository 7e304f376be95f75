// What both parts of the TLS bridge share (spec §3 pew_tls, §5 IP ranges): a TCP listener on the
// unit that refuses clients outside the allowed address range (and every client while the PLC has
// stopped the part, docs/tls.md), the connections it carries, and their counters for
// the `tls` entry of `GET /config/service_status`. Each part says how an admitted client is carried (client-part.ts,
// server-part.ts).
import { createServer, type Server, type Socket } from 'node:net';
import { listenReason, reason, reasonLog, type StatusReason } from '../model/reasons.ts';
import type { TlsPartCounters, TlsPartStatus } from '../model/tls-status.ts';
import { ConnectionGuard } from '../net/connection-guard.ts';
import type { Logger } from '../system/log.ts';

export type PartName = 'client' | 'server';

export type PartCounters = Omit<TlsPartCounters, 'faults'>;
export type PartStatus = TlsPartStatus;

export interface PartOptions {
  name: PartName;
  host: string;
  port: number;
  /** whether a client address may connect */
  allowed(ip: string): boolean;
  log: Logger;
}

const plainIp = (a: string | undefined) => (a ?? '').replace(/^::ffff:/, '');

/** The payload side of a connection: which of its directions is "in" (from the bridge's client). */
interface Plain {
  socket: Socket;
  inIsRead: boolean;
}

export abstract class BridgePart {
  protected readonly counters: PartCounters = { accepted: 0, refused: 0, tlsFailures: 0, errors: 0 };
  private server: Server | undefined;
  private listening = false;
  private reason: StatusReason | undefined;
  private stopped = false;
  /** every socket of every open connection, so that a stop closes them all */
  private readonly sockets = new Set<Socket>();
  private readonly clients = new Set<Socket>();
  private readonly plains = new Set<Plain>();
  private bytesIn = 0;
  private bytesOut = 0;

  /** contains what goes wrong with one connection to that connection (net/connection-guard.ts) */
  private readonly guard: ConnectionGuard;

  constructor(protected readonly opts: PartOptions) {
    this.guard = new ConnectionGuard({ listener: `tls-${opts.name}:${opts.port}`, log: opts.log });
  }

  get port(): number {
    return this.opts.port;
  }

  async start(): Promise<void> {
    if (this.server || this.stopped) return;
    // half-open: a client that has sent everything still gets the rest of the answer
    const server = createServer({ allowHalfOpen: true, pauseOnConnect: true }, (s) => this.accept(s));
    this.server = server;
    await new Promise<void>((resolve) => {
      server.once('error', (e: NodeJS.ErrnoException) => {
        this.reason = listenReason(e, this.port);
        this.opts.log.warn(`TLS ${this.opts.name} cannot listen`, { port: this.port, error: reasonLog(this.reason) });
        resolve();
      });
      server.listen(this.port, this.opts.host, () => {
        this.listening = true;
        this.reason = undefined;
        this.opts.log.info(`TLS ${this.opts.name} listening`, { port: this.port });
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    const server = this.server;
    this.server = undefined;
    this.listening = false;
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }

  /** The PLC's control register: a stopped part closes its listener and its connections. */
  async setStoppedByPlc(stopped: boolean): Promise<void> {
    if (stopped === this.stopped) return;
    this.opts.log.info(`TLS ${this.opts.name} ${stopped ? 'stopped' : 'started again'} by the PLC`);
    if (stopped) {
      this.stopped = true;
      await this.close();
    } else {
      this.stopped = false;
      await this.start();
    }
  }

  status(): PartStatus {
    let bytesIn = this.bytesIn;
    let bytesOut = this.bytesOut;
    for (const p of this.plains) {
      bytesIn += p.inIsRead ? p.socket.bytesRead : p.socket.bytesWritten;
      bytesOut += p.inIsRead ? p.socket.bytesWritten : p.socket.bytesRead;
    }
    return {
      enabled: true,
      port: this.port,
      listening: this.listening,
      stoppedByPlc: this.stopped,
      ...(this.stopped ? { reason: reason('stopped_by_plc') } : this.reason ? { reason: this.reason } : {}),
      connections: this.clients.size,
      ...this.counters,
      faults: this.guard.faults,
      bytesIn,
      bytesOut,
    };
  }

  /** Carries an admitted client (paused until the destination is ready). */
  protected abstract carry(client: Socket): void;

  private accept(client: Socket): void {
    if (this.stopped || !this.opts.allowed(plainIp(client.remoteAddress))) {
      this.counters.refused++;
      client.destroy();
      return;
    }
    client.setNoDelay(true);
    this.clients.add(client);
    client.once('close', () => this.clients.delete(client));
    this.track(client);
    // never let one connection take the listener (and the daemon) down
    this.guard.adopt(client, () => this.carry(client));
  }

  /** Runs `fn` for a socket of a connection under the part's guard (a throw ends that connection only). */
  protected guarded(s: Socket, fn: () => void): void {
    this.guard.adopt(s, fn);
  }

  /** Keeps `s` until it closes, so that close() can end it. */
  protected track(s: Socket): void {
    this.sockets.add(s);
    s.once('close', () => this.sockets.delete(s));
  }

  /** Counts the payload bytes of `socket` (the clear-text end): `inIsRead` when what it reads comes from the client. */
  protected trackPlain(socket: Socket, inIsRead: boolean): void {
    const p = { socket, inIsRead };
    this.plains.add(p);
    socket.once('close', () => {
      this.plains.delete(p);
      this.bytesIn += inIsRead ? socket.bytesRead : socket.bytesWritten;
      this.bytesOut += inIsRead ? socket.bytesWritten : socket.bytesRead;
    });
  }
}

/**
 * Joins two established sockets both ways. When one closes, the other is ended after what it still
 * has to write went out (a destroy would drop an answer that arrived just before the close).
 */
export function join(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  a.once('close', () => finish(b));
  b.once('close', () => finish(a));
  a.resume();
  b.resume();
}

function finish(s: Socket): void {
  if (s.destroyed) return;
  if (s.writableFinished) {
    s.destroy();
    return;
  }
  s.once('finish', () => s.destroy());
  s.end();
}
