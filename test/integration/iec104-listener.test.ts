// The IEC 104 transport over real loopback sockets (docs/iec104.md "The transport"): the listener of
// device/iec104/listener.ts with its redundancy groups, and a minimal control station written here on
// the codec (framer, APCI). Admission by range uses several 127.0.0.x source addresses.

import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Iec104Handler, type Iec104Listener, startIec104Listener } from '../../device/iec104/listener.ts';
import type { IecConnection } from '../../device/model/sections/iec.ts';
import { type Apdu, encodeApdu, SEQ_MODULO, seqAdd, seqDistance, type UFunction } from '../../device/protocol/iec104/apci.ts';
import { createIec104Framer } from '../../device/protocol/iec104/framer.ts';
import { LOOPBACK } from '../support/ports.ts';
import { FRAME_OF, prng } from '../support/protocol-fuzz.ts';

/** an event: M_SP_NA_1, spontaneous, IOA = n */
const event = (n: number) => Uint8Array.from([1, 1, 3, 0, 1, 0, n & 0xff, (n >> 8) & 0xff, n >> 16, 1]);
const eventNo = (asdu: Uint8Array) => asdu[6]! | (asdu[7]! << 8) | (asdu[8]! << 16);
/** a command of the control station: C_SC_NA_1 activation, IOA = n */
const command = (n: number) => Uint8Array.from([45, 1, 6, 0, 1, 0, n & 0xff, (n >> 8) & 0xff, n >> 16, 1]);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

const ENTRY: IecConnection = {
  area: 'DT',
  plc_buffer_rbm: 1000,
  plc_buffer_m: 1010,
  plc_buffer_m_depth: 1 + 5 * 2000, // a ring (and queue) of 2,000 events
  plc_buffer_c: 1520,
  t1: 15,
  t2: 10,
  t3: 20,
  k: 12,
  w: 8,
  testfrm_in_stop_dt: true,
  testfrm_in_start_dt: true,
  timeout: 1000,
  lock_mode: false,
  ip1: '0.0.0.0',
  ip2: '0.0.0.0',
};
const entry = (over: Partial<IecConnection> = {}): IecConnection => ({ ...ENTRY, ...over });

/** The control station's side of one TCP connection. */
class ControlStation {
  readonly frames: Apdu[] = [];
  readonly events: number[] = [];
  /** N(S) of the next I-frame sent */
  vs = 0;
  /** I-frames received (V(R)) */
  vr = 0;
  /** the station's last N(R): how many of ours it acknowledged */
  ackedByStation = 0;
  closed = false;
  /** the frames arrived at, on the monotonic clock */
  readonly arrivals: number[] = [];
  private readonly framer = createIec104Framer();
  private readonly waiters = new Set<() => void>();
  private autoAckEvery = 0;
  private sinceAck = 0;

  private constructor(readonly socket: Socket) {
    socket.on('data', (b: Buffer) => {
      for (const e of this.framer.push(b)) {
        if (e.type === 'error') throw new Error(`the station sent a bad frame: ${e.code}`);
        const a = e.apdu;
        this.frames.push(a);
        this.arrivals.push(performance.now());
        if (a.format === 'I') {
          this.vr = seqAdd(this.vr, 1);
          this.events.push(eventNo(a.asdu));
          if (this.autoAckEvery > 0 && ++this.sinceAck >= this.autoAckEvery) this.ack();
        }
        if (a.format !== 'U') this.ackedByStation = a.nr;
      }
      this.wake();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  static open(port: number, localAddress = LOOPBACK): Promise<ControlStation> {
    return new Promise((resolve, reject) => {
      const s = connect({ host: LOOPBACK, port, localAddress, noDelay: true });
      s.once('connect', () => resolve(new ControlStation(s)));
      s.once('error', reject);
    });
  }

  send(a: Apdu): void {
    this.socket.write(encodeApdu(a));
  }
  u(fn: UFunction): void {
    this.send({ format: 'U', fn });
  }
  /** An S-frame acknowledging every I-frame received, or the first `upTo` of the session. */
  ack(upTo = this.vr): void {
    this.sinceAck = 0;
    this.send({ format: 'S', nr: upTo % SEQ_MODULO });
  }
  /** Acknowledges every `n` I-frames received, as a control station with w = n does. */
  autoAck(n: number): void {
    this.autoAckEvery = n;
  }
  iframe(asdu: Uint8Array): void {
    this.send({ format: 'I', ns: this.vs, nr: this.vr, asdu });
    this.vs = seqAdd(this.vs, 1);
    this.sinceAck = 0;
  }
  us(): UFunction[] {
    return this.frames.flatMap((f) => (f.format === 'U' ? [f.fn] : []));
  }
  /** Resolves once `cond` holds; checked whenever something arrives (the test's timeout bounds it). */
  until(cond: () => boolean): Promise<void> {
    if (cond()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!cond()) return;
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }
  /** STARTDT act, and its con. */
  async start(): Promise<void> {
    const n = this.us().length;
    this.u('startdt_act');
    await this.until(() => this.us().length > n || this.closed);
  }
  close(): void {
    this.socket.destroy();
  }
  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}

interface Rig {
  listener: Iec104Listener;
  received: { group: number; connection: number; asdu: Uint8Array }[];
  warnings: { msg: string; fields?: Record<string, unknown> }[];
  stations: ControlStation[];
  open(from?: string): Promise<ControlStation>;
  /** resolves once the listener's status satisfies `cond` (checked as the event loop turns) */
  status(cond: (s: ReturnType<Iec104Listener['status']>) => boolean): Promise<ReturnType<Iec104Listener['status']>>;
}

let rigs: Rig[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const r of rigs) {
    for (const s of r.stations) s.close();
    await r.listener.close();
  }
  rigs = [];
});

async function rig(connections: IecConnection[], handler: Partial<Iec104Handler> = {}): Promise<Rig> {
  const received: Rig['received'] = [];
  const warnings: Rig['warnings'] = [];
  const listener = await startIec104Listener({
    settings: { port: 0, connections },
    host: LOOPBACK,
    log: { info: () => undefined, warn: (msg, fields) => warnings.push({ msg, ...(fields ? { fields } : {}) }) },
    handler: { asdu: (group, connection, asdu) => received.push({ group, connection, asdu }), ...handler },
  });
  const stations: ControlStation[] = [];
  const r: Rig = {
    listener,
    received,
    warnings,
    stations,
    async open(from = LOOPBACK) {
      const s = await ControlStation.open(listener.port, from);
      stations.push(s);
      return s;
    },
    async status(cond) {
      for (;;) {
        const s = listener.status();
        if (cond(s)) return s;
        await new Promise((res) => setImmediate(res));
      }
    },
  };
  rigs.push(r);
  return r;
}

/** The group's connection count, once every accepted socket joined it. */
const connectionsOf = (r: Rig, group: number, n: number) => r.status((s) => s.groups[group]!.connections.length === n);

describe('IEC 104 listener: the APCI over TCP', () => {
  it('STARTDT, TESTFR, STOPDT; a received I-frame goes up with group and connection, an answer goes back to that connection', async () => {
    const r = await rig([entry()], {
      asdu: (group, connection, asdu) => {
        r.received.push({ group, connection, asdu });
        r.listener.sendTo(group, connection, Uint8Array.from([...asdu.subarray(0, 2), 7, ...asdu.subarray(3)])); // ACTCON at once
      },
    });
    const a = await r.open();
    a.u('testfr_act');
    await a.until(() => a.us().includes('testfr_con'));
    await a.start();
    expect(a.us()).toEqual(['testfr_con', 'startdt_con']);
    a.iframe(command(5));
    await a.until(() => a.frames.some((f) => f.format === 'I'));
    const id = r.listener.status().groups[0]!.connections[0]!.id;
    expect(r.received).toEqual([{ group: 0, connection: id, asdu: command(5) }]);
    const con = a.frames.find((f) => f.format === 'I')!;
    expect(con).toMatchObject({ ns: 0, nr: 1 });
    expect((con as { asdu: Uint8Array }).asdu[2]).toBe(7);
    a.ack();
    a.u('stopdt_act');
    await a.until(() => a.us().includes('stopdt_con'));
    const s = await r.status((x) => x.groups[0]!.connections[0]?.state === 'stopped');
    expect(s.groups[0]!.connections[0]).toMatchObject({ framesIn: 5, framesOut: 4, iFramesIn: 1, iFramesOut: 1, startedForMs: null });
    expect(s.groups[0]!.connections[0]!.remote).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it('admission by range: each socket joins the first entry that admits its address, others are closed at accept; 4 per entry', async () => {
    const r = await rig([
      entry({ ip1: '127.0.0.2', ip2: '127.0.0.3' }),
      entry({ ip1: '127.0.0.5', ip2: '127.0.0.5' }),
      entry({ ip1: '127.0.0.2', ip2: '127.0.0.9' }),
    ]);
    const a = await r.open('127.0.0.2');
    const b = await r.open('127.0.0.3');
    const c = await r.open('127.0.0.5');
    const d = await r.open('127.0.0.7'); // only the third entry admits it
    const refused = await r.open('127.0.0.10');
    await refused.until(() => refused.closed);
    expect(refused.frames).toEqual([]);
    const s = await r.status((x) => x.groups[0]!.connections.length === 2 && x.groups[1]!.connections.length === 1 && x.groups[2]!.connections.length === 1);
    expect(s.refused).toBe(1);
    expect(s.groups.map((g) => g.connections.map((x) => x.remote.split(':')[0]))).toEqual([['127.0.0.2', '127.0.0.3'], ['127.0.0.5'], ['127.0.0.7']]);
    expect(r.warnings).toContainEqual({
      msg: 'IEC 104 connection refused',
      fields: expect.objectContaining({ client: '127.0.0.10', reason: 'no connection entry admits the address' }),
    });
    // the first entry takes 4 (spec §9), the fifth is closed although the third entry would admit it too
    await r.open('127.0.0.2');
    await r.open('127.0.0.3');
    await connectionsOf(r, 0, 4);
    const fifth = await r.open('127.0.0.2');
    await fifth.until(() => fifth.closed);
    expect((await r.status((x) => x.refused === 2)).groups[2]!.connections).toHaveLength(1);
    // the admitted ones work
    for (const x of [a, b, c, d]) {
      x.u('testfr_act');
      await x.until(() => x.us().includes('testfr_con'));
    }
  });

  it('the all-addresses form 0.0.0.0-0.0.0.0 admits everyone', async () => {
    const r = await rig([entry()]);
    for (const from of ['127.0.0.1', '127.0.0.9', '127.1.2.3']) {
      const s = await r.open(from);
      s.u('testfr_act');
      await s.until(() => s.us().includes('testfr_con'));
    }
    expect((await connectionsOf(r, 0, 3)).refused).toBe(0);
  });

  it('lock_mode: a STARTDT act on another connection is refused and that connection closed; the holder goes on', async () => {
    const r = await rig([entry({ lock_mode: true })]);
    const a = await r.open('127.0.0.2');
    const b = await r.open('127.0.0.3');
    await a.start();
    b.u('startdt_act');
    await b.until(() => b.closed);
    expect(b.us()).toEqual([]);
    r.listener.sendEvent(0, event(1));
    await a.until(() => a.events.length === 1);
    expect(a.closed).toBe(false);
  });
});

describe('IEC 104 listener: the event queue and switch-over', () => {
  it("events queued while no connection is started go out after STARTDT; the queue is bounded by the ring's records, the overflow counted", async () => {
    const r = await rig([entry({ plc_buffer_m_depth: 1 + 5 * 50 })]); // a ring of 50 records
    for (let n = 1; n <= 80; n++) r.listener.sendEvent(0, event(n));
    expect(r.listener.status().groups[0]).toMatchObject({ queued: 50, overflowed: 30 });
    const a = await r.open();
    a.autoAck(8);
    await a.start();
    await a.until(() => a.events.length === 50);
    a.ack();
    expect(a.events).toEqual(range(31, 80));
    expect((await r.status((s) => s.groups[0]!.queued === 0)).groups[0]).toMatchObject({ sent: 50, acknowledged: 50, overflowed: 30 });
  });

  it('switch-over without loss or duplication: 100 events, the first acknowledges 40 of 52 and dies; the second receives exactly 41-100 in order', async () => {
    const r = await rig([entry()]);
    const a = await r.open('127.0.0.2');
    const b = await r.open('127.0.0.3');
    await a.start();
    for (let n = 1; n <= 100; n++) r.listener.sendEvent(0, event(n));
    for (let upTo = 8; upTo <= 40; upTo += 8) {
      await a.until(() => a.events.length >= upTo);
      a.ack(upTo);
    }
    await a.until(() => a.events.length === 52); // 40 acknowledged, k = 12 in flight
    await r.status((s) => s.groups[0]!.acknowledged === 40);
    a.socket.resetAndDestroy();
    await connectionsOf(r, 0, 1);
    b.autoAck(8);
    await b.start();
    await b.until(() => b.events.length >= 60);
    b.ack();
    expect(b.events).toEqual(range(41, 100));
    const s = await r.status((x) => x.groups[0]!.queued === 0);
    expect(s.groups[0]).toMatchObject({ acknowledged: 100, resent: 12, sent: 112 });
  });

  it('a second connection that sends STOPDT and disconnects leaves the started one untouched', async () => {
    const r = await rig([entry()]);
    const a = await r.open('127.0.0.2');
    a.autoAck(4);
    await a.start();
    r.listener.sendEvent(0, event(1));
    await a.until(() => a.events.length === 1);
    const b = await r.open('127.0.0.3');
    b.u('stopdt_act');
    await b.until(() => b.us().includes('stopdt_con'));
    b.close();
    await connectionsOf(r, 0, 1);
    for (let n = 2; n <= 20; n++) r.listener.sendEvent(0, event(n));
    await a.until(() => a.events.length === 20);
    expect(a.events).toEqual(range(1, 20));
    expect(a.us()).toEqual(['startdt_con']);
    expect(r.listener.status().groups[0]!.connections).toMatchObject([{ state: 'started', active: true }]);
  });

  it('k and w hold under a burst of 1,000 events while the control station sends 1,000 commands', async () => {
    const r = await rig([entry()]);
    const a = await r.open();
    a.autoAck(8);
    await a.start();
    for (let n = 1; n <= 1000; n++) r.listener.sendEvent(0, event(n));
    let maxOpen = 0;
    let maxUnackedByStation = 0;
    // the station's I-frames are acknowledged every 8 (our w); each command waits until the station
    // acknowledged all but 7 of ours, so an S-frame (or an I-frame's N(R)) at the latest after w = 8
    // is what lets the burst go on
    for (let n = 1; n <= 1000; n++) {
      await a.until(() => seqDistance(a.ackedByStation, a.vs) < 8 || a.closed);
      maxUnackedByStation = Math.max(maxUnackedByStation, seqDistance(a.ackedByStation, a.vs));
      a.iframe(command(n));
      maxOpen = Math.max(maxOpen, r.listener.status().groups[0]!.connections[0]!.unacknowledged);
    }
    await a.until(() => a.events.length === 1000);
    a.ack();
    await r.status((s) => s.groups[0]!.acknowledged === 1000 && r.received.length === 1000);
    expect(maxOpen).toBeLessThanOrEqual(12);
    expect(maxUnackedByStation).toBeLessThan(8);
    expect(a.events).toEqual(range(1, 1000));
    expect(r.received.map((x) => x.asdu[6]! | (x.asdu[7]! << 8))).toEqual(range(1, 1000));
    expect(a.closed).toBe(false);
  });

  it('more than 32,768 I-frames each way in one session: the 15-bit wrap closes nothing', async () => {
    const r = await rig([entry({ plc_buffer_m_depth: 32765 })]);
    const a = await r.open();
    a.autoAck(8);
    await a.start();
    const total = 33_000;
    let queued = 0;
    let sentCommands = 0;
    while (a.events.length < total || sentCommands < total) {
      // events in chunks as the queue drains; commands within the station's w
      while (queued < total && queued - a.events.length < 2000) r.listener.sendEvent(0, event(++queued));
      while (sentCommands < total && seqDistance(a.ackedByStation, a.vs) < 8) {
        a.iframe(command(++sentCommands));
      }
      const seen = a.frames.length;
      await a.until(() => a.frames.length > seen || a.closed);
      expect(a.closed).toBe(false);
    }
    a.ack();
    await r.status((s) => s.groups[0]!.acknowledged === total && r.received.length === total);
    expect(a.events).toEqual(range(1, total));
    let wraps = 0;
    let last = -1;
    for (const f of a.frames)
      if (f.format === 'I') {
        if (f.ns < last) wraps++;
        last = f.ns;
      }
    expect(wraps).toBe(1);
    expect(r.listener.status().groups[0]!.connections[0]).toMatchObject({ state: 'started', iFramesIn: total, iFramesOut: total });
  });
});

// short timers for the timer tests, with room for a busy machine: the control station answers from
// this same process, so t1 must outlast a stall of its event loop (2 s did not always)
const TIMERS = { t1: 6, t2: 1, t3: 8 } as const;

describe('IEC 104 listener: timers on the monotonic clock', () => {
  it('t1: an I-frame the peer does not acknowledge within t1 closes the connection; the event waits for the next one', async () => {
    const r = await rig([entry(TIMERS)]);
    const a = await r.open();
    await a.start();
    r.listener.sendEvent(0, event(1));
    await a.until(() => a.closed);
    expect(a.events).toEqual([1]);
    expect(r.listener.status().groups[0]).toMatchObject({ queued: 1, connections: [] });
    const b = await r.open();
    await b.start();
    await b.until(() => b.events.length === 1);
  });

  it('t3: a silent peer gets a TESTFR act t3 after its last frame; answered, the connection stays', async () => {
    const r = await rig([entry(TIMERS)]);
    const a = await r.open();
    const t0 = performance.now();
    await a.start();
    await a.until(() => a.us().includes('testfr_act'));
    expect(a.arrivals.at(-1)! - t0).toBeGreaterThanOrEqual(TIMERS.t3 * 1000);
    a.u('testfr_con');
    r.listener.sendEvent(0, event(1));
    await a.until(() => a.events.length === 1);
    a.ack();
    expect(a.closed).toBe(false);
  });

  it('a wall-clock jump changes no timer: setting the clock a year ahead and years back neither fires nor delays t3', async () => {
    const r = await rig([entry(TIMERS)]);
    const a = await r.open();
    await a.start();
    const t0 = performance.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 365 * 86_400_000);
    a.u('testfr_act'); // a frame received restarts t3 (while the wall clock is a year ahead)
    await a.until(() => a.us().includes('testfr_con'));
    vi.setSystemTime(new Date('2020-01-01T00:00:00Z'));
    await a.until(() => a.us().includes('testfr_act'));
    expect(a.arrivals.at(-1)! - t0).toBeGreaterThanOrEqual(TIMERS.t3 * 1000);
    a.u('testfr_con');
    r.listener.sendEvent(0, event(1));
    await a.until(() => a.events.length === 1);
    expect(a.closed).toBe(false);
    const src = readFileSync(new URL('../../device/iec104/listener.ts', import.meta.url), 'utf8');
    expect(src).not.toMatch(/Date\.|new Date|setInterval|hrtime|idleAfter|touch\(/);
  });
});

describe('IEC 104 listener: faults', () => {
  it('a handler that throws ends only its connection; the other connection keeps working', async () => {
    const r = await rig([entry()], {
      asdu: (group, connection, asdu) => {
        if (asdu[6] === 66) throw new Error('the station refuses to cope');
        r.received.push({ group, connection, asdu });
      },
    });
    const a = await r.open('127.0.0.2');
    const b = await r.open('127.0.0.3');
    await a.start();
    b.u('testfr_act');
    await b.until(() => b.us().includes('testfr_con'));
    a.iframe(command(66));
    await a.until(() => a.closed);
    expect(r.listener.status().faults).toBe(1);
    await b.start();
    r.listener.sendEvent(0, event(7));
    await b.until(() => b.events.length === 1);
    b.iframe(command(1));
    await r.status(() => r.received.length === 1);
    expect(r.warnings.some((w) => w.msg === 'connection fault contained')).toBe(true);
  });

  it('started connections fed random, mutated and out-of-window frames end at most themselves; a started connection of another group goes on', async () => {
    let handedUp = 0;
    const r = await rig([entry({ ip1: '127.0.0.2', ip2: '127.0.0.2' }), entry()], { asdu: () => void handedUp++ });
    const kept = await r.open('127.0.0.2');
    kept.autoAck(1);
    await kept.start();
    const rng = prng(20261127);
    for (let i = 1; i <= 60; i++) {
      const s = await r.open();
      await s.start();
      // good I-frames and fuzz frames mixed, after a proper STARTDT: the fuzz meets a started link
      for (let j = 0; j < 20 && !s.closed; j++) {
        if (rng.int(0, 2) === 0) s.iframe(command(j));
        else s.socket.write(FRAME_OF.iec104(rng));
      }
      s.close();
      await connectionsOf(r, 1, 0);
      r.listener.sendEvent(0, event(i));
      await kept.until(() => kept.events.length === i);
    }
    expect(kept.events).toEqual(range(1, 60));
    expect(handedUp).toBeGreaterThan(0);
    expect(r.listener.status()).toMatchObject({ faults: 0, groups: [{ connections: [{ state: 'started', active: true }] }, { connections: [] }] });
  });

  it('close() ends every connection and the listening socket', async () => {
    const r = await rig([entry()]);
    const a = await r.open();
    await a.start();
    await r.listener.close();
    await a.until(() => a.closed);
    expect(r.listener.status()).toMatchObject({ listening: false, groups: [{ connections: [] }] });
    rigs = rigs.filter((x) => x !== r);
  });
});
