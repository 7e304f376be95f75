// A module loaded on its first use into a signal, so that what renders it renders again once it is
// there: the services block of /info, the help panel, the question dialog. Asked again while on its
// way, it is not loaded twice.
import { type ReadonlySignal, signal } from '@preact/signals';

export interface LazyModule<T> {
  /** the module once loaded, else null */
  loaded: ReadonlySignal<T | null>;
  load(): void;
}

/** `what` names it in the console's error log; `onFail` runs when it cannot be loaded. */
export function lazyModule<T>(importer: () => Promise<T>, what: string, onFail?: () => void): LazyModule<T> {
  const loaded = signal<T | null>(null);
  let loading = false;
  return {
    loaded,
    load() {
      if (loaded.value || loading) return;
      loading = true;
      importer()
        .then(
          (m) => {
            loaded.value = m;
          },
          (e: unknown) => {
            console.error(`loading ${what} failed`, e);
            onFail?.();
          },
        )
        .finally(() => {
          loading = false;
        });
    },
  };
}
