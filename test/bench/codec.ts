// Codec figures of `npm run bench`: whole exchanges (host encodes the request, the PLC side decodes
// it and encodes the answer, the host decodes the answer, all through the stream decoders the links
// and the virtual PLCs use) per second, as a ratio to what the fastest serial line of spec §3
// (230400 baud, 8O1 = 11 bits per char) can carry of the same exchange. Above 1 the daemon's
// protocol work is never the bottleneck of a link.
import {
  asciiToBytes,
  createMewStreamDecoder,
  createRtuDecoder,
  decodeMewRequest,
  decodeModbusRequest,
  decodeModbusResponse,
  encodeModbusRequest,
  encodeModbusResponse,
  encodeRtuFrame,
  type MewRequest,
  mewCommandFrames,
  mewReplyFrames,
  mewReplyFromMessage,
} from '../../device/protocol/index.ts';
import { median, type Row } from './stats.ts';

const FASTEST_BAUD = 230400;
const CHAR_BITS = 11;
const RUNS = 5;
const RUN_MS = 400;

interface Exchange {
  name: string;
  /** chars on the wire for one exchange (request + answer) */
  chars: number;
  once(): void;
}

function mewtocolRd(): Exchange {
  const req: MewRequest = { cmd: 'RD', area: 'DT', start: 100, count: 27 };
  const words = Array.from({ length: 27 }, (_, i) => (i * 2654435761) & 0xffff);
  const sample = [...mewCommandFrames(1, req), ...mewReplyFrames('%', 1, req, { kind: 'words', words })];
  const plc = createMewStreamDecoder();
  const host = createMewStreamDecoder();
  return {
    name: 'MEWTOCOL-COM RD 27 words',
    chars: sample.reduce((n, f) => n + f.length, 0),
    once() {
      const frame = asciiToBytes(mewCommandFrames(1, req)[0]!);
      for (const ev of plc.push(frame)) {
        if (ev.type !== 'message' || ev.message.kind !== 'command') throw new Error('request not decoded');
        const r = decodeMewRequest(ev.message.text);
        if (!r.ok) throw new Error(r.error.message);
        const answer = asciiToBytes(mewReplyFrames('%', 1, r.value, { kind: 'words', words } as never)[0]!);
        for (const e of host.push(answer)) {
          if (e.type !== 'message' || !mewReplyFromMessage(req, e.message).ok) throw new Error('answer not decoded');
        }
      }
    },
  };
}

function modbusRtuRead(): Exchange {
  const req = { fc: 3 as const, address: 0, quantity: 125 };
  const registers = Array.from({ length: 125 }, (_, i) => (i * 40503) & 0xffff);
  const reqLen = encodeRtuFrame(1, encodeModbusRequest(req)).length;
  const resLen = encodeRtuFrame(1, encodeModbusResponse({ fc: 3, registers })).length;
  const plc = createRtuDecoder('request');
  const host = createRtuDecoder('response');
  return {
    name: 'Modbus RTU FC3 125 registers',
    chars: reqLen + resLen,
    once() {
      for (const ev of plc.push(encodeRtuFrame(1, encodeModbusRequest(req)))) {
        if (ev.type !== 'frame') throw new Error('request not decoded');
        const r = decodeModbusRequest(ev.pdu);
        if (!r.ok) throw new Error(r.error.message);
        for (const e of host.push(encodeRtuFrame(1, encodeModbusResponse({ fc: 3, registers })))) {
          if (e.type !== 'frame' || !decodeModbusResponse(e.pdu, req).ok) throw new Error('answer not decoded');
        }
      }
    },
  };
}

function rate(x: Exchange): number {
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < RUN_MS) {
    for (let i = 0; i < 200; i++) x.once();
    n += 200;
    t = performance.now();
  }
  return (n * 1000) / (t - t0);
}

export async function measureCodecs(rows: Row[]): Promise<void> {
  for (const x of [mewtocolRd(), modbusRtuRead()]) {
    for (let i = 0; i < 200; i++) x.once(); // warm-up
    const ours = median(Array.from({ length: RUNS }, () => rate(x)));
    const line = FASTEST_BAUD / (CHAR_BITS * x.chars);
    rows.push({
      figure: `${x.name} (exchanges/s)`,
      ours,
      baseline: line,
      note: `codec vs ${FASTEST_BAUD} baud wire limit (${x.chars} chars); median of ${RUNS}`,
    });
  }
}
