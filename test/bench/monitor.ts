// Traffic monitor figures of `npm run bench`: link exchanges per second with the monitor capturing
// the link (level raw) against nobody capturing, side by side in alternating rounds on the same
// link (a MEWTOCOL link on loopback TCP to a virtual PLC that answers at once), medians; the
// capture's memory with its ring full (heap after a forced collection, minus the heap before);
// reading a full ring's newest 500 records decoded, as the page's poll does.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Link } from '../../device/com/link.ts';
import type { LinkConfig } from '../../device/com/link-types.ts';
import { captureProtocolOf, driverFor } from '../../device/com/links.ts';
import { openTcpChannel } from '../../device/com/tcp-channel.ts';
import { Capture, RING_BYTES, RING_RECORDS } from '../../device/diag/capture.ts';
import { decodedOf } from '../../device/diag/export.ts';
import { asciiToBytes } from '../../device/protocol/index.ts';
import { createLogger } from '../../device/system/log.ts';
import { startTcpPlc } from '../../sim/plc/tcp.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { median, type Row } from './stats.ts';

const ROUNDS = 7;
const ROUND_MS = 1500;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

async function exchangesFor(link: Link, ms: number): Promise<number> {
  const end = performance.now() + ms;
  let n = 0;
  while (performance.now() < end) {
    await link.readWords('DT', (n % 100) * 10, 8);
    n++;
  }
  return (n * 1000) / ms;
}

export async function measureMonitor(rows: Row[]): Promise<void> {
  const plc = new VirtualPlc({ model: 'FP-XH', scanMs: 0 });
  const tcp = await startTcpPlc(plc, { host: '127.0.0.1', mewtocolPort: 0, modbusPort: 0 });
  const clock = { now: () => Date.now() };
  const capture = new Capture(clock);
  const cfg: LinkConfig = {
    id: 5,
    name: 'COM4',
    kind: 'tcp',
    protocol: 'MEWTOCOL',
    serial: { baudRate: 115200, dataBits: 8, parity: 'odd', stopBits: 1, rtscts: false },
    autobaud: false,
    timeoutMs: 1000,
    waitMs: 0,
    ipPort: `127.0.0.1:${tcp.ports.mewtocol}`,
    station: 0,
  };
  const link = new Link(cfg, {
    driver: driverFor(cfg),
    clock,
    log: createLogger({ clock, sink: null }),
    open: () => openTcpChannel('127.0.0.1', tcp.ports.mewtocol, 1000),
    tap: capture.tap(cfg.name, captureProtocolOf(cfg), 'in'),
  });
  try {
    link.start();
    await exchangesFor(link, 500); // warm-up: the channel open, the code compiled
    const on: number[] = [];
    const off: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      capture.start({ sources: ['COM4'], level: 'raw', minutes: 10, by: 'bench' });
      on.push(await exchangesFor(link, ROUND_MS));
      capture.stop();
      off.push(await exchangesFor(link, ROUND_MS));
    }
    rows.push({
      figure: 'monitor: link exchanges/s, capturing vs not',
      ours: median(on),
      baseline: median(off),
      note: `MEWTOCOL RD of 8 words over loopback TCP to a virtual PLC; ${ROUNDS} alternating rounds of ${ROUND_MS} ms, medians; goal ≥ 0.98×`,
    });
  } finally {
    await link.close();
    await tcp.close();
  }

  // the ring at its bound: typical frames (a request and its 8-word answer) until it holds the most it may
  const full = new Capture(clock);
  const before = heap();
  const tap = full.tap('COM1', 'mewtocol', 'in');
  full.start({ sources: ['COM1'], level: 'raw', minutes: 10, by: 'bench' });
  const req = asciiToBytes('%01#RDD0010000017**\r');
  const ans = asciiToBytes(`%01$RD${'3412'.repeat(8)}**\r`);
  for (let i = 0; i < RING_RECORDS * 2; i++) {
    tap.frame('out', req);
    tap.frame('in', ans);
  }
  const held = full.held();
  const bytes = heap() - before;
  rows.push({
    figure: 'monitor: capture memory at its bound (KB)',
    ours: bytes / 1024,
    baseline: (RING_BYTES + RING_RECORDS * 200) / 1024,
    note: `${held.records} records, ${(held.bytes / 1024).toFixed(0)} KB of frames; baseline: the bound's 2 MiB of frames + 200 B per record`,
  });
  const times: number[] = [];
  const newest = full.read(0, RING_RECORDS).next;
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    for (const r of full.read(newest - 500, 500).records) decodedOf(r);
    times.push(performance.now() - t0);
  }
  rows.push({ figure: 'monitor: one poll of 500 records, decoded (ms)', ours: median(times), note: 'median of 20; the page polls every 1.5 s' });
  full.close();
}
