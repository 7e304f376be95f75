import { describe, expect, it } from 'vitest';
import { getPath, jsonEqual, setPath } from './equal.ts';

describe('section copy helpers', () => {
  it('compares JSON values structurally, key order aside', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(jsonEqual({ a: [1, 2] }, { a: [1, 3] })).toBe(false);
    expect(jsonEqual(NaN, NaN)).toBe(true);
  });
  it('sets and reads a dotted path without touching the original', () => {
    const v = { threads: [{ port: 9094, mapping: [] }], x: 1 };
    const w = setPath(v, 'threads.0.port', 9095);
    expect(getPath(w, 'threads.0.port')).toBe(9095);
    expect(v.threads[0]!.port).toBe(9094);
    expect(w.x).toBe(1);
    expect(Array.isArray(w.threads)).toBe(true);
    expect(getPath(w, 'threads.5.port')).toBeUndefined();
  });
});
