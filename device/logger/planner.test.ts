import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LimitOf, minimumReads, planReads, readLimit } from './planner.ts';
import type { BlockRead, LogWordArea, PointSource } from './types.ts';

let n = 0;
const pt = (word: number, words = 1, more: Partial<PointSource> = {}): PointSource => ({
  key: `k${n++}`,
  interfaceId: 0,
  station: 0,
  area: 'DT',
  word,
  words,
  ...more,
});
const limit =
  (l: number): LimitOf =>
  () =>
    l;
const spans = (reads: BlockRead[]) => reads.map((r) => [r.start, r.count]);

describe('readLimit: words per request from the protocols', () => {
  it('MEWTOCOL 27 with % frames, MEWTOCOL7 MMRD 1019 (FL as MEWTOCOL-COM), Modbus 125', () => {
    for (const a of ['DT', 'FL', 'LD', 'WX', 'WY', 'WR'] as const) expect(readLimit('MEWTOCOL', a)).toBe(27);
    for (const a of ['DT', 'LD', 'WX', 'WY', 'WR'] as const) expect(readLimit('MEWTOCOL7', a)).toBe(1019);
    expect(readLimit('MEWTOCOL7', 'FL')).toBe(27);
    for (const a of ['DT', 'LD', 'WX', 'WY', 'WR'] as const) expect(readLimit('MODBUS', a)).toBe(125);
    expect(readLimit('MODBUS', 'FL')).toBe(0); // FL has no Modbus address
  });
});

describe('planReads: fewest requests, then fewest words', () => {
  it('bridges a gap when it saves a request, never beyond the limit', () => {
    // DT0, DT10, DT26 fit one 27-word read; DT27 needs a second
    expect(spans(planReads([pt(0), pt(10), pt(26)], limit(27)))).toEqual([[0, 27]]);
    expect(spans(planReads([pt(0), pt(10), pt(26), pt(27)], limit(27)))).toEqual([
      [0, 11],
      [26, 2],
    ]);
    // two far points: two reads of one word each, not one long read
    expect(spans(planReads([pt(0), pt(500)], limit(1019)))).toEqual([[0, 501]]);
    expect(spans(planReads([pt(0), pt(500)], limit(27)))).toEqual([
      [0, 1],
      [500, 1],
    ]);
  });

  it('among equally few reads, the fewest words: the gap goes between reads', () => {
    // 0..3 | 20..23 | 30: two reads either way; [0..3] + [20..30] reads 4 + 11 words, [0..23] + [30] 24 + 1
    const p = [pt(0, 4), pt(20, 4), pt(30)];
    expect(spans(planReads(p, limit(27)))).toEqual([
      [0, 4],
      [20, 11],
    ]);
  });

  it('never splits a point: a DINT at the edge moves whole into the next read', () => {
    const p = [pt(0), pt(26, 2)];
    const r = planReads(p, limit(27));
    expect(spans(r)).toEqual([
      [0, 1],
      [26, 2],
    ]);
    // a STRING (26 words) and a point just after it
    expect(spans(planReads([pt(100, 26), pt(126)], limit(27)))).toEqual([[100, 27]]);
    expect(spans(planReads([pt(100, 26), pt(127)], limit(27)))).toEqual([
      [100, 26],
      [127, 1],
    ]);
  });

  it('overlapping points and bits of one word share a read', () => {
    const p = [pt(5, 1, { area: 'WR', bit: 0 }), pt(5, 1, { area: 'WR', bit: 15 }), pt(4, 2, { area: 'WR' }), pt(5, 4, { area: 'WR' })];
    const r = planReads(p, limit(27));
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({ area: 'WR', start: 4, count: 5 });
    expect(r[0]!.points).toEqual([p[2]!.key, p[0]!.key, p[1]!.key, p[3]!.key]);
  });

  it('separate reads per interface, station and area, in that order', () => {
    const p = [
      pt(0, 1, { interfaceId: 5 }),
      pt(1, 1, { interfaceId: 0, station: 2 }),
      pt(2, 1, { interfaceId: 0 }),
      pt(3, 1, { interfaceId: 0, area: 'LD' }),
      pt(4, 1, { interfaceId: 0 }),
    ];
    const r = planReads(p, limit(27));
    expect(r.map((b) => [b.interfaceId, b.station, b.area, b.start, b.count, b.points])).toEqual([
      [0, 0, 'DT', 2, 3, [p[2]!.key, p[4]!.key]],
      [0, 0, 'LD', 3, 1, [p[3]!.key]],
      [0, 2, 'DT', 1, 1, [p[1]!.key]],
      [5, 0, 'DT', 0, 1, [p[0]!.key]],
    ]);
  });

  it('the limit of each interface and area', () => {
    const limits: LimitOf = (id, area) => (id === 1 ? readLimit('MEWTOCOL7', area) : id === 3 ? readLimit('MODBUS', area) : readLimit('MEWTOCOL', area));
    const p = [0, 100, 200, 300].flatMap((w) => [pt(w, 2, { interfaceId: 0 }), pt(w, 2, { interfaceId: 1 }), pt(w, 2, { interfaceId: 3 })]);
    const r = planReads(p, limits);
    expect(r.filter((b) => b.interfaceId === 0)).toHaveLength(4);
    expect(r.filter((b) => b.interfaceId === 1).map((b) => [b.start, b.count])).toEqual([[0, 302]]);
    expect(r.filter((b) => b.interfaceId === 3).map((b) => [b.start, b.count])).toEqual([
      [0, 102],
      [200, 102],
    ]);
  });

  it('a point wider than the limit (FL over Modbus) gets a read of its own', () => {
    const p = [pt(0, 1, { area: 'FL' }), pt(1, 2, { area: 'FL' }), pt(3, 1, { area: 'DT' }), pt(4, 1, { area: 'DT' })];
    const limits: LimitOf = (_, area) => readLimit('MODBUS', area);
    expect(planReads(p, limits).map((b) => [b.area, b.start, b.count])).toEqual([
      ['DT', 3, 2],
      ['FL', 0, 1],
      ['FL', 1, 2],
    ]);
    expect(minimumReads(p, limits)).toBe(3);
  });

  it('700 points of all types on one interface: the plan is as short as the minimum', () => {
    const p: PointSource[] = [];
    let w = 0;
    for (let i = 0; i < 700; i++) {
      const words = [1, 2, 4, 26][i % 7 === 0 ? 3 : i % 4] ?? 1;
      p.push(pt(w, words));
      w += words + (i % 5 === 0 ? 40 : i % 3);
    }
    const r = planReads(p, limit(27));
    expect(r.length).toBe(minimumReads(p, limit(27)));
    expect(r.every((b) => b.count <= 27)).toBe(true);
  });
});

// ---- exhaustive search over every grouping of small inputs ----

/** The best (reads, words) of any partition of one group's points into reads of at most `l` words. */
function bruteForce(points: PointSource[], l: number): [number, number] {
  let best: [number, number] = [Infinity, Infinity];
  const assign = new Array<number>(points.length).fill(0);
  const visit = (i: number, used: number): void => {
    if (i === points.length) {
      let words = 0;
      for (let g = 0; g < used; g++) {
        const ps = points.filter((_, k) => assign[k] === g);
        const span = Math.max(...ps.map((p) => p.word + p.words)) - Math.min(...ps.map((p) => p.word));
        if (span > l) return;
        words += span;
      }
      if (used < best[0] || (used === best[0] && words < best[1])) best = [used, words];
      return;
    }
    for (let g = 0; g <= used; g++) {
      assign[i] = g;
      visit(i + 1, Math.max(used, g + 1));
    }
  };
  visit(0, 0);
  return best;
}

const AREAS: LogWordArea[] = ['DT', 'WR'];
const pointsArb = (maxLen: number, maxWord: number) =>
  fc
    .array(fc.record({ word: fc.nat(maxWord), words: fc.constantFrom(1, 1, 2, 4, 26), interfaceId: fc.constantFrom(0, 5), area: fc.constantFrom(...AREAS) }), {
      maxLength: maxLen,
    })
    .map((xs) => xs.map((x, i): PointSource => ({ key: `p${i}`, station: 0, ...x })));

function checkCover(points: PointSource[], reads: BlockRead[], l: number): void {
  const byKey = new Map(points.map((p) => [p.key, p]));
  const seen = reads.flatMap((r) => r.points);
  expect([...seen].sort()).toEqual(points.map((p) => p.key).sort()); // each point exactly once
  for (const r of reads) {
    const ps = r.points.map((k) => byKey.get(k)!);
    for (const p of ps) {
      expect([p.interfaceId, p.station, p.area]).toEqual([r.interfaceId, r.station, r.area]);
      expect(p.word).toBeGreaterThanOrEqual(r.start);
      expect(p.word + p.words).toBeLessThanOrEqual(r.start + r.count);
    }
    // the read is tight: it starts at its first point and ends with its last word
    expect(r.start).toBe(Math.min(...ps.map((p) => p.word)));
    expect(r.start + r.count).toBe(Math.max(...ps.map((p) => p.word + p.words)));
    if (ps.some((p) => p.words <= l)) expect(r.count).toBeLessThanOrEqual(l);
  }
}

describe('planReads and minimumReads against an exhaustive search', () => {
  it('property: every point in exactly one read holding all its words, within the limit', () => {
    fc.assert(
      fc.property(pointsArb(60, 400), fc.integer({ min: 1, max: 60 }), (points, l) => {
        checkCover(points, planReads(points, limit(l)), l);
      }),
      { numRuns: 500 },
    );
  });

  it('property: the plan has the fewest reads, then the fewest words, and minimumReads agrees', () => {
    fc.assert(
      fc.property(pointsArb(7, 40), fc.integer({ min: 1, max: 30 }), (points, l) => {
        const reads = planReads(points, limit(l));
        const groups = new Map<string, PointSource[]>();
        for (const p of points) groups.set(`${p.interfaceId}${p.area}`, [...(groups.get(`${p.interfaceId}${p.area}`) ?? []), p]);
        let best = [0, 0];
        for (const g of groups.values()) {
          const wide = g.filter((p) => p.words > l);
          const [r, w] = bruteForce(
            g.filter((p) => p.words <= l),
            l,
          );
          best = [best[0]! + r + wide.length, best[1]! + w + wide.reduce((s, p) => s + p.words, 0)];
        }
        expect([reads.length, reads.reduce((s, r) => s + r.count, 0)]).toEqual(best);
        expect(minimumReads(points, limit(l))).toBe(best[0]);
      }),
      { numRuns: 1500 },
    );
  });

  it('property: minimumReads equals the plan length on large inputs', () => {
    fc.assert(
      fc.property(pointsArb(300, 3000), fc.constantFrom(27, 125, 1019, 30), (points, l) => {
        expect(planReads(points, limit(l)).length).toBe(minimumReads(points, limit(l)));
      }),
      { numRuns: 200 },
    );
  });
});
