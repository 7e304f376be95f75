// The engine of a service built on QueueRun (HTTP client, e-mail, SQL, NoSQL): its queue on the
// unit's storage (<dataDir>/queues/<service>), its dead letters (<dataDir>/dead-letters/<service>),
// its status book, and one run per saved version of its section and pew (followRuns). The service
// modules say only how to make their run and what their target is (job-targets.ts).
import { join } from 'node:path';
import type { Clock, Hw } from '../../hw/types.ts';
import type { Links } from '../com/links.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { RuntimeService, ServiceStatus } from '../model/service-status.ts';
import type { Logger } from '../system/log.ts';
import { type DeadLetter, DeadLetters } from './dead-letters.ts';
import { JobQueue, QUEUE_BOUND } from './queue.ts';
import type { QueueShared, Targeted } from './queue-run.ts';
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
  /** dead letters kept (default DEAD_LETTER_COUNT, DEAD_LETTER_BYTES) */
  deadBound?: { count?: number; bytes?: number };
}

/** What the admin does with a service's dead letters (device/api/dead-letter-routes.ts). */
export interface DeadLetterAccess {
  /** every letter, oldest first */
  list(): DeadLetter<unknown>[];
  /** puts letters (all when `ids` is undefined) back at the end of the queue, for the saved target; answers how many */
  retry(ids?: readonly number[]): Promise<number>;
  /** removes letters (all when `ids` is undefined); answers how many */
  discard(ids?: readonly number[]): Promise<number>;
}

export interface ServiceEngine {
  settled(): Promise<void>;
  status(): ServiceStatus;
  close(): Promise<void>;
  /** a service with a queue: its dead letters */
  dead?: DeadLetterAccess;
}

/** The queue and the dead letters of `service` on the unit's storage. */
export async function openJobStores<J extends Targeted>(
  deps: Pick<QueuedServiceDeps, 'dataDir' | 'log' | 'queueBound' | 'deadBound'>,
  service: RuntimeService,
  isJob: (v: unknown) => v is J,
): Promise<{ queue: JobQueue<J>; dead: DeadLetters<J> }> {
  const queue = await JobQueue.open<J>(join(deps.dataDir, 'queues', service), {
    bound: deps.queueBound ?? QUEUE_BOUND,
    accept: isJob,
    onBad: (name, reason) => deps.log.error(`${service} queue: a stored job cannot be read, set aside`, { file: name, reason }),
  });
  if (queue.waiting > 0) deps.log.info(`${service} queue: jobs waiting from before the start`, { waiting: queue.waiting });
  const dead = await DeadLetters.open<J>(join(deps.dataDir, 'dead-letters', service), {
    ...(deps.deadBound?.count !== undefined ? { maxCount: deps.deadBound.count } : {}),
    ...(deps.deadBound?.bytes !== undefined ? { maxBytes: deps.deadBound.bytes } : {}),
    accept: isJob,
    onBad: (name, reason) => deps.log.error(`${service} dead letters: a stored letter cannot be read, removed`, { file: name, reason }),
  });
  return { queue, dead };
}

/** The admin's access to dead letters; a retried job is stamped with the target of the saved settings (`target()`). */
export function deadLetterAccess<J extends Targeted>(queue: JobQueue<J>, dead: DeadLetters<J>, target: () => string): DeadLetterAccess {
  return {
    list: () => dead.list(),
    retry: async (ids) => {
      const want = ids ? new Set(ids) : undefined;
      const letters = dead.list().filter((l) => !want || want.has(l.id));
      // into the queue first, then out of the letters: a cut in between keeps a job twice, never loses it
      for (const l of letters) await queue.push({ ...l.job, target: target() });
      return (await dead.take(letters.map((l) => l.id))).length;
    },
    discard: async (ids) => (await dead.take(ids)).length,
  };
}

/** The status answer's dead-letter counts. */
export const deadCounts = (dead: DeadLetters<unknown>) => ({
  count: dead.count,
  bytes: dead.bytes,
  dropped: dead.dropped,
  maxCount: dead.maxCount,
  maxBytes: dead.maxBytes,
});

export interface QueuedServiceSpec<J extends Targeted, C extends string, S extends QueueShared<J, C>, Sec> {
  service: RuntimeService;
  section: string;
  enabled(section: Sec): boolean;
  /** where the section's jobs go (job-targets.ts) */
  target(section: Sec): string;
  counters: readonly C[];
  isJob(v: unknown): v is J;
  /** the shared state beyond the queue's (answer words and such) */
  extra(): Omit<S, keyof QueueShared<J, C>>;
  /** a started run of the saved section */
  run(deps: QueuedServiceDeps, shared: S, section: Sec, pew: Pew): Promise<{ stop(): Promise<void> }>;
}

export async function startQueuedService<J extends Targeted, C extends string, S extends QueueShared<J, C>, Sec>(
  deps: QueuedServiceDeps,
  spec: QueuedServiceSpec<J, C, S, Sec>,
): Promise<ServiceEngine> {
  const { queue, dead } = await openJobStores(deps, spec.service, spec.isJob);
  const shared = {
    book: new StatusBook<C | 'failed'>(spec.service, deps.clock, [...spec.counters, 'failed']),
    queue,
    dead,
    target: spec.target(deps.store.get<Sec>(spec.section)),
    state: 'idle',
    error: 'none',
    counter: 0,
    ...spec.extra(),
  } as S;
  let enabled = false;
  const runs = await followRuns(deps.store, [spec.section, 'pew'], deps.log, async () => {
    const section = deps.store.get<Sec>(spec.section);
    enabled = spec.enabled(section);
    shared.target = spec.target(section);
    if (!enabled) return undefined;
    return spec.run(deps, shared, section, deps.store.get<Pew>('pew'));
  });
  return {
    settled: () => runs.settled(),
    status: () => shared.book.answer(enabled, { waiting: queue.waiting, dropped: queue.dropped, bound: queue.bound }, deadCounts(dead)),
    close: async () => {
      await runs.close();
      await queue.close();
      await dead.close();
    },
    dead: deadLetterAccess(queue, dead, () => spec.target(deps.store.get<Sec>(spec.section))),
  };
}
