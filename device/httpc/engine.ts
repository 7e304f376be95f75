// The HTTP client of the daemon (spec §3 pew_httpc, §9 HTTP control register 240 + 14): follows
// the saved pew_httpc and pew; with enable_httpc on, requests the PLC asks for wait in a
// crash-safe queue (<dataDir>/queues/httpc) and are sent in order (run.ts). docs/services.md.
import type { Httpc } from '../model/sections/httpc.ts';
import { httpTarget } from '../service-runtime/job-targets.ts';
import { type QueuedServiceDeps, type ServiceEngine, startQueuedService } from '../service-runtime/queued-engine.ts';
import { type HttpCounter, type HttpJob, HttpRun, type HttpShared, isHttpJob } from './run.ts';

export function startHttpc(deps: QueuedServiceDeps): Promise<ServiceEngine> {
  return startQueuedService<HttpJob, HttpCounter, HttpShared, Httpc>(deps, {
    service: 'httpc',
    section: 'pew_httpc',
    enabled: (h) => h.enable_httpc,
    target: httpTarget,
    counters: ['requests'],
    isJob: isHttpJob,
    extra: () => ({ statusCode: 0, answerLen: 0 }),
    run: async (d, shared, h, pew) => {
      const run = new HttpRun(d, shared, h, pew);
      try {
        await run.open();
      } catch (e) {
        await run.stop();
        throw e;
      }
      return run;
    },
  });
}
