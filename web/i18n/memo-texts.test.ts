import { i18nObject } from 'typesafe-i18n';
import { describe, expect, it } from 'vitest';
import { memoTexts } from './memo-texts.ts';

const dict = {
  greeting: 'Hello {name}',
  info: { title: 'Information', count: '{n} item{{s}}', nested: { deep: 'Deep' } },
  list: ['one', 'two'],
};
type Texts = {
  greeting: (p: { name: string }) => string;
  info: { title: () => string; count: (p: { n: number }) => string; nested: { deep: () => string } };
  list: Iterable<() => string>;
};

describe('memoTexts', () => {
  const raw = i18nObject('en', dict) as unknown as Texts;
  const memo = memoTexts(i18nObject('en', dict) as unknown as Texts);

  it('gives the texts typesafe-i18n gives: parameters, plurals, nested parts, lists', () => {
    expect(memo.greeting({ name: 'Ada' })).toBe(raw.greeting({ name: 'Ada' }));
    expect(memo.greeting({ name: 'Ada' })).toBe('Hello Ada');
    expect(memo.info.title()).toBe('Information');
    expect([memo.info.count({ n: 1 }), memo.info.count({ n: 3 })]).toEqual(['1 item', '3 items']);
    expect(memo.info.nested.deep()).toBe('Deep');
    expect([...memo.list].map((f) => f())).toEqual(['one', 'two']);
  });

  it('makes each node once, where typesafe-i18n makes a new one at every read', () => {
    expect(raw.info).not.toBe(raw.info);
    expect(memo.info).toBe(memo.info);
    expect(memo.info.nested).toBe(memo.info.nested);
    expect(memo.greeting).toBe(memo.greeting);
  });
});
