// The HTTP client of the daemon (spec §3 pew_httpc, §9 HTTP control register 240 + 14): follows
// the saved pew_httpc and pew; with enable_httpc on, requests the PLC asks for wait in a
// crash-safe queue (<dataDir>/queues/httpc) and are sent in order (run.ts). docs/services.md.
import { join } from 'node:path';
import type { Clock, Hw } from '../../hw/types.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Links } from '../com/links.ts';
import type { Logger } from '../system/log.ts';
import type { Httpc } from '../model/sections/httpc.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { ServiceStatus } from '../model/service-status.ts';
import { followRuns } from '../service-runtime/runs.ts';
import { JobQueue, QUEUE_BOUND } from '../service-runtime/queue.ts';
import { StatusBook } from '../service-runtime/status.ts';
import { HttpRun, isHttpJob, type HttpShared } from './run.ts';

export interface HttpcDeps {
  store: ConfigStore;
  links: Links;
  hw: Hw;
  log: Logger;
  dataDir: string;
  clock: Clock;
  queueBound?: number;
}

export interface HttpcEngine {
  settled(): Promise<void>;
  status(): ServiceStatus;
  close(): Promise<void>;
}

export async function startHttpc(deps: HttpcDeps): Promise<HttpcEngine> {
  const queue = await JobQueue.open(join(deps.dataDir, 'queues', 'httpc'), {
    bound: deps.queueBound ?? QUEUE_BOUND,
    accept: isHttpJob,
    onBad: (name, reason) => deps.log.error('http queue: a stored request cannot be read, set aside', { file: name, reason }),
  });
  const shared: HttpShared = {
    book: new StatusBook<'requests' | 'failed'>('httpc', deps.clock, ['requests', 'failed']),
    queue, state: 'idle', error: 'none', counter: 0, statusCode: 0, answerLen: 0,
  };
  let enabled = false;
  const runs = await followRuns(deps.store, ['pew_httpc', 'pew'], deps.log, async () => {
    const h = deps.store.get<Httpc>('pew_httpc');
    enabled = h.enable_httpc;
    if (!enabled) return undefined;
    const run = new HttpRun(deps, shared, h, deps.store.get<Pew>('pew'));
    try {
      await run.open();
    } catch (e) {
      await run.stop();
      throw e;
    }
    return run;
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
