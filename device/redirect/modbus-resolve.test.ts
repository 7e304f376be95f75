// resolveModbus(): examples and properties against an address-by-address oracle.
//   gateway  each non-BLK entry publishes its PLC words (types 0/1) or their bits (types 2/3, 16
//            per word) from register_area_mapped on; every address must be published, its word
//            granted for the operation and not blocked — else exception 02 — and the operations
//            carry exactly the translated words/bits (values in order), consecutive ones merged
//   plain    the Panasonic map (FP7 extent): DT holding n, Y coils from 0, R coils from 2048,
//            X discrete inputs, WL input n, LD input 2000+n; the same per-word check

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pew_redirect, type Restriction, type Thread } from '../model/sections/redirect.ts';
import { type BitArea, MODBUS_EXCEPTION, type ModbusRequest, type WordArea } from '../protocol/index.ts';
import type { Op } from './access.ts';
import { type PlcOp, resolveModbus } from './modbus-resolve.ts';
import { entry, granted, rightsOf } from './testing.ts';

const EX = MODBUS_EXCEPTION.ILLEGAL_DATA_ADDRESS;

// ---- the oracle ----

/** One PLC element a Modbus address reaches, with the value a write carries to it. */
type Item = { kind: 'words'; area: WordArea; pos: number; value?: number } | { kind: 'bits'; area: BitArea; pos: number; value?: boolean };

const TYPE_OF_FC: Record<ModbusRequest['fc'], number> = { 1: 2, 5: 2, 15: 2, 2: 3, 3: 0, 6: 0, 16: 0, 4: 1 };
const RELAY_OF: Partial<Record<WordArea, BitArea>> = { WX: 'X', WY: 'Y', WR: 'R', WL: 'L' };

function spanOf(req: ModbusRequest): { count: number; op: Op; values?: (number | boolean)[] } {
  if (req.fc === 5 || req.fc === 6) return { count: 1, op: 'write', values: [req.value] };
  if (req.fc === 15 || req.fc === 16) return { count: req.values.length, op: 'write', values: req.values };
  return { count: req.quantity, op: 'read' };
}

const item = (kind: 'words' | 'bits', area: WordArea | BitArea, pos: number, value: number | boolean | undefined): Item =>
  ({ kind, area, pos, ...(value !== undefined ? { value } : {}) }) as Item;

/** The elements a gateway request reaches, or exception 02. */
function gatewayOracle(req: ModbusRequest, mapping: readonly Restriction[]): Item[] | number {
  const s = spanOf(req);
  const type = TYPE_OF_FC[req.fc];
  const bits = type === 2 || type === 3;
  const rights = rightsOf(mapping);
  const out: Item[] = [];
  for (let i = 0; i < s.count; i++) {
    const a = req.address + i;
    const hits = mapping.filter(
      (e) =>
        e.type === type &&
        e.read_write !== 'BLK' &&
        a >= e.register_area_mapped &&
        a - e.register_area_mapped < (e.register_area_end - e.register_area_start + 1) * (bits ? 16 : 1),
    );
    if (hits.length > 1) throw new Error('the generator made two entries publish one address');
    const e = hits[0];
    if (!e) return EX;
    const off = a - e.register_area_mapped;
    const word = e.register_area_start + (bits ? Math.floor(off / 16) : off);
    if (!granted(rights, e.area, word, s.op)) return EX;
    if (bits) {
      const relay = RELAY_OF[e.area];
      if (!relay) return EX;
      out.push(item('bits', relay, word * 16 + (off % 16), s.values?.[i]));
    } else out.push(item('words', e.area, word, s.values?.[i]));
  }
  return out;
}

/** mewtocol.md §8, FP7 extent: the PLC element of a Modbus address, or undefined. */
function panasonic(
  fcode: ModbusRequest['fc'],
  a: number,
): { kind: 'words'; area: WordArea; pos: number } | { kind: 'bits'; area: BitArea; pos: number } | undefined {
  switch (TYPE_OF_FC[fcode]) {
    case 0:
      return { kind: 'words', area: 'DT', pos: a };
    case 1:
      return a <= 1023 ? { kind: 'words', area: 'WL', pos: a } : a >= 2000 && a <= 2000 + 16383 ? { kind: 'words', area: 'LD', pos: a - 2000 } : undefined;
    case 2:
      return a <= 2047 ? { kind: 'bits', area: 'Y', pos: a } : a <= 2048 + 0x7fff ? { kind: 'bits', area: 'R', pos: a - 2048 } : undefined;
    default:
      return a <= 0x1fff ? { kind: 'bits', area: 'X', pos: a } : undefined;
  }
}
const WORDS_OF: Record<BitArea, WordArea> = { X: 'WX', Y: 'WY', R: 'WR', L: 'WL' };

function plainOracle(req: ModbusRequest, mapping: readonly Restriction[]): Item[] | number {
  const s = spanOf(req);
  const rights = rightsOf(mapping);
  const out: Item[] = [];
  for (let i = 0; i < s.count; i++) {
    const p = panasonic(req.fc, req.address + i);
    if (!p) return EX;
    const area = p.kind === 'bits' ? WORDS_OF[p.area] : p.area;
    const word = p.kind === 'bits' ? Math.floor(p.pos / 16) : p.pos;
    if (!granted(rights, area, word, s.op)) return EX;
    out.push(item(p.kind, p.area, p.pos, s.values?.[i]));
  }
  return out;
}

/** Checks the shape of the operations and flattens them into elements. */
function flatten(req: ModbusRequest, ops: PlcOp[]): Item[] {
  const s = spanOf(req);
  const out: Item[] = [];
  for (const o of ops) {
    expect(o.op).toBe(s.op);
    expect(o.count).toBeGreaterThanOrEqual(1);
    if (s.op === 'read') expect(o.values).toBeUndefined();
    else expect(o.values).toHaveLength(o.count);
    const first = o.kind === 'words' ? o.start : o.index;
    for (let k = 0; k < o.count; k++) out.push(item(o.kind, o.area, first + k, o.values?.[k]));
  }
  return out;
}

/** No two neighbouring operations could have been one. */
function merged(ops: PlcOp[]): boolean {
  for (let i = 1; i < ops.length; i++) {
    const a = ops[i - 1]!;
    const b = ops[i]!;
    const end = a.kind === 'words' ? a.start + a.count : a.index + a.count;
    const start = b.kind === 'words' ? b.start : b.index;
    if (a.kind === b.kind && a.area === b.area && end === start) return false;
  }
  return true;
}

function expectLike(req: ModbusRequest, got: PlcOp[] | number, want: Item[] | number): void {
  if (typeof want === 'number') {
    expect(got).toBe(want);
    return;
  }
  expect(typeof got).not.toBe('number');
  if (typeof got === 'number') return;
  expect(flatten(req, got)).toEqual(want);
  expect(merged(got)).toBe(true);
}

// ---- arbitraries ----

const AREAS_FOR_TYPE: Record<number, WordArea[]> = {
  0: ['DT', 'WR', 'WY', 'LD'],
  1: ['DT', 'WR', 'WL', 'LD'],
  2: ['WY', 'WR', 'WL'],
  3: ['WX', 'WY', 'WR', 'WL'],
};
const candidate: fc.Arbitrary<Restriction> = fc
  .record({
    type: fc.constantFrom<Restriction['type']>(0, 1, 2, 3),
    pick: fc.nat(),
    start: fc.integer({ min: 0, max: 12 }),
    len: fc.integer({ min: 0, max: 4 }),
    rw: fc.constantFrom<Restriction['read_write']>('RO', 'R/W', 'R/W', 'BLK'),
    wordMapped: fc.integer({ min: 0, max: 40 }),
    bitMapped: fc.integer({ min: 0, max: 160 }),
  })
  .map((x) => {
    const areas = AREAS_FOR_TYPE[x.type]!;
    const area = areas[x.pick % areas.length]!;
    return entry(area, x.start, x.start + x.len, x.rw, x.type, x.type >= 2 ? x.bitMapped : x.wordMapped);
  });

const overlap = (a0: number, a1: number, b0: number, b1: number) => a0 <= b1 && b0 <= a1;
const width = (e: Restriction) => (e.register_area_end - e.register_area_start + 1) * (e.type >= 2 ? 16 : 1);

/** Keeps the candidates a technician could save together (spec §3: grants do not overlap, on a gateway
 *  two published ranges of one table do not overlap; BLK may lie over anything). */
function saveable(cands: readonly Restriction[]): Restriction[] {
  const kept: Restriction[] = [];
  for (const r of cands) {
    const clash = kept.some(
      (o) =>
        o.read_write !== 'BLK' &&
        r.read_write !== 'BLK' &&
        ((o.area === r.area && overlap(o.register_area_start, o.register_area_end, r.register_area_start, r.register_area_end)) ||
          (o.type === r.type &&
            overlap(o.register_area_mapped, o.register_area_mapped + width(o) - 1, r.register_area_mapped, r.register_area_mapped + width(r) - 1))),
    );
    if (!clash) kept.push(r);
  }
  return kept;
}
const gatewayMapping = fc.array(candidate, { minLength: 0, maxLength: 10 }).map(saveable);

const threadOf = (mapping: Restriction[]): Thread => ({
  port: 9094,
  mb_translation: true,
  monitoring_cmd: true,
  service: 0,
  clients: 4,
  timeout: 60,
  ip_start: '0.0.0.0',
  ip_end: '0.0.0.0',
  mapping,
});

const wordValue = fc.integer({ min: 0, max: 0xffff });
/** Any request of the eight function codes at the given addresses. */
function requestNear(addresses: fc.Arbitrary<number>): fc.Arbitrary<ModbusRequest> {
  return fc.oneof(
    fc.record({ fc: fc.constantFrom(1 as const, 2 as const), address: addresses, quantity: fc.integer({ min: 1, max: 48 }) }),
    fc.record({ fc: fc.constantFrom(3 as const, 4 as const), address: addresses, quantity: fc.integer({ min: 1, max: 12 }) }),
    fc.record({ fc: fc.constant(5 as const), address: addresses, value: fc.boolean() }),
    fc.record({ fc: fc.constant(6 as const), address: addresses, value: wordValue }),
    fc.record({ fc: fc.constant(15 as const), address: addresses, values: fc.array(fc.boolean(), { minLength: 1, maxLength: 48 }) }),
    fc.record({ fc: fc.constant(16 as const), address: addresses, values: fc.array(wordValue, { minLength: 1, maxLength: 12 }) }),
  );
}

/** A request in the table of an entry, starting in or just around its published range. */
function requestAt(e: Restriction): fc.Arbitrary<ModbusRequest> {
  const bits = e.type >= 2;
  const address = fc.integer({ min: -2, max: width(e) + 1 }).map((d) => Math.max(0, e.register_area_mapped + d));
  const n = bits ? 40 : 8;
  const words = fc.array(wordValue, { minLength: 1, maxLength: n });
  const flags = fc.array(fc.boolean(), { minLength: 1, maxLength: n });
  switch (e.type) {
    case 0:
      return fc.oneof(
        fc.record({ fc: fc.constant(3 as const), address, quantity: fc.integer({ min: 1, max: n }) }),
        fc.record({ fc: fc.constant(6 as const), address, value: wordValue }),
        fc.record({ fc: fc.constant(16 as const), address, values: words }),
      );
    case 1:
      return fc.record({ fc: fc.constant(4 as const), address, quantity: fc.integer({ min: 1, max: n }) });
    case 2:
      return fc.oneof(
        fc.record({ fc: fc.constant(1 as const), address, quantity: fc.integer({ min: 1, max: n }) }),
        fc.record({ fc: fc.constant(5 as const), address, value: fc.boolean() }),
        fc.record({ fc: fc.constant(15 as const), address, values: flags }),
      );
    default:
      return fc.record({ fc: fc.constant(2 as const), address, quantity: fc.integer({ min: 1, max: n }) });
  }
}

const gatewayCase = gatewayMapping.chain((mapping) => {
  const anywhere = requestNear(fc.integer({ min: 0, max: 220 }));
  const req = mapping.length ? fc.oneof({ arbitrary: fc.constantFrom(...mapping).chain(requestAt), weight: 4 }, { arbitrary: anywhere, weight: 1 }) : anywhere;
  return fc.tuple(fc.constant(mapping), req);
});

const PLAIN_AREAS: WordArea[] = ['DT', 'WY', 'WR', 'WX', 'WL', 'LD'];
const plainMapping = fc.array(
  fc
    .record({
      area: fc.constantFrom(...PLAIN_AREAS),
      start: fc.integer({ min: 0, max: 20 }),
      len: fc.integer({ min: 0, max: 8 }),
      rw: fc.constantFrom<Restriction['read_write']>('RO', 'R/W', 'BLK'),
    })
    .map((x) => entry(x.area, x.start, x.start + x.len, x.rw)),
  { minLength: 0, maxLength: 10 },
);
// addresses where the plain map has something to say: low words and bits, the Y/R edge, the R
// relays from 2048, the WL edge, the LD inputs from 2000, and far beyond the tables
const plainAddress = fc.oneof(
  fc.integer({ min: 0, max: 40 }),
  fc.integer({ min: 0, max: 460 }),
  fc.integer({ min: 2030, max: 2060 }),
  fc.integer({ min: 2048, max: 2048 + 460 }),
  fc.integer({ min: 1010, max: 1030 }),
  fc.integer({ min: 1990, max: 2030 }),
  fc.integer({ min: 8180, max: 8200 }),
  fc.integer({ min: 0x87f0, max: 0x8810 }),
  fc.integer({ min: 0x47c0, max: 0x47d8 }),
);
// a few full grants, so the edges of the tables are reached and not only refused by the rules
const WIDE = [
  entry('WY', 120, 140, 'R/W'),
  entry('WR', 0, 10, 'R/W'),
  entry('WR', 2040, 2048, 'R/W'),
  entry('WX', 500, 512, 'RO'),
  entry('WL', 1015, 1024, 'R/W'),
  entry('LD', 16375, 16384, 'R/W'),
  entry('LD', 0, 40, 'RO'),
  entry('DT', 0, 40, 'R/W'),
];

// ---- tests ----

describe('resolveModbus through a gateway', () => {
  const m = [entry('DT', 100, 199, 'R/W', 0, 0), entry('DT', 0, 9, 'RO', 0, 500), entry('WR', 0, 9, 'R/W', 2, 1000), entry('DT', 150, 159, 'BLK', 0, 50)];

  it('translates holding registers and coils to the PLC range of their entry', () => {
    expect(resolveModbus({ fc: 3, address: 0, quantity: 3 }, m, true)).toEqual([{ kind: 'words', op: 'read', area: 'DT', start: 100, count: 3 }]);
    expect(resolveModbus({ fc: 16, address: 5, values: [4321, 99] }, m, true)).toEqual([
      { kind: 'words', op: 'write', area: 'DT', start: 105, count: 2, values: [4321, 99] },
    ]);
    expect(resolveModbus({ fc: 6, address: 7, value: 5 }, m, true)).toEqual([{ kind: 'words', op: 'write', area: 'DT', start: 107, count: 1, values: [5] }]);
    expect(resolveModbus({ fc: 3, address: 503, quantity: 1 }, m, true)).toEqual([{ kind: 'words', op: 'read', area: 'DT', start: 3, count: 1 }]);
    // coil 1017 = WR1 bit 1 = R index 17
    expect(resolveModbus({ fc: 5, address: 1017, value: true }, m, true)).toEqual([
      { kind: 'bits', op: 'write', area: 'R', index: 17, count: 1, values: [true] },
    ]);
    expect(resolveModbus({ fc: 1, address: 1000, quantity: 160 }, m, true)).toEqual([{ kind: 'bits', op: 'read', area: 'R', index: 0, count: 160 }]);
    expect(resolveModbus({ fc: 15, address: 1014, values: [true, false, true, true] }, m, true)).toEqual([
      { kind: 'bits', op: 'write', area: 'R', index: 14, count: 4, values: [true, false, true, true] },
    ]);
  });

  it('answers exception 02 for blocked, unmapped, read-only or partly mapped ranges', () => {
    expect(resolveModbus({ fc: 3, address: 50, quantity: 1 }, m, true)).toBe(EX); // DT150: BLK
    expect(resolveModbus({ fc: 3, address: 45, quantity: 10 }, m, true)).toBe(EX); // runs into BLK
    expect(resolveModbus({ fc: 3, address: 300, quantity: 1 }, m, true)).toBe(EX); // unmapped
    expect(resolveModbus({ fc: 3, address: 98, quantity: 4 }, m, true)).toBe(EX); // past the entry
    expect(resolveModbus({ fc: 6, address: 500, value: 1 }, m, true)).toBe(EX); // RO
    expect(resolveModbus({ fc: 16, address: 509, values: [1] }, m, true)).toBe(EX);
    expect(resolveModbus({ fc: 1, address: 1150, quantity: 20 }, m, true)).toBe(EX); // past WR9 bit 15
    expect(resolveModbus({ fc: 4, address: 0, quantity: 1 }, m, true)).toBe(EX); // no input registers
    expect(resolveModbus({ fc: 2, address: 1000, quantity: 1 }, m, true)).toBe(EX); // no discrete inputs
    expect(resolveModbus({ fc: 3, address: 0, quantity: 1 }, [], true)).toBe(EX);
  });

  it('a BLK entry publishes nothing, and blocks its words wherever they are published', () => {
    const g = [entry('DT', 0, 9, 'R/W', 0, 0), entry('DT', 5, 5, 'BLK', 0, 100)];
    expect(resolveModbus({ fc: 3, address: 100, quantity: 1 }, g, true)).toBe(EX);
    expect(resolveModbus({ fc: 3, address: 5, quantity: 1 }, g, true)).toBe(EX);
    expect(resolveModbus({ fc: 3, address: 0, quantity: 5 }, g, true)).toEqual([{ kind: 'words', op: 'read', area: 'DT', start: 0, count: 5 }]);
    // a word BLK blocks all 16 of its bits
    const b = [entry('WR', 0, 1, 'R/W', 2, 0), entry('WR', 1, 1, 'BLK', 2, 500)];
    expect(resolveModbus({ fc: 1, address: 0, quantity: 16 }, b, true)).toEqual([{ kind: 'bits', op: 'read', area: 'R', index: 0, count: 16 }]);
    expect(resolveModbus({ fc: 1, address: 16, quantity: 1 }, b, true)).toBe(EX);
    expect(resolveModbus({ fc: 1, address: 31, quantity: 1 }, b, true)).toBe(EX);
  });

  it('input registers and discrete inputs come from entries of type 1 and 3', () => {
    const g = [entry('LD', 0, 3, 'RO', 1, 10), entry('WX', 2, 2, 'RO', 3, 0), entry('DT', 0, 3, 'R/W', 0, 10)];
    expect(resolveModbus({ fc: 4, address: 11, quantity: 2 }, g, true)).toEqual([{ kind: 'words', op: 'read', area: 'LD', start: 1, count: 2 }]);
    expect(resolveModbus({ fc: 3, address: 11, quantity: 2 }, g, true)).toEqual([{ kind: 'words', op: 'read', area: 'DT', start: 1, count: 2 }]);
    expect(resolveModbus({ fc: 2, address: 3, quantity: 4 }, g, true)).toEqual([{ kind: 'bits', op: 'read', area: 'X', index: 35, count: 4 }]);
    expect(resolveModbus({ fc: 1, address: 3, quantity: 1 }, g, true)).toBe(EX);
  });

  it('merges consecutive words across entries, and splits where the PLC words are not consecutive', () => {
    const joined = [entry('DT', 0, 4, 'R/W', 0, 0), entry('DT', 5, 9, 'RO', 0, 5)];
    expect(resolveModbus({ fc: 3, address: 0, quantity: 10 }, joined, true)).toEqual([{ kind: 'words', op: 'read', area: 'DT', start: 0, count: 10 }]);
    const apart = [entry('DT', 0, 4, 'R/W', 0, 0), entry('DT', 20, 24, 'R/W', 0, 5), entry('WR', 5, 6, 'R/W', 0, 10)];
    expect(resolveModbus({ fc: 16, address: 3, values: [1, 2, 3, 4, 5, 6, 7, 8] }, apart, true)).toEqual([
      { kind: 'words', op: 'write', area: 'DT', start: 3, count: 2, values: [1, 2] },
      { kind: 'words', op: 'write', area: 'DT', start: 20, count: 5, values: [3, 4, 5, 6, 7] },
      { kind: 'words', op: 'write', area: 'WR', start: 5, count: 1, values: [8] },
    ]);
    // coils of two entries whose words meet
    const bits = [entry('WY', 3, 3, 'R/W', 2, 0), entry('WY', 4, 4, 'R/W', 2, 16), entry('WR', 0, 0, 'R/W', 2, 32)];
    expect(resolveModbus({ fc: 1, address: 10, quantity: 30 }, bits, true)).toEqual([
      { kind: 'bits', op: 'read', area: 'Y', index: 58, count: 22 },
      { kind: 'bits', op: 'read', area: 'R', index: 0, count: 8 },
    ]);
  });

  it('the generated mappings are ones a technician can save', () => {
    fc.assert(
      fc.property(gatewayMapping, (mapping) => {
        expect(pew_redirect.rules!({ threads: [threadOf(mapping)] })).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('equals the address-by-address oracle for random saveable mappings and FC1/2/3/4/5/6/15/16 requests', () => {
    let hits = 0;
    let misses = 0;
    fc.assert(
      fc.property(gatewayCase, ([mapping, req]) => {
        const want = gatewayOracle(req, mapping);
        if (typeof want !== 'number') hits++;
        else misses++;
        expectLike(req, resolveModbus(req, mapping, true), want);
      }),
      { numRuns: 4000 },
    );
    // the requests hit as well as miss
    expect(hits).toBeGreaterThan(400);
    expect(misses).toBeGreaterThan(400);
  });
});

describe('resolveModbus on a plain thread (the Panasonic map)', () => {
  const all = WIDE;

  it('DT is holding register n; WL input n; LD input 2000+n', () => {
    expect(resolveModbus({ fc: 3, address: 10, quantity: 3 }, all, false)).toEqual([{ kind: 'words', op: 'read', area: 'DT', start: 10, count: 3 }]);
    expect(resolveModbus({ fc: 16, address: 38, values: [1, 2, 3] }, all, false)).toEqual([
      { kind: 'words', op: 'write', area: 'DT', start: 38, count: 3, values: [1, 2, 3] },
    ]);
    expect(resolveModbus({ fc: 16, address: 39, values: [1, 2, 3] }, all, false)).toBe(EX); // DT41 not granted
    expect(resolveModbus({ fc: 4, address: 1020, quantity: 4 }, all, false)).toEqual([{ kind: 'words', op: 'read', area: 'WL', start: 1020, count: 4 }]);
    expect(resolveModbus({ fc: 4, address: 1020, quantity: 5 }, all, false)).toBe(EX); // 1024 is in no table
    expect(resolveModbus({ fc: 4, address: 2005, quantity: 2 }, all, false)).toEqual([{ kind: 'words', op: 'read', area: 'LD', start: 5, count: 2 }]);
    expect(resolveModbus({ fc: 4, address: 1999, quantity: 1 }, all, false)).toBe(EX);
  });

  it('Y coils from 0, R coils from 2048, X discrete inputs from 0', () => {
    // Y127 bit E, F, then R0 bit 0, 1: two operations
    expect(resolveModbus({ fc: 1, address: 2046, quantity: 4 }, all, false)).toEqual([
      { kind: 'bits', op: 'read', area: 'Y', index: 2046, count: 2 },
      { kind: 'bits', op: 'read', area: 'R', index: 0, count: 2 },
    ]);
    expect(resolveModbus({ fc: 5, address: 2048 + 17, value: true }, all, false)).toEqual([
      { kind: 'bits', op: 'write', area: 'R', index: 17, count: 1, values: [true] },
    ]);
    expect(resolveModbus({ fc: 15, address: 1920, values: [true, false] }, all, false)).toEqual([
      { kind: 'bits', op: 'write', area: 'Y', index: 1920, count: 2, values: [true, false] },
    ]);
    expect(resolveModbus({ fc: 2, address: 8190, quantity: 2 }, all, false)).toEqual([{ kind: 'bits', op: 'read', area: 'X', index: 8190, count: 2 }]);
    expect(resolveModbus({ fc: 2, address: 8191, quantity: 2 }, all, false)).toBe(EX); // past the X table
    expect(resolveModbus({ fc: 1, address: 0, quantity: 1 }, all, false)).toBe(EX); // Y0 not granted
  });

  it('checks the restrictions like MEWTOCOL, whatever type and mapped address the entries carry', () => {
    const m = [entry('DT', 0, 9, 'RO', 2, 777), entry('DT', 5, 5, 'BLK')];
    expect(resolveModbus({ fc: 3, address: 0, quantity: 5 }, m, false)).toEqual([{ kind: 'words', op: 'read', area: 'DT', start: 0, count: 5 }]);
    expect(resolveModbus({ fc: 3, address: 0, quantity: 6 }, m, false)).toBe(EX);
    expect(resolveModbus({ fc: 6, address: 0, value: 1 }, m, false)).toBe(EX);
    expect(resolveModbus({ fc: 3, address: 777, quantity: 1 }, m, false)).toBe(EX);
    expect(resolveModbus({ fc: 3, address: 0, quantity: 1 }, [], false)).toBe(EX);
  });

  it('equals the Panasonic-map oracle for random rules and requests', () => {
    let hits = 0;
    let misses = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          plainMapping,
          plainMapping.map((m) => [...m, ...WIDE]),
        ),
        requestNear(plainAddress),
        (mapping, req) => {
          const last = 'quantity' in req ? req.quantity : 'values' in req ? req.values.length : 1;
          if (req.address + last > 0x10000) return; // not a request Modbus can carry
          const want = plainOracle(req, mapping);
          if (typeof want !== 'number') hits++;
          else misses++;
          expectLike(req, resolveModbus(req, mapping, false), want);
        },
      ),
      { numRuns: 4000 },
    );
    expect(hits).toBeGreaterThan(200);
    expect(misses).toBeGreaterThan(200);
  });
});
