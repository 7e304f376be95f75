// The REST page's actions (spec §2 /rest, §7 `/apitest`, delete_user_webfiles): the state of the
// REST port, the REST test on the saved pew_api, and removing uploaded HTTP server files (listed by get_http_content in
// system-routes.ts). Names are resolved inside <dataDir>/http (security.md DL-1).
import * as v from 'valibot';
import { msg } from '../model/issues.ts';
import { HTTP_FILES_MAX } from '../model/sections/httpfiles.ts';
import type { Rest } from '../model/sections/rest.ts';
import { restApiTest } from '../rest/apitest.ts';
import { httpFolder } from '../rest/http-files.ts';
import { listFolder } from '../system/volume-files.ts';
import { readBody } from './body.ts';
import { ApiError } from './errors.ts';
import { deleteNamed } from './logfile-routes.ts';
import { type RouteDef, route } from './route.ts';

/** `{names: [...]}` removes those files, `{all: true}` every uploaded file. */
export const deleteWebfilesRequest = v.pipe(
  v.strictObject(
    {
      names: v.optional(
        v.pipe(
          v.array(v.string(msg('type', { expected: 'string' })), msg('type', { expected: 'array' })),
          v.minLength(1, msg('required')),
          v.maxLength(HTTP_FILES_MAX, msg('too_many', { max: HTTP_FILES_MAX })),
        ),
      ),
      all: v.optional(v.literal(true, msg('invalid_value', { allowed: ['true'] }))),
    },
    msg('type', { expected: 'object' }),
  ),
  v.check((b) => (b.names === undefined) !== (b.all === undefined), msg('required')),
);

export const restRoutes: RouteDef[] = [
  // the REST port at work (device/rest/engine.ts RestStatus): the /rest page shows it
  route({
    method: 'GET',
    path: '/config/rest_status',
    key: 'rest_status',
    access: 'user',
    handler: (c, ctx) => c.json(ctx.rest.status()),
  }),
  route({
    method: 'POST',
    path: '/apitest',
    key: 'apitest',
    access: 'admin',
    handler: async (c, ctx) => {
      await ctx.rest.settled(); // the test runs on the saved settings
      const cfg = ctx.store.get<Rest>('pew_api');
      if (!cfg.api_enable) throw new ApiError(409, 'rest_disabled', 'The REST API is not enabled or its settings are not saved');
      const result = await restApiTest(cfg, ctx.rest, ctx.listenHost);
      ctx.log.info('REST test', { ok: result.ok, ...(result.failure ? { reason: result.failure.reason } : {}) });
      return c.json(result);
    },
  }),
  route({
    method: 'POST',
    path: '/config/delete_user_webfiles',
    key: 'delete_user_webfiles',
    access: 'admin',
    handler: async (c, ctx) => {
      const body = await readBody(c, deleteWebfilesRequest);
      const dir = httpFolder(ctx.dataDir);
      const names = body.all ? (await listFolder(dir)).map((f) => f.name) : body.names!;
      const deleted = await deleteNamed(dir, names);
      await ctx.audit.write({ action: 'webfile_delete', user: c.get('session')!.user, source: c.get('source'), detail: { names: deleted } });
      const files = (await listFolder(dir)).map(({ name, size }) => ({ name, size }));
      return c.json({ deleted, files });
    },
  }),
];
