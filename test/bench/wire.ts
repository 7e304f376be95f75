// Wire figures of `npm run bench`: 8 requesters share one link (the link queue, round robin) to a
// virtual PLC on an in-process wire with real UART timing; achieved exchanges per second against
// the wire limit of the same exchange: 1 ÷ (frame bits ÷ baud + the PLC's scan delay). The gap is
// what the daemon adds per exchange (queueing, decoding, timers). Goal ≥ 0.9 of the limit.
import { type MewRequest, mewCommandFrames, mewReplyFrames } from '../../device/protocol/index.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { type SerialFraming, wireMs } from '../../sim/wire.ts';
import { serialLink } from '../support/serial-link.ts';
import type { Row } from './stats.ts';

const REQUESTERS = 8;
const SCAN_MS = 5;
const WORDS = 27; // one `%` frame each way

async function measure(baud: number, seconds: number): Promise<{ achieved: number; limit: number; chars: number }> {
  const framing: SerialFraming = { baud, bits: 8, parity: 'odd', stopbits: 1 };
  const plc = new VirtualPlc({ model: 'FP-XH', scanMs: SCAN_MS });
  const att = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing });
  const link = serialLink({ framing, open: (s) => att.open(s) });
  const req: MewRequest = { cmd: 'RD', area: 'DT', start: 0, count: WORDS };
  const chars = mewCommandFrames('EE', req)[0]!.length + mewReplyFrames('%', 'EE', req, { kind: 'words', words: Array(WORDS).fill(0) })[0]!.length;
  await link.readWords('DT', 0, WORDS); // opened and warm
  let done = 0;
  let stop = false;
  const t0 = performance.now();
  const workers = Array.from({ length: REQUESTERS }, async (_, i) => {
    while (!stop) {
      await link.readWords('DT', i * WORDS, WORDS, `requester${i}`);
      done++;
    }
  });
  await new Promise((r) => setTimeout(r, seconds * 1000));
  stop = true;
  await Promise.all(workers); // the exchanges still queued complete too: count their time as well
  const elapsed = (performance.now() - t0) / 1000;
  await link.close();
  return { achieved: done / elapsed, limit: 1000 / (wireMs(chars, framing) + SCAN_MS), chars };
}

export async function measureWire(rows: Row[]): Promise<void> {
  for (const [baud, seconds] of [
    [115200, 4],
    [9600, 8],
  ] as const) {
    const r = await measure(baud, seconds);
    rows.push({
      figure: `link ${baud} baud, ${REQUESTERS} requesters (exchanges/s)`,
      ours: r.achieved,
      baseline: r.limit,
      note: `wire limit: ${r.chars} chars × 11 bits ÷ baud + ${SCAN_MS} ms scan; RD ${WORDS} words; timers tick in whole ms; goal ≥ 0.9`,
    });
  }
}
