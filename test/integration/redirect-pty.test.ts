// A redirect thread in front of a PLC on a REAL serial device: the daemon opens a socat
// pseudo-terminal through `serialport` (serialMap, no in-process port), the virtual FP-XH sits on the
// other end (sim/plc/pty.ts). A MEWTOCOL-COM client on TCP talks to the thread, whose restrictions
// are DT 0–99 R/W, DT 100–199 RO, DT 150–159 BLK, WR 0–9 RO. Allowed reads answer with the values put
// into the PLC's memory, allowed writes land in it, refused requests get `!65`; multi-frame
// messages (`&` frames and next-frame requests, mewtocol.md §1.3) cross both hops.
// What the PLC received is logged at its end of the pseudo-terminal (the bytes the daemon wrote to
// the device, before they cross the emulated wire to the PLC's endpoint) and split into frames: every
// allowed request arrives byte for byte as the client sent it, no refused one ever arrives. The
// PLC's own request counter agrees.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Pew } from '../../device/model/sections/pew.ts';
import type { Redirect, Thread } from '../../device/model/sections/redirect.ts';
import {
  asciiToBytes,
  bytesToAscii,
  createMewStreamDecoder,
  decodeMewRequest,
  encodeMewNextRequest,
  type MewMessage,
  type MewRequest,
  mewCommandFrames,
  mewErrorFrame,
  mewReplyFromMessage,
} from '../../device/protocol/index.ts';
import { entry } from '../../device/redirect/testing.ts';
import type { ByteChannel } from '../../hw/types.ts';
import { readPlcMemory, writePlcMemory } from '../../sim/plc/inspect.ts';
import { type PtyAttachable, type PtyPlc, startPtyPlc } from '../../sim/plc/pty.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { parseStty } from '../../sim/plc/stty.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import type { SerialFraming } from '../../sim/wire.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { freePort } from '../support/ports.ts';

const run = promisify(execFile);
const FRAMING: SerialFraming = { baud: 115200, bits: 8, parity: 'odd', stopbits: 1 };
const STATION = 1;
const REFUSED = mewErrorFrame('%', STATION, 65);
const NEXT = encodeMewNextRequest('%', STATION);

const plc = new VirtualPlc({ model: 'FP-XH', station: STATION });
const att = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: FRAMING });

/**
 * The PLC's log of received frames: stands between the pty and the attachment (a PtyAttachable) and
 * keeps every byte the PLC's end of the pseudo-terminal delivered, cut into frames at CR.
 */
class ReceivedFrames implements PtyAttachable {
  private text = '';
  constructor(private readonly inner: SerialPlcAttachment) {}
  get framing(): SerialFraming {
    return this.inner.framing;
  }
  connect(hostFraming: () => SerialFraming): ByteChannel {
    const ch = this.inner.connect(hostFraming);
    return {
      write: (bytes) => {
        this.text += bytesToAscii(bytes);
        ch.write(bytes);
      },
      onData: (h) => ch.onData(h),
      onClose: (h) => ch.onClose(h),
      close: () => ch.close(),
      get isOpen() {
        return ch.isOpen;
      },
    };
  }
  /** whole frames (CR included) received since the last clear */
  frames(): string[] {
    return this.text.split(/(?<=\r)/).filter((f) => f.endsWith('\r'));
  }
  /** the frames joined into messages by the PLC's own kind of decoder: the commands it was asked */
  commands(): MewRequest[] {
    const out: MewRequest[] = [];
    for (const ev of createMewStreamDecoder().push(this.text)) {
      if (ev.type === 'message' && ev.message.kind === 'command') {
        const r = decodeMewRequest(ev.message.text);
        if (!r.ok) throw new Error(`the PLC received an unreadable command: ${ev.message.text}`);
        out.push(r.value);
      }
    }
    return out;
  }
  /** bytes not ending a frame yet (must be none when the line is quiet) */
  partial(): string {
    return this.text.slice(this.text.lastIndexOf('\r') + 1);
  }
  clear(): void {
    this.text = '';
  }
}
const received = new ReceivedFrames(att);

interface Exchange {
  message: MewMessage;
  /** the frames the thread sent to the client */
  framesIn: string[];
  /** the frames the client sent: command frames and next-frame requests */
  framesOut: string[];
}

/** A MEWTOCOL-COM client on one TCP connection, doing both next-frame handshakes itself. */
class MewClient {
  private constructor(private readonly socket: Socket) {}

  static async open(port: number): Promise<MewClient> {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new MewClient(socket);
  }

  /** `timeoutMs` guards against a hang (15 s, as a condition wait): a busy machine takes seconds where a quiet one takes ms */
  ask(req: MewRequest, timeoutMs = 15_000): Promise<Exchange> {
    const frames = mewCommandFrames(STATION, req);
    const decoder = createMewStreamDecoder();
    const framesIn: string[] = [];
    const framesOut: string[] = [];
    let text = '';
    let sent = 0;
    const send = (f: string) => {
      framesOut.push(f);
      this.socket.write(asciiToBytes(f));
    };
    return new Promise<Exchange>((resolve, reject) => {
      const done = (err?: Error, ex?: Exchange) => {
        clearTimeout(timer);
        this.socket.off('data', onData);
        this.socket.off('close', onClose);
        if (err) reject(err);
        else resolve(ex!);
      };
      const timer = setTimeout(
        () => done(new Error(`no whole answer to ${frames[0]!.trim()} within ${timeoutMs} ms; got ${JSON.stringify(framesIn)}`)),
        timeoutMs,
      );
      const onClose = () => done(new Error('the thread closed the connection'));
      const onData = (b: Buffer) => {
        text += b.toString('latin1');
        let cr: number;
        while ((cr = text.indexOf('\r')) >= 0) {
          framesIn.push(text.slice(0, cr + 1));
          text = text.slice(cr + 1);
        }
        for (const ev of decoder.push(new Uint8Array(b))) {
          if (ev.type === 'next') {
            if (sent >= frames.length) return done(new Error('the thread asked for a frame beyond the request'));
            send(frames[sent++]!);
          } else if (ev.type === 'continue') send(ev.reply);
          else if (ev.type === 'error') return done(new Error(`unreadable answer: ${ev.message}`));
          else return done(undefined, { message: ev.message, framesIn, framesOut });
        }
      };
      this.socket.on('data', onData);
      this.socket.once('close', onClose);
      send(frames[sent++]!);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

let dir: string;
let pty: PtyPlc;
let d: TestDaemon;
let admin: Client;
let port: number;
let client: MewClient;

const MAPPING = [entry('DT', 0, 99, 'R/W'), entry('DT', 100, 199, 'RO'), entry('DT', 150, 159, 'BLK'), entry('WR', 0, 9, 'RO')];
const thread = (p: number): Thread => ({
  port: p,
  mb_translation: false,
  monitoring_cmd: false,
  service: 0,
  clients: 4,
  timeout: 60,
  ip_start: '0.0.0.0',
  ip_end: '0.0.0.0',
  mapping: MAPPING,
});

/** The words of an allowed read, failing with the answer when it is not one. */
function wordsOf(req: MewRequest, ex: Exchange): number[] {
  const r = mewReplyFromMessage(req, ex.message);
  if (!r.ok || r.value.kind !== 'words') throw new Error(`not a words answer: ${JSON.stringify(ex.framesIn)}`);
  return r.value.words;
}

const pattern = (n: number, seed: number) => Array.from({ length: n }, (_, i) => (seed + i * 2741) & 0xffff);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'redirect-pty-'));
  pty = await startPtyPlc(received, { dir, name: 'COM1' });
  d = await startTestDaemon({ serial: { serialMap: { COM1: pty.hostPath } } });
  admin = await d.admin();
  const pew = (await admin.get('/config/pew')).body as Pew;
  Object.assign(pew.interfaces[0]!, {
    enabled: true,
    protocol: 'MEWTOCOL',
    baudrate: FRAMING.baud,
    bits: FRAMING.bits,
    parity: FRAMING.parity,
    stopbits: FRAMING.stopbits,
    timeout: 2000, // not a test of the link's timeout (docs/development.md)
    autobaud: false,
  });
  port = await freePort();
  const redirect: Redirect = { threads: [thread(port)] };
  const r = await admin.post('/config', { pew, pew_redirect: redirect });
  expect(r.status, r.text).toBe(200);
  await d.ctx.com.settled();
  await d.ctx.redirects.settled();
  client = await MewClient.open(port);
  // the link comes up with its first answered exchange (a probe, or this read)
  const warm = await client.ask({ cmd: 'RD', area: 'DT', start: 0, count: 1 });
  expect(warm.message.kind, JSON.stringify(warm.framesIn)).toBe('response');
  for (const t0 = Date.now(); d.ctx.com.links.get(0)!.status().state !== 'up'; ) {
    if (Date.now() - t0 > 10_000) throw new Error(`COM1 link not up: ${JSON.stringify(d.ctx.com.links.get(0)!.status())}`);
    await new Promise((r) => setTimeout(r, 50));
  }
});

afterAll(async () => {
  client?.close();
  await d?.stop();
  await pty?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

let requestsBefore = 0;
beforeEach(() => {
  received.clear();
  requestsBefore = plc.requests;
});

describe('a redirect thread to a PLC on a pseudo-terminal opened with serialport', () => {
  it("the daemon holds the pty with the interface's line settings (115200 baud, odd parity) and the thread listens", async () => {
    const { stdout } = await run('stty', ['-F', pty.hostPath, '-a']);
    expect(parseStty(stdout)).toEqual({ baud: 115200, parodd: true, cstopb: false });
    const link = d.ctx.com.links.get(0)!.status();
    expect(link).toMatchObject({ transport: 'serial', state: 'up', baudRate: 115200 });
    expect(att.counters.toPlc).toBeGreaterThan(0); // bytes crossed the pty into the attachment
    const s = (await admin.get('/config/port_status')).body.threads[0];
    expect(s).toMatchObject({ port, listening: true });
  });

  it("allowed reads answer the values put into the PLC's memory, and arrive at the PLC byte for byte", async () => {
    writePlcMemory(plc.memory, 'DT10', [0x1234, 0xbeef, 7]);
    writePlcMemory(plc.memory, 'DT99', [0x0099]);
    writePlcMemory(plc.memory, 'DT140', pattern(10, 140));
    writePlcMemory(plc.memory, 'DT160', [0xa160, 0xa161, 0xa162]);
    writePlcMemory(plc.memory, 'WR2', [0x8001, 0x00f0, 0x1234]);
    const reads: [MewRequest, (ex: Exchange) => void][] = [
      [
        { cmd: 'RD', area: 'DT', start: 10, count: 3 },
        (ex) => expect(wordsOf({ cmd: 'RD', area: 'DT', start: 10, count: 3 }, ex)).toEqual([0x1234, 0xbeef, 7]),
      ],
      [{ cmd: 'RD', area: 'DT', start: 99, count: 1 }, (ex) => expect(wordsOf({ cmd: 'RD', area: 'DT', start: 99, count: 1 }, ex)).toEqual([0x0099])], // last R/W word
      [
        { cmd: 'RD', area: 'DT', start: 140, count: 10 },
        (ex) => expect(wordsOf({ cmd: 'RD', area: 'DT', start: 140, count: 10 }, ex)).toEqual(pattern(10, 140)),
      ], // RO up to the BLK
      [
        { cmd: 'RD', area: 'DT', start: 160, count: 3 },
        (ex) => expect(wordsOf({ cmd: 'RD', area: 'DT', start: 160, count: 3 }, ex)).toEqual([0xa160, 0xa161, 0xa162]),
      ], // RO after the BLK
      [
        { cmd: 'RCC', area: 'WR', start: 2, count: 3 },
        (ex) => expect(wordsOf({ cmd: 'RCC', area: 'WR', start: 2, count: 3 }, ex)).toEqual([0x8001, 0x00f0, 0x1234]),
      ],
      [
        { cmd: 'RCS', contact: { area: 'R', word: 2, bit: 15 } },
        (ex) =>
          expect(mewReplyFromMessage({ cmd: 'RCS', contact: { area: 'R', word: 2, bit: 15 } }, ex.message)).toEqual({
            ok: true,
            value: { kind: 'bits', values: [true] },
          }),
      ],
      [
        { cmd: 'RCS', contact: { area: 'R', word: 3, bit: 0 } },
        (ex) =>
          expect(mewReplyFromMessage({ cmd: 'RCS', contact: { area: 'R', word: 3, bit: 0 } }, ex.message)).toEqual({
            ok: true,
            value: { kind: 'bits', values: [false] },
          }),
      ],
    ];
    const sent: string[] = [];
    for (const [req, check] of reads) {
      const ex = await client.ask(req);
      expect(ex.framesIn).toHaveLength(1);
      expect(ex.framesIn[0]).toMatch(/^%01\$R[DC]/);
      check(ex);
      sent.push(...ex.framesOut);
    }
    expect(received.frames()).toEqual(sent);
    expect(received.commands()).toEqual(reads.map(([r]) => r));
    expect(plc.requests - requestsBefore).toBe(reads.length);
  });

  it("allowed writes into DT 0–99 land in the PLC's memory", async () => {
    writePlcMemory(plc.memory, 'DT100', [0x0100]);
    const writes: MewRequest[] = [
      { cmd: 'WD', area: 'DT', start: 0, words: [0x0a0a, 0x0b0b] },
      { cmd: 'WD', area: 'DT', start: 20, words: pattern(12, 20) },
      { cmd: 'WD', area: 'DT', start: 99, words: [0x9999] },
    ];
    const sent: string[] = [];
    for (const req of writes) {
      const ex = await client.ask(req);
      expect(ex.framesIn).toEqual([expect.stringMatching(/^%01\$WD[0-9A-F]{2}\r$/)]);
      expect(mewReplyFromMessage(req, ex.message)).toEqual({ ok: true, value: { kind: 'ack' } });
      sent.push(...ex.framesOut);
    }
    expect(readPlcMemory(plc.memory, 'DT0', 2)).toEqual([0x0a0a, 0x0b0b]);
    expect(readPlcMemory(plc.memory, 'DT20', 12)).toEqual(pattern(12, 20));
    expect(readPlcMemory(plc.memory, 'DT99', 2)).toEqual([0x9999, 0x0100]); // the RO word after it untouched
    // and a read through the thread sees them too
    expect(wordsOf({ cmd: 'RD', area: 'DT', start: 20, count: 12 }, await client.ask({ cmd: 'RD', area: 'DT', start: 20, count: 12 }))).toEqual(
      pattern(12, 20),
    );
    expect(received.commands()).toEqual([...writes, { cmd: 'RD', area: 'DT', start: 20, count: 12 }]);
    expect(received.frames().slice(0, sent.length)).toEqual(sent);
    expect(plc.requests - requestsBefore).toBe(writes.length + 1);
  });

  it('refused requests get !65 and never reach the PLC, while the allowed ones between them do', async () => {
    writePlcMemory(plc.memory, 'DT100', [0x0100, 0x0101]);
    writePlcMemory(plc.memory, 'DT150', [0x0150]);
    writePlcMemory(plc.memory, 'DT500', [0x0500]);
    writePlcMemory(plc.memory, 'WR0', [0x0f0f]);
    writePlcMemory(plc.memory, 'DT95', [1, 2, 3, 4, 5]);
    writePlcMemory(plc.memory, 'DT30', [0x3030]);
    const steps: { req: MewRequest; allowed: boolean; why: string }[] = [
      { req: { cmd: 'RD', area: 'DT', start: 150, count: 1 }, allowed: false, why: 'read of a BLK word' },
      { req: { cmd: 'RD', area: 'DT', start: 30, count: 1 }, allowed: true, why: 'R/W read' },
      { req: { cmd: 'WD', area: 'DT', start: 100, words: [0xdead] }, allowed: false, why: 'write into RO' },
      { req: { cmd: 'RD', area: 'DT', start: 145, count: 10 }, allowed: false, why: 'read running into the BLK' },
      { req: { cmd: 'WD', area: 'DT', start: 40, words: [0x4040] }, allowed: true, why: 'R/W write' },
      { req: { cmd: 'RD', area: 'DT', start: 500, count: 1 }, allowed: false, why: 'read with no entry' },
      { req: { cmd: 'WD', area: 'DT', start: 95, words: [9, 9, 9, 9, 9, 9, 9] }, allowed: false, why: 'write running from R/W into RO' },
      { req: { cmd: 'WCC', area: 'WR', start: 0, words: [0xffff] }, allowed: false, why: 'word write to RO WR' },
      { req: { cmd: 'WCS', contact: { area: 'R', word: 1, bit: 3 }, value: true }, allowed: false, why: 'contact write to RO WR' },
      { req: { cmd: 'RCC', area: 'WR', start: 0, count: 1 }, allowed: true, why: 'RO read of WR' },
      { req: { cmd: 'RD', area: 'LD', start: 0, count: 1 }, allowed: false, why: 'area without entry' },
      { req: { cmd: 'RT' }, allowed: false, why: 'status command with monitoring_cmd off' },
    ];
    const sentAllowed: string[] = [];
    for (const { req, allowed, why } of steps) {
      const before = received.frames().length;
      const ex = await client.ask(req);
      if (allowed) {
        expect(ex.message.kind, why).toBe('response');
        sentAllowed.push(...ex.framesOut);
      } else {
        expect(ex.framesIn, why).toEqual([REFUSED]);
        expect(ex.message, why).toEqual({ kind: 'error', header: '%', station: STATION, code: 65 });
        // nothing reached the PLC's end of the pty for it, not even a partial frame
        expect(received.frames().length, why).toBe(before);
        expect(received.partial(), why).toBe('');
      }
    }
    expect(received.frames()).toEqual(sentAllowed);
    expect(received.commands()).toEqual(steps.filter((s) => s.allowed).map((s) => s.req));
    expect(plc.requests - requestsBefore).toBe(steps.filter((s) => s.allowed).length);
    // the refused writes changed nothing, the allowed one did
    expect(readPlcMemory(plc.memory, 'DT100', 2)).toEqual([0x0100, 0x0101]);
    expect(readPlcMemory(plc.memory, 'DT95', 5)).toEqual([1, 2, 3, 4, 5]);
    expect(readPlcMemory(plc.memory, 'WR0', 1)).toEqual([0x0f0f]);
    expect(readPlcMemory(plc.memory, 'DT40', 1)).toEqual([0x4040]);
    const s = (await admin.get('/config/port_status')).body.threads[0];
    expect(s.refused).toBeGreaterThanOrEqual(steps.filter((x) => !x.allowed).length);
  });

  it('an RD of all 100 words of DT 0–99 comes back in 4 `&`-chained frames on both hops', async () => {
    const words = pattern(100, 0x5a00);
    writePlcMemory(plc.memory, 'DT0', words);
    const req: MewRequest = { cmd: 'RD', area: 'DT', start: 0, count: 100 };
    const ex = await client.ask(req);
    expect(wordsOf(req, ex)).toEqual(words);
    // client side: 4 frames, the first three ending in `&`, each fetched with a next-frame request
    expect(ex.framesIn).toHaveLength(4);
    expect(ex.framesIn.slice(0, 3).every((f) => f.endsWith('&\r'))).toBe(true);
    expect(ex.framesIn[3]!.endsWith('&\r')).toBe(false);
    expect(ex.framesOut).toEqual([mewCommandFrames(STATION, req)[0], NEXT, NEXT, NEXT]);
    // PLC side: the one command, then the daemon's three next-frame requests over the pty
    expect(received.frames()).toEqual([mewCommandFrames(STATION, req)[0], NEXT, NEXT, NEXT]);
    expect(received.commands()).toEqual([req]);
    expect(plc.requests - requestsBefore).toBe(4);
  });

  it('a WD of 40 words sent in 2 frames passes the thread and lands in the PLC in 2 frames', async () => {
    const words = pattern(40, 0x7100);
    const req: MewRequest = { cmd: 'WD', area: 'DT', start: 50, words };
    const frames = mewCommandFrames(STATION, req);
    expect(frames).toHaveLength(2);
    const ex = await client.ask(req);
    expect(mewReplyFromMessage(req, ex.message)).toEqual({ ok: true, value: { kind: 'ack' } });
    // the thread asked the client for the second frame
    expect(ex.framesIn).toEqual([NEXT, expect.stringMatching(/^%01\$WD[0-9A-F]{2}\r$/)]);
    expect(ex.framesOut).toEqual(frames);
    // the daemon sent both frames to the PLC (which asked for the second one)
    expect(received.frames()).toEqual(frames);
    expect(received.commands()).toEqual([req]);
    expect(readPlcMemory(plc.memory, 'DT50', 40)).toEqual(words);
  });

  it('refused multi-frame requests (an RD of 100 words over the BLK, a 2-frame WD into RO) get !65 and nothing arrives', async () => {
    writePlcMemory(plc.memory, 'DT80', pattern(40, 0x8000));
    const rd: MewRequest = { cmd: 'RD', area: 'DT', start: 60, count: 100 };
    const rdEx = await client.ask(rd);
    expect(rdEx.framesIn).toEqual([REFUSED]);
    const wd: MewRequest = { cmd: 'WD', area: 'DT', start: 80, words: Array(40).fill(0xdead) };
    const wdEx = await client.ask(wd);
    expect(wdEx.framesOut).toEqual(mewCommandFrames(STATION, wd)); // both frames went to the thread
    expect(wdEx.framesIn).toEqual([NEXT, REFUSED]);
    expect(received.frames()).toEqual([]);
    expect(received.partial()).toBe('');
    expect(plc.requests).toBe(requestsBefore);
    expect(readPlcMemory(plc.memory, 'DT80', 40)).toEqual(pattern(40, 0x8000));
  });
});
