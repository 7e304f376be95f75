// The German and French dictionaries mirror the English base in every part: same key paths, non-empty texts, same {params}.
import { describe, expect, it } from 'vitest';
import { loadFullLocales } from '../../test/support/locales.ts';
import { flatten } from './flatten.ts';
import { loadedLocales } from './i18n-util.ts';

// every language with all the parts of its dictionary (web/i18n/<lang>/<part>/index.ts)
loadFullLocales();
const { en, de, fr } = loadedLocales;

/** The `{param}` names a text uses (typesafe-i18n also allows `{name:type}` and `{name|formatter}`). */
function params(text: string): string[] {
  // a plural part `{{s}}` / `{{count:one|other}}` names no parameter of its own
  const names = [...text.replace(/\{\{[^}]*\}\}/g, '').matchAll(/\{\s*([A-Za-z0-9_]+)[^}]*\}/g)].map((m) => m[1]!);
  return [...new Set(names)].sort();
}

const dictionaries = [{ name: 'every part of the', en, others: { de, fr } }];

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
