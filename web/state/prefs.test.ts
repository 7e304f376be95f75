// The browser's remembered choices (prefs.ts): read at start without a write (a storage write is a
// round trip to the browser that a slow device pays before the first render), written when changed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

let store: Map<string, string>;
let writes: [string, string][];

beforeEach(() => {
  vi.resetModules();
  store = new Map([['console.theme', 'darcula']]);
  writes = [];
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => {
      writes.push([k, v]);
      store.set(k, v);
    },
  });
  vi.stubGlobal('document', { documentElement: { dataset: {} as Record<string, string> } });
});
// the modules imported under the stubs (client.ts's mode read from the stubbed location) leave the
// registry with them: the files run after this one in the same worker import their own
afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('remembered choices', () => {
  it('start: the stored theme is used and nothing is written, also where nothing was stored', async () => {
    const prefs = await import('./prefs.ts');
    expect(prefs.theme.value).toBe('darcula');
    expect(prefs.filter.value).toBe('all');
    expect(prefs.storedLocale(['en', 'de'], 'en')).toBe('en');
    prefs.rememberLocale('en'); // the language the start chose is the one already in effect
    expect(document.documentElement.dataset.theme).toBe('darcula');
    expect(writes).toEqual([]);
  });

  it('a change is written once; setting the same value again writes nothing', async () => {
    const prefs = await import('./prefs.ts');
    prefs.theme.value = 'default';
    prefs.filter.value = prefs.FILTERS.at(-1)!;
    prefs.rememberLocale('de');
    prefs.rememberLocale('de');
    prefs.theme.value = 'default';
    expect(writes).toEqual([
      ['console.theme', 'default'],
      ['console.filter', prefs.FILTERS.at(-1)!],
      ['console.locale', 'de'],
    ]);
    expect(document.documentElement.dataset.theme).toBe('default');
  });

  it('a browser that refuses storage keeps the choice for the page', async () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    });
    const prefs = await import('./prefs.ts');
    expect(prefs.theme.value).toBe('default');
    prefs.theme.value = 'eclipse';
    expect(prefs.theme.value).toBe('eclipse');
  });
});
