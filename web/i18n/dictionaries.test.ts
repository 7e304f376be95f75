// The German and French dictionaries mirror the English base: same key paths, non-empty texts, same {params}.
import { describe, expect, it } from 'vitest';
import en from './en/index.ts';
import de from './de/index.ts';
import fr from './fr/index.ts';
import en_help from './en/help/index.ts';
import de_help from './de/help/index.ts';
import fr_help from './fr/help/index.ts';
import en_fields from './en/fields/index.ts';
import de_fields from './de/fields/index.ts';
import fr_fields from './fr/fields/index.ts';
import en_logger from './en/logger/index.ts';
import de_logger from './de/logger/index.ts';
import fr_logger from './fr/logger/index.ts';
import en_wizard from './en/wizard/index.ts';
import de_wizard from './de/wizard/index.ts';
import fr_wizard from './fr/wizard/index.ts';

type Flat = Map<string, string>;

/** Nested dictionary → `path → text` for every leaf (`nav.info` → 'System information'). */
function flatten(node: unknown, prefix = '', out: Flat = new Map()): Flat {
  if (typeof node === 'string') {
    out.set(prefix, node);
    return out;
  }
  if (node === null || typeof node !== 'object') throw new Error(`${prefix || '(root)'}: leaf is not a string`);
  for (const [key, child] of Object.entries(node)) flatten(child, prefix ? `${prefix}.${key}` : key, out);
  return out;
}

/** The `{param}` names a text uses (typesafe-i18n also allows `{name:type}` and `{name|formatter}`). */
function params(text: string): string[] {
  const names = [...text.matchAll(/\{\s*([A-Za-z0-9_]+)[^}]*\}/g)].map((m) => m[1]!);
  return [...new Set(names)].sort();
}

const dictionaries = [
  { name: 'main', en, others: { de, fr } },
  { name: 'help', en: en_help, others: { de: de_help, fr: fr_help } },
  { name: 'fields', en: en_fields, others: { de: de_fields, fr: fr_fields } },
  { name: 'logger', en: en_logger, others: { de: de_logger, fr: fr_logger } },
  { name: 'wizard', en: en_wizard, others: { de: de_wizard, fr: fr_wizard } },
];

describe.each(dictionaries)('$name dictionary', ({ en: base, others }) => {
  const english = flatten(base);

  it('English: every text is non-empty and has no leftover placeholder', () => {
    const bad = [...english].filter(([, text]) => !text.trim() || /\b(TODO|FIXME|TBD|XXX)\b/.test(text));
    expect(bad).toEqual([]);
  });

  describe.each(Object.entries(others))('%s', (_locale, dictionary) => {
    const translated = flatten(dictionary);

    it('has exactly the English key paths', () => {
      const missing = [...english.keys()].filter((path) => !translated.has(path));
      const extra = [...translated.keys()].filter((path) => !english.has(path));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    });

    it('has a non-empty text for every key', () => {
      const empty = [...translated].filter(([, text]) => !text.trim()).map(([path]) => path);
      expect(empty).toEqual([]);
    });

    it('uses the same {params} as English in every text', () => {
      const differing = [...english]
        .filter(([path]) => translated.has(path))
        .map(([path, text]) => ({ path, en: params(text), here: params(translated.get(path)!) }))
        .filter(({ en: want, here }) => want.join() !== here.join());
      expect(differing).toEqual([]);
    });

    it('shows no raw key path instead of a text', () => {
      const looksLikePath = (text: string) => english.has(text) || /^[A-Za-z_]\w*(\.\w+)+$/.test(text);
      const raw = [...translated].filter(([, text]) => looksLikePath(text.trim())).map(([path]) => path);
      expect(raw).toEqual([]);
    });
  });
});
