import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Apdu, encodeApdu, SEQ_MODULO, seqAdd } from '../protocol/iec104/apci.ts';
import { Iec104Link, type LinkAction, type LinkSettings, linkSettings } from './link.ts';

const STD: LinkSettings = { t1: 15_000, t2: 10_000, t3: 20_000, k: 12, w: 8, testFramesStopped: true, testFramesStarted: true };
const asdu = (n: number) => Uint8Array.from([1, 1, 3, 0, 1, 0, n & 0xff, n >> 8, 0, 1]);

/** A controlled-station link with the control centre's side of the wire. */
function harness(settings: Partial<LinkSettings> = {}) {
  const link = new Iec104Link({ ...STD, ...settings }, 0);
  const log: LinkAction[] = [];
  const take = (a: LinkAction[]) => {
    log.push(...a);
    return a;
  };
  const peer = (now: number, a: Apdu) => take(link.receive(now, encodeApdu(a)));
  const sent = (a: LinkAction[]) => a.flatMap((x) => (x.kind === 'send' ? [x.apdu] : []));
  const start = (now = 0) => {
    expect(peer(now, { format: 'U', fn: 'startdt_act' })).toContainEqual({ kind: 'start_request' });
    expect(sent(take(link.acceptStart(now)))).toEqual([{ format: 'U', fn: 'startdt_con' }]);
  };
  return { link, peer, sent, start, take, log };
}

describe('IEC 104 link: STARTDT, STOPDT, TESTFR', () => {
  it('STARTDT act asks the owner; accepted: STARTDT con and data transfer; refused: the connection closes', () => {
    const h = harness();
    expect(h.link.status().state).toBe('stopped');
    h.start();
    expect(h.link.status().state).toBe('started');
    expect(h.sent(h.peer(1, { format: 'U', fn: 'startdt_act' }))).toEqual([{ format: 'U', fn: 'startdt_con' }]); // repeated act: con again
    const r = harness();
    r.peer(0, { format: 'U', fn: 'startdt_act' });
    expect(r.take(r.link.refuseStart('another connection of the group holds the lock'))).toContainEqual({
      kind: 'close',
      code: 'start_refused',
      message: 'another connection of the group holds the lock',
    });
  });

  it('TESTFR act is answered in every state; STOPDT act while stopped is confirmed', () => {
    const h = harness({ testFramesStopped: false, testFramesStarted: false });
    expect(h.sent(h.peer(0, { format: 'U', fn: 'testfr_act' }))).toEqual([{ format: 'U', fn: 'testfr_con' }]);
    expect(h.sent(h.peer(0, { format: 'U', fn: 'stopdt_act' }))).toEqual([{ format: 'U', fn: 'stopdt_con' }]);
    h.start();
    expect(h.sent(h.peer(0, { format: 'U', fn: 'testfr_act' }))).toEqual([{ format: 'U', fn: 'testfr_con' }]);
  });

  it('STOPDT act: no new I-frame, STOPDT con once everything sent is acknowledged, after an S-frame for what was received', () => {
    const h = harness();
    h.start();
    h.sent(h.take(h.link.sendAsdu(0, asdu(1))));
    h.peer(0, { format: 'I', ns: 0, nr: 0, asdu: asdu(9) });
    expect(h.sent(h.peer(1, { format: 'U', fn: 'stopdt_act' }))).toEqual([]);
    expect(h.link.status().state).toBe('stopping');
    expect(h.sent(h.take(h.link.sendAsdu(2, asdu(2))))).toEqual([]); // held back
    const a = h.peer(3, { format: 'S', nr: 1 });
    expect(h.sent(a)).toEqual([
      { format: 'S', nr: 1 },
      { format: 'U', fn: 'stopdt_con' },
    ]);
    expect(a).toContainEqual({ kind: 'stopped' });
    expect(h.link.status()).toMatchObject({ state: 'stopped', pending: 1 });
  });

  it('what the controlling station must not send closes the connection', () => {
    const cases: [Apdu | Uint8Array, string, boolean][] = [
      [{ format: 'I', ns: 0, nr: 0, asdu: asdu(1) }, 'unexpected_i', false], // I-frame before STARTDT
      [{ format: 'U', fn: 'startdt_con' }, 'unexpected_u', true],
      [{ format: 'U', fn: 'stopdt_con' }, 'unexpected_u', true],
      [{ format: 'I', ns: 1, nr: 0, asdu: asdu(1) }, 'sequence', true], // N(S) 1, 0 expected
      [{ format: 'S', nr: 1 }, 'bad_nr', true], // acknowledges a frame never sent
      [Uint8Array.from([0x68, 0x04, 0x0f, 0, 0, 0]), 'bad_frame', true], // two U functions
      [Uint8Array.from([0x68, 0x02]), 'bad_frame', true],
      [Uint8Array.from([0x10, 0x49]), 'bad_frame', true], // an FT1.2 frame of 101
    ];
    for (const [frame, code, started] of cases) {
      const h = harness();
      if (started) h.start();
      const bytes = frame instanceof Uint8Array ? frame : encodeApdu(frame);
      expect(h.take(h.link.receive(5, bytes))).toContainEqual(expect.objectContaining({ kind: 'close', code }));
      expect(h.link.status()).toMatchObject({ state: 'closed', lastError: { code } });
      expect(h.link.deadline()).toBeNull();
      expect(h.take(h.link.sendAsdu(6, asdu(1)))).toEqual([]); // a closed link stays quiet
    }
  });
});

describe('IEC 104 link: k and w windows', () => {
  it('k: at most k I-frames unacknowledged, the rest wait; an acknowledge frees the window in order', () => {
    const h = harness({ k: 12 });
    h.start();
    const out: Apdu[] = [];
    for (let i = 0; i < 20; i++) out.push(...h.sent(h.take(h.link.sendAsdu(i, asdu(i)))));
    expect(out.map((a) => (a.format === 'I' ? a.ns : -1))).toEqual([...Array(12).keys()]);
    // the window filled with frames waiting: one stall, however many more wait behind it
    expect(h.link.status()).toMatchObject({ unacknowledged: 12, pending: 8, windowStalls: 1 });
    const a = h.peer(30, { format: 'S', nr: 5 });
    expect(a).toContainEqual({ kind: 'acked', count: 5 });
    expect(h.sent(a).map((x) => (x.format === 'I' ? x.ns : -1))).toEqual([12, 13, 14, 15, 16]);
    expect(h.link.unacknowledged()).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16].map(asdu));
    // still full after the acknowledge let five out: the same stall
    expect(h.link.status()).toMatchObject({ windowStalls: 1 });
    h.peer(31, { format: 'S', nr: 17 });
    expect(h.link.status()).toMatchObject({ unacknowledged: 3, pending: 0, windowStalls: 1 });
    // room again, then full once more with frames waiting: a second stall
    for (let i = 20; i < 40; i++) h.link.sendAsdu(32, asdu(i));
    expect(h.link.status()).toMatchObject({ unacknowledged: 12, windowStalls: 2 });
  });

  it('k holds under a burst of 1,000 ASDUs acknowledged every w frames; each frame is sent once, in order', () => {
    const h = harness({ k: 12, w: 8 });
    h.start();
    let sent: Apdu[] = [];
    for (let i = 0; i < 1000; i++) sent.push(...h.sent(h.take(h.link.sendAsdu(i, asdu(i)))));
    let acked = 0;
    while (acked < 1000) {
      expect(h.link.status().unacknowledged).toBeLessThanOrEqual(12);
      acked = Math.min(acked + 8, sent.length);
      sent = sent.concat(h.sent(h.peer(2000 + acked, { format: 'S', nr: acked % SEQ_MODULO })));
    }
    expect(sent.map((a) => (a.format === 'I' ? a.asdu[6]! | (a.asdu[7]! << 8) : -1))).toEqual([...Array(1000).keys()]);
  });

  it('w: an S-frame after w received I-frames; an I-frame sent in between acknowledges and restarts the count', () => {
    const h = harness({ w: 8 });
    h.start();
    let ns = 0;
    const rx = (now: number) => h.sent(h.peer(now, { format: 'I', ns: ns++, nr: 0, asdu: asdu(ns) }));
    for (let i = 0; i < 7; i++) expect(rx(i)).toEqual([]);
    expect(rx(7)).toEqual([{ format: 'S', nr: 8 }]);
    for (let i = 0; i < 3; i++) rx(10 + i);
    expect(h.sent(h.take(h.link.sendAsdu(20, asdu(0))))).toEqual([{ format: 'I', ns: 0, nr: 11, asdu: asdu(0) }]);
    for (let i = 0; i < 7; i++) expect(rx(30 + i)).toEqual([]);
    expect(rx(40)).toEqual([{ format: 'S', nr: 19 }]);
  });

  it('an I-frame that frees the window: the frame let out acknowledges it; one with a bad N(R) is not handed up', () => {
    const h = harness({ k: 2 });
    h.start();
    for (let i = 0; i < 3; i++) h.take(h.link.sendAsdu(i, asdu(i)));
    const a = h.peer(10, { format: 'I', ns: 0, nr: 1, asdu: asdu(7) });
    expect(h.sent(a)).toEqual([{ format: 'I', ns: 2, nr: 1, asdu: asdu(2) }]);
    expect(h.link.deadline()).not.toBe(10 + STD.t2); // nothing left to acknowledge: no t2
    const b = h.peer(11, { format: 'I', ns: 1, nr: 5, asdu: asdu(8) });
    expect(b.some((x) => x.kind === 'asdu')).toBe(false);
    expect(b).toContainEqual(expect.objectContaining({ kind: 'close', code: 'bad_nr' }));
  });

  it('received ASDUs are handed up in order', () => {
    const h = harness();
    h.start();
    const a = [0, 1, 2].flatMap((n) => h.peer(n, { format: 'I', ns: n, nr: 0, asdu: asdu(n) }));
    expect(a.filter((x) => x.kind === 'asdu')).toEqual([0, 1, 2].map((n) => ({ kind: 'asdu', asdu: asdu(n) })));
  });
});

describe('IEC 104 link: t1, t2, t3 on the monotonic clock', () => {
  it('t1: an I-frame unacknowledged for t1 closes; acknowledged in time it does not', () => {
    const h = harness();
    h.start(0);
    expect(h.take(h.link.sendAsdu(1000, asdu(1)))).toContainEqual({ kind: 'timer', at: 16_000 });
    expect(h.link.tick(15_999).some((a) => a.kind === 'close')).toBe(false);
    expect(h.link.tick(16_000)).toContainEqual({ kind: 'close', code: 't1', message: 'I-frame 0 unacknowledged for t1 (15000 ms)' });
    const ok = harness();
    ok.start(0);
    ok.take(ok.link.sendAsdu(1000, asdu(1)));
    ok.peer(15_000, { format: 'S', nr: 1 });
    expect(ok.take(ok.link.tick(16_000)).some((a) => a.kind === 'close')).toBe(false);
  });

  it('t2: one received I-frame is acknowledged by an S-frame t2 later', () => {
    const h = harness();
    h.start(0);
    expect(h.peer(100, { format: 'I', ns: 0, nr: 0, asdu: asdu(1) })).toContainEqual({ kind: 'timer', at: 10_100 });
    expect(h.sent(h.link.tick(10_099))).toEqual([]);
    expect(h.sent(h.link.tick(10_100))).toEqual([{ format: 'S', nr: 1 }]);
  });

  it('t3: nothing received for t3 sends TESTFR act; its con re-arms t3, no con within t1 closes', () => {
    const h = harness();
    h.start(0);
    expect(h.link.deadline()).toBe(20_000);
    expect(h.sent(h.link.tick(19_999))).toEqual([]);
    expect(h.sent(h.link.tick(20_000))).toEqual([{ format: 'U', fn: 'testfr_act' }]);
    expect(h.sent(h.link.tick(25_000))).toEqual([]); // one TESTFR act at a time
    expect(h.peer(26_000, { format: 'U', fn: 'testfr_con' })).toContainEqual({ kind: 'timer', at: 46_000 });
    expect(h.sent(h.link.tick(46_000))).toEqual([{ format: 'U', fn: 'testfr_act' }]);
    expect(h.link.tick(61_000)).toContainEqual({ kind: 'close', code: 't1', message: 'TESTFR act unanswered for t1 (15000 ms)' });
  });

  it('any received frame restarts t3', () => {
    const h = harness();
    h.start(0);
    h.peer(15_000, { format: 'U', fn: 'testfr_act' });
    expect(h.link.deadline()).toBe(35_000);
  });

  it('testfrm_in_stop_dt / testfrm_in_start_dt: t3 sends TESTFR act only in the states they allow', () => {
    const stoppedOnly = harness({ testFramesStopped: true, testFramesStarted: false });
    expect(stoppedOnly.sent(stoppedOnly.link.tick(20_000))).toEqual([{ format: 'U', fn: 'testfr_act' }]);
    stoppedOnly.peer(20_001, { format: 'U', fn: 'testfr_con' });
    stoppedOnly.start(20_002);
    expect(stoppedOnly.link.deadline()).toBeNull();
    expect(stoppedOnly.sent(stoppedOnly.link.tick(100_000))).toEqual([]);
    const startedOnly = harness({ testFramesStopped: false, testFramesStarted: true });
    expect(startedOnly.link.deadline()).toBeNull();
    expect(startedOnly.sent(startedOnly.link.tick(100_000))).toEqual([]);
    startedOnly.start(100_000);
    expect(startedOnly.sent(startedOnly.link.tick(120_000))).toEqual([{ format: 'U', fn: 'testfr_act' }]);
  });

  it('a wall-clock jump changes no timer: the link reads only the monotonic time it is given', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-12-02T01:00:00Z'));
    const h = harness();
    h.start(0);
    h.take(h.link.sendAsdu(1000, asdu(1)));
    const before = h.link.deadline();
    vi.setSystemTime(new Date('2027-06-01T00:00:00Z')); // the clock set forward by months
    expect(h.link.tick(2000).some((a) => a.kind === 'close' || a.kind === 'send')).toBe(false);
    vi.setSystemTime(new Date('2020-01-01T00:00:00Z')); // and back by years
    expect(h.link.tick(3000).some((a) => a.kind === 'close' || a.kind === 'send')).toBe(false);
    expect(h.link.deadline()).toBe(before);
    const src = readFileSync(new URL('./link.ts', import.meta.url), 'utf8');
    expect(src).not.toMatch(/Date|performance|setTimeout|setInterval|hrtime/);
  });

  afterEach(() => {
    vi.useRealTimers();
  });
});

describe('IEC 104 link: 15-bit sequence numbers', () => {
  it('more than 32,768 I-frames each way: N(S)/N(R) wrap at 32768 and nothing is judged out of range', () => {
    const h = harness({ k: 12, w: 8 });
    h.start();
    const total = 40_000;
    let inNs = 0;
    let acked = 0;
    let lastNs = -1;
    let wraps = 0;
    let closes = 0;
    for (let i = 0; i < total; i++) {
      for (const a of h.sent(h.link.sendAsdu(i, asdu(i)))) {
        if (a.format !== 'I') continue;
        if (a.ns < lastNs) wraps++;
        lastNs = a.ns;
      }
      const r = h.link.receive(i, encodeApdu({ format: 'I', ns: inNs, nr: acked, asdu: asdu(i) }));
      closes += r.filter((a) => a.kind === 'close').length;
      inNs = seqAdd(inNs, 1);
      const open = h.link.unacknowledged().length;
      if (open >= 10) {
        acked = seqAdd(acked, open);
        closes += h.link.receive(i, encodeApdu({ format: 'S', nr: acked })).filter((a) => a.kind === 'close').length;
      }
    }
    expect(closes).toBe(0);
    expect(wraps).toBe(1);
    expect(h.link.status()).toMatchObject({ state: 'started', vr: total % SEQ_MODULO, iFramesIn: total, iFramesOut: total });
    // an N(R) one beyond V(S) after the wrap is still out of range
    expect(h.link.receive(total, encodeApdu({ format: 'S', nr: seqAdd(h.link.status().vs, 1) }))).toContainEqual(
      expect.objectContaining({ kind: 'close', code: 'bad_nr' }),
    );
  });

  it('an N(R) behind the oldest unacknowledged frame (already acknowledged) closes', () => {
    const h = harness();
    h.start();
    for (let i = 0; i < 4; i++) h.link.sendAsdu(i, asdu(i));
    h.peer(10, { format: 'S', nr: 3 });
    expect(h.peer(11, { format: 'S', nr: 3 }).some((a) => a.kind === 'close')).toBe(false); // the same N(R) again is fine
    expect(h.peer(12, { format: 'S', nr: 2 })).toContainEqual(expect.objectContaining({ kind: 'close', code: 'bad_nr' }));
  });
});

describe('IEC 104 link: the owner', () => {
  it('deactivate stops data transfer without a frame; the unacknowledged ASDUs stay for a switch-over, in order', () => {
    const h = harness();
    h.start();
    for (let i = 0; i < 5; i++) h.take(h.link.sendAsdu(i, asdu(i)));
    h.peer(10, { format: 'S', nr: 2 });
    const a = h.take(h.link.deactivate());
    expect(h.sent(a)).toEqual([]);
    expect(a).toContainEqual({ kind: 'stopped' });
    expect(h.link.unacknowledged()).toEqual([2, 3, 4].map(asdu));
    expect(h.sent(h.take(h.link.sendAsdu(20, asdu(9))))).toEqual([]);
    expect(h.link.takePending()).toEqual([asdu(9)]);
    expect(h.link.status().pending).toBe(0);
  });

  it('shutdown closes without counting as the link error; the settings come from the saved connection', () => {
    const h = harness();
    expect(h.link.shutdown('PLC not running')).toContainEqual({ kind: 'close', code: 'closed_by_owner', message: 'PLC not running' });
    expect(h.link.status()).toMatchObject({ state: 'closed', lastError: null });
    const c = { t1: 15, t2: 10, t3: 20, k: 12, w: 8, testfrm_in_stop_dt: false, testfrm_in_start_dt: true } as Parameters<typeof linkSettings>[0];
    expect(linkSettings(c)).toEqual({ t1: 15_000, t2: 10_000, t3: 20_000, k: 12, w: 8, testFramesStopped: false, testFramesStarted: true });
  });
});

describe('IEC 104 link: fuzz', () => {
  it('property: any octets and any timing never throw; a closed link stays closed and silent', () => {
    const frames = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc
        .record({ format: fc.constant('I' as const), ns: fc.nat(40), nr: fc.nat(40), asdu: fc.uint8Array({ minLength: 1, maxLength: 20 }) })
        .map((a) => encodeApdu(a)),
      fc.record({ format: fc.constant('S' as const), nr: fc.nat(40) }).map((a) => encodeApdu(a)),
      fc.constantFrom('startdt_act', 'stopdt_act', 'testfr_act', 'testfr_con', 'startdt_con').map((fn) => encodeApdu({ format: 'U', fn: fn as never })),
    );
    const step = fc.tuple(fc.nat(30_000), fc.oneof(frames, fc.constant('send' as const), fc.constant('accept' as const)));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const link = new Iec104Link(STD, 0);
        let now = 0;
        for (const [dt, what] of steps) {
          now += dt;
          const closedBefore = link.status().state === 'closed';
          const a = what === 'send' ? link.sendAsdu(now, asdu(now)) : what === 'accept' ? link.acceptStart(now) : link.receive(now, what);
          a.push(...link.tick(now));
          if (closedBefore) expect(a.filter((x) => x.kind !== 'timer')).toEqual([]);
          expect(link.status().unacknowledged).toBeLessThanOrEqual(STD.k);
        }
      }),
      { numRuns: 300 },
    );
  });
});
