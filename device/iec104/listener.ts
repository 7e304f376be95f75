// The IEC 104 controlled station's TCP listener on `port` (2404; docs/iec104.md "The transport"):
// every accepted socket joins the redundancy group (group.ts) of the first connection entry whose
// ip1..ip2 admits its address (the rule of device/rest/admit.ts: IPv4 ranges, the all-addresses form
// admits everyone, an IPv6 client only that form), at most 4 per entry (spec §9: connections 4);
// any other is closed at accept, counted and logged (rate-limited per address,
// system/log-limit.ts). Each connection runs under the listener's ConnectionGuard
// (net/connection-guard.ts): whatever a peer sends, and whatever the handler throws, ends at most
// that connection. The link's timers (t1, t2, t3) run on one timer per connection, armed at the
// deadline the link asks for, on performance.now(): setting the wall clock changes none. There is no
// separate idle timer: t3 sends a TESTFR act to a silent peer and t1 closes when it is not answered.
// Received ASDUs go up to the handler (the station); ASDUs to send come down through sendEvent (a
// group's spontaneous events) and sendTo (answers to one connection).

import { createServer, type Server, type Socket } from 'node:net';
import type { Capture } from '../diag/capture.ts';
import { listenReason, reasonLog, type StatusReason } from '../model/reasons.ts';
import type { Iec } from '../model/sections/iec.ts';
import { ConnectionGuard, type GuardedConnection } from '../net/connection-guard.ts';
import { plainIp, restAdmits } from '../rest/admit.ts';
import type { Logger } from '../system/log.ts';
import { type LimitedWarn, limitedWarn } from '../system/log-limit.ts';
import { type ConnectionStatus, type GroupAction, type GroupStatus, groupSettings, RedundancyGroup } from './group.ts';

/** What the transport hands up: the station's side of the interface. */
export interface Iec104Handler {
  /** An ASDU received on `connection` of group `group` (the index of its connection entry). A throw ends that connection only. */
  asdu(group: number, connection: number, asdu: Uint8Array): void;
  /** Data transfer started on the connection (it is now the group's started one). */
  started?(group: number, connection: number): void;
  /** Data transfer stopped on the connection (STOPDT, or another connection took over). */
  stopped?(group: number, connection: number): void;
  /** The connection left its group (closed by either side). */
  closed?(group: number, connection: number): void;
}

export interface Iec104ListenerOptions {
  settings: Pick<Iec, 'port' | 'connections'>;
  host: string;
  log: Pick<Logger, 'info' | 'warn'>;
  handler: Iec104Handler;
  /** the monitor's capture: the station's frames as source `iec104` */
  capture?: Capture;
}

export interface Iec104ConnectionStatus extends ConnectionStatus {
  /** how long data transfer has run on it (ms), null while not started */
  startedForMs: number | null;
}

export interface Iec104ListenerStatus {
  port: number;
  listening: boolean;
  /** why it does not listen, when it does not */
  reason?: StatusReason;
  /** connections closed at accept: no entry admits the address, or its group holds 4 */
  refused: number;
  /** connections ended by a contained fault */
  faults: number;
  groups: (Omit<GroupStatus, 'connections'> & { index: number; connections: Iec104ConnectionStatus[] })[];
}

export interface Iec104Listener {
  /** the port it listens on (the bound one when `port` was 0) */
  readonly port: number;
  /** Queues a spontaneous event of group `group`; false when there is no such group. */
  sendEvent(group: number, asdu: Uint8Array): boolean;
  /** An answer to one connection only; false when that connection is gone. */
  sendTo(group: number, connection: number, asdu: Uint8Array): boolean;
  /** Closes one connection of group `group` (the station found its ASDU untrustworthy), after the frames written to it; false when it is gone. */
  closeConnection(group: number, connection: number, reason: string): boolean;
  /** Closes every connection of group `group` (plc_live_check, plc_reconnect_reset); answers how many. */
  dropGroup(group: number, reason: string): number;
  status(): Iec104ListenerStatus;
  close(): Promise<void>;
}

interface Conn {
  id: number;
  group: number;
  socket: Socket;
  guarded: GuardedConnection;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** the deadline the link asked for (monotonic ms) */
  at: number | null;
}

const now = () => performance.now();

export async function startIec104Listener(opts: Iec104ListenerOptions): Promise<Iec104Listener> {
  const { settings, log, handler } = opts;
  const groups = settings.connections.map((c) => new RedundancyGroup(groupSettings(c)));
  const conns = new Map<number, Conn>();
  const guard = new ConnectionGuard({ listener: `iec104:${settings.port}`, log });
  const refusals: LimitedWarn = limitedWarn(log);
  let nextId = 1;
  let refused = 0;
  let listening = false;
  let why: StatusReason | undefined;
  let port = settings.port;
  const tap = opts.capture?.tap('iec104', 'iec104', undefined);

  const arm = (c: Conn, at: number | null) => {
    if (c.timer !== undefined) clearTimeout(c.timer);
    c.timer = undefined;
    c.at = at;
    if (at === null || c.socket.destroyed) return;
    c.timer = setTimeout(() => fire(c), Math.max(0, Math.ceil(at - now())));
    c.timer.unref();
  };
  const fire = (c: Conn) => {
    c.timer = undefined;
    if (c.at === null || !conns.has(c.id)) return;
    const t = now();
    if (t < c.at) return arm(c, c.at); // a timer that fired a little before the monotonic deadline
    c.guarded.run(() => run(c.group, groups[c.group]!.tick(t, c.id)));
  };

  /** Carries out a group's actions: the writes and timers first, then what goes up to the handler,
   * so an answer the handler sends at once goes out after the frames that preceded it. */
  const run = (gi: number, actions: GroupAction[]) => {
    const up: GroupAction[] = [];
    for (const a of actions) {
      const c = conns.get(a.connection);
      if (!c) continue;
      switch (a.kind) {
        case 'send':
          if (c.socket.writable) {
            if (tap?.frames) tap.frame('out', a.bytes, c.guarded.peer);
            c.socket.write(a.bytes);
          }
          break;
        case 'timer':
          arm(c, a.at);
          break;
        case 'close':
          arm(c, null);
          if (a.code !== 'closed_by_owner')
            log.info('IEC 104 connection closed', { port, group: gi, connection: c.id, peer: c.guarded.peer, code: a.code, reason: a.message });
          c.socket.destroySoon(); // after the frames written before the close
          break;
        default:
          up.push(a);
      }
    }
    for (const a of up) {
      const c = conns.get(a.connection);
      if (!c || c.guarded.faulted) continue;
      c.guarded.run(() => {
        if (a.kind === 'asdu') handler.asdu(gi, c.id, a.asdu);
        else if (a.kind === 'started') handler.started?.(gi, c.id);
        else if (a.kind === 'stopped') handler.stopped?.(gi, c.id);
      });
      // a handler that threw ended its connection: it leaves the group now, not at the socket's close
      if (c.guarded.faulted) leave(c, 'connection fault');
    }
  };

  const leave = (c: Conn, reason: string) => {
    if (!conns.has(c.id)) return;
    arm(c, null);
    const actions = groups[c.group]!.closed(now(), c.id, reason);
    run(c.group, actions);
    conns.delete(c.id);
    try {
      handler.closed?.(c.group, c.id);
    } catch (e) {
      log.warn('IEC 104 handler failed on a closed connection', { port, group: c.group, connection: c.id, error: String(e) });
    }
  };

  const refuse = (socket: Socket, ip: string, reason: string) => {
    refused++;
    if (tap?.events) tap.event('client_refused', { why: reason.startsWith('no ') ? 'range' : 'full' }, `${ip}:${socket.remotePort ?? 0}`);
    refusals.warn(ip, 'IEC 104 connection refused', { port, client: ip, reason });
    socket.on('error', () => undefined);
    socket.destroy();
  };

  const accept = (socket: Socket) => {
    const ip = plainIp(socket.remoteAddress);
    const gi = settings.connections.findIndex((entry) => restAdmits(entry, socket.remoteAddress));
    if (gi < 0) return refuse(socket, ip, 'no connection entry admits the address');
    const group = groups[gi]!;
    if (group.full()) return refuse(socket, ip, `connection entry ${gi + 1} holds its 4 connections`);
    socket.setNoDelay(true);
    guard.adopt(socket, (guarded) => {
      const c: Conn = { id: nextId++, group: gi, socket, guarded, timer: undefined, at: null };
      conns.set(c.id, c);
      socket.on(
        'data',
        guarded.wrap((b: Buffer) => {
          if (guarded.faulted || !conns.has(c.id)) return;
          if (tap?.frames) tap.frame('in', b, guarded.peer);
          run(gi, group.receive(now(), c.id, b));
        }),
      );
      socket.on('close', () => {
        if (tap?.events) tap.event('client_closed', undefined, guarded.peer);
        leave(c, 'connection ended');
      });
      if (tap?.events) tap.event('client_connected', undefined, guarded.peer);
      log.info('IEC 104 connection opened', { port, group: gi, connection: c.id, peer: guarded.peer });
      run(gi, group.open(now(), c.id, guarded.peer));
    });
  };

  const server: Server = createServer(accept);
  await new Promise<void>((resolve) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      why = listenReason(e, settings.port);
      log.warn('IEC 104 station cannot listen', { port: settings.port, error: reasonLog(why) });
      resolve();
    });
    server.listen(settings.port, opts.host, () => {
      listening = true;
      const a = server.address();
      if (a && typeof a === 'object') port = a.port;
      guard.listener = `iec104:${port}`;
      log.info('IEC 104 station listening', { port, groups: groups.length });
      resolve();
    });
  });
  // a failed listen leaves nothing open; errors after listening (none expected) are logged
  server.on('error', (e: Error) => log.warn('IEC 104 listener error', { port, error: e.message }));

  return {
    get port() {
      return port;
    },
    sendEvent(gi, asdu) {
      const group = groups[gi];
      if (!group) return false;
      run(gi, group.sendEvent(now(), asdu));
      return true;
    },
    sendTo(gi, connection, asdu) {
      const actions = groups[gi]?.sendTo(now(), connection, asdu);
      if (!actions) return false;
      run(gi, actions);
      return true;
    },
    closeConnection(gi, connection, reason) {
      const c = conns.get(connection);
      if (!c || c.group !== gi) return false;
      log.info('IEC 104 connection closed by the station', { port, group: gi, connection, peer: c.guarded.peer, reason });
      arm(c, null);
      c.socket.destroySoon(); // after the frames written before; its close takes it out of the group
      return true;
    },
    dropGroup(gi, reason) {
      const members = [...conns.values()].filter((c) => c.group === gi);
      if (members.length) log.info('IEC 104 connections closed', { port, group: gi, connections: members.length, reason });
      for (const c of members) {
        arm(c, null);
        c.socket.destroy();
      }
      return members.length;
    },
    status() {
      const t = now();
      return {
        port,
        listening,
        ...(why ? { reason: why } : {}),
        refused,
        faults: guard.faults,
        groups: groups.map((g, index) => {
          const s = g.status();
          return { ...s, index, connections: s.connections.map((c) => ({ ...c, startedForMs: c.startedAt === null ? null : t - c.startedAt })) };
        }),
      };
    },
    async close() {
      for (const c of [...conns.values()]) {
        arm(c, null);
        c.socket.destroy();
      }
      for (const [gi, g] of groups.entries()) run(gi, g.shutdown(now(), 'station stopped'));
      conns.clear();
      refusals.flush();
      listening = false;
      if (server.listening) await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
