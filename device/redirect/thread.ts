// One redirect thread (spec §3 Port): a TCP listener on `port` that admits at most `clients`
// clients whose address lies in ip_start–ip_end (the all-addresses form admits everyone), closes a
// client idle for `timeout` seconds, and runs a session per client (sessions.ts) that forwards
// parsed frames through the link of the thread's interface. Refused connections and requests, errors,
// contained faults and bytes are counted for /port. Every connection runs under the thread's
// ConnectionGuard (net/connection-guard.ts): whatever a client sends ends at most its own
// connection. The idle timeout counts whole frames only. A client that half-closes (sends FIN after
// its requests) still gets every answer, then the thread ends the connection.
import { createServer, type Server, type Socket } from 'node:net';
import type { Link } from '../com/link.ts';
import type { Capture, Tap } from '../diag/capture.ts';
import { ipInRange } from '../model/ip.ts';
import { listenReason, reasonLog, type StatusReason } from '../model/reasons.ts';
import { speaksModbus, type Thread } from '../model/sections/redirect.ts';
import { ConnectionGuard } from '../net/connection-guard.ts';
import type { Logger } from '../system/log.ts';
import { mewtocolSession, modbusSession, type ThreadCounters } from './sessions.ts';

export interface ThreadStatus extends ThreadCounters {
  index: number;
  port: number;
  listening: boolean;
  /** why it does not listen (absent when it does) */
  reason?: StatusReason;
  clients: number;
  bytesIn: number;
  bytesOut: number;
  /** connections ended by a contained fault (connection-guard.ts) */
  faults: number;
  /** when requests, refused, errors and bytes started: the thread's start or their last reset (ms since the epoch) */
  since: number;
}

export interface ThreadDeps {
  host: string;
  log: Logger;
  /** the link of an interface id, when it is enabled */
  link(id: number): Link | undefined;
  /** the protocol the interface speaks (a thread on a Modbus interface takes Modbus/TCP clients) */
  protocolOf(id: number): string | undefined;
  /** the monitor's capture: the thread feeds it as source `port:<port>` */
  capture?: Capture;
}

const plainIp = (a: string | undefined) => (a ?? '').replace(/^::ffff:/, '');

export class RedirectThread {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private listening = false;
  private reason: StatusReason | undefined;
  private nextClient = 1;
  private readonly counters: ThreadCounters = { requests: 0, refused: 0, errors: 0 };
  private bytesIn = 0;
  private bytesOut = 0;
  private countedSince = Date.now();
  private readonly guard: ConnectionGuard;

  constructor(
    readonly index: number,
    readonly cfg: Thread,
    private readonly deps: ThreadDeps,
  ) {
    this.guard = new ConnectionGuard({ listener: `redirect:${cfg.port}`, log: deps.log });
  }

  /** the thread's handle on the capture: its clients' frames, Modbus/TCP or MEWTOCOL as the clients speak */
  private get tap(): Tap | undefined {
    return this.deps.capture?.tap(`port:${this.cfg.port}`, this.modbus ? 'modbus_tcp' : 'mewtocol', 'out');
  }

  /** its clients speak Modbus/TCP: the gateway, or a thread on a Modbus interface */
  private get modbus(): boolean {
    return speaksModbus(this.cfg, this.deps.protocolOf);
  }

  async start(): Promise<void> {
    const server = createServer({ allowHalfOpen: true }, (s) => this.accept(s));
    this.server = server;
    await new Promise<void>((resolve) => {
      server.once('error', (e: NodeJS.ErrnoException) => {
        this.reason = listenReason(e, this.cfg.port);
        this.deps.log.warn('redirect thread cannot listen', { port: this.cfg.port, error: reasonLog(this.reason) });
        resolve();
      });
      server.listen(this.cfg.port, this.deps.host, () => {
        this.listening = true;
        this.deps.log.info('redirect thread listening', { port: this.cfg.port, interface: this.cfg.service, gateway: this.cfg.mb_translation });
        resolve();
      });
    });
  }

  status(): ThreadStatus {
    return {
      index: this.index,
      port: this.cfg.port,
      listening: this.listening,
      ...(this.reason ? { reason: this.reason } : {}),
      clients: this.sockets.size,
      ...this.counters,
      bytesIn: this.bytesIn,
      bytesOut: this.bytesOut,
      faults: this.guard.faults,
      since: this.countedSince,
    };
  }

  /** Starts the request, refusal, error and byte counters again from 0 (the clients connected stay). */
  resetCounters(): void {
    Object.assign(this.counters, { requests: 0, refused: 0, errors: 0 });
    this.bytesIn = 0;
    this.bytesOut = 0;
    this.countedSince = Date.now();
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = undefined;
    this.listening = false;
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }

  private accept(socket: Socket): void {
    const ip = plainIp(socket.remoteAddress);
    const tap = this.tap;
    const peer = `${ip}:${socket.remotePort ?? 0}`;
    const outside = !ipInRange(ip, this.cfg.ip_start, this.cfg.ip_end);
    if (outside || this.sockets.size >= this.cfg.clients) {
      this.counters.refused++;
      if (tap?.events) tap.event('client_refused', { why: outside ? 'range' : 'full' }, peer);
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.setNoDelay(true);
    if (tap?.events) tap.event('client_connected', undefined, peer);
    this.guard.adopt(socket, (conn) => {
      conn.idleAfter(this.cfg.timeout * 1000); // no whole frame either way for `timeout` s
      const send = (b: Uint8Array | string) => {
        if (socket.destroyed || !socket.writable) return;
        this.bytesOut += b.length;
        if (tap?.frames) tap.frame('out', b, peer);
        conn.touch();
        if (typeof b === 'string') socket.write(b, 'latin1');
        else socket.write(b);
      };
      const id = this.cfg.service;
      const deps = {
        rules: { mapping: this.cfg.mapping, monitoring_cmd: this.cfg.monitoring_cmd },
        gateway: this.cfg.mb_translation,
        link: () => this.deps.link(id),
        send,
        user: `redirect:${this.cfg.port}:${this.nextClient++}`,
        counters: this.counters,
        touch: () => conn.touch(),
        fault: (e: unknown) => conn.fault(e),
        overflow: () => {
          this.counters.errors++;
          socket.destroy();
        },
        noteRefusal: (code: number) => {
          if (tap?.events) tap.event('request_refused', { code }, peer);
        },
      };
      const session = this.modbus ? modbusSession({ ...deps, onFatal: () => socket.destroy() }) : mewtocolSession(deps);
      socket.on(
        'data',
        conn.wrap((b: Buffer) => {
          this.bytesIn += b.length;
          if (tap?.frames) tap.frame('in', b, peer);
          session.receive(b); // a Buffer is a Uint8Array
        }),
      );
      // half-close: the client has sent everything; it still gets the answers to what it sent
      socket.on('end', () =>
        conn.task(
          session.settled().then(() => {
            if (!socket.destroyed) socket.end();
          }),
        ),
      );
      socket.on('close', () => {
        session.close();
        this.sockets.delete(socket);
        if (tap?.events) tap.event('client_closed', undefined, peer);
      });
    });
  }
}
