import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_TIMEOUT_MS, type PageModule, page } from './routes.tsx';

// the page's parts that need a document: only page() and its bound are under test here
vi.mock('../pages/info.tsx', () => ({ default: () => null }));
vi.mock('../shell/chunk-failed.tsx', () => ({ ChunkFailed: () => null }));
vi.mock('../i18n/translate.ts', () => ({ loadTexts: () => Promise.resolve() }));
vi.mock('../state/model.ts', () => ({ ensureModel: () => Promise.resolve() }));
vi.mock('./hash.tsx', () => ({ hashPath: (h: string) => h }));

afterEach(() => {
  vi.useRealTimers();
});

describe('page().ready', () => {
  it('makes the early call on each visit, once the code is in', async () => {
    const early = vi.fn(() => Promise.resolve());
    const p = page(() => Promise.resolve({ default: () => null, early } as PageModule));
    await p.ready();
    await p.ready();
    expect(early).toHaveBeenCalledTimes(2);
  });

  it('a chunk that never comes holds ready no longer than the chunk timeout (spec §9)', async () => {
    vi.useFakeTimers();
    const p = page(() => new Promise<PageModule>(() => {}));
    let done = false;
    void p.ready().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
});
