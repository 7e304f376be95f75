// Downloads (spec §7 `download/`). The example zips of the service pages' download areas (spec §2)
// are routed here; the other downloads (log files, format files, scripts) beside their folders'
// routes. `unknownDownload` answers whatever none of them names.

import { exampleZip, isExampleKind } from '../system/examples.ts';
import { ApiError } from './errors.ts';
import { type RouteDef, route } from './route.ts';

export const downloadRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/download/examples/:name',
    key: 'download/',
    access: 'user',
    handler: (c) => {
      const kind = /^([a-z]+)\.zip$/.exec(c.req.param('name') ?? '')?.[1];
      if (kind === undefined || !isExampleKind(kind)) throw new ApiError(404, 'not_found', 'No such example');
      return c.body(exampleZip(kind), 200, {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="example_${kind}.zip"`,
      });
    },
  }),
];

/**
 * Any other `/download/…` path: a clear 404 `not_found` behind the session guard (security.md
 * AUTH-1: without a session it is 401 like every download). Registered after every download route,
 * which it would otherwise shadow.
 */
export const unknownDownload: RouteDef = route({
  method: 'GET',
  path: '/download/*',
  key: 'download/',
  access: 'user',
  handler: () => {
    throw new ApiError(404, 'not_found', 'No such download');
  },
});
