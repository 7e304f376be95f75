import { describe, expect, it } from 'vitest';
import { charBits, formatFraming, framingOf, manualTimers, received, type SerialFraming, WireDirection, wireMs } from './wire.ts';

const f9600: SerialFraming = { baud: 9600, bits: 8, parity: 'odd', stopbits: 1 };

describe('serial wire timing', () => {
  it('counts start, data, parity and stop bits', () => {
    expect(charBits({ bits: 8, parity: 'odd', stopbits: 1 })).toBe(11);
    expect(charBits({ bits: 7, parity: 'none', stopbits: 2 })).toBe(10);
    expect(wireMs(96, f9600)).toBeCloseTo(110, 5); // 96 chars × 11 bits ÷ 9600 bit/s
  });

  it('takes the framing from port settings and writes it the usual short way', () => {
    expect(framingOf({ baudRate: 19200, dataBits: 7, parity: 'even', stopBits: 2, rtscts: true })).toEqual({
      baud: 19200,
      bits: 7,
      parity: 'even',
      stopbits: 2,
    });
    expect(formatFraming(f9600)).toBe('9600 8O1');
    expect(formatFraming({ baud: 115200, bits: 7, parity: 'none', stopbits: 2 })).toBe('115200 7N2');
  });

  it('delivers a frame only after the wire has carried it, frames one after another', () => {
    const t = manualTimers();
    const got: { at: number; text: string }[] = [];
    const w = new WireDirection(
      () => f9600,
      () => f9600,
      (b) => got.push({ at: t.now(), text: new TextDecoder().decode(b) }),
      t,
    );
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

  it('delivers in the order written even when a later write’s timer fires first', () => {
    // timers of different event-loop turns may fire a fraction of a ms off: here the second first
    const fns: (() => void)[] = [];
    const t = { now: () => 0, setTimeout: (fn: () => void) => fns.push(fn), clearTimeout: () => {} };
    const got: string[] = [];
    const w = new WireDirection(
      () => f9600,
      () => f9600,
      (b) => got.push(new TextDecoder().decode(b)),
      t,
    );
    w.write(new TextEncoder().encode('first'));
    w.write(new TextEncoder().encode('second'));
    fns[1]!();
    expect(got).toEqual([]);
    fns[0]!();
    expect(got).toEqual(['first', 'second']);
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

  it('hand-driven timers run what is due in time order, at its due time', () => {
    const t = manualTimers();
    const seen: string[] = [];
    t.setTimeout(() => seen.push(`b@${t.now()}`), 20);
    const h = t.setTimeout(() => seen.push('cancelled'), 5);
    t.setTimeout(() => {
      seen.push(`a@${t.now()}`);
      t.setTimeout(() => seen.push(`c@${t.now()}`), 1);
    }, 10);
    t.clearTimeout(h);
    t.advance(15);
    expect(seen).toEqual(['a@10', 'c@11']);
    expect(t.now()).toBe(15);
    t.advance(5);
    expect(seen).toEqual(['a@10', 'c@11', 'b@20']);
    expect(t.pending()).toBe(0);
  });

  it('unplugging loses what is on the wire and drops writes until plugged again', () => {
    const t = manualTimers();
    const got: Uint8Array[] = [];
    const w = new WireDirection(
      () => f9600,
      () => f9600,
      (b) => got.push(b),
      t,
    );
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
