// The daemon's HTTP application: the route table behind the access guard, one error envelope, the
// console's static files, JSON 404 for anything else.
import { type Context, Hono, type Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { checkAccess, guard } from './auth.ts';
import { authRoutes } from './auth-routes.ts';
import { backupRoutes } from './backup-routes.ts';
import { JSON_LIMIT } from './body.ts';
import { comRoutes } from './com-routes.ts';
import { configRoutes } from './config-routes.ts';
import type { DaemonContext, Env } from './context.ts';
import { dbTestRoutes } from './db-test-routes.ts';
import { deadLetterRoutes } from './dead-letter-routes.ts';
import { devCors } from './dev-cors.ts';
import { downloadRoutes, unknownDownload } from './download-routes.ts';
import { ApiError, envelope, errorResponse } from './errors.ts';
import { factoryResetRoutes } from './factory-reset-routes.ts';
import { firmwareRoutes } from './firmware-routes.ts';
import type { FrameLimits } from './first-frame.ts';
import { logfileRoutes } from './logfile-routes.ts';
import { metricsRoutes } from './metrics-routes.ts';
import { monitorRoutes } from './monitor-routes.ts';
import { checkOrigin } from './origin-check.ts';
import { portRoutes } from './port-routes.ts';
import { restRoutes } from './rest-routes.ts';
import type { RouteDef } from './route.ts';
import { rtcRoutes } from './rtc-routes.ts';
import { scriptRoutes } from './script-routes.ts';
import { servicesRoutes } from './services-routes.ts';
import { serviceTestRoutes } from './servicetest-routes.ts';
import { isConsolePath, secureHeaders, serveConsole } from './static.ts';
import { statusRoutes } from './status-routes.ts';
import { systemRoutes } from './system-routes.ts';
import { uploadRoutes } from './upload-routes.ts';
import { userRoutes } from './user-routes.ts';
import { watchRoutes } from './watch-routes.ts';

/**
 * Every route the daemon answers (docs/api.md has one row for each). The catch-all of unknown
 * downloads comes last: `GET /download/*` must not shadow the downloads that exist.
 */
export const ROUTES: readonly RouteDef[] = [
  ...authRoutes,
  ...systemRoutes,
  ...configRoutes,
  ...comRoutes,
  ...monitorRoutes,
  ...watchRoutes,
  ...portRoutes,
  ...downloadRoutes,
  ...logfileRoutes,
  ...uploadRoutes,
  ...scriptRoutes,
  ...serviceTestRoutes,
  ...dbTestRoutes,
  ...restRoutes,
  ...rtcRoutes,
  ...backupRoutes,
  ...firmwareRoutes,
  ...statusRoutes,
  ...deadLetterRoutes,
  ...userRoutes,
  ...servicesRoutes,
  ...factoryResetRoutes,
  ...metricsRoutes,
  unknownDownload,
];

export interface AppOptions {
  /** simulator only: the one origin granted credentialed CORS (`--dev-origin`); none when absent */
  devOrigin?: string;
  /** tests only: how long the first frame's render may take (api/first-frame.ts); absent, the unit's limits */
  frameLimits?: FrameLimits;
}

export function createApp(ctx: DaemonContext, routes: readonly RouteDef[] = ROUTES, opts: AppOptions = {}): Hono<Env> {
  const app = new Hono<Env>();
  // Every answer carries the security headers (static.ts secureHeaders), set before the handler runs
  // so that the handler's response is built with them. They are set by each route's own handler,
  // not by a middleware for '*': a GET route is then one synchronous function (headers, access
  // check, handler), which Hono calls without composing a chain, and whose answer the listener
  // (net/hono-listener.ts) writes at once.
  if (ctx.hw.kind === 'sim' && opts.devOrigin) {
    // only the API: the console's own files are never fetched cross-origin
    const apiCors = devCors(opts.devOrigin);
    app.use('*', (c, next) => {
      if (isConsolePath(c.req.path)) return next();
      secureHeaders(c); // a preflight is answered here, before any route
      return apiCors(c, next);
    });
  }
  const limitOf = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: (c) => {
        // the rest of the refused body is still on the wire: end the connection with the answer
        c.header('Connection', 'close');
        throw new ApiError(413, 'body_too_large', `The body exceeds ${maxSize} bytes`, undefined, { max: maxSize });
      },
    });
  const limits = new Map<number, ReturnType<typeof limitOf>>();
  const limit = (maxSize = JSON_LIMIT) => limits.get(maxSize) ?? limits.set(maxSize, limitOf(maxSize)).get(maxSize)!;
  for (const r of routes) {
    if (r.method === 'GET') {
      app.get(r.path, (c) => {
        secureHeaders(c);
        checkAccess(r.access, ctx, c);
        return r.handler(c, ctx);
      });
      continue;
    }
    const first = (c: Context<Env>, next: Next) => {
      secureHeaders(c);
      checkOrigin(c, opts.devOrigin); // beside the CSRF token: no page of another site changes anything
      return next();
    };
    const handler = (c: Context<Env>) => r.handler(c, ctx);
    // an upload is a file of up to megabytes, streamed to disk under the cap of its kind by the
    // handler (device/system/upload-files.ts): the JSON limit would refuse it or buffer it whole
    if (r.rawBody) app.post(r.path, first, guard(r.access, ctx), handler);
    else app.post(r.path, first, limit(r.jsonLimit), guard(r.access, ctx), handler);
  }
  serveConsole(app, ctx.webDir, (message) => ctx.log.warn("the console's first frame was not rendered", { error: message }), opts.frameLimits);
  app.notFound((c) => {
    secureHeaders(c);
    return c.json(envelope('not_found', 'No such route'), 404);
  });
  app.onError((err, c) => {
    secureHeaders(c);
    return errorResponse(c, err, (e) =>
      ctx.log.error('request failed', { path: c.req.path, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }),
    );
  });
  return app;
}
