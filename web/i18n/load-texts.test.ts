// Parts of the dictionary load once: asked again while on their way (errorText asks once per message
// of a render), the same load is waited for; the console re-renders once when they arrive.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

beforeEach(() => {
  vi.resetModules();
  vi.stubGlobal('document', { documentElement: { dataset: {}, lang: '' } });
  vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined });
});
// the modules imported under the stubs (client.ts's mode read from the stubbed location) leave the
// registry with them: the files run after this one in the same worker import their own
afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('loadTexts', () => {
  it('asked three times at once, loads a part once: one dictionary change per part', async () => {
    const { effect } = await import('@preact/signals');
    const { LL, loadTexts, setLocale } = await import('./translate.ts');
    await setLocale('en');
    let changes = 0;
    const stop = effect(() => {
      void LL.value;
      changes++;
    });
    await Promise.all([loadTexts(['legal']), loadTexts(['legal']), loadTexts(['legal', 'notFound'])]);
    stop();
    // the first run of the effect, the load of `legal`, the load of `notFound`
    expect(changes).toBe(3);
    expect(LL.value.legal.components()).toBe('Open-source components');
    expect(LL.value.notFound.back()).toBe('To the system information');
  });
});
