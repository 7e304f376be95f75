// The HTTP application of the REST port (spec §3 REST pew_api, §5 IP ranges): built for one saved
// pew_api. Only clients in ip1..ip2 are answered (§5 all-addresses form: everyone); CORS headers
// and preflights only when use_cors; the API (plc-api.ts) when api_enable, the uploaded files
// (http-files.ts) when http_server. Every error is the daemon's JSON envelope.
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { getConnInfo } from '@hono/node-server/conninfo';
import { ApiError, envelope, errorResponse } from '../api/errors.ts';
import { ipInRange, isAllAddresses } from '../model/ip.ts';
import type { Rest } from '../model/sections/rest.ts';
import type { Logger } from '../system/log.ts';
import { plcApi, type PlcApiDeps } from './plc-api.ts';
import { serveHttpFile } from './http-files.ts';

export interface RestAppDeps extends PlcApiDeps {
  dataDir: string;
  log: Logger;
}

/** The client's IPv4 address (an IPv4-mapped IPv6 address as its IPv4 form). */
export const plainIp = (a: string | undefined): string => (a ?? '').replace(/^::ffff:/, '');

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

export function createRestApp(cfg: Rest, deps: RestAppDeps): Hono {
  const app = new Hono();
  app.use('*', async (c, next) => {
    const ip = plainIp(getConnInfo(c).remote.address);
    // ranges are IPv4 (spec §5); an IPv6 client only passes the all-addresses form
    const admitted = IPV4.test(ip) ? ipInRange(ip, cfg.ip1, cfg.ip2) : isAllAddresses(cfg.ip1, cfg.ip2);
    if (!admitted) return c.json(envelope('forbidden', 'This client address is not allowed'), 403);
    c.header('X-Content-Type-Options', 'nosniff');
    await next();
  });
  if (cfg.use_cors) {
    app.use('*', cors({ origin: '*', allowMethods: ['GET', 'HEAD', 'PUT', 'OPTIONS'], allowHeaders: ['Content-Type'], maxAge: 600 }));
  }
  if (cfg.api_enable) app.route('/api/v1', plcApi(deps));
  else app.all('/api/*', () => { throw new ApiError(404, 'not_found', 'The REST API is not enabled'); });
  if (cfg.http_server) app.get('/*', (c) => serveHttpFile(c, deps.dataDir));
  app.notFound((c) => c.json(envelope('not_found', 'No such resource'), 404));
  app.onError((err, c) => errorResponse(c, err, (e) => deps.log.error('REST request failed', { path: c.req.path, error: e instanceof Error ? e.message : String(e) })));
  return app;
}
