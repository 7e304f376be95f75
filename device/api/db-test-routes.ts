// The database tests of the /sql and /db pages and the InfluxDB listing (spec §2 service layout, §7
// get_sqltest, get_nosqltest, pew_getinflux). Each runs on the SAVED settings of its section, whether
// or not the service is enabled (a technician tests before enabling); settings that name no server
// cannot be tried and are refused with 409 like the PLC test (com-routes.ts).

import type { InfluxList } from '../model/influx-list.ts';
import { INFLUX, type Nosql } from '../model/sections/nosql.ts';
import type { Sql } from '../model/sections/sql.ts';
import type { ServiceTestResult } from '../model/servicetest.ts';
import { influxList, influxTarget } from '../services/influx.ts';
import { runNosqlTest } from '../services/nosql-test.ts';
import { runSqlTest } from '../services/sql-test.ts';
import { classify } from '../services/test-run.ts';
import { readCert } from '../system/cert-files.ts';
import type { DaemonContext } from './context.ts';
import { ApiError } from './errors.ts';
import { type RouteDef, route } from './route.ts';

const noServer = () => new ApiError(409, 'db_server_missing', 'No database server is saved: enter the server and save the settings before testing');

/** The saved section, refused when it names no server; with its CA when the server's certificate is verified. */
async function saved<T extends { server: string; use_encryption: boolean; ca_verification: boolean; ca: string }>(
  ctx: DaemonContext,
  key: 'pew_sql' | 'pew_nosql',
): Promise<{ s: T; ca: Buffer | undefined }> {
  const s = ctx.store.get<T>(key);
  if (s.server === '') throw noServer();
  const ca = s.use_encryption && s.ca_verification ? await readCert(ctx.dataDir, key, s.ca) : undefined;
  return { s, ca };
}

const logResult = (ctx: DaemonContext, what: string, r: ServiceTestResult) =>
  ctx.log.info(what, { peer: r.peer, ok: r.ok, ms: r.ms, ...(r.failure ? { reason: r.failure.reason, step: r.steps.at(-1)?.step ?? '' } : {}) });

export const dbTestRoutes: RouteDef[] = [
  route({
    method: 'POST',
    path: '/config/get_sqltest',
    key: 'get_sqltest',
    access: 'admin',
    handler: async (c, ctx) => {
      const { s, ca } = await saved<Sql>(ctx, 'pew_sql');
      const result = await runSqlTest(s, ca);
      logResult(ctx, 'SQL test', result);
      return c.json(result);
    },
  }),
  route({
    method: 'POST',
    path: '/config/get_nosqltest',
    key: 'get_nosqltest',
    access: 'admin',
    handler: async (c, ctx) => {
      const { s, ca } = await saved<Nosql>(ctx, 'pew_nosql');
      const result = await runNosqlTest(s, ca);
      logResult(ctx, 'NoSQL test', result);
      return c.json(result);
    },
  }),
  route({
    method: 'POST',
    path: '/config/pew_getinflux',
    key: 'pew_getinflux',
    access: 'admin',
    handler: async (c, ctx) => {
      const { s, ca } = await saved<Nosql>(ctx, 'pew_nosql');
      if (s.db_type !== INFLUX) throw new ApiError(409, 'db_not_influx', 'The saved NoSQL settings are not of the InfluxDB type');
      try {
        return c.json((await influxList(influxTarget(s, ca), s.instance_name)) satisfies InfluxList);
      } catch (e) {
        const f = classify(e);
        throw new ApiError(502, 'db_peer_failed', `InfluxDB could not be asked: ${f.message}`, undefined, { reason: f.reason, message: f.message });
      }
    },
  }),
];
