// The German and French dictionaries keep to their glossary (web/i18n/glossary.ts) and to the
// typography of their language: French puts a non-breaking space before : ; ? ! and inside « »,
// both languages keep a range "a – b" together with non-breaking spaces.
import { describe, expect, it } from 'vitest';
import { loadFullLocales } from '../../test/support/locales.ts';
import { flatten } from './flatten.ts';
import { GLOSSARY } from './glossary.ts';
import { loadedLocales } from './i18n-util.ts';

loadFullLocales();
const texts = { de: flatten(loadedLocales.de), fr: flatten(loadedLocales.fr) };

/** A text without its {params}, URLs, paths and code samples (where the rules of prose do not apply). */
const prose = (text: string) =>
  text
    .replace(/\([;:,]\)/g, '(X)')
    .replace(/\{[^}]*\}/g, 'X')
    .replace(/\b(https?|mqtts?|ftp)s?:\/\/\S*/g, 'URL')
    .replace(/\/[\w/<>.?=&-]+/g, 'PATH')
    .replace(/\b\d{1,2}:\d{2}(:\d{2})?\b/g, 'TIME')
    .replace(/\bIPv6 [0-9a-f:]+|\b[0-9a-f]*::[0-9a-f:]*/gi, 'IP');

describe.each(['de', 'fr'] as const)('%s', (lang) => {
  it.each(GLOSSARY[lang].map((t) => [`${t.use} for ${t.concept}`, t.avoid] as const))('says %s', (_, avoid) => {
    const found = [...texts[lang]].filter(([, text]) => avoid.some((re) => re.test(text))).map(([path, text]) => `${path}: ${text}`);
    expect(found).toEqual([]);
  });

  it('keeps a range "a – b" together: non-breaking spaces around the dash', () => {
    const found = [...texts[lang]].filter(([, text]) => /[0-9}] –|– [0-9{]/.test(text)).map(([path, text]) => `${path}: ${text}`);
    expect(found).toEqual([]);
  });
});

describe('fr typography', () => {
  it('puts a non-breaking space before : ; ? ! and none of them after an ordinary space', () => {
    const found = [...texts.fr]
      .filter(([, text]) => /[^\u00a0\u202f\s][;?!]|[^\u00a0\u202f\s]:(?=\s|$)| [:;?!](?=\s|$)/.test(prose(text)))
      .map(([path, text]) => `${path}: ${text}`);
    expect(found).toEqual([]);
  });

  it('writes « » with non-breaking spaces inside', () => {
    const found = [...texts.fr].filter(([, text]) => /«(?!\u00a0)|(?<!\u00a0)»/.test(text)).map(([path, text]) => `${path}: ${text}`);
    expect(found).toEqual([]);
  });
});
