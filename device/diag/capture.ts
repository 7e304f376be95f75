// The traffic capture of the monitor (docs/monitor.md): one bounded ring buffer that the PLC links,
// the redirect threads (the Modbus gateway among them) and the IEC 104 station feed through their
// taps. A tap is a source's handle: `frames`/`events` say whether anybody captures it, so a part
// that nobody watches pays one property read per chunk and copies nothing. While a capture runs,
// a tap cuts the byte stream of each direction (and peer) into whole frames by the protocol's
// framing (CR for MEWTOCOL, MBAP length, APCI length, the Modbus RTU function's length) and puts
// each frame into the ring as latin1 text (one byte per char: no buffer per frame), with the round
// trip to the request it answers. Decoding happens when a browser reads (decode.ts), not here.
//
// Bounds: at most RING_RECORDS records and RING_BYTES bytes of frames; the oldest go first. A
// reader that falls behind is told how many it lost; nothing waits for a reader. A capture ends by
// itself after its time (1-60 min, default 10).
import type { Clock } from '../../hw/types.ts';
import type { CaptureEventCode, CaptureLevel, CaptureProtocol } from '../model/monitor.ts';
import { rtuFrameLength } from '../protocol/index.ts';

export const RING_RECORDS = 20_000;
export const RING_BYTES = 2 * 1024 * 1024;
/** a "frame" longer than this without its end is cut: noise on a line never grows a record without bound */
export const FRAME_MAX = 4096;

/** direction as the unit sees it: `out` leaves the unit (to the PLC, to a client), `in` arrives */
export type FrameDir = 'in' | 'out';

export type EventArgs = Record<string, string | number>;

export interface CaptureRecord {
  seq: number;
  /** ms since the epoch */
  t: number;
  source: string;
  /** the peer: a client's or a station's address, absent for a PLC link's own line */
  peer?: string;
  kind: 'frame' | 'event';
  dir?: FrameDir;
  protocol?: CaptureProtocol;
  /** the frame's bytes, latin1 */
  data?: string;
  /** ms from the request this frame answers */
  rttMs?: number;
  /** the frame goes the way answers go on its source (to the unit from a PLC, from the unit to a client) */
  reply?: true;
  /** the request this frame answers (the same string as that record's `data`: no copy), for decoding */
  request?: string;
  event?: CaptureEventCode;
  args?: EventArgs;
}

export interface CaptureState {
  on: boolean;
  sources: string[];
  level: CaptureLevel;
  startedAt?: number;
  /** when it ends by itself */
  until?: number;
  /** who started it */
  by?: string;
  /** why the last one ended: asked, or its time ran out */
  ended?: 'stopped' | 'timeout';
}

/** One direction of one peer on a tap: the bytes of the frame still incomplete. */
interface Stream {
  part: string;
  /** when the frame's first chunk came */
  at: number;
}

/**
 * A source's handle on the capture. The part that owns the source calls `frame`/`event` guarded
 * by the flags (`if (tap.frames) tap.frame(…)`), so nothing is built while nobody captures it.
 */
export class Tap {
  frames = false;
  events = false;
  private readonly streams = new Map<string, Stream>();
  /** when the requests still unanswered went out (in order), per peer; for the round-trip time */
  private readonly asked = new Map<string, { at: number; data: string }[]>();

  constructor(
    readonly source: string,
    public protocol: CaptureProtocol,
    /** the direction of answers: `in` on a PLC link (the PLC answers), `out` where the unit answers clients; none for IEC 104 */
    public answers: FrameDir | undefined,
    private readonly ring: Capture,
  ) {}

  /** Bytes of one direction (a chunk as it came: the tap cuts frames). */
  frame(dir: FrameDir, bytes: Uint8Array | string, peer = ''): void {
    if (!this.frames) return;
    const key = `${dir}|${peer}`;
    const now = this.ring.now();
    let s = this.streams.get(key);
    if (!s) this.streams.set(key, (s = { part: '', at: now }));
    if (s.part === '') s.at = now;
    s.part += typeof bytes === 'string' ? bytes : latin1(bytes);
    for (;;) {
      const n = frameLength(this.protocol, s.part, dir === this.answers ? 'response' : 'request');
      if (n === 0 && s.part.length < FRAME_MAX) return; // more bytes needed
      const cut = n > 0 ? Math.min(n, s.part.length) : s.part.length;
      if (n > 0 && s.part.length < n && s.part.length < FRAME_MAX) return;
      const data = s.part.slice(0, cut);
      s.part = s.part.slice(cut);
      this.put(dir, data, peer, s.at, now);
      s.at = now;
      if (s.part === '') return;
    }
  }

  event(code: CaptureEventCode, args?: EventArgs, peer?: string): void {
    if (this.events)
      this.ring.push({ t: this.ring.now(), source: this.source, kind: 'event', event: code, ...(args ? { args } : {}), ...(peer ? { peer } : {}) });
  }

  /** The capture of this source started or stopped: nothing half-cut is kept across. */
  set(frames: boolean, events: boolean): void {
    this.frames = frames;
    this.events = events;
    this.streams.clear();
    this.asked.clear();
  }

  private put(dir: FrameDir, data: string, peer: string, firstAt: number, now: number): void {
    let asked: { at: number; data: string } | undefined;
    if (this.answers !== undefined) {
      let q = this.asked.get(peer);
      if (!q) this.asked.set(peer, (q = []));
      if (dir !== this.answers) {
        // a PLC link has one request on the line at a time: one given up is answered by nobody now
        if (this.answers === 'in') q.length = 0;
        q.push({ at: firstAt, data });
        if (q.length > 64) q.shift();
      } else {
        // Modbus/TCP answers carry their request's transaction id; the others answer in order
        const i = this.protocol === 'modbus_tcp' ? q.findIndex((e) => e.data.slice(0, 2) === data.slice(0, 2)) : 0;
        if (i >= 0 && i < q.length) asked = q.splice(i, 1)[0];
      }
    }
    this.ring.push({
      t: firstAt,
      source: this.source,
      kind: 'frame',
      dir,
      protocol: this.protocol,
      data,
      ...(peer ? { peer } : {}),
      ...(dir === this.answers ? { reply: true as const } : {}),
      ...(asked ? { rttMs: now - asked.at, request: asked.data } : {}),
    });
  }
}

const latin1 = (b: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < b.length; i += 4096) s += String.fromCharCode(...b.subarray(i, i + 4096));
  return s;
};

/**
 * The length of the frame at the start of `text` (latin1): > 0 its length, 0 more bytes needed to
 * tell, -1 not a frame's start (the bytes are kept as they are, up to the next possible start).
 */
export function frameLength(protocol: CaptureProtocol, text: string, side: 'request' | 'response'): number {
  switch (protocol) {
    case 'mewtocol':
    case 'mewtocol7': {
      const cr = text.indexOf('\r');
      return cr < 0 ? 0 : cr + 1;
    }
    case 'modbus_tcp':
      return text.length < 6 ? 0 : 6 + ((text.charCodeAt(4) << 8) | text.charCodeAt(5));
    case 'iec104': {
      if (text.charCodeAt(0) !== 0x68) {
        const next = text.indexOf('\x68');
        return next < 0 ? text.length : next;
      }
      return text.length < 2 ? 0 : 2 + text.charCodeAt(1);
    }
    case 'modbus_rtu': {
      const head = Uint8Array.from(text.slice(0, 16), (c) => c.charCodeAt(0));
      const n = rtuFrameLength(head, head.length, side);
      return n < 0 ? text.length : n;
    }
  }
}

export interface StartRequest {
  sources: string[];
  level: CaptureLevel;
  minutes: number;
  by: string;
}

/** The unit's one capture: its state, its taps and its ring. */
export class Capture {
  private readonly taps = new Map<string, Tap>();
  private ring: (CaptureRecord | undefined)[] = new Array(RING_RECORDS);
  /** index in `ring` of the oldest record */
  private head = 0;
  private size = 0;
  private bytes = 0;
  private nextSeq = 1;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private current: CaptureState = { on: false, sources: [], level: 'frames' };

  constructor(
    private readonly clock: Clock,
    /** a minute of a capture's time (shorter in tests) */
    private readonly minuteMs = 60_000,
  ) {}

  now(): number {
    return this.clock.now();
  }

  /**
   * The tap of a source, made on first use; a part that is rebuilt (a link after a save) takes
   * the same tap again, with its protocol as it is now.
   */
  tap(source: string, protocol: CaptureProtocol, answers: FrameDir | undefined): Tap {
    let t = this.taps.get(source);
    if (!t) {
      t = new Tap(source, protocol, answers, this);
      this.taps.set(source, t);
      if (this.current.on && this.current.sources.includes(source)) t.set(this.current.level !== 'events', true);
    } else {
      t.protocol = protocol;
      t.answers = answers;
    }
    return t;
  }

  state(): CaptureState {
    return { ...this.current, sources: [...this.current.sources] };
  }

  /** Starts a capture of `sources` (replacing one that runs); it ends by itself after `minutes`. */
  start(req: StartRequest): CaptureState {
    this.end(undefined);
    const now = this.now();
    this.current = { on: true, sources: [...req.sources], level: req.level, startedAt: now, until: now + req.minutes * this.minuteMs, by: req.by };
    for (const s of req.sources) this.taps.get(s)?.set(req.level !== 'events', true);
    for (const s of req.sources) this.push({ t: now, source: s, kind: 'event', event: 'capture_started', args: { level: req.level, minutes: req.minutes } });
    this.timer = setTimeout(() => this.end('timeout'), req.minutes * this.minuteMs);
    this.timer.unref?.();
    return this.state();
  }

  /** Ends the capture (a no-op when none runs); what it captured stays readable. */
  stop(): CaptureState {
    this.end('stopped');
    return this.state();
  }

  private end(why: 'stopped' | 'timeout' | undefined): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.current.on) return;
    for (const s of this.current.sources) {
      this.taps.get(s)?.set(false, false);
      if (why) this.push({ t: this.now(), source: s, kind: 'event', event: 'capture_stopped', args: { why } });
    }
    this.current = { on: false, sources: this.current.sources, level: this.current.level, ...(why ? { ended: why } : {}) };
  }

  push(r: Omit<CaptureRecord, 'seq'>): void {
    const rec = r as CaptureRecord;
    rec.seq = this.nextSeq++;
    const len = rec.data?.length ?? 0;
    while (this.size > 0 && (this.size >= RING_RECORDS || this.bytes + len > RING_BYTES)) this.dropOldest();
    this.ring[(this.head + this.size) % RING_RECORDS] = rec;
    this.size++;
    this.bytes += len;
  }

  private dropOldest(): void {
    const old = this.ring[this.head];
    this.ring[this.head] = undefined;
    this.head = (this.head + 1) % RING_RECORDS;
    this.size--;
    this.bytes -= old?.data?.length ?? 0;
  }

  /** The records after `after` (a seq), at most `max`, and how many after it are gone from the ring. */
  read(after: number, max: number): { records: CaptureRecord[]; lost: number; next: number } {
    // a cursor from before a restart of the daemon (ahead of every record): read from the oldest
    if (after >= this.nextSeq) after = 0;
    const first = this.size > 0 ? this.ring[this.head]!.seq : this.nextSeq;
    // a read from 0 asks for the oldest held: what went before it is no loss of this reader's
    const lost = after === 0 ? 0 : Math.max(0, first - after - 1);
    const from = Math.max(0, after + 1 - first);
    const records: CaptureRecord[] = [];
    for (let i = from; i < this.size && records.length < max; i++) records.push(this.ring[(this.head + i) % RING_RECORDS]!);
    const next = records.length > 0 ? records[records.length - 1]!.seq : Math.max(after, first - 1);
    return { records, lost, next };
  }

  /** Records and bytes held now (the bench's memory figure, the status). */
  held(): { records: number; bytes: number } {
    return { records: this.size, bytes: this.bytes };
  }

  close(): void {
    this.end(undefined);
  }
}
