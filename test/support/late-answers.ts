// A link to a virtual PLC that answers every request late or in time at random: each answer a
// random 0.5×–2× of the interface timeout after its request (the simulator's `slow` fault with
// `maxDelayMs`; the answers leave in order, as a PLC's do). Requesters share the link (its queue,
// round robin) and read random DT ranges; every DT word holds a value made from its address, so a
// value credited to the wrong request shows. Used by test/integration/late-answers.test.ts and the
// bench part "late answers".

import { Link } from '../../device/com/link.ts';
import type { LinkConfig, LinkStats, Protocol } from '../../device/com/link-types.ts';
import { driverFor } from '../../device/com/links.ts';
import { openTcpChannel } from '../../device/com/tcp-channel.ts';
import { createLogger } from '../../device/system/log.ts';
import { type ByteChannel, systemClock } from '../../hw/types.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { startTcpPlc } from '../../sim/plc/tcp.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';

export type LateLine = 'MEWTOCOL' | 'MEWTOCOL7' | 'MODBUS RTU' | 'MEWTOCOL TCP' | 'MODBUS TCP';
export const LATE_LINES: readonly LateLine[] = ['MEWTOCOL', 'MEWTOCOL7', 'MODBUS RTU', 'MEWTOCOL TCP', 'MODBUS TCP'];

/** the word DTa holds: never 0, different for every address below 65535 */
export const valueAt = (a: number): number => (a + 1) & 0xffff;
const FIRST = 1;
const LAST = 20000;
const MAX_WORDS = 6;
const BAUD = 230400;

export interface LateRun {
  requests: number;
  /** reads that came back with values */
  read: number;
  /** writes that came back acknowledged */
  written: number;
  /** requests that failed (no answer in time, twice for reads) */
  failed: number;
  /** reads whose values are not the words they asked for */
  wrong: number;
  stats: LinkStats;
  plc: { requests: number; answers: number };
  ms: number;
}

/** A small deterministic generator (mulberry32), so that a run can be repeated with its seed. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const until = async (cond: () => boolean, what: () => string, ms: number) => {
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) throw new Error(`not reached: ${what()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

export interface LateOptions {
  requests: number;
  timeoutMs: number;
  requesters?: number;
  /** share of the requests that are writes (of the values the words already hold) */
  writes?: number;
  seed?: number;
}

/**
 * `requests` reads and writes of random DT ranges through one link whose PLC answers each a random
 * 0.5–2 timeouts late; then waits until every answer the PLC sent has reached the link.
 */
export async function runLateAnswers(line: LateLine, o: LateOptions): Promise<LateRun> {
  const random = seeded(o.seed ?? 1);
  const protocol: Protocol = line.startsWith('MODBUS') ? 'MODBUS' : line === 'MEWTOCOL7' ? 'MEWTOCOL7' : 'MEWTOCOL';
  const tcp = line.endsWith('TCP');
  const plc = new VirtualPlc({ model: line === 'MEWTOCOL7' ? 'FP7' : 'FP-XH', scanMs: 0 });
  plc.memory.writeWords(
    'DT',
    0,
    Array.from({ length: LAST + MAX_WORDS + 1 }, (_, a) => valueAt(a)),
  );
  const serial = { baudRate: BAUD, dataBits: 8 as const, parity: 'odd' as const, stopBits: 1 as const, rtscts: false };
  const att = tcp
    ? undefined
    : new SerialPlcAttachment(plc, { protocol: protocol === 'MODBUS' ? 'MODBUS' : 'MEWTOCOL', framing: { baud: BAUD, bits: 8, parity: 'odd', stopbits: 1 } });
  const server = tcp ? await startTcpPlc(plc, { host: '127.0.0.1', mewtocolPort: 0, modbusPort: 0 }) : undefined;
  const port = server ? (protocol === 'MODBUS' ? server.ports.modbus : server.ports.mewtocol) : 0;
  const cfg: LinkConfig = {
    id: tcp ? 5 : 0,
    name: tcp ? 'COM4' : 'COM1',
    kind: tcp ? 'tcp' : 'serial',
    protocol,
    serial,
    autobaud: false,
    timeoutMs: o.timeoutMs,
    waitMs: 0,
    ipPort: `127.0.0.1:${port}`,
    station: 1,
  };
  const link = new Link(cfg, {
    driver: driverFor(cfg),
    clock: systemClock,
    log: createLogger({ clock: systemClock, sink: null }),
    open: async (): Promise<ByteChannel> => (att ? att.open(serial) : openTcpChannel('127.0.0.1', port, 2000)),
  });
  plc.setFault({ kind: 'slow', delayMs: o.timeoutMs / 2, maxDelayMs: o.timeoutMs * 2 });

  // the link's own timers do not hold the process (on the unit its channel does; the in-process wire does not)
  const alive = setInterval(() => {}, 1000);
  let next = 0;
  const run: Omit<LateRun, 'stats' | 'plc' | 'ms' | 'requests'> = { read: 0, written: 0, failed: 0, wrong: 0 };
  const t0 = performance.now();
  const requester = async (user: string) => {
    while (next < o.requests) {
      next++;
      const start = FIRST + Math.floor(random() * (LAST - FIRST));
      const count = 1 + Math.floor(random() * MAX_WORDS);
      const words = Array.from({ length: count }, (_, i) => valueAt(start + i));
      try {
        if (random() < (o.writes ?? 0.1)) {
          await link.writeWords('DT', start, words, user);
          run.written++;
        } else {
          const got = await link.readWords('DT', start, count, user);
          run.read++;
          if (got.length !== count || got.some((v, i) => v !== words[i])) run.wrong++;
        }
      } catch {
        run.failed++;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: o.requesters ?? 3 }, (_, i) => requester(`requester${i}`)));
    const ms = performance.now() - t0;
    // every answer the PLC sent has reached the link and was taken or counted
    const accounted = () => {
      const s = link.status().stats;
      return s.answers + s.lateAnswers + s.mismatched;
    };
    await until(
      () => plc.answers === plc.requests && accounted() === plc.answers,
      () =>
        `PLC ${plc.answers} answers to ${plc.requests} requests; link took ${link.status().stats.answers}, dropped ${accounted() - link.status().stats.answers}`,
      10_000 + 4 * o.timeoutMs,
    ).catch(() => undefined); // the caller compares the counts and says what is missing
    return { requests: o.requests, ...run, stats: link.status().stats, plc: { requests: plc.requests, answers: plc.answers }, ms };
  } finally {
    clearInterval(alive);
    await link.close();
    await server?.close();
  }
}
