// The load of `npm run bench -- "unit load"` (unit-load.ts): what drives the daemon's engines from
// outside its process, each at a rate times the load factor, and times each delivery.
//   - the PLC program's service requests: the control block words written into the virtual PLC of
//     COM1 through the simulator's PLC controls (POST /sim/plcs/COM1/memory, the request word last,
//     as a PLC program writes them); MQTT: request → the message at a subscriber of the broker;
//     SQL: request → the row committed (seen by a query every 10 ms); IEC 104: the record and then
//     the ring's write index → the I-frame at a connected control station;
//   - the clients of the redirect threads: MEWTOCOL RD 27 words through a thread, Modbus/TCP FC3 27
//     registers through the gateway: the round trip;
//   - the console's /info: the API calls the console makes before the page shows data.
// One request of a kind is outstanding at a time: a tick that finds the last one undelivered is
// counted as skipped (the kind's own limit, e.g. one request per service poll), one that gets no
// answer within LOST_MS as lost.
import { connect as mqttConnect } from 'mqtt';
import type pg from 'pg';
import { offsetOf } from '../../device/model/blocks/convention.ts';
import { encodeRecord, ringCapacity, slotOffset } from '../../device/model/blocks/iec104.ts';
import { SQL_BLOCK } from '../../device/model/blocks/sql.ts';
import { asciiToBytes, encodeModbusRequest, encodeTcpFrame, mewCommandFrames } from '../../device/protocol/index.ts';
import { requestWrites, type WordWrite } from '../../sim/plc-request.ts';
import type { Client } from '../support/daemon.ts';
import type { ControlStation } from '../support/iec104-control.ts';
import { LOOPBACK } from '../support/ports.ts';
import { type Asker, RD } from './redirect.ts';

const LOST_MS = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Driver {
  name: string;
  /** requests per second at load factor 1 */
  rate: number;
  /** sends one request (or skips it while the last is outstanding) */
  tick(): Promise<void>;
  /** ms of each delivered request since the last take */
  take(): { lat: number[]; skipped: number; lost: number };
  close(): Promise<void>;
}

/** Counts and latencies of one kind, with at most one request outstanding. */
class Tally {
  lat: number[] = [];
  skipped = 0;
  lost = 0;
  sentAt: number | undefined;
  key = 0;
  busy(now = performance.now()): boolean {
    if (this.sentAt === undefined) return false;
    if (now - this.sentAt < LOST_MS) return true;
    this.lost++;
    this.sentAt = undefined;
    return false;
  }
  arrived(key: number, at = performance.now()): void {
    if (this.sentAt === undefined || key !== this.key) return;
    this.lat.push(at - this.sentAt);
    this.sentAt = undefined;
  }
  take() {
    const out = { lat: this.lat, skipped: this.skipped, lost: this.lost };
    this.lat = [];
    this.skipped = 0;
    this.lost = 0;
    return out;
  }
}

/** Word writes into a virtual PLC through the simulator's controls; runs of consecutive words go as one write. */
export class PlcMemory {
  constructor(
    private readonly base: string,
    private readonly connector: string,
  ) {}
  async write(dt: number, values: number[]): Promise<void> {
    const r = await fetch(`${this.base}/sim/plcs/${this.connector}/memory`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: `DT${dt}`, values }),
    });
    if (!r.ok) throw new Error(`writing DT${dt} of ${this.connector}: ${r.status} ${await r.text()}`);
  }
  /** `writes` with their last one (the request word) written last, the others merged into runs */
  async request(writes: readonly WordWrite[]): Promise<() => Promise<void>> {
    const words = new Map<number, number>();
    for (const w of writes.slice(0, -1)) w.values.forEach((x, i) => words.set(Number(w.address.slice(2)) + i, x));
    const sorted = [...words].sort((a, b) => a[0] - b[0]);
    for (let i = 0; i < sorted.length; ) {
      const start = sorted[i]![0];
      const run: number[] = [];
      while (i < sorted.length && sorted[i]![0] === start + run.length) run.push(sorted[i++]![1]);
      await this.write(start, run);
    }
    const last = writes.at(-1)!;
    return () => this.write(Number(last.address.slice(2)), last.values);
  }
}

/** MQTT publishes requested by the PLC (topic and payload texts from `textAt`), timed to a subscriber on the broker. */
export async function mqttDriver(plc: PlcMemory, brokerPort: number, textAt: number): Promise<Driver> {
  const t = new Tally();
  const sub = mqttConnect(`mqtt://${LOOPBACK}:${brokerPort}`);
  await new Promise<void>((resolve, reject) => {
    sub.once('connect', () => sub.subscribe('bench/load', { qos: 1 }, (e) => (e ? reject(e) : resolve())));
    sub.once('error', reject);
  });
  sub.on('message', (_topic, payload) => t.arrived(Number(payload.toString())));
  let seq = 0;
  return {
    name: 'MQTT publish → subscriber',
    rate: 1,
    async tick() {
      if (t.busy()) return void t.skipped++;
      const key = ++seq;
      const send = await plc.request(requestWrites(['mqtt', 'publish', 'topic=bench/load', `payload=${key}`, 'qos=1', '--text-at', String(textAt)]));
      t.key = key;
      t.sentAt = performance.now();
      await send();
    },
    take: () => t.take(),
    close: async () => void (await sub.endAsync()),
  };
}

/** SQL rows requested by the PLC: the point `seq` (DINT at `seqAt`) set, then the request; timed to the row committed. */
export function sqlDriver(plc: PlcMemory, c: pg.Client, table: string, seqAt: number): Driver {
  const t = new Tally();
  let seq = 0;
  let stop = false;
  const watch = (async () => {
    while (!stop) {
      if (t.sentAt !== undefined) {
        const r = await c.query(`SELECT max(seq) AS m FROM ${table}`).catch(() => undefined);
        const m = Number(r?.rows[0]?.m ?? 0);
        if (m >= t.key) t.arrived(t.key);
      }
      await sleep(10);
    }
  })();
  return {
    name: 'SQL insert → row committed',
    rate: 1,
    async tick() {
      if (t.busy()) return void t.skipped++;
      const key = ++seq;
      await plc.write(seqAt, [key & 0xffff, key >>> 16]);
      t.key = key;
      t.sentAt = performance.now();
      await plc.write(SQL_BLOCK.defaultDt + offsetOf(SQL_BLOCK, 'request'), [1]);
    },
    take: () => t.take(),
    close: async () => {
      stop = true;
      await watch;
    },
  };
}

export interface RingLayout {
  ring: number;
  depth: number;
}

/** IEC 104 events put into the PLC's monitor ring, timed to the I-frame at the control station. */
export function iecDriver(plc: PlcMemory, station: ControlStation, layout: RingLayout): Driver {
  const t = new Tally();
  const cap = ringCapacity(layout.depth);
  let write = 0;
  let seen = 0;
  let seq = 0;
  const collect = () => {
    for (; seen < station.asdus.length; seen++) {
      const a = station.asdus[seen]!;
      if (a.cot.cause === 3) t.arrived(a.objects[0]!.ioa, station.arrivedAt[seen]);
    }
  };
  return {
    name: 'IEC 104 event → client',
    rate: 1,
    async tick() {
      collect();
      if (t.busy()) return void t.skipped++;
      const key = (++seq % 0xfffff) + 1;
      const record = encodeRecord({ type: 11, ioa: key, group: 0, element: { kind: 'sva_qds', value: key & 0x7fff, quality: 0 } });
      await plc.write(layout.ring + slotOffset(write), record);
      write = (write + 1) % cap;
      t.key = key;
      t.sentAt = performance.now();
      await plc.write(layout.ring, [write]);
    },
    take: () => (collect(), t.take()),
    close: async () => undefined,
  };
}

/** Polls with `frame` (a new one each time from `next`) through an Asker: the round trip. */
export function pollDriver(name: string, rate: number, asker: Asker, next: () => Uint8Array): Driver {
  const t = new Tally();
  let inFlight = false;
  return {
    name,
    rate,
    async tick() {
      if (inFlight || t.busy()) return void t.skipped++;
      inFlight = true;
      const t0 = performance.now();
      t.key = 1;
      t.sentAt = t0;
      const answered = await Promise.race([asker.ask(next()).then(() => true), sleep(LOST_MS).then(() => false)]);
      inFlight = false;
      if (answered) t.arrived(1);
      else t.busy(t0 + LOST_MS); // counted as lost
    },
    take: () => t.take(),
    close: async () => asker.close(),
  };
}

export const rdFrame = (): (() => Uint8Array) => {
  const frame = asciiToBytes(mewCommandFrames('EE', RD)[0]!);
  return () => frame;
};
export const fc3Frame = (): (() => Uint8Array) => {
  let tid = 0;
  return () => encodeTcpFrame({ transaction: ++tid & 0xffff, unit: 1, pdu: encodeModbusRequest({ fc: 3, address: 0, quantity: 27 }) });
};

/** The calls the console makes before /info shows data (who is signed in, then the system information), one after the other. */
export function infoDriver(admin: Client): Driver {
  const t = new Tally();
  return {
    name: '/info API calls',
    rate: 1,
    async tick() {
      if (t.busy()) return void t.skipped++;
      t.key = 1;
      t.sentAt = performance.now();
      const a = await admin.get('/rest/api/v1/authentication');
      const i = await admin.get('/rest/api/v1?cache=true&js=true');
      if (a.status !== 200 || i.status !== 200) throw new Error(`/info calls answered ${a.status}, ${i.status}`);
      t.arrived(1);
    },
    take: () => t.take(),
    close: async () => undefined,
  };
}

/** Runs `d.tick` `d.rate × factor` times a second until `end` (performance.now()); a late tick does not make the next ones burst. */
export async function paced(d: Driver, factor: number, end: number, failures: string[]): Promise<void> {
  const period = 1000 / (d.rate * factor);
  let next = performance.now() + Math.random() * period;
  while (performance.now() < end) {
    const wait = next - performance.now();
    if (wait > 0) await sleep(wait);
    next = Math.max(next + period, performance.now());
    try {
      await d.tick();
    } catch (e) {
      failures.push(`${d.name}: ${(e as Error).message}`);
      return;
    }
  }
}
