import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Apdu, decodeApduBody, encodeApdu, SEQ_MODULO, seqAdd } from '../protocol/iec104/apci.ts';
import { type GroupAction, type GroupSettings, groupSettings, MAX_GROUP_CONNECTIONS, RedundancyGroup } from './group.ts';

const LINK = { t1: 15_000, t2: 10_000, t3: 20_000, k: 12, w: 8, testFramesStopped: true, testFramesStarted: true };
/** an event: M_SP_NA_1, spontaneous, IOA = n (so the test can tell events apart) */
const event = (n: number) => Uint8Array.from([1, 1, 3, 0, 1, 0, n & 0xff, (n >> 8) & 0xff, n >> 16, 1]);
/** an answer: C_IC_NA_1 ACTCON, IOA 0, QOI 20 */
const answer = Uint8Array.from([100, 1, 7, 0, 1, 0, 0, 0, 0, 20]);
const eventNo = (asdu: Uint8Array) => asdu[6]! | (asdu[7]! << 8) | (asdu[8]! << 16);

/** The control station's side of one connection: what it got, and its own sequence numbers. */
interface Peer {
  frames: Apdu[];
  /** ASDUs of the I-frames received, in order */
  got: Uint8Array[];
  /** N(S) of the next I-frame it sends */
  vs: number;
  /** I-frames received (its V(R)) */
  vr: number;
  closed: { code: string; message: string } | null;
  timer: number | null;
  /** ASDUs the group handed up from this connection */
  up: Uint8Array[];
}

function rig(over: Partial<GroupSettings> = {}) {
  const g = new RedundancyGroup({ link: LINK, lockMode: false, depth: 1000, ...over });
  const peers = new Map<number, Peer>();
  const log: GroupAction[] = [];
  const take = (acts: GroupAction[] | false) => {
    if (!acts) return [];
    for (const a of acts) {
      log.push(a);
      const p = peers.get(a.connection);
      if (!p) continue;
      if (a.kind === 'send') {
        const d = decodeApduBody(a.bytes.subarray(2));
        if (!d.ok) throw new Error(`the group sent a bad frame: ${d.error.code}`);
        p.frames.push(d.value);
        if (d.value.format === 'I') {
          p.got.push(d.value.asdu);
          p.vr = seqAdd(p.vr, 1);
        }
      } else if (a.kind === 'close') p.closed = { code: a.code, message: a.message };
      else if (a.kind === 'timer') p.timer = a.at;
      else if (a.kind === 'asdu') p.up.push(a.asdu);
    }
    return acts;
  };
  let next = 1;
  const open = (now = 0, remote = '127.0.0.1:50000') => {
    const id = next++;
    peers.set(id, { frames: [], got: [], vs: 0, vr: 0, closed: null, timer: null, up: [] });
    take(g.open(now, id, remote));
    return id;
  };
  const peer = (id: number) => peers.get(id)!;
  const send = (now: number, id: number, a: Apdu) => take(g.receive(now, id, encodeApdu(a)));
  const u = (now: number, id: number, fn: 'startdt_act' | 'stopdt_act' | 'testfr_act' | 'testfr_con') => send(now, id, { format: 'U', fn });
  /** an S-frame acknowledging every I-frame received, or the first `upTo` of them */
  const ack = (now: number, id: number, upTo?: number) => send(now, id, { format: 'S', nr: upTo ?? peer(id).vr });
  const iframe = (now: number, id: number, asdu: Uint8Array) => {
    const p = peer(id);
    const a = send(now, id, { format: 'I', ns: p.vs, nr: p.vr, asdu });
    p.vs = seqAdd(p.vs, 1);
    return a;
  };
  const events = (id: number) =>
    peer(id)
      .got.filter((a) => a[0] === 1)
      .map(eventNo);
  const uOf = (id: number) => peer(id).frames.flatMap((f) => (f.format === 'U' ? [f.fn] : []));
  const emit = (now: number, from: number, to: number) => {
    for (let n = from; n <= to; n++) take(g.sendEvent(now, event(n)));
  };
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  return { g, open, peer, send, u, ack, iframe, events, uOf, emit, range, take, log };
}

describe('IEC 104 redundancy group: data transfer', () => {
  it('STARTDT is confirmed and starts data transfer; TESTFR is answered; STOPDT is confirmed', () => {
    const r = rig();
    const a = r.open();
    r.u(0, a, 'testfr_act');
    r.u(1, a, 'startdt_act');
    expect(r.uOf(a)).toEqual(['testfr_con', 'startdt_con']);
    expect(r.g.status().connections).toMatchObject([{ id: a, state: 'started', active: true, startedAt: 1, remote: '127.0.0.1:50000' }]);
    r.u(2, a, 'stopdt_act');
    expect(r.uOf(a)).toEqual(['testfr_con', 'startdt_con', 'stopdt_con']);
    expect(r.g.status().connections).toMatchObject([{ state: 'stopped', active: false, startedAt: null }]);
  });

  it('events queued while no connection is started go out after STARTDT, in order, within k', () => {
    const r = rig();
    r.emit(0, 1, 20);
    const a = r.open(1);
    expect(r.events(a)).toEqual([]);
    expect(r.g.status()).toMatchObject({ queued: 20, sent: 0 });
    r.u(2, a, 'startdt_act');
    expect(r.events(a)).toEqual(r.range(1, 12)); // k = 12
    r.ack(3, a);
    expect(r.events(a)).toEqual(r.range(1, 20));
    r.ack(4, a);
    expect(r.g.status()).toMatchObject({ queued: 0, sent: 20, acknowledged: 20, resent: 0, overflowed: 0 });
  });

  it('received ASDUs are handed up with their connection', () => {
    const r = rig();
    const a = r.open();
    r.u(0, a, 'startdt_act');
    r.iframe(1, a, answer);
    expect(r.peer(a).up).toEqual([answer]);
  });

  it('the queue is bounded by the monitor depth: the oldest are dropped and counted; the rest go out after STARTDT', () => {
    const r = rig({ depth: 10 });
    r.emit(0, 1, 25);
    expect(r.g.status()).toMatchObject({ queued: 10, overflowed: 15 });
    const a = r.open(1);
    r.u(2, a, 'startdt_act');
    r.ack(3, a);
    expect(r.events(a)).toEqual(r.range(16, 25));
  });

  it('an event dropped by the bound while in flight is not counted when acknowledged', () => {
    const r = rig({ depth: 3 });
    const a = r.open();
    r.u(0, a, 'startdt_act');
    r.emit(1, 1, 5); // all five sent (k 12); the queue keeps 3, 1 and 2 dropped
    expect(r.events(a)).toEqual([1, 2, 3, 4, 5]);
    expect(r.g.status()).toMatchObject({ queued: 3, overflowed: 2 });
    r.ack(2, a);
    expect(r.g.status()).toMatchObject({ queued: 0, acknowledged: 3 });
  });

  it('k and w hold under a burst of 1,000 events and 1,000 received I-frames; each event sent once, in order', () => {
    const r = rig();
    const a = r.open();
    r.u(0, a, 'startdt_act');
    r.emit(1, 1, 1000);
    let maxOpen = 0;
    let sinceAck = 0;
    let maxSinceAck = 0;
    for (let i = 0; i < 1000; i++) {
      const before = r.peer(a).frames.length;
      r.iframe(2 + i, a, answer);
      const out = r.peer(a).frames.slice(before);
      // the station acknowledges what it received with an S-frame or an I-frame's N(R)
      if (out.some((f) => f.format === 'S' || f.format === 'I')) sinceAck = 0;
      else sinceAck++;
      maxSinceAck = Math.max(maxSinceAck, sinceAck);
      maxOpen = Math.max(maxOpen, r.g.status().connections[0]!.unacknowledged);
      if (i % 8 === 7) r.ack(2 + i, a);
    }
    r.ack(2000, a);
    expect(maxOpen).toBeLessThanOrEqual(12);
    expect(maxSinceAck).toBeLessThan(8);
    expect(r.events(a)).toEqual(r.range(1, 1000));
    expect(r.peer(a).up).toHaveLength(1000);
    expect(r.g.status()).toMatchObject({ queued: 0, sent: 1000, acknowledged: 1000 });
  });

  it('more than 32,768 events in one session: N(S) wraps at 32768, no close, every event once and in order', () => {
    const r = rig({ depth: 100 });
    const a = r.open();
    r.u(0, a, 'startdt_act');
    const total = 40_000;
    let wraps = 0;
    let last = -1;
    for (let n = 1; n <= total; n++) {
      r.take(r.g.sendEvent(n, event(n)));
      const f = r.peer(a).frames.at(-1)!;
      if (f.format === 'I') {
        if (f.ns < last) wraps++;
        last = f.ns;
      }
      if (n % 10 === 0) r.ack(n, a);
    }
    r.ack(total + 1, a);
    expect(r.peer(a).closed).toBeNull();
    expect(wraps).toBe(1);
    expect(r.events(a)).toEqual(r.range(1, total));
    expect(r.g.status()).toMatchObject({ queued: 0, acknowledged: total, overflowed: 0 });
    expect(r.g.status().connections[0]!.iFramesOut).toBe(total);
    expect(r.peer(a).vr).toBe(total % SEQ_MODULO);
  });

  it('an answer goes to its connection only', () => {
    const r = rig();
    const a = r.open();
    const b = r.open();
    r.u(0, a, 'startdt_act');
    r.u(0, b, 'startdt_act'); // b takes over
    r.take(r.g.sendTo(1, a, answer)); // a is deactivated: the answer waits on a
    r.take(r.g.sendTo(1, b, answer));
    expect(r.peer(b).got).toEqual([answer]);
    expect(r.peer(a).got).toEqual([]);
    expect(r.g.status()).toMatchObject({ queued: 0, sent: 0 });
    expect(r.g.sendTo(2, 99, answer)).toBe(false);
  });
});

describe('IEC 104 redundancy group: switch-over', () => {
  it('100 events; the first connection acknowledges 40 of 52 sent and dies; the second receives exactly 41-100 in order', () => {
    const r = rig();
    const a = r.open(0, '127.0.0.2:1');
    const b = r.open(0, '127.0.0.3:1');
    r.u(0, a, 'startdt_act');
    r.emit(1, 1, 100);
    for (let upTo = 8; upTo <= 40; upTo += 8) r.ack(2, a, upTo);
    expect(r.events(a)).toEqual(r.range(1, 52)); // 40 acknowledged + k = 12 in flight
    r.take(r.g.closed(3, a, 'connection reset'));
    expect(r.g.status()).toMatchObject({ queued: 60, acknowledged: 40 });
    r.u(4, b, 'startdt_act');
    for (let t = 5; r.events(b).length < 60 && t < 100; t++) r.ack(t, b);
    r.ack(100, b);
    expect(r.events(b)).toEqual(r.range(41, 100));
    expect(r.g.status()).toMatchObject({ queued: 0, acknowledged: 100, resent: 12, sent: 112 });
  });

  it('STARTDT on a second connection takes over: the unacknowledged events go out there first, then the new ones; late acknowledgements on the old one count once', () => {
    const r = rig();
    const a = r.open();
    const b = r.open();
    r.u(0, a, 'startdt_act');
    r.emit(1, 1, 10);
    r.ack(2, a, 6); // 7-10 unacknowledged on a
    r.take(r.g.sendTo(2, a, answer)); // an answer in flight on a stays a's
    r.u(3, b, 'startdt_act');
    expect(r.g.status().connections.map((c) => [c.id, c.state, c.active])).toEqual([
      [a, 'stopped', false],
      [b, 'started', true],
    ]);
    r.emit(4, 11, 14);
    expect(r.peer(b).got.map(eventNo)).toEqual(r.range(7, 14)); // no answer among them
    r.emit(5, 15, 15);
    expect(r.events(a)).toEqual(r.range(1, 10)); // a, deactivated, got nothing more
    r.ack(6, a); // a's peer confirms 7-10 and the answer late
    r.ack(7, b);
    expect(r.g.status()).toMatchObject({ queued: 0, acknowledged: 15, resent: 4 });
    expect(r.peer(a).closed).toBeNull();
  });

  it('the link of a deactivated connection closes on t1 when its peer never acknowledges; nothing is lost', () => {
    const r = rig();
    const a = r.open();
    const b = r.open();
    r.u(0, a, 'startdt_act');
    r.emit(0, 1, 3);
    r.u(1000, b, 'startdt_act');
    r.take(r.g.tick(15_000, a));
    expect(r.peer(a).closed?.code).toBe('t1');
    r.take(r.g.tick(15_000, b)); // b's peer had until 16 s
    expect(r.peer(b).closed).toBeNull();
    r.ack(15_500, b);
    expect(r.events(b)).toEqual([1, 2, 3]);
    expect(r.g.status()).toMatchObject({ queued: 0, acknowledged: 3 });
  });

  it('lock_mode: a STARTDT elsewhere is refused and closes that connection, until the holder stops', () => {
    const r = rig({ lockMode: true });
    const a = r.open();
    const b = r.open();
    r.u(0, a, 'startdt_act');
    r.emit(1, 1, 2);
    r.u(2, b, 'startdt_act');
    expect(r.peer(b).closed).toEqual({ code: 'start_refused', message: 'data transfer is held by a connection in lock mode' });
    expect(r.uOf(b)).toEqual([]);
    expect(r.g.status().connections.map((c) => [c.id, c.active])).toEqual([[a, true]]);
    r.ack(3, a);
    r.u(4, a, 'stopdt_act');
    const c = r.open(5);
    r.u(6, c, 'startdt_act');
    expect(r.uOf(c)).toEqual(['startdt_con']);
    r.emit(7, 3, 3);
    expect(r.events(c)).toEqual([3]);
  });

  it('a second connection that sends STOPDT and disconnects leaves the started one untouched', () => {
    const r = rig();
    const a = r.open();
    r.u(0, a, 'startdt_act');
    r.emit(1, 1, 5);
    const b = r.open(2);
    r.u(3, b, 'stopdt_act');
    expect(r.uOf(b)).toEqual(['stopdt_con']);
    r.take(r.g.closed(4, b, 'connection ended'));
    r.emit(5, 6, 8);
    r.ack(6, a);
    expect(r.events(a)).toEqual(r.range(1, 8));
    expect(r.g.status().connections).toMatchObject([{ id: a, state: 'started', active: true, startedAt: 0 }]);
    expect(r.peer(a).closed).toBeNull();
  });

  it('a connection may join up to spec §9 connections 4', () => {
    const r = rig();
    for (let i = 0; i < MAX_GROUP_CONNECTIONS; i++) {
      expect(r.g.full()).toBe(false);
      r.open();
    }
    expect(r.g.full()).toBe(true);
    r.take(r.g.closed(0, 1, 'gone'));
    expect(r.g.full()).toBe(false);
  });
});

describe('IEC 104 redundancy group: timers', () => {
  it('t1: an event unacknowledged for t1 closes the connection; it stays queued for the next one', () => {
    const r = rig();
    const a = r.open();
    r.u(0, a, 'startdt_act');
    r.emit(100, 1, 1);
    expect(r.peer(a).timer).toBe(15_100);
    r.take(r.g.tick(15_099, a));
    expect(r.peer(a).closed).toBeNull();
    r.take(r.g.tick(15_100, a));
    expect(r.peer(a).closed?.code).toBe('t1');
    expect(r.g.status()).toMatchObject({ queued: 1, connections: [] });
    const b = r.open(16_000);
    r.u(16_000, b, 'startdt_act');
    expect(r.events(b)).toEqual([1]);
  });

  it('t3: nothing received for t3 sends TESTFR act; its con keeps the connection', () => {
    const r = rig();
    const a = r.open(0);
    expect(r.peer(a).timer).toBe(20_000);
    r.take(r.g.tick(20_000, a));
    expect(r.uOf(a)).toEqual(['testfr_act']);
    r.u(21_000, a, 'testfr_con');
    r.take(r.g.tick(36_000, a));
    expect(r.peer(a).closed).toBeNull();
  });

  it('the group reads no clock: time is only the `now` it is given', () => {
    const src = readFileSync(new URL('./group.ts', import.meta.url), 'utf8');
    expect(src).not.toMatch(/Date|performance|setTimeout|setInterval|hrtime/);
  });

  it('the settings come from the saved connection entry', () => {
    const c = { t1: 15, t2: 10, t3: 20, k: 12, w: 8, testfrm_in_stop_dt: true, testfrm_in_start_dt: false, lock_mode: true, plc_buffer_m_depth: 501 };
    expect(groupSettings(c as Parameters<typeof groupSettings>[0])).toEqual({
      link: { t1: 15_000, t2: 10_000, t3: 20_000, k: 12, w: 8, testFramesStopped: true, testFramesStarted: false },
      lockMode: true,
      depth: 100, // the events the 501-word ring holds
    });
  });
});
