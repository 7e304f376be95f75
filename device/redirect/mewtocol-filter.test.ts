// checkMewCommand(): examples and a property against a per-word oracle — a data command passes
// exactly when every word it touches is granted for its operation (contacts X/Y/R/L are bits of
// WX/WY/WR/WL), RT/EXRT follow monitoring_cmd, and everything else (timers/counters) is refused.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Restriction } from '../model/sections/redirect.ts';
import {
  type ContactRef,
  type ContactWordArea,
  type DataArea,
  decodeMewRequest,
  encodeMewRequest,
  MEW_ERR,
  type MewRequest,
  type RelayArea,
  type WordArea,
  type WritableContact,
} from '../protocol/index.ts';
import type { Op } from './access.ts';
import { checkMewCommand, REFUSED, UNREADABLE } from './mewtocol-filter.ts';
import { entry, granted, rightsOf } from './testing.ts';

const RELAY_WORD: Record<RelayArea, WordArea> = { X: 'WX', Y: 'WY', R: 'WR', L: 'WL' };

/** Every word the request touches with its operation; undefined when some part has no restriction area. */
function touched(req: MewRequest): { area: WordArea; word: number; op: Op }[] | undefined {
  const words = (area: WordArea, start: number, count: number, op: Op) => Array.from({ length: count }, (_, i) => ({ area, word: start + i, op }));
  const contact = (c: ContactRef, op: Op) => ('word' in c ? { area: RELAY_WORD[c.area], word: c.word, op } : undefined);
  const all = <T>(xs: (T | undefined)[]): T[] | undefined => (xs.every((x) => x !== undefined) ? (xs as T[]) : undefined);
  switch (req.cmd) {
    case 'RD':
    case 'RCC':
      return words(req.area, req.start, req.count, 'read');
    case 'WD':
    case 'WCC':
      return words(req.area, req.start, req.words.length, 'write');
    case 'RCS':
      return all([contact(req.contact, 'read')]);
    case 'WCS':
      return all([contact(req.contact, 'write')]);
    case 'RCP':
      return all(req.contacts.map((c) => contact(c, 'read')));
    case 'WCP':
      return all(req.contacts.map((c) => contact(c.contact, 'write')));
    default:
      return undefined;
  }
}

function oracle(req: MewRequest, mapping: readonly Restriction[], monitoring: boolean): number | undefined {
  if (req.cmd === 'RT' || req.cmd === 'EXRT') return monitoring ? undefined : REFUSED;
  const t = touched(req);
  if (!t) return REFUSED;
  const rights = rightsOf(mapping);
  return t.every((x) => granted(rights, x.area, x.word, x.op)) ? undefined : REFUSED;
}

// ---- arbitraries: small address spaces so grants, gaps and BLK mix ----
const AREAS: WordArea[] = ['DT', 'LD', 'FL', 'WX', 'WY', 'WR', 'WL'];
const anyEntry: fc.Arbitrary<Restriction> = fc
  .record({
    area: fc.constantFrom(...AREAS),
    start: fc.integer({ min: 0, max: 20 }),
    len: fc.integer({ min: 0, max: 10 }),
    rw: fc.constantFrom<Restriction['read_write']>('RO', 'R/W', 'BLK'),
  })
  .map((x) => entry(x.area, x.start, x.start + x.len, x.rw));
const anyMapping = fc.array(anyEntry, { minLength: 0, maxLength: 10 });

const word = fc.integer({ min: 0, max: 0xffff });
const start = fc.integer({ min: 0, max: 28 });
const relayWord = fc.integer({ min: 0, max: 28 });
const bit = fc.integer({ min: 0, max: 15 });
const relay: fc.Arbitrary<ContactRef> = fc.record({ area: fc.constantFrom<RelayArea>('X', 'Y', 'R', 'L'), word: relayWord, bit });
const timer: fc.Arbitrary<ContactRef> = fc.record({ area: fc.constantFrom('T' as const, 'C' as const), index: fc.integer({ min: 0, max: 30 }) });
const contactRef = fc.oneof({ arbitrary: relay, weight: 6 }, { arbitrary: timer, weight: 1 });
const writable: fc.Arbitrary<WritableContact> = fc.record({ area: fc.constantFrom('Y' as const, 'R' as const, 'L' as const), word: relayWord, bit });

const mewRequest: fc.Arbitrary<MewRequest> = fc.oneof(
  fc.record({ area: fc.constantFrom<DataArea>('DT', 'LD', 'FL'), start, count: fc.integer({ min: 1, max: 8 }) }).map((x): MewRequest => ({ cmd: 'RD', ...x })),
  fc
    .record({ area: fc.constantFrom<DataArea>('DT', 'LD', 'FL'), start, words: fc.array(word, { minLength: 1, maxLength: 8 }) })
    .map((x): MewRequest => ({ cmd: 'WD', ...x })),
  fc
    .record({ area: fc.constantFrom<ContactWordArea>('WX', 'WY', 'WR', 'WL'), start, count: fc.integer({ min: 1, max: 8 }) })
    .map((x): MewRequest => ({ cmd: 'RCC', ...x })),
  fc
    .record({ area: fc.constantFrom('WY' as const, 'WR' as const, 'WL' as const), start, words: fc.array(word, { minLength: 1, maxLength: 8 }) })
    .map((x): MewRequest => ({ cmd: 'WCC', ...x })),
  contactRef.map((contact): MewRequest => ({ cmd: 'RCS', contact })),
  fc.record({ contact: writable, value: fc.boolean() }).map((x): MewRequest => ({ cmd: 'WCS', ...x })),
  fc.array(contactRef, { minLength: 1, maxLength: 8 }).map((contacts): MewRequest => ({ cmd: 'RCP', contacts })),
  fc.array(fc.record({ contact: writable, value: fc.boolean() }), { minLength: 1, maxLength: 8 }).map((contacts): MewRequest => ({ cmd: 'WCP', contacts })),
  fc.constantFrom<MewRequest>({ cmd: 'RT' }, { cmd: 'EXRT' }),
  fc.record({ cmd: fc.constantFrom('RS' as const, 'RK' as const), start, count: fc.integer({ min: 1, max: 4 }) }).map((x): MewRequest => x),
  fc.record({ cmd: fc.constantFrom('WS' as const, 'WK' as const), start, words: fc.array(word, { minLength: 1, maxLength: 4 }) }).map((x): MewRequest => x),
);

/** A command on the words of one entry and just around them, in the commands that reach its area. */
function requestAt(e: Restriction): fc.Arbitrary<MewRequest> {
  const lo = Math.max(0, e.register_area_start - 1);
  const hi = e.register_area_end + 1;
  const at = fc.integer({ min: lo, max: hi });
  const count = fc.integer({ min: 1, max: Math.min(8, hi - lo + 1) });
  const words = fc.array(word, { minLength: 1, maxLength: Math.min(8, hi - lo + 1) });
  const area = e.area;
  if (area === 'DT' || area === 'LD' || area === 'FL')
    return fc.oneof(
      fc.record({ start: at, count }).map((x): MewRequest => ({ cmd: 'RD', area, ...x })),
      fc.record({ start: at, words }).map((x): MewRequest => ({ cmd: 'WD', area, ...x })),
    );
  const relayArea = ({ WX: 'X', WY: 'Y', WR: 'R', WL: 'L' } as const)[area];
  const here = fc.record({ area: fc.constant(relayArea), word: at, bit });
  const reads: fc.Arbitrary<MewRequest>[] = [
    fc.record({ start: at, count }).map((x): MewRequest => ({ cmd: 'RCC', area, ...x })),
    here.map((contact): MewRequest => ({ cmd: 'RCS', contact })),
    fc.array(here, { minLength: 1, maxLength: 4 }).map((contacts): MewRequest => ({ cmd: 'RCP', contacts })),
  ];
  if (area === 'WX') return fc.oneof(...reads);
  const writableArea = ({ WY: 'Y', WR: 'R', WL: 'L' } as const)[area];
  const w = fc.record({ area: fc.constant(writableArea), word: at, bit });
  return fc.oneof(
    ...reads,
    fc.record({ start: at, words }).map((x): MewRequest => ({ cmd: 'WCC', area, ...x })),
    fc.record({ contact: w, value: fc.boolean() }).map((x): MewRequest => ({ cmd: 'WCS', ...x })),
    fc.array(fc.record({ contact: w, value: fc.boolean() }), { minLength: 1, maxLength: 4 }).map((contacts): MewRequest => ({ cmd: 'WCP', contacts })),
  );
}
const requestFor = anyMapping.chain((mapping) =>
  fc.tuple(fc.constant(mapping), mapping.length ? fc.oneof(mewRequest, fc.constantFrom(...mapping).chain(requestAt)) : mewRequest),
);

describe('checkMewCommand', () => {
  const rules = {
    monitoring_cmd: true,
    mapping: [
      entry('DT', 0, 99, 'RO'),
      entry('DT', 100, 199, 'R/W'),
      entry('DT', 150, 159, 'BLK'),
      entry('WY', 0, 3, 'R/W'),
      entry('WX', 0, 1, 'RO'),
      entry('WR', 2, 2, 'BLK'),
      entry('WR', 0, 9, 'R/W'),
    ],
  };
  const check = (req: MewRequest, r = rules) => checkMewCommand(req, r);

  it('RD/WD pass when every word is granted for the operation', () => {
    expect(check({ cmd: 'RD', area: 'DT', start: 0, count: 100 })).toBeUndefined();
    expect(check({ cmd: 'WD', area: 'DT', start: 10, words: [1] })).toBe(REFUSED);
    expect(check({ cmd: 'WD', area: 'DT', start: 120, words: [1, 2] })).toBeUndefined();
    expect(check({ cmd: 'RD', area: 'DT', start: 149, count: 2 })).toBe(REFUSED);
    expect(check({ cmd: 'RD', area: 'DT', start: 195, count: 10 })).toBe(REFUSED);
    expect(check({ cmd: 'RD', area: 'LD', start: 0, count: 1 })).toBe(REFUSED);
    expect(check({ cmd: 'RD', area: 'FL', start: 0, count: 1 })).toBe(REFUSED);
  });

  it('RCC/WCC check the relay words', () => {
    expect(check({ cmd: 'RCC', area: 'WY', start: 0, count: 4 })).toBeUndefined();
    expect(check({ cmd: 'RCC', area: 'WY', start: 0, count: 5 })).toBe(REFUSED);
    expect(check({ cmd: 'WCC', area: 'WY', start: 2, words: [1, 2] })).toBeUndefined();
    expect(check({ cmd: 'WCC', area: 'WR', start: 1, words: [1, 2] })).toBe(REFUSED); // WR2 blocked
    expect(check({ cmd: 'RCC', area: 'WX', start: 0, count: 2 })).toBeUndefined();
  });

  it('contacts X/Y/R/L are bits of WX/WY/WR/WL: word n holds X n0…nF', () => {
    expect(check({ cmd: 'RCS', contact: { area: 'X', word: 1, bit: 15 } })).toBeUndefined();
    expect(check({ cmd: 'RCS', contact: { area: 'X', word: 2, bit: 0 } })).toBe(REFUSED);
    expect(check({ cmd: 'WCS', contact: { area: 'Y', word: 3, bit: 15 }, value: true })).toBeUndefined();
    expect(check({ cmd: 'WCS', contact: { area: 'Y', word: 4, bit: 0 }, value: true })).toBe(REFUSED);
    expect(check({ cmd: 'WCS', contact: { area: 'R', word: 2, bit: 5 }, value: false })).toBe(REFUSED);
    expect(check({ cmd: 'WCS', contact: { area: 'R', word: 3, bit: 5 }, value: false })).toBeUndefined();
    expect(check({ cmd: 'WCS', contact: { area: 'L', word: 0, bit: 0 }, value: true })).toBe(REFUSED);
  });

  it('RCP/WCP pass only when every contact passes', () => {
    expect(
      check({
        cmd: 'RCP',
        contacts: [
          { area: 'X', word: 0, bit: 1 },
          { area: 'Y', word: 1, bit: 2 },
          { area: 'R', word: 9, bit: 15 },
        ],
      }),
    ).toBeUndefined();
    expect(
      check({
        cmd: 'RCP',
        contacts: [
          { area: 'X', word: 0, bit: 1 },
          { area: 'R', word: 2, bit: 0 },
        ],
      }),
    ).toBe(REFUSED);
    expect(
      check({
        cmd: 'WCP',
        contacts: [
          { contact: { area: 'Y', word: 0, bit: 0 }, value: true },
          { contact: { area: 'R', word: 1, bit: 1 }, value: false },
        ],
      }),
    ).toBeUndefined();
    expect(
      check({
        cmd: 'WCP',
        contacts: [
          { contact: { area: 'Y', word: 0, bit: 0 }, value: true },
          { contact: { area: 'L', word: 1, bit: 1 }, value: false },
        ],
      }),
    ).toBe(REFUSED);
  });

  it('timers and counters are refused, alone or among relays', () => {
    expect(check({ cmd: 'RCS', contact: { area: 'T', index: 0 } })).toBe(REFUSED);
    expect(
      check({
        cmd: 'RCP',
        contacts: [
          { area: 'X', word: 0, bit: 1 },
          { area: 'C', index: 3 },
        ],
      }),
    ).toBe(REFUSED);
    for (const r of [
      { cmd: 'RS', start: 0, count: 1 },
      { cmd: 'RK', start: 0, count: 1 },
      { cmd: 'WS', start: 0, words: [1] },
      { cmd: 'WK', start: 0, words: [1] },
    ] as MewRequest[])
      expect(check(r)).toBe(REFUSED);
  });

  it('RT and EXRT follow monitoring_cmd, whatever the mapping', () => {
    expect(check({ cmd: 'RT' })).toBeUndefined();
    expect(check({ cmd: 'EXRT' })).toBeUndefined();
    expect(check({ cmd: 'RT' }, { mapping: [], monitoring_cmd: true })).toBeUndefined();
    expect(check({ cmd: 'RT' }, { ...rules, monitoring_cmd: false })).toBe(REFUSED);
    expect(check({ cmd: 'EXRT' }, { ...rules, monitoring_cmd: false })).toBe(REFUSED);
  });

  it('a thread without entries refuses every data command', () => {
    expect(check({ cmd: 'RD', area: 'DT', start: 0, count: 1 }, { mapping: [], monitoring_cmd: true })).toBe(REFUSED);
    expect(check({ cmd: 'RCS', contact: { area: 'X', word: 0, bit: 0 } }, { mapping: [], monitoring_cmd: true })).toBe(REFUSED);
  });

  it('REFUSED is the protect error 65, UNREADABLE the not-supported 42', () => {
    expect(REFUSED).toBe(65);
    expect(UNREADABLE).toBe(MEW_ERR.NOT_SUPPORTED);
    expect(UNREADABLE).toBe(42);
  });

  it('equals "every touched word allowed by the oracle" for random requests and rules', () => {
    let passed = 0;
    fc.assert(
      fc.property(requestFor, fc.boolean(), ([mapping, req], monitoring_cmd) => {
        const want = oracle(req, mapping, monitoring_cmd);
        if (want === undefined && req.cmd !== 'RT' && req.cmd !== 'EXRT') passed++;
        expect(checkMewCommand(req, { mapping, monitoring_cmd })).toBe(want);
      }),
      { numRuns: 4000 },
    );
    expect(passed).toBeGreaterThan(250); // data commands pass as well as fail
  });

  it('gives the same verdict for a request after a trip through its wire text', () => {
    fc.assert(
      fc.property(requestFor, fc.boolean(), ([mapping, req], monitoring_cmd) => {
        const back = decodeMewRequest(encodeMewRequest(req));
        expect(back.ok).toBe(true);
        if (!back.ok) return;
        expect(checkMewCommand(back.value, { mapping, monitoring_cmd })).toBe(oracle(req, mapping, monitoring_cmd));
      }),
      { numRuns: 1500 },
    );
  });
});
