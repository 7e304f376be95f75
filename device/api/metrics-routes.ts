// Prometheus' scrape of the unit (docs/monitoring.md): `GET /metrics` in the text exposition
// format, off until an administrator sets a scrape token, then only for a request that sends it
// as `Authorization: Bearer <token>`; the console's session never opens it. The token's routes
// are the administrator's, audited like every change.
//
// While no token is set, /metrics answers exactly as a route that does not exist. A wrong token
// counts against the address like a failed login (device/system/lockout.ts): the same 10 failures
// per address lock it for logins and scrapes alike, so guessing here is no way around the login's
// limits, and a lock it starts is audited.
import type { Context } from 'hono';
import { CONTENT_TYPE } from '../metrics/exposition.ts';
import { type MetricsInput, renderMetrics } from '../metrics/series.ts';
import { metricsTokenRequest } from '../model/metrics-token.ts';
import { hostNamesOf, type Rest } from '../model/sections/rest.ts';
import { newToken } from '../system/metrics-token.ts';
import { readBody } from './body.ts';
import type { DaemonContext, Env } from './context.ts';
import { ApiError } from './errors.ts';
import { checkHost } from './host-check.ts';
import { tooMany } from './password-check.ts';
import { portStatus } from './port-routes.ts';
import { type RouteDef, route } from './route.ts';
import { servicesStatus } from './status-routes.ts';

/** the name failed scrapes are counted under in the lockout table; no user name starts with a slash */
export const METRICS_ACCOUNT = '/metrics';

/** the credentials of `Authorization: Bearer <credentials>`; undefined for no header, '' for another scheme */
function bearerOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1] ?? '';
}

function unauthorized(c: Context<Env>): ApiError {
  c.header('WWW-Authenticate', 'Bearer');
  return new ApiError(401, 'unauthenticated', 'Send the scrape token as Authorization: Bearer <token>');
}

/** What /metrics shows: the answers of the status routes themselves, the volumes and the process. */
export async function metricsInput(ctx: DaemonContext): Promise<MetricsInput> {
  const [ports, services, volumes] = await Promise.all([portStatus(ctx), servicesStatus(ctx), ctx.hw.volumes()]);
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  return {
    version: ctx.versions.app,
    links: ctx.com.links.status(),
    threads: ports.threads,
    logger: ctx.logger.status(),
    services: services.services,
    volumes,
    process: {
      residentBytes: memory.rss,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      startTimeSeconds: Math.round(performance.timeOrigin) / 1000,
      heapUsedBytes: memory.heapUsed,
    },
  };
}

const who = (c: Context<Env>) => ({ user: c.get('session')!.user, source: c.get('source') });

export const metricsRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/metrics',
    key: 'metrics',
    access: 'token',
    handler: async (c, ctx) => {
      // off: the same answer as any path the daemon does not know (app.ts notFound)
      if (!ctx.metricsToken.isSet()) throw new ApiError(404, 'not_found', 'No such route');
      checkHost(c, ctx.hostname, hostNamesOf(ctx.store.get<Rest>('pew_api').host_names)); // security.md HOST-1
      const source = c.get('source');
      const reserved = ctx.lockout.reserve(METRICS_ACCOUNT, source);
      if (!reserved.ok) throw tooMany(c, reserved.reason, reserved.waitMs);
      const sent = bearerOf(c.req.header('authorization'));
      if (sent === undefined) {
        reserved.attempt.cancel(); // no credential at all: nothing was guessed
        throw unauthorized(c);
      }
      if (!ctx.metricsToken.matches(sent)) {
        const lock = await reserved.attempt.fail();
        if (lock.lockedMs)
          await ctx.audit.write({ action: 'lockout', source, detail: { minutes: lock.lockedMs / 60_000, scope: lock.scope, route: '/metrics' } });
        throw unauthorized(c);
      }
      // a scrape that got in ends its reservation without a write: Prometheus asks every few
      // seconds, and failures before it run out with the lockout's window
      reserved.attempt.cancel();
      return c.body(renderMetrics(await metricsInput(ctx)), 200, { 'Content-Type': CONTENT_TYPE });
    },
  }),
  route({
    method: 'GET',
    path: '/config/metrics_token',
    key: 'metrics_token',
    access: 'admin',
    handler: (c, ctx) => c.json(ctx.metricsToken.status()),
  }),
  route({
    method: 'POST',
    path: '/config/metrics_token',
    key: 'metrics_token',
    access: 'admin',
    handler: async (c, ctx) => {
      const body = await readBody(c, metricsTokenRequest);
      const generated = body.token === undefined;
      const token = body.token ?? newToken();
      const status = await ctx.metricsToken.set(token, new Date(ctx.hw.clock.now()));
      await ctx.audit.write({ action: 'metrics_token_set', ...who(c), detail: { generated } });
      // shown this once: the unit keeps only its hash
      return c.json(generated ? { ...status, token } : status);
    },
  }),
  route({
    method: 'POST',
    path: '/config/metrics_token/clear',
    key: 'metrics_token (clear)',
    access: 'admin',
    handler: async (c, ctx) => {
      if (await ctx.metricsToken.clear()) await ctx.audit.write({ action: 'metrics_token_cleared', ...who(c) });
      return c.json(ctx.metricsToken.status());
    },
  }),
];
