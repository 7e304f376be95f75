// The HTTP application of the REST port (spec §3 REST pew_api, §5 IP ranges): built for one saved
// pew_api. Only clients in ip1..ip2 are answered (§5 all-addresses form: everyone); CORS headers
// and preflights only when use_cors; the API (plc-api.ts) when api_enable, the uploaded files
// (http-files.ts) when http_server. Every request must name the unit in its Host header (security.md
// HOST-1); a write through the API needs the API key when one is set, and without one is refused
// unless the administrator allowed keyless writes (REST-1); it touches only the words of
// write_areas (REST-2); CORS grants writes only with a key (REST-3). Every error is the daemon's
// JSON envelope.
import { createHash, timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import { ApiError, envelope, errorResponse } from '../api/errors.ts';
import { checkHost } from '../api/host-check.ts';
import { hostNamesOf, type Rest } from '../model/sections/rest.ts';
import { writeAreasOf } from '../model/write-areas.ts';
import type { Logger } from '../system/log.ts';
import { restAdmits } from './admit.ts';
import { serveHttpFile } from './http-files.ts';
import { type PlcApiDeps, plcApi } from './plc-api.ts';

export interface RestAppDeps extends PlcApiDeps {
  dataDir: string;
  log: Logger;
  /** the unit's host name: a Host header may name it */
  hostname: string;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** The key a client sent: `X-API-Key`, or `Authorization: Bearer <key>`. */
function sentKey(c: Context): string | undefined {
  const header = c.req.header('x-api-key');
  if (header !== undefined) return header.trim();
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
  return bearer?.[1];
}

/** security.md REST-1: with a key set, a write without it is 401 `api_key_required`, with another 401 `wrong_api_key`. */
function checkApiKey(c: Context, key: string): void {
  const sent = sentKey(c);
  if (sent === undefined || sent === '') throw new ApiError(401, 'api_key_required', 'Writes need the API key (X-API-Key header)');
  // equal-length digests: the comparison takes the same time whatever was sent
  if (!timingSafeEqual(digest(sent), digest(key))) throw new ApiError(401, 'wrong_api_key', 'The API key is not correct');
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function createRestApp(cfg: Rest, deps: RestAppDeps): Hono {
  const app = new Hono();
  app.use('*', async (c, next) => {
    // the listener refuses other addresses at accept (engine.ts); the same rule again per request,
    // for an app served behind another listener
    if (!restAdmits(cfg, getConnInfo(c).remote.address)) return c.json(envelope('forbidden', 'This client address is not allowed'), 403);
    c.header('X-Content-Type-Options', 'nosniff');
    // a DNS-rebinding page would reach the port under its own name (security.md HOST-1)
    checkHost(c, deps.hostname, hostNamesOf(cfg.host_names));
    await next();
  });
  const keyed = cfg.api_key !== '';
  if (cfg.use_cors) {
    // security.md REST-3: a page of any site may read; a write is granted across origins only when it
    // must carry the API key, which such a page does not know
    const allowMethods = keyed ? ['GET', 'HEAD', 'PUT', 'OPTIONS'] : ['GET', 'HEAD', 'OPTIONS'];
    app.use('*', cors({ origin: '*', allowMethods, allowHeaders: ['Content-Type', 'X-API-Key', 'Authorization'], maxAge: 600 }));
  }
  if (cfg.api_enable) {
    app.use('/api/*', async (c, next) => {
      if (!READS.has(c.req.method)) {
        // security.md REST-1: a key when one is set; without one, writes only when the administrator allowed them
        if (keyed) checkApiKey(c, cfg.api_key);
        else if (!cfg.keyless_writes)
          throw new ApiError(403, 'writes_off', 'Writes through the REST API are off: set an API key, or allow writes without a key (keyless_writes)');
      }
      await next();
    });
  }
  if (cfg.api_enable) app.route('/api/v1', plcApi(deps, writeAreasOf(cfg.write_areas)));
  else
    app.all('/api/*', () => {
      throw new ApiError(404, 'not_found', 'The REST API is not enabled');
    });
  if (cfg.http_server) app.get('/*', (c) => serveHttpFile(c, deps.dataDir));
  app.notFound((c) => c.json(envelope('not_found', 'No such resource'), 404));
  app.onError((err, c) =>
    errorResponse(c, err, (e) => deps.log.error('REST request failed', { path: c.req.path, error: e instanceof Error ? e.message : String(e) })),
  );
  return app;
}
