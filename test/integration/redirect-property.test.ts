// Redirect threads end to end, as a property: random restriction sets × random request sequences
// in both protocols (a MEWTOCOL thread and a Modbus/TCP gateway thread of one daemon, serving a
// virtual PLC on an in-process serial wire at 115200). Each run saves its rules through the API and
// fills the PLC with a known pattern; then, request by request, a denied one never reaches the PLC
// (its request counter and memory stay as they were) and gets the refusal (`!65`, exception 02), an
// allowed one reaches it and gets the right answer (reads equal the pattern so far, writes land).
import { connect, type Socket } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pew } from '../../device/model/sections/pew.ts';
import type { Redirect, Restriction, Thread } from '../../device/model/sections/redirect.ts';
import {
  asciiToBytes,
  bytesToAscii,
  type ContactRef,
  decodeMewFrame,
  decodeMewReply,
  decodeModbusResponse,
  encodeModbusRequest,
  encodeTcpFrame,
  isModbusException,
  type MewRequest,
  type ModbusRequest,
  mewCommandFrames,
} from '../../device/protocol/index.ts';
import type { Op } from '../../device/redirect/access.ts';
import { entry, granted, rightsOf } from '../../device/redirect/testing.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';

const FRAMING = { baud: 115200, bits: 8 as const, parity: 'odd' as const, stopbits: 1 as const };
const plc = new VirtualPlc({ model: 'FP-XH', scanMs: 0 });
const wire = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: FRAMING });

let d: TestDaemon;
let admin: Client;
let MEW_PORT = 0;
let GW_PORT = 0;

// the address spaces of the rules, and the (slightly larger) ones requests and checks cover
const DT_RULES = 63;
const WR_RULES = 7;
const DT_SEEN = 80;
const WR_SEEN = 16;

const thread = (port: number, over: Partial<Thread>): Thread => ({
  port,
  mb_translation: false,
  monitoring_cmd: true,
  service: 0,
  clients: 16,
  timeout: 60,
  ip_start: '0.0.0.0',
  ip_end: '0.0.0.0',
  mapping: [],
  ...over,
});

// ---- the model: what the PLC memory must hold, and who may touch which word ----

type Mem = { DT: number[]; WR: number[] };
type Area = keyof Mem;

function pattern(seed: number): Mem {
  return {
    DT: Array.from({ length: DT_SEEN }, (_, i) => (seed * 7919 + i * 0x1357 + 0x2468) & 0xffff),
    WR: Array.from({ length: WR_SEEN }, (_, i) => (seed * 104729 + i * 0x9e37 + 0x0f0f) & 0xffff),
  };
}
const bitOf = (m: Mem, index: number) => ((m.WR[index >> 4]! >> (index & 15)) & 1) === 1;
const setBit = (m: Mem, index: number, on: boolean) => {
  const w = m.WR[index >> 4]!;
  m.WR[index >> 4] = on ? w | (1 << (index & 15)) : w & ~(1 << (index & 15)) & 0xffff;
};

/** An element of the PLC a request reaches: a word of DT/WR, or a bit of WR (an R relay). */
type El = { area: Area; word: number } | { area: 'R'; index: number };

/** MEWTOCOL: the elements a command touches with its op, or undefined when it is refused whatever the words. */
function mewElements(req: MewRequest): { els: El[]; op: Op } | undefined {
  const words = (area: string, start: number, count: number): El[] | undefined =>
    area === 'DT' || area === 'WR' ? Array.from({ length: count }, (_, i) => ({ area, word: start + i })) : undefined;
  const relay = (c: ContactRef): El | undefined => ('word' in c && c.area === 'R' ? { area: 'R', index: c.word * 16 + c.bit } : undefined);
  const all = (xs: (El | undefined)[]) => (xs.every((x) => x !== undefined) ? (xs as El[]) : undefined);
  const wrap = (els: El[] | undefined, op: Op) => (els ? { els, op } : undefined);
  switch (req.cmd) {
    case 'RD':
    case 'RCC':
      return wrap(words(req.area, req.start, req.count), 'read');
    case 'WD':
    case 'WCC':
      return wrap(words(req.area, req.start, req.words.length), 'write');
    case 'RCS':
      return wrap(all([relay(req.contact)]), 'read');
    case 'WCS':
      return wrap(all([relay(req.contact)]), 'write');
    case 'RCP':
      return wrap(all(req.contacts.map(relay)), 'read');
    case 'WCP':
      return wrap(all(req.contacts.map((c) => relay(c.contact))), 'write');
    default:
      return undefined;
  }
}
const wordOf = (e: El): [string, number] => (e.area === 'R' ? ['WR', e.index >> 4] : [e.area, e.word]);

function mewAllowed(req: MewRequest, mapping: readonly Restriction[], monitoring: boolean): boolean {
  if (req.cmd === 'RT') return monitoring;
  const t = mewElements(req);
  if (!t) return false; // no rule reaches LD, X, Y, timers… in these runs
  const rights = rightsOf(mapping);
  return t.els.every((e) => granted(rights, ...wordOf(e), t.op));
}

const TYPE_OF_FC: Record<ModbusRequest['fc'], number> = { 1: 2, 5: 2, 15: 2, 2: 3, 3: 0, 6: 0, 16: 0, 4: 1 };
const widthOf = (e: Restriction) => (e.register_area_end - e.register_area_start + 1) * (e.type >= 2 ? 16 : 1);

function modbusSpan(req: ModbusRequest): { count: number; op: Op } {
  if (req.fc === 5 || req.fc === 6) return { count: 1, op: 'write' };
  if (req.fc === 15 || req.fc === 16) return { count: req.values.length, op: 'write' };
  return { count: req.quantity, op: 'read' };
}

/** Gateway: the elements the request reaches, address by address, or undefined (exception 02). */
function gatewayElements(req: ModbusRequest, mapping: readonly Restriction[]): El[] | undefined {
  const { count, op } = modbusSpan(req);
  const type = TYPE_OF_FC[req.fc];
  const rights = rightsOf(mapping);
  const out: El[] = [];
  for (let i = 0; i < count; i++) {
    const a = req.address + i;
    const e = mapping.find((x) => x.type === type && x.read_write !== 'BLK' && a >= x.register_area_mapped && a < x.register_area_mapped + widthOf(x));
    if (!e) return undefined;
    const off = a - e.register_area_mapped;
    const el: El = type >= 2 ? { area: 'R', index: e.register_area_start * 16 + off } : { area: e.area as Area, word: e.register_area_start + off };
    if (!granted(rights, ...wordOf(el), op)) return undefined;
    out.push(el);
  }
  return out;
}

// ---- arbitraries: rules a technician can save, over DT 0–63 and WR 0–7 ----

const overlap = (a0: number, a1: number, b0: number, b1: number) => a0 <= b1 && b0 <= a1;
function saveable(cands: readonly Restriction[], gateway: boolean): Restriction[] {
  const kept: Restriction[] = [];
  for (const r of cands) {
    const clash = kept.some(
      (o) =>
        o.read_write !== 'BLK' &&
        r.read_write !== 'BLK' &&
        ((o.area === r.area && overlap(o.register_area_start, o.register_area_end, r.register_area_start, r.register_area_end)) ||
          (gateway &&
            o.type === r.type &&
            overlap(o.register_area_mapped, o.register_area_mapped + widthOf(o) - 1, r.register_area_mapped, r.register_area_mapped + widthOf(r) - 1))),
    );
    if (!clash) kept.push(r);
  }
  return kept;
}

const rw = fc.constantFrom<Restriction['read_write']>('RO', 'R/W', 'R/W', 'R/W', 'BLK');
const span = (area: Area) =>
  area === 'DT'
    ? fc.tuple(fc.integer({ min: 0, max: DT_RULES }), fc.integer({ min: 0, max: 15 })).map(([s, n]) => [s, Math.min(DT_RULES, s + n)] as const)
    : fc.tuple(fc.integer({ min: 0, max: WR_RULES }), fc.integer({ min: 0, max: 3 })).map(([s, n]) => [s, Math.min(WR_RULES, s + n)] as const);
const mewEntry = fc.constantFrom<Area>('DT', 'WR').chain((area) => fc.tuple(span(area), rw).map(([[s, e], r]) => entry(area, s, e, r)));
const gwEntry = fc.constantFrom<Restriction['type']>(0, 1, 2, 3).chain((type) => {
  const area = type >= 2 ? fc.constant<Area>('WR') : fc.constantFrom<Area>('DT', 'WR');
  const mapped = fc.integer({ min: 0, max: type >= 2 ? 200 : 80 });
  return fc
    .tuple(
      area.chain((a) => fc.tuple(fc.constant(a), span(a))),
      rw,
      mapped,
    )
    .map(([[a, [s, e]], r, m]) => entry(a, s, e, r, type, m));
});

const word = fc.integer({ min: 0, max: 0xffff });
const rContact = (w: fc.Arbitrary<number>) => fc.record({ area: fc.constant('R' as const), word: w, bit: fc.integer({ min: 0, max: 15 }) });

/** Mostly inside [lo, hi], sometimes one past either end. */
const around = (lo: number, hi: number) =>
  fc.oneof({ arbitrary: fc.integer({ min: lo, max: hi }), weight: 3 }, { arbitrary: fc.integer({ min: Math.max(0, lo - 1), max: hi + 1 }), weight: 1 });
/** A count that mostly fits from `at` to `hi`, at most `max`. */
const fitting = (at: number, hi: number, max: number) =>
  fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: Math.max(1, Math.min(max, hi - at + 1)) }), weight: 3 },
    { arbitrary: fc.integer({ min: 1, max }), weight: 1 },
  );

/** A MEWTOCOL command in and around one entry, or anywhere (with some that no rule can grant). */
function mewRequestAt(e: Restriction | undefined): fc.Arbitrary<MewRequest> {
  const count = fc.integer({ min: 1, max: 8 });
  if (!e) {
    return fc.oneof(
      fc.record({ start: fc.integer({ min: 0, max: DT_SEEN - 8 }), count }).map((x): MewRequest => ({ cmd: 'RD', area: 'DT', ...x })),
      fc.record({ start: fc.integer({ min: 0, max: WR_SEEN - 8 }), count }).map((x): MewRequest => ({ cmd: 'RCC', area: 'WR', ...x })),
      fc.constant<MewRequest>({ cmd: 'RT' }),
      fc.constant<MewRequest>({ cmd: 'RD', area: 'LD', start: 0, count: 1 }),
      fc.constant<MewRequest>({ cmd: 'RCS', contact: { area: 'T', index: 1 } }),
      fc.constant<MewRequest>({ cmd: 'WCS', contact: { area: 'Y', word: 0, bit: 0 }, value: true }),
    );
  }
  const lo = e.register_area_start;
  const hi = e.register_area_end;
  const max = e.area === 'DT' ? 8 : 4;
  const run = around(lo, hi).chain((start) => fc.tuple(fc.constant(start), fitting(start, hi, max)));
  const reads = run.map(([start, n]) => ({ start, count: n }));
  const writes = run.chain(([start, n]) => fc.array(word, { minLength: n, maxLength: n }).map((words) => ({ start, words })));
  if (e.area === 'DT')
    return fc.oneof(
      reads.map((x): MewRequest => ({ cmd: 'RD', area: 'DT', ...x })),
      writes.map((x): MewRequest => ({ cmd: 'WD', area: 'DT', ...x })),
    );
  const c = rContact(around(lo, hi));
  const cs = fc.integer({ min: 1, max: 8 });
  return fc.oneof(
    reads.map((x): MewRequest => ({ cmd: 'RCC', area: 'WR', ...x })),
    writes.map((x): MewRequest => ({ cmd: 'WCC', area: 'WR', ...x })),
    c.map((contact): MewRequest => ({ cmd: 'RCS', contact })),
    fc.record({ contact: c, value: fc.boolean() }).map((x): MewRequest => ({ cmd: 'WCS', ...x })),
    cs.chain((n) => fc.array(c, { minLength: 1, maxLength: n })).map((contacts): MewRequest => ({ cmd: 'RCP', contacts })),
    cs
      .chain((n) => fc.array(fc.record({ contact: c, value: fc.boolean() }), { minLength: 1, maxLength: n }))
      .map((contacts): MewRequest => ({ cmd: 'WCP', contacts })),
  );
}

/** A Modbus request in the table of one entry and around its published range, or anywhere. */
function modbusRequestAt(e: Restriction | undefined): fc.Arbitrary<ModbusRequest> {
  const bits = e === undefined || e.type >= 2;
  const max = bits ? 40 : 8;
  const lo = e ? e.register_area_mapped : 0;
  const hi = e ? e.register_area_mapped + widthOf(e) - 1 : 220;
  const run = around(lo, hi).chain((address) => fc.tuple(fc.constant(address), e ? fitting(address, hi, max) : fc.integer({ min: 1, max })));
  const read = (f: 1 | 2 | 3 | 4) => run.map(([address, quantity]): ModbusRequest => ({ fc: f, address, quantity }));
  const all: fc.Arbitrary<ModbusRequest>[] = [
    read(1),
    read(2),
    read(3),
    read(4),
    around(lo, hi).chain((address) => fc.boolean().map((value): ModbusRequest => ({ fc: 5, address, value }))),
    around(lo, hi).chain((address) => word.map((value): ModbusRequest => ({ fc: 6, address, value }))),
    run.chain(([address, n]) => fc.array(fc.boolean(), { minLength: n, maxLength: n }).map((values): ModbusRequest => ({ fc: 15, address, values }))),
    run.chain(([address, n]) => fc.array(word, { minLength: n, maxLength: n }).map((values): ModbusRequest => ({ fc: 16, address, values }))),
  ];
  const type = e?.type;
  const fcs = type === undefined ? [0, 1, 2, 3, 4, 5, 6, 7] : type === 0 ? [2, 5, 7] : type === 1 ? [3] : type === 2 ? [0, 4, 6] : [1];
  return fc.oneof(...fcs.map((i) => all[i]!));
}

type Step = { proto: 'mew'; req: MewRequest } | { proto: 'mb'; req: ModbusRequest };

const scenario = fc
  .record({
    mew: fc.array(mewEntry, { minLength: 0, maxLength: 10 }).map((c) => saveable(c, false)),
    gw: fc.array(gwEntry, { minLength: 0, maxLength: 10 }).map((c) => saveable(c, true)),
    monitoring: fc.boolean(),
    seed: fc.integer({ min: 0, max: 0xffff }),
  })
  .chain((s) => {
    // a grant (mostly), any entry, or none: a request anywhere
    const pick = (xs: Restriction[]): fc.Arbitrary<Restriction | undefined> => {
      const grants = xs.filter((x) => x.read_write !== 'BLK');
      const choices: fc.WeightedArbitrary<Restriction | undefined>[] = [{ arbitrary: fc.constant(undefined), weight: 1 }];
      if (xs.length) choices.push({ arbitrary: fc.constantFrom(...xs), weight: 1 });
      if (grants.length) choices.push({ arbitrary: fc.constantFrom(...grants), weight: 4 });
      return fc.oneof(...choices);
    };
    const step: fc.Arbitrary<Step> = fc.oneof(
      pick(s.mew)
        .chain(mewRequestAt)
        .map((req): Step => ({ proto: 'mew', req })),
      pick(s.gw)
        .chain(modbusRequestAt)
        .map((req): Step => ({ proto: 'mb', req })),
    );
    return fc.tuple(fc.constant(s), fc.array(step, { minLength: 10, maxLength: 30 }));
  });

// ---- a TCP client asking one question at a time ----

interface Conn {
  ask(bytes: Uint8Array, complete: (got: number[]) => number): Promise<Uint8Array | undefined>;
  pending(): number;
  close(): void;
}

async function open(port: number): Promise<Conn> {
  const s: Socket = connect({ host: '127.0.0.1', port });
  s.setNoDelay(true);
  let buf: number[] = [];
  let wake: (() => void) | undefined;
  s.on('data', (b: Buffer) => {
    buf.push(...b);
    wake?.();
  });
  s.on('error', () => {});
  s.on('close', () => wake?.());
  await new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('error', reject);
  });
  return {
    async ask(bytes, complete) {
      s.write(bytes);
      const deadline = Date.now() + 2000;
      for (;;) {
        const n = complete(buf);
        if (n > 0) {
          const out = Uint8Array.from(buf.slice(0, n));
          buf = buf.slice(n);
          return out;
        }
        const left = deadline - Date.now();
        if (left <= 0 || s.destroyed) return undefined;
        await new Promise<void>((r) => {
          const t = setTimeout(r, left);
          wake = () => {
            clearTimeout(t);
            r();
          };
        });
      }
    },
    pending: () => buf.length,
    close: () => s.destroy(),
  };
}
const mewComplete = (got: number[]) => got.indexOf(13) + 1;
const mbComplete = (got: number[]) => (got.length >= 7 && got.length >= 6 + ((got[4]! << 8) | got[5]!) ? 6 + ((got[4]! << 8) | got[5]!) : 0);

// ---- the daemon ----

beforeAll(async () => {
  d = await startTestDaemon({ serial: { virtualPorts: { COM1: (s) => wire.open(s) } } });
  admin = await d.admin();
  const pew = (await admin.get('/config/pew')).body as Pew;
  // not a test of the link's timeout: 2 s, so that the virtual PLC in this busy process answers in time
  Object.assign(pew.interfaces[0]!, { enabled: true, baudrate: 115200, timeout: 2000 });
  const base = 20000 + Math.floor(Math.random() * 20000);
  MEW_PORT = base;
  GW_PORT = base + 11;
  const r = await admin.post('/config', {
    pew,
    pew_redirect: { threads: [thread(MEW_PORT, {}), thread(GW_PORT, { mb_translation: true })] } satisfies Redirect,
  });
  expect(r.status, r.text).toBe(200);
  await d.ctx.com.settled();
  await d.ctx.redirects.settled();
});

afterAll(async () => {
  await d?.stop();
});

function expectMemory(m: Mem): void {
  expect(plc.memory.readWords('DT', 0, DT_SEEN)).toEqual(m.DT);
  expect(plc.memory.readWords('WR', 0, WR_SEEN)).toEqual(m.WR);
}

/** The read values the model holds for the elements, as words or bits. */
const valuesOf = (m: Mem, els: El[]): (number | boolean)[] => els.map((e) => (e.area === 'R' ? bitOf(m, e.index) : m[e.area][e.word]!));
function write(m: Mem, els: El[], values: (number | boolean)[]): void {
  els.forEach((e, i) => {
    const v = values[i]!;
    if (e.area === 'R') setBit(m, e.index, v as boolean);
    else m[e.area][e.word] = v as number;
  });
}
function mewWriteValues(req: MewRequest): (number | boolean)[] {
  switch (req.cmd) {
    case 'WD':
    case 'WCC':
      return req.words;
    case 'WCS':
      return [req.value];
    case 'WCP':
      return req.contacts.map((c) => c.value);
    default:
      return [];
  }
}
function mbWriteValues(req: ModbusRequest): (number | boolean)[] {
  if (req.fc === 5 || req.fc === 6) return [req.value];
  if (req.fc === 15 || req.fc === 16) return req.values;
  return [];
}

const tally = { mew: { allowed: 0, denied: 0 }, mb: { allowed: 0, denied: 0 } };

describe('redirect threads, random rules × random requests', () => {
  it('a denied request never reaches the PLC and is refused; an allowed one reaches it and answers right', async () => {
    let transaction = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ([s, steps]) => {
        const redirect: Redirect = {
          threads: [thread(MEW_PORT, { mapping: s.mew, monitoring_cmd: s.monitoring }), thread(GW_PORT, { mb_translation: true, mapping: s.gw })],
        };
        const saved = await admin.post('/config', { pew_redirect: redirect });
        expect(saved.status, saved.text).toBe(200);
        await d.ctx.redirects.settled();
        const model = pattern(s.seed);
        plc.memory.writeWords('DT', 0, model.DT);
        plc.memory.writeWords('WR', 0, model.WR);
        const mew = await open(MEW_PORT);
        const mb = await open(GW_PORT);
        try {
          for (const step of steps) {
            const before = plc.requests;
            if (step.proto === 'mew') {
              const req = step.req;
              const ok = mewAllowed(req, s.mew, s.monitoring);
              const raw = await mew.ask(asciiToBytes(mewCommandFrames('EE', req)[0]!), mewComplete);
              expect(raw, `no answer to ${JSON.stringify(req)}`).toBeDefined();
              const f = decodeMewFrame(bytesToAscii(raw!));
              expect(f.ok).toBe(true);
              if (!f.ok) return;
              expect(f.value.more).toBe(false);
              if (!ok) {
                expect({ req, marker: f.value.marker, text: f.value.text }).toEqual({ req, marker: '!', text: '65' });
                expect(plc.requests).toBe(before);
              } else {
                expect({ req, marker: f.value.marker }).toEqual({ req, marker: '$' });
                expect(plc.requests).toBeGreaterThan(before);
                const reply = decodeMewReply(req, f.value.text);
                expect(reply.ok, f.value.text).toBe(true);
                if (!reply.ok) return;
                const t = mewElements(req);
                if (t && t.op === 'read') {
                  const got = reply.value.kind === 'words' ? reply.value.words : reply.value.kind === 'bits' ? reply.value.values : undefined;
                  expect({ req, got }).toEqual({ req, got: valuesOf(model, t.els) });
                } else if (t) {
                  expect(reply.value.kind).toBe('ack');
                  write(model, t.els, mewWriteValues(req));
                } else expect(reply.value.kind).toBe('status'); // RT
              }
            } else {
              const req = step.req;
              const els = gatewayElements(req, s.gw);
              transaction = (transaction + 1) & 0xffff;
              const raw = await mb.ask(encodeTcpFrame({ transaction, unit: 1, pdu: encodeModbusRequest(req) }), mbComplete);
              expect(raw, `no answer to ${JSON.stringify(req)}`).toBeDefined();
              expect((raw![0]! << 8) | raw![1]!).toBe(transaction);
              const res = decodeModbusResponse(raw!.slice(7), req);
              expect(res.ok).toBe(true);
              if (!res.ok) return;
              if (!els) {
                expect({ req, res: res.value }).toEqual({ req, res: { fc: req.fc, exception: 2 } });
                expect(plc.requests).toBe(before);
              } else {
                expect({ req, exception: isModbusException(res.value) }).toEqual({ req, exception: false });
                expect(plc.requests).toBeGreaterThan(before);
                const r = res.value;
                if ('bits' in r) expect({ req, got: r.bits }).toEqual({ req, got: valuesOf(model, els) });
                else if ('registers' in r) expect({ req, got: r.registers }).toEqual({ req, got: valuesOf(model, els) });
                else write(model, els, mbWriteValues(req));
              }
            }
            const passed = step.proto === 'mew' ? mewAllowed(step.req, s.mew, s.monitoring) : gatewayElements(step.req, s.gw) !== undefined;
            tally[step.proto][passed ? 'allowed' : 'denied']++;
            expectMemory(model);
            expect(mew.pending() + mb.pending()).toBe(0); // nothing but the one answer
          }
        } finally {
          mew.close();
          mb.close();
        }
      }),
      { numRuns: 25 },
    );
    // the runs mixed hits and misses in earnest, in both protocols
    for (const t of [tally.mew, tally.mb]) {
      expect(t.allowed).toBeGreaterThan(20);
      expect(t.denied).toBeGreaterThan(20);
    }
  }, 300_000); // a property run of 25 scenarios, each saving threads and asking through both: past 120 s on a busy machine
});
