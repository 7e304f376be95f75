// Downloads (spec §7 `download/`). The example zips of the service pages' download areas (spec §2)
// are routed here, ahead of the planned catch-all `GET /download/*`, which answers 501 until the
// other downloads exist.
import { ApiError } from './errors.ts';
import { route, type RouteDef } from './route.ts';
import { exampleZip, isExampleKind } from '../system/examples.ts';

export const downloadRoutes: RouteDef[] = [
  route({
    method: 'GET', path: '/download/examples/:name', key: 'download/', access: 'user',
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
