import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MewRequest } from './mewtocol-commands.ts';
import { mewCommandFrames, mewReplyFrames } from './mewtocol-exchange.ts';
import { MEW_FRAME_LIMIT, type MewHeader } from './mewtocol-frame.ts';
import { type MewBlockArea, type MewWritableBlockArea, mewMaxWords, planMewRead, planMewWrite } from './mewtocol-plan.ts';
import type { MewReply } from './mewtocol-replies.ts';

const MAX: Record<MewBlockArea, number> = { DT: 99999, LD: 99999, FL: 99999, WX: 9999, WY: 9999, WR: 9999, WL: 9999, SV: 9999, EV: 9999 };

/** The request frame and the expected reply frame (zeros of the right size), single-frame each. */
function frames(req: MewRequest, header: MewHeader, station: number | 'EE' = 'EE'): string[] {
  const count = 'count' in req ? req.count : 0;
  const reply: MewReply = count ? { kind: 'words', words: new Array(count).fill(0xffff) } : { kind: 'ack' };
  return [...mewCommandFrames(station, req, { header, limit: 1e9 }), ...mewReplyFrames(header, station, req, reply as never, { limit: 1e9 })];
}

const readCount = (req: MewRequest): number => ('count' in req ? req.count : 0);

describe('MEWTOCOL-COM split planning (mewtocol.md §1.3)', () => {
  it('per-request word limits with % (118) and < (2048)', () => {
    expect(mewMaxWords('read', 'DT')).toBe(27); // (118-9)/4, the 27 of §1.3
    expect(mewMaxWords('write', 'DT')).toBe(24);
    expect(mewMaxWords('read', 'WR')).toBe(27);
    expect(mewMaxWords('write', 'WR')).toBe(24);
    expect(mewMaxWords('write', 'SV')).toBe(25);
    expect(mewMaxWords('read', 'DT', { header: '<' })).toBe(509);
    expect(mewMaxWords('write', 'DT', { header: '<' })).toBe(507);
    expect(mewMaxWords('read', 'DT', { maxWords: 10 })).toBe(10);
  });

  it('500 DT words from DT0: 19 requests with %, 1 with <', () => {
    const plan = planMewRead('DT', 0, 500);
    expect(plan).toHaveLength(19);
    expect(plan[0]).toEqual({ cmd: 'RD', area: 'DT', start: 0, count: 27 });
    expect(plan[18]).toEqual({ cmd: 'RD', area: 'DT', start: 486, count: 14 });
    expect(planMewRead('DT', 0, 500, { header: '<' })).toEqual([{ cmd: 'RD', area: 'DT', start: 0, count: 500 }]);
  });

  it('the commands for each area', () => {
    expect(planMewRead('WX', 3, 1)).toEqual([{ cmd: 'RCC', area: 'WX', start: 3, count: 1 }]);
    expect(planMewRead('SV', 3, 1)).toEqual([{ cmd: 'RS', start: 3, count: 1 }]);
    expect(planMewRead('EV', 3, 1)).toEqual([{ cmd: 'RK', start: 3, count: 1 }]);
    expect(planMewWrite('LD', 3, [1])).toEqual([{ cmd: 'WD', area: 'LD', start: 3, words: [1] }]);
    expect(planMewWrite('WY', 3, [1])).toEqual([{ cmd: 'WCC', area: 'WY', start: 3, words: [1] }]);
    expect(planMewWrite('EV', 3, [1])).toEqual([{ cmd: 'WK', start: 3, words: [1] }]);
  });

  it('refuses empty ranges and ranges beyond the address field', () => {
    expect(() => planMewRead('DT', 0, 0)).toThrow(RangeError);
    expect(() => planMewRead('DT', 99990, 20)).toThrow(RangeError);
    expect(() => planMewRead('WR', 9999, 2)).toThrow(RangeError);
    expect(() => planMewWrite('DT', 0, [])).toThrow(RangeError);
  });

  const area = fc.constantFrom<MewBlockArea>('DT', 'LD', 'FL', 'WX', 'WY', 'WR', 'WL', 'SV', 'EV');
  const header = fc.constantFrom<MewHeader>('%', '<');
  const range = area.chain((a) =>
    fc
      .integer({ min: 1, max: Math.min(3000, MAX[a] + 1) })
      .chain((count) => fc.record({ area: fc.constant(a), count: fc.constant(count), start: fc.integer({ min: 0, max: MAX[a] - count + 1 }) })),
  );

  it('property: reads cover exactly the range, in order, with the fewest requests, every frame within the limit', () => {
    fc.assert(
      fc.property(range, header, ({ area: a, start, count }, h) => {
        const plan = planMewRead(a, start, count, { header: h });
        const per = mewMaxWords('read', a, { header: h });
        expect(plan.length).toBe(Math.ceil(count / per));
        let at = start;
        for (const req of plan) {
          expect('start' in req && req.start).toBe(at);
          at += readCount(req);
          for (const f of frames(req, h)) expect(f.length).toBeLessThanOrEqual(MEW_FRAME_LIMIT[h]);
        }
        expect(at).toBe(start + count);
      }),
      { numRuns: 300 },
    );
  }, 60_000); // 300 runs of up to 3,000 words: about 1 s alone, several times that on a busy machine

  it('property: writes carry exactly the words, in order, with the fewest requests, every frame within the limit', () => {
    const writable = range.filter((r) => r.area !== 'WX');
    fc.assert(
      fc.property(writable, header, fc.integer({ min: 0, max: 0xffff }), ({ area: a, start, count }, h, seed) => {
        const words = Array.from({ length: count }, (_, i) => (seed + i * 7919) & 0xffff);
        const plan = planMewWrite(a as MewWritableBlockArea, start, words, { header: h });
        expect(plan.length).toBe(Math.ceil(count / mewMaxWords('write', a, { header: h })));
        const out: number[] = [];
        let at = start;
        for (const req of plan) {
          if (!('words' in req) || !('start' in req)) throw new Error('not a write');
          expect(req.start).toBe(at);
          at += req.words.length;
          out.push(...req.words);
          for (const f of frames(req, h)) expect(f.length).toBeLessThanOrEqual(MEW_FRAME_LIMIT[h]);
        }
        expect(out).toEqual(words);
      }),
      { numRuns: 300 },
    );
  }, 60_000); // 300 runs of up to 3,000 words: about 1 s alone, several times that on a busy machine
});
