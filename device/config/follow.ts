// An engine that follows one saved section: `apply` runs at start and after every save of the
// section, one run after another in save order; a failed run is logged and the next save tries
// again. The engines of the COM links and the redirect threads follow pew and pew_redirect.
import type { Logger } from '../system/log.ts';
import type { ConfigStore } from './store.ts';

export interface Follower {
  /** resolves when the last saved version is applied */
  settled(): Promise<void>;
  /** no run after this one; resolves when the running one is done */
  stop(): Promise<void>;
}

/** `key`: the section, or several (the run follows a save of any of them). */
export async function followSection(store: ConfigStore, key: string | readonly string[], log: Logger, apply: () => Promise<void>): Promise<Follower> {
  const keys: readonly string[] = typeof key === 'string' ? [key] : key;
  let chain = Promise.resolve();
  let stopped = false;
  const run = () => {
    chain = chain
      .then(() => (stopped ? undefined : apply()))
      .catch((e: unknown) => log.error(`applying the saved ${keys.join(', ')} failed`, { error: String(e) }));
    return chain;
  };
  store.onChange((saved) => {
    if (saved.some((k) => keys.includes(k))) void run();
  });
  await run();
  return {
    settled: () => chain,
    stop: async () => {
      stopped = true;
      await chain;
    },
  };
}
