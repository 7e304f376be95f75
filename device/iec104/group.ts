// One redundancy group of the IEC 104 controlled station (docs/iec104.md "The transport"): the TCP
// connections admitted for one connection entry of pew_60870, each with its APCI link (link.ts), and
// the group's event queue. Pure like the link: driven by calls with the monotonic time `now` (ms),
// it answers actions for the listener to carry out (write these octets on connection n, close it,
// arm its timer at, hand this ASDU up). Rules:
// - at most one connection runs data transfer (started); a STARTDT act is decided by decideStart
//   (lock_mode, start-rule.ts): the started one is deactivated, or the newcomer refused;
// - spontaneous events wait in the group's queue, which survives disconnects and switch-overs. It is
//   bounded by the entry's monitor depth: when full, the oldest event is dropped and counted. An
//   event leaves the queue only when a peer acknowledged the I-frame that carried it;
// - events go out on the started connection only, and only while its k window has room, so an event
//   is never parked in a link's pending queue: the queue is the one place that decides what goes out;
// - switch-over: the newly started connection sends the queue from its head, in order. The head holds
//   the events the old connection sent and had not got acknowledged, then the ones never sent; the
//   acknowledged ones left the queue, so none of them is sent twice;
// - answers to one connection (sendTo: confirmations, interrogation answers) go on that connection
//   only and never move to another one.
// Each link's frames in flight are mirrored in `given` (what was handed to the link, in order): an
// `acked` count of the link takes that many from its front, so the group knows which events the
// peer confirmed.

import { ringCapacity } from '../model/blocks/iec104.ts';
import type { IecConnection } from '../model/sections/iec.ts';
import { type CloseCode, Iec104Link, type LinkAction, type LinkSettings, type LinkState, linkSettings } from './link.ts';
import { decideStart } from './start-rule.ts';

/** spec §9: connections 4 (per connection entry: the redundancy group's TCP connections). */
export const MAX_GROUP_CONNECTIONS = 4;

export type GroupAction =
  | { kind: 'send'; connection: number; bytes: Uint8Array }
  | { kind: 'asdu'; connection: number; asdu: Uint8Array }
  | { kind: 'started'; connection: number }
  | { kind: 'stopped'; connection: number }
  | { kind: 'close'; connection: number; code: CloseCode; message: string }
  | { kind: 'timer'; connection: number; at: number | null };

export interface GroupSettings {
  link: LinkSettings;
  lockMode: boolean;
  /** the event queue's bound in events: as many as the entry's monitor ring holds (plc_buffer_m_depth words) */
  depth: number;
}

/** The settings of the group of a saved connection entry. */
export const groupSettings = (c: IecConnection): GroupSettings => ({
  link: linkSettings(c),
  lockMode: c.lock_mode,
  depth: Math.max(1, ringCapacity(c.plc_buffer_m_depth)),
});

export interface ConnectionStatus {
  id: number;
  remote: string;
  state: LinkState;
  /** whether this connection is the group's started one (runs data transfer) */
  active: boolean;
  framesIn: number;
  framesOut: number;
  iFramesIn: number;
  iFramesOut: number;
  windowStalls: number;
  unacknowledged: number;
  /** monotonic ms when data transfer started on it, null while not started */
  startedAt: number | null;
  openedAt: number;
  lastError: { code: CloseCode; message: string } | null;
}

export interface GroupStatus {
  connections: ConnectionStatus[];
  /** events waiting in the queue (sent and unacknowledged ones included) */
  queued: number;
  /** events dropped because the queue was full */
  overflowed: number;
  /** I-frames that carried an event (a repeat after a switch-over counts again) */
  sent: number;
  /** of those, the repeats on a newly started connection */
  resent: number;
  /** events a peer acknowledged (each once) */
  acknowledged: number;
}

interface QueuedEvent {
  id: number;
  asdu: Uint8Array;
  sends: number;
}

/** What a link was handed, in order: an event of the queue (by id) or an answer for this connection. */
type Given = { event: number } | { answer: Uint8Array };

interface Member {
  id: number;
  remote: string;
  link: Iec104Link;
  given: Given[];
  openedAt: number;
  startedAt: number | null;
}

export class RedundancyGroup {
  private readonly members = new Map<number, Member>();
  private queue: QueuedEvent[] = [];
  private nextEvent = 1;
  /** the connection running data transfer */
  private active: number | null = null;
  /** the highest event id handed to the active connection (0: none yet) */
  private handedUpTo = 0;
  private out: GroupAction[] = [];
  private readonly counts = { overflowed: 0, sent: 0, resent: 0, acknowledged: 0 };

  constructor(readonly settings: GroupSettings) {}

  /** Whether one more TCP connection may join (spec §9: 4 per entry). */
  full(): boolean {
    return this.members.size >= MAX_GROUP_CONNECTIONS;
  }

  has(connection: number): boolean {
    return this.members.has(connection);
  }

  /** A TCP connection admitted to the group; `connection` is the listener's id for it (unique). */
  open(now: number, connection: number, remote: string): GroupAction[] {
    const link = new Iec104Link(this.settings.link, now);
    this.members.set(connection, { id: connection, remote, link, given: [], openedAt: now, startedAt: null });
    // a fresh link answers nothing until it has a deadline: ask for it (t3 while stopped)
    this.apply(connection, link.tick(now), now);
    return this.done(now);
  }

  /** Octets read from the connection. */
  receive(now: number, connection: number, bytes: Uint8Array): GroupAction[] {
    const m = this.members.get(connection);
    if (m) this.apply(connection, m.link.receive(now, bytes), now);
    return this.done(now);
  }

  /** The connection's timer fired. */
  tick(now: number, connection: number): GroupAction[] {
    const m = this.members.get(connection);
    if (m) this.apply(connection, m.link.tick(now), now);
    return this.done(now);
  }

  /** The TCP connection ended (or the owner ends it): its link is shut down and leaves the group. */
  closed(now: number, connection: number, reason: string): GroupAction[] {
    const m = this.members.get(connection);
    if (m) this.apply(connection, m.link.shutdown(reason), now);
    return this.done(now);
  }

  /** Every connection shut down (the listener stops). */
  shutdown(now: number, reason: string): GroupAction[] {
    for (const m of [...this.members.values()]) this.apply(m.id, m.link.shutdown(reason), now);
    return this.done(now);
  }

  /** Queues a spontaneous event; it goes out on the started connection as its k window allows. */
  sendEvent(now: number, asdu: Uint8Array): GroupAction[] {
    if (this.queue.length >= this.settings.depth) {
      const dropped = this.queue.length - this.settings.depth + 1;
      this.queue.splice(0, dropped); // oldest first: an event in flight that is dropped is simply not counted when acknowledged
      this.counts.overflowed += dropped;
    }
    this.queue.push({ id: this.nextEvent++, asdu, sends: 0 });
    return this.done(now);
  }

  /** An answer for one connection only (confirmations, interrogation answers): never queued for another. False when the connection is gone. */
  sendTo(now: number, connection: number, asdu: Uint8Array): GroupAction[] | false {
    const m = this.members.get(connection);
    if (!m) return false;
    m.given.push({ answer: asdu });
    this.apply(connection, m.link.sendAsdu(now, asdu), now);
    return this.done(now);
  }

  status(): GroupStatus {
    return {
      connections: [...this.members.values()].map((m) => {
        const s = m.link.status();
        return {
          id: m.id,
          remote: m.remote,
          state: s.state,
          active: this.active === m.id,
          framesIn: s.framesIn,
          framesOut: s.framesOut,
          iFramesIn: s.iFramesIn,
          iFramesOut: s.iFramesOut,
          windowStalls: s.windowStalls,
          unacknowledged: s.unacknowledged,
          startedAt: m.startedAt,
          openedAt: m.openedAt,
          lastError: s.lastError,
        };
      }),
      queued: this.queue.length,
      ...this.counts,
    };
  }

  /** Carries out a link's actions: most become group actions, some are decisions of the group. */
  private apply(connection: number, actions: LinkAction[], now: number): void {
    const m = this.members.get(connection);
    if (!m) return;
    for (const a of actions) {
      switch (a.kind) {
        case 'send':
          this.out.push({ kind: 'send', connection, bytes: a.bytes });
          break;
        case 'asdu':
          this.out.push({ kind: 'asdu', connection, asdu: a.asdu });
          break;
        case 'timer':
          this.out.push({ kind: 'timer', connection, at: a.at });
          break;
        case 'acked':
          this.acked(m, a.count);
          break;
        case 'start_request':
          this.startRequest(now, m);
          break;
        case 'started':
          m.startedAt = now;
          this.active = connection;
          this.handedUpTo = 0; // the queue goes out from its head: the old connection's unacknowledged events first
          this.out.push({ kind: 'started', connection });
          break;
        case 'stopped':
          m.startedAt = null;
          if (this.active === connection) this.active = null;
          this.out.push({ kind: 'stopped', connection });
          break;
        case 'close':
          this.members.delete(connection);
          if (this.active === connection) this.active = null;
          // its unacknowledged events stay at the head of the queue for the next started connection
          this.out.push({ kind: 'close', connection, code: a.code, message: a.message });
          break;
      }
    }
  }

  private startRequest(now: number, m: Member): void {
    const holder = this.active !== null && this.active !== m.id ? this.members.get(this.active) : undefined;
    // lock_mode holds only while the holder runs data transfer: after its STOPDT act it gives way
    const decision = decideStart(holder ? [{ id: holder, lockMode: this.settings.lockMode && holder.link.status().state === 'started' }] : []);
    if (!decision.accept) {
      this.apply(m.id, m.link.refuseStart(decision.reason), now);
      return;
    }
    for (const old of decision.deactivate) this.deactivate(now, old);
    this.apply(m.id, m.link.acceptStart(now), now);
  }

  /** Another connection takes data transfer over: this one stays open and sends nothing more. */
  private deactivate(now: number, m: Member): void {
    this.apply(m.id, m.link.deactivate(), now);
    // what the link never sent leaves it: events stay in the queue for the new connection; answers
    // are this connection's and wait on it (they go out if its peer starts data transfer again)
    const pending = m.link.takePending();
    if (pending.length === 0) return;
    const kept = m.given.slice(0, m.given.length - pending.length);
    const tail = m.given.slice(m.given.length - pending.length);
    m.given = kept;
    for (const g of tail)
      if ('answer' in g) {
        m.given.push(g);
        this.apply(m.id, m.link.sendAsdu(now, g.answer), now);
      }
  }

  /** The peer confirmed `count` I-frames of this link: the events among them leave the queue. */
  private acked(m: Member, count: number): void {
    for (const g of m.given.splice(0, count)) {
      if (!('event' in g)) continue;
      const at = this.indexOf(g.event);
      if (at < 0) continue; // acknowledged on another connection already, or dropped by the bound
      this.queue.splice(at, 1);
      this.counts.acknowledged++;
    }
  }

  /** Position of event `id` in the queue (ordered by id), or -1. */
  private indexOf(id: number): number {
    let lo = 0;
    let hi = this.queue.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const e = (this.queue[mid] as QueuedEvent).id;
      if (e === id) return mid;
      if (e < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Hands the next events to the started connection while its k window has room. */
  private pump(now: number): void {
    const m = this.active === null ? undefined : this.members.get(this.active);
    if (!m) return;
    const k = this.settings.link.k;
    let at = this.firstAfter(this.handedUpTo);
    while (at < this.queue.length) {
      const s = m.link.status();
      if (s.state !== 'started' || s.unacknowledged + s.pending >= k) return;
      const e = this.queue[at] as QueuedEvent;
      this.handedUpTo = e.id;
      if (e.sends++ > 0) this.counts.resent++;
      this.counts.sent++;
      m.given.push({ event: e.id });
      // a send brings no acknowledgement (those come with received frames): the queue does not
      // change under this loop
      this.apply(m.id, m.link.sendAsdu(now, e.asdu), now);
      at++;
    }
  }

  /** Index of the first queued event with an id above `id`. */
  private firstAfter(id: number): number {
    let lo = 0;
    let hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.queue[mid] as QueuedEvent).id <= id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The actions of one call; first the started connection gets what its window lets out of the queue. */
  private done(now: number): GroupAction[] {
    this.pump(now);
    const out = this.out;
    this.out = [];
    return out;
  }
}
