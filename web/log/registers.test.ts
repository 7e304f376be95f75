import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { registerBlocks } from './registers.ts';

describe('registerBlocks', () => {
  it('joins neighbouring words: the four memory-write registers at their defaults are one block', () => {
    expect(registerBlocks([380, 381, 382, 383])).toEqual([{ start: 380, length: 4 }]);
    expect(registerBlocks([383, 380, 382, 381, 384])).toEqual([{ start: 380, length: 5 }]);
    expect(registerBlocks([380, 381, 500, 382])).toEqual([
      { start: 380, length: 3 },
      { start: 500, length: 1 },
    ]);
  });

  it('counts a word used twice once and leaves out what is not a word address', () => {
    expect(registerBlocks([7, 7, 8])).toEqual([{ start: 7, length: 2 }]);
    expect(registerBlocks([Number.NaN, -1, 2.5, 0])).toEqual([{ start: 0, length: 1 }]);
    expect(registerBlocks([])).toEqual([]);
  });

  it('property: the blocks cover exactly the distinct words, apart and in order', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(2000), { maxLength: 30 }), (words) => {
        const blocks = registerBlocks(words);
        const covered = blocks.flatMap((b) => Array.from({ length: b.length }, (_, i) => b.start + i));
        expect(covered).toEqual([...new Set(words)].sort((a, b) => a - b));
        for (let i = 1; i < blocks.length; i++) expect(blocks[i]!.start).toBeGreaterThan(blocks[i - 1]!.start + blocks[i - 1]!.length);
      }),
    );
  });
});
