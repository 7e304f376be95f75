// The one home of "stop the old run, start a new one" (design/architecture.md): an engine keeps
// one run object per saved version of its sections. After every save of one of `keys` the old run
// is stopped (and awaited) before `next` builds the new one from the store; `next` answers
// undefined when the service is off. A run that fails to start is logged by followSection and the
// engine stays without a run until the next save.

import { followSection } from '../config/follow.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Logger } from '../system/log.ts';

export interface EngineRun {
  stop(): Promise<void>;
}

export interface Runs<R> {
  /** the run of the last applied save, undefined while the service is off */
  current(): R | undefined;
  /** resolves when the last saved version is applied */
  settled(): Promise<void>;
  /** follows no more saves and stops the current run */
  close(): Promise<void>;
}

export async function followRuns<R extends EngineRun>(
  store: ConfigStore,
  keys: string | readonly string[],
  log: Logger,
  next: () => Promise<R | undefined> | R | undefined,
): Promise<Runs<R>> {
  let run: R | undefined;
  const follower = await followSection(store, keys, log, async () => {
    const old = run;
    run = undefined;
    await old?.stop();
    run = await next();
  });
  return {
    current: () => run,
    settled: () => follower.settled(),
    close: async () => {
      await follower.stop();
      const old = run;
      run = undefined;
      await old?.stop();
    },
  };
}
