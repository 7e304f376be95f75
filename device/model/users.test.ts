// The password rules of spec §5 one by one (the live checklist) agree with the schema the daemon
// checks; the request shapes of the users administration refuse what they must.

import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { addUserSchema, auditQuerySchema, endSessionSchema, passwordChangeSchema, passwordRules, userPasswordSchema } from './users.ts';

describe('passwordRules', () => {
  it('names each rule that is missing', () => {
    expect(passwordRules('abc')).toEqual({ chars: false, upper: false, lower: true, digit: false, special: false });
    expect(passwordRules('Abcdef1!')).toEqual({ chars: true, upper: true, lower: true, digit: true, special: true });
    expect(passwordRules(`Abcdef1!${'x'.repeat(33)}`).chars).toBe(false);
  });

  it('all rules met exactly when the schema accepts a printable password', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'aZ9!xY0 #é'.split('')), maxLength: 44 }), (pw) => {
        const all = Object.values(passwordRules(pw)).every(Boolean);
        expect(v.safeParse(userPasswordSchema, pw).success).toBe(all);
      }),
    );
  });
});

describe('request shapes', () => {
  it('add: role of the two roles, no unknown keys', () => {
    expect(v.safeParse(addUserSchema, { username: 'op', role: 'user', password: 'Abcdef1!' }).success).toBe(true);
    expect(v.safeParse(addUserSchema, { username: 'op', role: 'root', password: 'Abcdef1!' }).success).toBe(false);
    expect(v.safeParse(addUserSchema, { username: 'op', role: 'user', password: 'Abcdef1!', hash: 'x' }).success).toBe(false);
  });

  it('password change and session handle', () => {
    expect(v.safeParse(passwordChangeSchema, { current: 'x', password: 'Abcdef1!' }).success).toBe(true);
    expect(v.safeParse(passwordChangeSchema, { current: 'x', password: 'weak' }).success).toBe(false);
    expect(v.safeParse(endSessionSchema, { handle: 'a'.repeat(24) }).success).toBe(true);
    expect(v.safeParse(endSessionSchema, { handle: 'a'.repeat(32) }).success).toBe(false);
  });

  it('audit query: defaults, numbers from text, bounds', () => {
    expect(v.parse(auditQuerySchema, {})).toEqual({ page: 1, size: 50 });
    expect(v.parse(auditQuerySchema, { page: '3', size: '200' })).toEqual({ page: 3, size: 200 });
    for (const bad of [{ size: '201' }, { size: '0' }, { page: '-1' }, { page: '1.5' }, { other: '1' }])
      expect(v.safeParse(auditQuerySchema, bad).success, JSON.stringify(bad)).toBe(false);
  });
});
