import { describe, expect, it } from 'vitest';
import { charBits, received, WireDirection, wireMs, type SerialFraming, type Timers } from './wire.ts';

const f9600: SerialFraming = { baud: 9600, bits: 8, parity: 'odd', stopbits: 1 };

/** timers driven by hand: `advance(ms)` runs what is due */
function fakeTimers() {
  let now = 0;
  const due: { at: number; fn: () => void; id: number }[] = [];
  let id = 0;
  const t: Timers & { advance(ms: number): void } = {
    now: () => now,
    setTimeout: (fn, ms) => { due.push({ at: now + ms, fn, id: ++id }); return id; },
    clearTimeout: (h) => { const i = due.findIndex((d) => d.id === h); if (i >= 0) due.splice(i, 1); },
    advance(ms) {
      now += ms;
      for (;;) {
        due.sort((a, b) => a.at - b.at);
        const d = due[0];
        if (!d || d.at > now) break;
        due.shift();
        d.fn();
      }
    },
  };
  return t;
}

describe('serial wire timing', () => {
  it('counts start, data, parity and stop bits', () => {
    expect(charBits({ bits: 8, parity: 'odd', stopbits: 1 })).toBe(11);
    expect(charBits({ bits: 7, parity: 'none', stopbits: 2 })).toBe(10);
    expect(wireMs(96, f9600)).toBeCloseTo(110, 5); // 96 chars × 11 bits ÷ 9600 bit/s
  });

  it('delivers a frame only after the wire has carried it, frames one after another', () => {
    const t = fakeTimers();
    const got: { at: number; text: string }[] = [];
    const w = new WireDirection(() => f9600, () => f9600, (b) => got.push({ at: t.now(), text: new TextDecoder().decode(b) }), t);
    w.write(new TextEncoder().encode('%01#RT**\r')); // 9 chars: 10.3125 ms
    w.write(new TextEncoder().encode('%01#RT**\r'));
    t.advance(10);
    expect(got).toEqual([]);
    t.advance(0.5);
    expect(got.map((g) => g.text)).toEqual(['%01#RT**\r']);
    t.advance(10.2);
    expect(got.length).toBe(2);
    expect(got[1]!.at).toBeGreaterThanOrEqual(20.625);
  });

  it('a receiver with other settings gets garbage, never the frame', () => {
    const frame = new TextEncoder().encode('%01$RT0520010000000000**\r');
    expect(received(frame, f9600, f9600)).toEqual(frame);
    for (const baud of [1200, 19200, 115200]) {
      const out = received(frame, f9600, { ...f9600, baud });
      expect(new TextDecoder().decode(out)).not.toContain('%01$RT');
    }
    expect(received(frame, f9600, { ...f9600, parity: 'even' })).not.toEqual(frame);
  });

  it('unplugging loses what is on the wire and drops writes until plugged again', () => {
    const t = fakeTimers();
    const got: Uint8Array[] = [];
    const w = new WireDirection(() => f9600, () => f9600, (b) => got.push(b), t);
    w.write(new Uint8Array([1, 2, 3]));
    w.unplug();
    w.write(new Uint8Array([4]));
    t.advance(100);
    expect(got).toEqual([]);
    w.plug();
    w.write(new Uint8Array([5]));
    t.advance(100);
    expect(got).toEqual([new Uint8Array([5])]);
  });
});
