// The SQL client of the daemon (spec §3 pew_sql, §9 SQL control register 350 + 6): follows the
// saved pew_sql and pew; with enable_sql on, rows of the data points wait in a crash-safe queue
// (<dataDir>/queues/sql) and are inserted in order (run.ts). docs/services.md.
import type { Sql } from '../model/sections/sql.ts';
import { type DbRow, isDbRow } from '../service-runtime/db-row.ts';
import { DB_QUEUE_BOUND, type DbCounter, type DbShared } from '../service-runtime/db-run.ts';
import { sqlTarget } from '../service-runtime/job-targets.ts';
import { type QueuedServiceDeps, type ServiceEngine, startQueuedService } from '../service-runtime/queued-engine.ts';
import { readCert } from '../system/cert-files.ts';
import { SqlRun } from './run.ts';

export function startSql(deps: QueuedServiceDeps): Promise<ServiceEngine> {
  return startQueuedService<DbRow, DbCounter, DbShared, Sql>(
    { ...deps, queueBound: deps.queueBound ?? DB_QUEUE_BOUND },
    {
      service: 'sql',
      section: 'pew_sql',
      enabled: (s) => s.enable_sql,
      target: sqlTarget,
      counters: ['rows', 'written'],
      isJob: isDbRow,
      extra: () => ({ errorPoint: 0 }),
      run: async (d, shared, s, pew) => {
        const ca = s.use_encryption && s.ca_verification ? await readCert(d.dataDir, 'pew_sql', s.ca) : undefined;
        const run = new SqlRun({ ...d, ca }, shared, s, pew);
        run.start();
        return run;
      },
    },
  );
}
