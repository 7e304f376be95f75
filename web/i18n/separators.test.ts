// A label and its text are joined by the dictionary (form.labelled), not by a ': ' in the code:
// French writes a non-breaking space before the colon.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFullLocales } from '../../test/support/locales.ts';
import { i18nObject } from './i18n-util.ts';

const WEB = join(import.meta.dirname, '..');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'i18n' ? [] : sources(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts') ? [p] : [];
  });

describe('label separators', () => {
  it('no console source joins a label and a text with a hard-coded ": " (in a template, a concatenation or JSX)', () => {
    const found = sources(WEB).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ at: `${file.slice(WEB.length + 1)}:${i + 1}`, line }))
        .filter(({ line }) => /\}: \$\{|\}: `|\+ ': '|': ' \+|\}: <\//.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it('French puts a non-breaking space before the colon, English and German none', () => {
    loadFullLocales();
    expect(i18nObject('fr').form.labelled({ label: 'Port', text: 'invalide' })).toBe('Port\u00a0: invalide');
    expect(i18nObject('de').form.labelled({ label: 'Port', text: 'ungültig' })).toBe('Port: ungültig');
    expect(i18nObject('en').form.labelled({ label: 'Port', text: 'invalid' })).toBe('Port: invalid');
  });
});
