// The protocol fuzzer of issue 15, shared by the test (test/integration/protocol-fuzz.test.ts: a fixed
// seed, a few thousand frames per listener) and the bench (`npm run bench -- fuzz`: longer). Frames
// per protocol: valid ones, mutated ones, every Modbus function code 0-255, wrong MBAP lengths and
// protocol ids, IEC 104 APDUs with bad lengths, short frames and N(S)/N(R) out of window, garbage,
// oversized frames; sent over TCP in batches, split into random segments or
// joined several to a segment, each connection ended by a close, a reset or a half-close (FIN).
import { connect, type Socket } from 'node:net';
import { asciiToBytes, encodeRtuFrame, type MewRequest, type MewStation, mewCommandFrames } from '../../device/protocol/index.ts';

/** A small seeded PRNG (mulberry32): the same seed gives the same frames. */
export function prng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return {
    next,
    int,
    pick: <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]!,
    bytes: (n: number) => Uint8Array.from({ length: n }, () => int(0, 255)),
  };
}

export interface Rng {
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
  bytes(n: number): Uint8Array;
}

export type FuzzProtocol = 'modbus-tcp' | 'mewtocol' | 'modbus-rtu' | 'http' | 'tls' | 'iec104';

const cat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let i = 0;
  for (const p of parts) {
    out.set(p, i);
    i += p.length;
  }
  return out;
};

/** A byte of `b` changed, removed or doubled, or a random run inserted. */
function mutate(r: Rng, b: Uint8Array): Uint8Array {
  if (b.length === 0) return r.bytes(r.int(1, 8));
  const at = r.int(0, b.length - 1);
  switch (r.int(0, 3)) {
    case 0: {
      const c = b.slice();
      c[at] = r.int(0, 255);
      return c;
    }
    case 1:
      return cat(b.subarray(0, at), b.subarray(at + 1));
    case 2:
      return cat(b.subarray(0, at + 1), b.subarray(at));
    default:
      return cat(b.subarray(0, at), r.bytes(r.int(1, 16)), b.subarray(at));
  }
}

function modbusPdu(r: Rng): Uint8Array {
  const fc = r.int(0, 255); // every function code, not only the served ones
  const kind = r.int(0, 4);
  if (kind === 0) return Uint8Array.from([fc]);
  if (kind === 1) return cat(Uint8Array.from([fc]), r.bytes(4));
  if (kind === 2) {
    // a plausible read or write of the served codes
    const f = r.pick([1, 2, 3, 4, 5, 6, 15, 16]);
    const q = r.pick([0, 1, 2, 10, 125, 126, 2000, 2001, 0xffff]);
    const addr = r.pick([0, 1, 100, 500, 1000, 0xfffe, 0xffff]);
    const head = Uint8Array.from([f, addr >> 8, addr & 0xff, (q >> 8) & 0xff, q & 0xff]);
    return f === 15 || f === 16 ? cat(head, Uint8Array.from([r.int(0, 255)]), r.bytes(r.int(0, 40))) : head;
  }
  if (kind === 3) return cat(Uint8Array.from([fc]), r.bytes(r.int(0, 252)));
  return cat(Uint8Array.from([fc]), r.bytes(r.int(250, 300))); // over the PDU limit
}

/** An MBAP frame around any PDU, also one over the limit (encodeTcpFrame refuses those). */
const mbap = (tid: number, unit: number, pdu: Uint8Array) =>
  cat(Uint8Array.from([tid >> 8, tid & 0xff, 0, 0, ((pdu.length + 1) >> 8) & 0xff, (pdu.length + 1) & 0xff, unit]), pdu);

function modbusTcpFrame(r: Rng): Uint8Array {
  const tid = r.int(0, 0xffff);
  const unit = r.pick([0, 1, 2, 3, 99, 247, 255, r.int(0, 255)]);
  const kind = r.int(0, 9);
  if (kind <= 4) return mbap(tid, unit, modbusPdu(r));
  if (kind === 5) {
    // length field that lies
    const pdu = modbusPdu(r);
    const len = r.pick([0, 1, 2, pdu.length + 1, pdu.length + 2, 255, 256, 260, 0xffff]);
    return cat(Uint8Array.from([tid >> 8, tid & 0xff, 0, 0, len >> 8, len & 0xff, unit]), pdu);
  }
  if (kind === 6) return cat(Uint8Array.from([tid >> 8, tid & 0xff, r.int(1, 255), r.int(0, 255), 0, 6, unit]), r.bytes(5)); // protocol id not 0
  if (kind === 7) return mutate(r, mbap(tid, unit, modbusPdu(r)));
  if (kind === 8) return Uint8Array.from([0, 1, 0, 0, 0, 2, 1, r.pick([0x00, 0x80, 0x81, 0xc3, 0xff])]); // the frames of issue 15
  return r.bytes(r.int(1, 64));
}

const MEW_REQUESTS: MewRequest[] = [
  { cmd: 'RT' },
  { cmd: 'RD', area: 'DT', start: 0, count: 4 },
  { cmd: 'RD', area: 'DT', start: 100, count: 27 },
  { cmd: 'WD', area: 'DT', start: 120, words: [1, 2] },
  { cmd: 'RCS', contact: { area: 'R', word: 0, bit: 1 } },
  { cmd: 'WCS', contact: { area: 'Y', word: 0, bit: 1 }, value: true },
  { cmd: 'RD', area: 'LD', start: 0, count: 1 },
];
const MEW_RAW = [
  '%00#RT**\r',
  '%01#RD',
  '%01**&',
  '%EE#',
  '%01',
  '%01#RT**\r',
  '<01#RT**\r',
  '%01$RD0000**\r',
  '%01!40**\r',
  '%01#RDD0000000001**',
  '%01#MDD000000000100**\r',
  '%01#RR000**\r',
  '>@EEE00#30STRD00**\r',
  '%01#RD\r',
  '%&\r',
  '\r',
  '%01#RDD00000',
  '%EE#RT01\r',
];

const st = (s: MewStation) => (s === 'EE' ? s : String(s).padStart(2, '0'));

function mewFrame(r: Rng): Uint8Array {
  const kind = r.int(0, 7);
  const station = r.pick<MewStation>([1, 'EE', 2, 99]);
  if (kind <= 2) return asciiToBytes(mewCommandFrames(station, r.pick(MEW_REQUESTS))[0]!);
  if (kind === 3) return mutate(r, asciiToBytes(mewCommandFrames(station, r.pick(MEW_REQUESTS))[0]!));
  if (kind === 4) return asciiToBytes(r.pick(MEW_RAW));
  if (kind === 5) return asciiToBytes(`%${st(station)}#RD${'D'.repeat(r.int(100, 400))}**\r`); // over 118 characters
  if (kind === 6) return asciiToBytes(`%${st(station)}#WDD0010000100${'0102'.repeat(r.int(1, 60))}**&\r`); // a multi-frame start
  return r.bytes(r.int(1, 48));
}

function rtuFrame(r: Rng): Uint8Array {
  const unit = r.pick([0, 1, 2, 3, 247, r.int(0, 255)]);
  const kind = r.int(0, 3);
  if (kind <= 1) return encodeRtuFrame(unit, modbusPdu(r).subarray(0, 252));
  if (kind === 2) return mutate(r, encodeRtuFrame(unit, modbusPdu(r).subarray(0, 252)));
  return r.bytes(r.int(1, 40));
}

const HTTP_LINES = [
  'GET / HTTP/1.1',
  'GET /rest/api/v1 HTTP/1.1',
  'POST /rest/api/v1 HTTP/1.1',
  'GET /../../etc/passwd HTTP/1.1',
  'BREW / HTTP/1.1',
  'GET / HTTP/9.9',
  'GET',
  '\x00\x01\x02',
  'GET /%zz HTTP/1.1',
  'OPTIONS * HTTP/1.1',
  'GET /rest/api/v1?cache=true&js=true HTTP/1.1',
];

function httpFrame(r: Rng): Uint8Array {
  const kind = r.int(0, 4);
  const headers = [
    'Host: x',
    r.pick([
      'Content-Length: 5',
      'Content-Length: -1',
      'Content-Length: 99999999999',
      'Transfer-Encoding: chunked',
      'Transfer-Encoding: gzip, chunked',
      `X: ${'a'.repeat(r.int(0, 20000))}`,
      'Connection: close',
      'Bad header',
    ]),
  ];
  if (kind <= 2) return asciiToBytes(`${r.pick(HTTP_LINES)}\r\n${headers.join('\r\n')}\r\n\r\n${r.pick(['', 'hello', '5\r\nhello\r\n0\r\n\r\n', 'zz\r\n'])}`);
  if (kind === 3) return mutate(r, asciiToBytes(`GET /rest/api/v1 HTTP/1.1\r\nHost: x\r\n\r\n`));
  return r.bytes(r.int(1, 200));
}

function tlsFrame(r: Rng): Uint8Array {
  // a TLS record header with random content: handshake, alert, change cipher spec, or junk
  const type = r.pick([0x14, 0x15, 0x16, 0x17, r.int(0, 255)]);
  const len = r.pick([0, 1, 5, 100, 16384, 18000, r.int(0, 0xffff)]);
  const body = r.bytes(Math.min(len, r.int(0, 300)));
  return r.int(0, 3) === 0 ? r.bytes(r.int(1, 100)) : cat(Uint8Array.from([type, 3, r.int(0, 4), len >> 8, len & 0xff]), body);
}

/** An IEC 104 I-frame with any N(S)/N(R) (15 bits each, shifted left by one) around `asdu`. */
const iFrame = (ns: number, nr: number, asdu: Uint8Array) =>
  cat(Uint8Array.from([0x68, 4 + asdu.length, (ns << 1) & 0xfe, (ns >> 7) & 0xff, (nr << 1) & 0xfe, (nr >> 7) & 0xff]), asdu);

function iecAsdu(r: Rng): Uint8Array {
  const kind = r.int(0, 3);
  if (kind === 0) return Uint8Array.from([r.pick([45, 46, 100, 101, 102, 103, 1, 127, 0]), 1, 6, 0, 1, 0, r.int(0, 255), 0, 0, r.int(0, 255)]); // a plausible command
  if (kind === 1) return Uint8Array.from([r.int(0, 255), r.int(0, 255), r.int(0, 255), r.int(0, 255), r.int(0, 255), r.int(0, 255)]); // header only, any VSQ
  if (kind === 2) return r.bytes(r.int(1, 5)); // shorter than an ASDU header
  return r.bytes(r.int(6, 249));
}

function iec104Frame(r: Rng): Uint8Array {
  const kind = r.int(0, 9);
  // STARTDT act most often, so that I-frames meet a started link too
  if (kind <= 1) return Uint8Array.from([0x68, 4, r.pick([0x07, 0x07, 0x13, 0x43, 0x83, 0x0b, 0x23, r.int(0, 255) | 0x03]), 0, 0, 0]);
  if (kind === 2) return Uint8Array.from([0x68, 4, 0x01, 0, r.int(0, 255) & 0xfe, r.int(0, 255)]); // S-frame, N(R) mostly out of window
  if (kind === 3) return iFrame(r.int(0, 32767), r.int(0, 32767), iecAsdu(r)); // N(S)/N(R) out of window
  // STARTDT act with the first I-frames behind it, before its con (a station must wait for the con)
  if (kind === 4) return cat(Uint8Array.from([0x68, 4, 0x07, 0, 0, 0]), iFrame(0, 0, iecAsdu(r)), iFrame(1, 0, iecAsdu(r)));
  if (kind === 5) return cat(Uint8Array.from([0x68, r.pick([0, 1, 2, 3, 254, 255])]), r.bytes(r.int(0, 12))); // length outside 4-253
  if (kind === 6) return cat(Uint8Array.from([0x68, r.int(4, 253)]), r.bytes(r.int(0, 20))); // a length that promises more than follows
  if (kind === 7) return mutate(r, iFrame(r.int(0, 3), 0, iecAsdu(r)));
  if (kind === 8) return r.pick([Uint8Array.from([0x68]), Uint8Array.from([0x68, 4, 1]), Uint8Array.from([0x68, 4, 0x01, 0x01, 0, 0])]); // short frames, an S-frame with reserved bits
  return r.bytes(r.int(1, 64));
}

export const FRAME_OF: Record<FuzzProtocol, (r: Rng) => Uint8Array> = {
  'modbus-tcp': modbusTcpFrame,
  mewtocol: mewFrame,
  'modbus-rtu': rtuFrame,
  http: httpFrame,
  tls: tlsFrame,
  iec104: iec104Frame,
};

export interface FuzzStats {
  frames: number;
  connections: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Sends `frames` frames of `protocol` to host:port over `connections` connections, one after another
 * (split into random segments or joined, each connection ended by close, reset or half-close after
 * reading what comes back for a moment). Resolves when every connection is closed on our side.
 */
export async function fuzzTcp(opts: {
  host?: string;
  port: number;
  protocol: FuzzProtocol;
  rng: Rng;
  frames: number;
  perConnection?: number;
  concurrency?: number;
}): Promise<FuzzStats> {
  const { rng: r, frames } = opts;
  const per = opts.perConnection ?? 40;
  let left = frames;
  let connections = 0;
  const one = async (n: number) => {
    connections++;
    const frameList = Array.from({ length: n }, () => FRAME_OF[opts.protocol](r));
    const ending = r.int(0, 2); // 0 close, 1 reset, 2 half-close and wait for the answers
    await new Promise<void>((resolve) => {
      const s: Socket = connect({ host: opts.host ?? '127.0.0.1', port: opts.port, allowHalfOpen: true });
      let done = false;
      const finish = () => {
        if (!done) {
          done = true;
          clearTimeout(guard);
          s.destroy();
          resolve();
        }
      };
      const guard = setTimeout(finish, 1500);
      s.on('error', finish);
      s.on('close', finish);
      s.on('data', () => undefined);
      s.on('end', () => {
        if (ending === 2) finish();
      });
      s.once('connect', () => {
        void (async () => {
          const all = cat(...frameList);
          let i = 0;
          while (i < all.length && !s.destroyed) {
            const joined = r.int(0, 3) === 0;
            const size = joined ? all.length - i : Math.max(1, Math.min(all.length - i, r.int(1, 64)));
            s.write(all.subarray(i, i + size));
            i += size;
            if (r.int(0, 5) === 0) await sleep(1);
          }
          if (ending === 0) {
            await sleep(5);
            s.end();
            setTimeout(finish, 20);
          } else if (ending === 1) s.resetAndDestroy();
          else s.end(); // half-close: the listener ends when it has answered
        })();
      });
    });
  };
  const concurrency = opts.concurrency ?? 4;
  const workers = Array.from({ length: concurrency }, async () => {
    while (left > 0) {
      const n = Math.min(left, r.int(1, per));
      left -= n;
      await one(n);
    }
  });
  await Promise.all(workers);
  return { frames, connections };
}
