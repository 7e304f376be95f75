import { describe, expect, it } from 'vitest';
import { PASSWORD_MASK } from './fields.ts';
import { type SectionDef, staleMaskIssues } from './section.ts';

const def = { targets: { pass: ['server', 'port'] } } as unknown as SectionDef;
const stored = { server: 'db.plant.example', port: 5432, pass: 'secret' };

describe('staleMaskIssues: a stored password stays with its target (security.md SEC-2)', () => {
  it('a new server with the mask asks for the password again, naming the field', () => {
    expect(staleMaskIssues(def, { ...stored, server: 'evil.example', pass: PASSWORD_MASK }, stored)).toEqual([
      expect.objectContaining({ path: 'pass', code: 'password_required', params: { fields: ['server'] } }),
    ]);
  });
  it('the same target with the mask, or a typed password, is fine', () => {
    expect(staleMaskIssues(def, { ...stored, pass: PASSWORD_MASK }, stored)).toEqual([]);
    expect(staleMaskIssues(def, { ...stored, server: 'evil.example', pass: 'typed' }, stored)).toEqual([]);
  });
  it('a cleared server sends the password nowhere; setting one again later is a change and asks', () => {
    const cleared = { ...stored, server: '', pass: PASSWORD_MASK };
    expect(staleMaskIssues(def, cleared, stored)).toEqual([]);
    expect(staleMaskIssues(def, { ...stored, server: 'evil.example', pass: PASSWORD_MASK }, { ...stored, server: '' })).toEqual([
      expect.objectContaining({ code: 'password_required', params: { fields: ['server'] } }),
    ]);
  });
});
