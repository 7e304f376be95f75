// Helpers for section tests: check one field at and just past its limit.
import { expect } from 'vitest';
import type { ErrorCode } from './issues.ts';
import { defaultsOf, type SectionDef, validateSection, withDefaults } from './section.ts';

type Edit = (value: any) => void;

/**
 * Applies `edit` to the section's defaults and validates the result; list items the edit adds
 * may name only the fields that matter, the others take their defaults (a submitted section is
 * whole; that rule has its own test).
 */
export function check(def: SectionDef, edit: Edit) {
  const value = structuredClone(defaultsOf(def));
  edit(value);
  return validateSection(def, withDefaults(def.schema, value));
}

export function expectAccepted(def: SectionDef, edit: Edit): void {
  const r = check(def, edit);
  expect(r.ok ? [] : r.issues).toEqual([]);
}

/** Expects exactly one issue at `path` with `code` (and params, when given). */
export function expectRejected(def: SectionDef, edit: Edit, path: string, code: ErrorCode, params?: Record<string, unknown>): void {
  const r = check(def, edit);
  expect(r.ok).toBe(false);
  if (r.ok) return;
  const hit = r.issues.find((i) => i.path === path && i.code === code);
  expect(hit, `issues were ${JSON.stringify(r.issues)}`).toBeDefined();
  if (params) expect(hit!.params).toMatchObject(params);
}

/** A numeric field: accepted at min and max, rejected one step past each with out_of_range. */
export function expectRange(def: SectionDef, set: (value: any, n: number) => void, path: string, min: number, max: number, step = 1): void {
  expectAccepted(def, (x) => set(x, min));
  expectAccepted(def, (x) => set(x, max));
  expectRejected(def, (x) => set(x, min - step), path, 'out_of_range', { min, max });
  expectRejected(def, (x) => set(x, max + step), path, 'out_of_range', { min, max });
}

/** A text field: accepted at `max` characters, rejected at max+1 with too_long. */
export function expectMaxLength(def: SectionDef, set: (value: any, s: string) => void, path: string, max: number, ch = 'a'): void {
  expectAccepted(def, (x) => set(x, ch.repeat(max)));
  expectRejected(def, (x) => set(x, ch.repeat(max + 1)), path, 'too_long', { max });
}
