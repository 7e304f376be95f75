// The other pages' files the daemon listed: made preload links once, never a file the page has
// already, nothing from a list that is not as the daemon writes it.
import { describe, expect, it } from 'vitest';
import { IDLE_PRELOADS_ID } from '../../device/model/first-frame.ts';
import { IDLE_BATCH, idlePreloads, preloadIdle } from './idle-preloads.ts';

/** A page with the list's text (none: no list), these preload links and scripts, and its head's children. */
function page(list: string | undefined, links: string[] = [], scripts: string[] = []) {
  let text = list;
  const head: { rel: string; href: string }[] = [];
  const doc = {
    baseURI: 'http://unit/',
    getElementById: (id: string) => (id === IDLE_PRELOADS_ID && text !== undefined ? { textContent: text, remove: () => (text = undefined) } : null),
    querySelectorAll: () => [...links.map((l) => ({ href: `http://unit/${l}` })), ...scripts.map((s) => ({ src: `http://unit/${s}` }))],
    createElement: () => ({ rel: '', href: '' }),
    head: { append: (l: { rel: string; href: string }) => head.push(l) },
  };
  return { doc: doc as unknown as Document, head };
}

describe('idle preloads', () => {
  it('lists the files the page has not yet, once', () => {
    const lists = { com: ['assets/chunk-A.js', 'assets/chunk-B.js'], log: ['assets/chunk-B.js', 'assets/chunk-C.js', 'assets/chunk-D.js'] };
    const { doc } = page(JSON.stringify(lists), ['assets/chunk-A.js'], ['assets/chunk-C.js']);
    expect(idlePreloads(doc)).toEqual(['assets/chunk-B.js', 'assets/chunk-D.js']);
    expect(idlePreloads(doc)).toEqual([]);
  });

  it('adds a modulepreload link for each', () => {
    const { doc, head } = page(JSON.stringify({ com: ['assets/chunk-A.js'], port: ['assets/chunk-B.js'] }));
    preloadIdle(doc, () => expect.unreachable('two files are one batch'));
    expect(head).toEqual([
      { rel: 'modulepreload', href: 'assets/chunk-A.js' },
      { rel: 'modulepreload', href: 'assets/chunk-B.js' },
    ]);
  });

  it('adds them IDLE_BATCH at a time, each next batch when the browser is idle again', () => {
    const files = Array.from({ length: 2 * IDLE_BATCH + 3 }, (_, i) => `assets/chunk-${String.fromCharCode(65 + i)}.js`);
    const { doc, head } = page(JSON.stringify({ log: files }));
    const waiting: (() => void)[] = [];
    preloadIdle(doc, (fn) => waiting.push(fn));
    expect(head.map((l) => l.href)).toEqual(files.slice(0, IDLE_BATCH));
    waiting.shift()?.();
    expect(head.map((l) => l.href)).toEqual(files.slice(0, 2 * IDLE_BATCH));
    waiting.shift()?.();
    expect(head.map((l) => l.href)).toEqual(files);
    expect(waiting).toEqual([]);
  });

  it('after the last batch hands on the routes listed (their pages are run next), also when every file is in the page already', () => {
    const files = Array.from({ length: IDLE_BATCH + 1 }, (_, i) => `assets/chunk-${String.fromCharCode(65 + i)}.js`);
    const { doc } = page(JSON.stringify({ com: files.slice(0, 1), log: files.slice(1) }));
    const waiting: (() => void)[] = [];
    const handed: string[][] = [];
    preloadIdle(
      doc,
      (fn) => waiting.push(fn),
      (routes) => handed.push(routes),
    );
    expect(handed).toEqual([]);
    waiting.shift()?.();
    expect(handed).toEqual([['com', 'log']]);
    const all = page(JSON.stringify({ port: ['assets/chunk-A.js'] }), ['assets/chunk-A.js']);
    preloadIdle(
      all.doc,
      () => expect.unreachable('nothing to add'),
      (routes) => handed.push(routes),
    );
    expect(handed.at(-1)).toEqual(['port']);
  });

  it.each([
    ['no list', undefined],
    ['not JSON', '[assets/chunk-A.js'],
    ['not lists by route', '{"a":1}'],
    ['one list', JSON.stringify(['assets/chunk-A.js'])],
    ['a file elsewhere', JSON.stringify({ com: ['assets/chunk-A.js'], log: ['https://evil.example/x.js'] })],
    ['a path out of assets', JSON.stringify({ com: ['assets/../index.js'] })],
  ])('nothing from %s', (_, list) => {
    const { doc, head } = page(list);
    const handed: string[][] = [];
    preloadIdle(
      doc,
      (fn) => fn(),
      (routes) => handed.push(routes),
    );
    expect(head).toEqual([]);
    expect(handed).toEqual([[]]);
  });
});
