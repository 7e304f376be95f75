// A serial wire with real timing, between a virtual PLC and whatever talks to it (a pseudo-terminal
// pair from socat, or an in-process endpoint). A UART character is a start bit, the data bits, an
// optional parity bit and the stop bits; at `baud` bits per second a frame of n characters takes
// n × bits ÷ baud, and nothing arrives before the wire has carried it. Both ends must use the same
// settings: a receiver at another baud rate or framing gets garbage, as on a real line (autobaud
// relies on this). Unplugging drops whatever is on the wire.
import type { SerialSettings } from '../hw/types.ts';

export interface SerialFraming {
  baud: number;
  bits: 7 | 8;
  parity: 'none' | 'odd' | 'even';
  stopbits: 1 | 2;
}

/** The framing a port opened with these settings puts on the wire (flow control does not change it). */
export const framingOf = (s: SerialSettings): SerialFraming => ({ baud: s.baudRate, bits: s.dataBits, parity: s.parity, stopbits: s.stopBits });

/** The usual short form, e.g. "9600 8O1", "19200 7E2", "115200 8N1". */
export const formatFraming = (f: SerialFraming): string => `${f.baud} ${f.bits}${f.parity[0]!.toUpperCase()}${f.stopbits}`;

/** Bits on the wire per character (spec §3 serial settings). */
export const charBits = (f: Omit<SerialFraming, 'baud'>): number => 1 + f.bits + (f.parity === 'none' ? 0 : 1) + f.stopbits;

/** Milliseconds the wire needs for `chars` characters. */
export const wireMs = (chars: number, f: SerialFraming): number => (chars * charBits(f) * 1000) / f.baud;

const sameFraming = (a: SerialFraming, b: SerialFraming) => a.baud === b.baud && a.bits === b.bits && a.parity === b.parity && a.stopbits === b.stopbits;

/**
 * What a receiver set to `rx` makes of bytes sent with `tx`: the bytes themselves when the framing
 * agrees, else framing garbage (deterministic, so tests are repeatable; 7-bit receivers lose the top bit).
 */
export function received(bytes: Uint8Array, tx: SerialFraming, rx: SerialFraming): Uint8Array {
  if (sameFraming(tx, rx)) return rx.bits === 7 ? bytes.map((b) => b & 0x7f) : bytes;
  // a receiver at another rate samples the wrong bits: roughly one character per (rx/tx) characters
  const ratio = rx.baud / tx.baud;
  const n = Math.max(1, Math.round(bytes.length * Math.min(ratio, 4)));
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = ((bytes[Math.floor(i / ratio) % bytes.length] ?? 0) * 31 + i * 7 + 0xa5) & (rx.bits === 7 ? 0x7f : 0xff);
  return out;
}

export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
export const realTimers: Timers = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Timers driven by hand, for deterministic tests: `advance(ms)` moves the clock and runs what is due, in order. */
export function manualTimers(): Timers & { advance(ms: number): void; pending(): number } {
  let now = 0;
  let nextId = 0;
  const due: { at: number; fn: () => void; id: number }[] = [];
  return {
    now: () => now,
    setTimeout: (fn, ms) => {
      due.push({ at: now + Math.max(0, ms), fn, id: ++nextId });
      return nextId;
    },
    clearTimeout: (h) => {
      const i = due.findIndex((d) => d.id === h);
      if (i >= 0) due.splice(i, 1);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        due.sort((a, b) => a.at - b.at || a.id - b.id);
        const d = due[0];
        if (!d || d.at > until) break;
        due.shift();
        now = Math.max(now, d.at);
        d.fn();
      }
      now = until;
    },
    pending: () => due.length,
  };
}

/**
 * One direction of a wire: bytes written go out one after another at the wire's speed, and arrive
 * in the order they were written (a timer that fires early, as timers of different event-loop
 * turns may by a fraction of a ms, waits for the writes before it).
 */
export class WireDirection {
  private busyUntil = 0;
  private readonly pending: { bytes: Uint8Array; framing: SerialFraming; handle: unknown; due: boolean }[] = [];
  private plugged = true;
  /** characters carried so far */
  carried = 0;

  constructor(
    private readonly tx: () => SerialFraming,
    private readonly rx: () => SerialFraming,
    private readonly deliver: (bytes: Uint8Array) => void,
    private readonly timers: Timers = realTimers,
  ) {}

  write(bytes: Uint8Array): void {
    if (!this.plugged || bytes.length === 0) return;
    const now = this.timers.now();
    const start = Math.max(now, this.busyUntil);
    const framing = this.tx();
    this.busyUntil = start + wireMs(bytes.length, framing);
    this.carried += bytes.length;
    const entry = { bytes: bytes.slice(), framing, handle: undefined as unknown, due: false };
    entry.handle = this.timers.setTimeout(() => {
      entry.due = true;
      while (this.pending[0]?.due) {
        const e = this.pending.shift()!;
        if (this.plugged) this.deliver(received(e.bytes, e.framing, this.rx()));
      }
    }, this.busyUntil - now);
    this.pending.push(entry);
  }

  /** Cuts the wire: what is on it is lost, writes go nowhere until plugged again. */
  unplug(): void {
    this.plugged = false;
    for (const p of this.pending) this.timers.clearTimeout(p.handle);
    this.pending.length = 0;
    this.busyUntil = 0;
  }

  plug(): void {
    this.plugged = true;
  }

  get isPlugged(): boolean {
    return this.plugged;
  }
}
