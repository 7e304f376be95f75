// The engine of a service built on QueueRun (HTTP client, e-mail): its queue on the unit's storage
// (<dataDir>/queues/<service>), its status book, and one run per saved version of its section and
// pew (followRuns). The service modules say only how to make their run.
import { join } from 'node:path';
import type { Clock, Hw } from '../../hw/types.ts';
import type { Links } from '../com/links.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { RuntimeService, ServiceStatus } from '../model/service-status.ts';
import type { Logger } from '../system/log.ts';
import { JobQueue, QUEUE_BOUND } from './queue.ts';
import type { QueueShared } from './queue-run.ts';
import { followRuns } from './runs.ts';
import { StatusBook } from './status.ts';

export interface QueuedServiceDeps {
  store: ConfigStore;
  links: Links;
  hw: Hw;
  log: Logger;
  dataDir: string;
  clock: Clock;
  /** jobs the queue holds (default QUEUE_BOUND) */
  queueBound?: number;
}

export interface ServiceEngine {
  settled(): Promise<void>;
  status(): ServiceStatus;
  close(): Promise<void>;
}

export interface QueuedServiceSpec<J, C extends string, S extends QueueShared<J, C>, Sec> {
  service: RuntimeService;
  section: string;
  enabled(section: Sec): boolean;
  counters: readonly C[];
  isJob(v: unknown): v is J;
  /** the shared state beyond the queue's (answer words and such) */
  extra(): Omit<S, keyof QueueShared<J, C>>;
  /** a started run of the saved section */
  run(deps: QueuedServiceDeps, shared: S, section: Sec, pew: Pew): Promise<{ stop(): Promise<void> }>;
}

export async function startQueuedService<J, C extends string, S extends QueueShared<J, C>, Sec>(
  deps: QueuedServiceDeps,
  spec: QueuedServiceSpec<J, C, S, Sec>,
): Promise<ServiceEngine> {
  const queue = await JobQueue.open<J>(join(deps.dataDir, 'queues', spec.service), {
    bound: deps.queueBound ?? QUEUE_BOUND,
    accept: spec.isJob,
    onBad: (name, reason) => deps.log.error(`${spec.service} queue: a stored job cannot be read, set aside`, { file: name, reason }),
  });
  if (queue.waiting > 0) deps.log.info(`${spec.service} queue: jobs waiting from before the start`, { waiting: queue.waiting });
  const shared = {
    book: new StatusBook<C | 'failed'>(spec.service, deps.clock, [...spec.counters, 'failed']),
    queue,
    state: 'idle',
    error: 'none',
    counter: 0,
    ...spec.extra(),
  } as S;
  let enabled = false;
  const runs = await followRuns(deps.store, [spec.section, 'pew'], deps.log, async () => {
    const section = deps.store.get<Sec>(spec.section);
    enabled = spec.enabled(section);
    if (!enabled) return undefined;
    return spec.run(deps, shared, section, deps.store.get<Pew>('pew'));
  });
  return {
    settled: () => runs.settled(),
    status: () => shared.book.answer(enabled, { waiting: queue.waiting, dropped: queue.dropped, bound: queue.bound }),
    close: async () => {
      await runs.close();
      await queue.close();
    },
  };
}
