import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { removeAt, renumber } from './renumber.ts';

const items = (...ids: number[]) => ids.map((id) => ({ id, name: `n${id}` }));

describe('renumber (spec §4)', () => {
  it('gives the ids 1…n in the order of the list', () => {
    expect(renumber(items(3, 7, 9))).toEqual([
      { id: 1, name: 'n3' },
      { id: 2, name: 'n7' },
      { id: 3, name: 'n9' },
    ]);
    expect(renumber([])).toEqual([]);
  });

  it('keeps entries whose id is already right (the same object)', () => {
    const list = items(1, 2, 5);
    const out = renumber(list);
    expect(out[0]).toBe(list[0]);
    expect(out[1]).toBe(list[1]);
    expect(out[2]).toEqual({ id: 3, name: 'n5' });
    expect(list[2]!.id).toBe(5); // the input is not changed
  });
});

describe('removeAt', () => {
  it('deletes by position and renumbers the rest from 1', () => {
    expect(removeAt(items(1, 2, 3, 4, 5), [0, 3])).toEqual([
      { id: 1, name: 'n2' },
      { id: 2, name: 'n3' },
      { id: 3, name: 'n5' },
    ]);
    expect(removeAt(items(1, 2), [1])).toEqual([{ id: 1, name: 'n1' }]);
    expect(removeAt(items(1, 2), [])).toEqual(items(1, 2));
    expect(removeAt(items(1, 2), [0, 1])).toEqual([]);
  });

  it('property: the result has ids 1…n, the survivors in their order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 700 }), { maxLength: 60 }), fc.array(fc.nat(70)), (ids, drop) => {
        const list = ids.map((id, i) => ({ id, key: i }));
        const out = removeAt(list, drop);
        const dropped = new Set(drop.filter((d) => d < list.length));
        expect(out.length).toBe(list.length - dropped.size);
        expect(out.map((o) => o.id)).toEqual(out.map((_, i) => i + 1));
        expect(out.map((o) => o.key)).toEqual(list.filter((_, i) => !dropped.has(i)).map((o) => o.key));
      }),
    );
  });
});
