// The NoSQL client of the daemon (spec §3 pew_nosql, §9 NoSQL control register 370 + 10): follows
// the saved pew_nosql and pew; with enable_sql on (spec §3 keeps the SQL field names), rows of the
// data points wait in a crash-safe queue (<dataDir>/queues/nosql) and are written in order as
// InfluxDB points or MongoDB documents (run.ts). docs/services.md.
import type { Nosql } from '../model/sections/nosql.ts';
import { type DbRow, isDbRow } from '../service-runtime/db-row.ts';
import { DB_QUEUE_BOUND, type DbCounter, type DbShared } from '../service-runtime/db-run.ts';
import { nosqlTarget } from '../service-runtime/job-targets.ts';
import { type QueuedServiceDeps, type ServiceEngine, startQueuedService } from '../service-runtime/queued-engine.ts';
import { readCert } from '../system/cert-files.ts';
import { NosqlRun } from './run.ts';

export function startNosql(deps: QueuedServiceDeps): Promise<ServiceEngine> {
  return startQueuedService<DbRow, DbCounter, DbShared, Nosql>(
    { ...deps, queueBound: deps.queueBound ?? DB_QUEUE_BOUND },
    {
      service: 'nosql',
      section: 'pew_nosql',
      enabled: (n) => n.enable_sql,
      target: nosqlTarget,
      counters: ['rows', 'written'],
      isJob: isDbRow,
      extra: () => ({ errorPoint: 0 }),
      run: async (d, shared, n, pew) => {
        const ca = n.use_encryption && n.ca_verification ? await readCert(d.dataDir, 'pew_nosql', n.ca) : undefined;
        const run = new NosqlRun({ ...d, ca }, shared, n, pew);
        run.start();
        return run;
      },
    },
  );
}
