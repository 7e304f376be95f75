// The firmware update (spec §2 /firmware, §4, §5, §7 get_update_status, §8; security.md FW-1):
// `POST /config/firmware?name=…&md5_name=…&md5=…` takes the package as the raw body (streamed to
// disk under FIRMWARE_MAX) with the content of its .md5 file in the query, so both files arrive in
// one request; every refusal answers 400 `update_refused` with params.reason (409 when an update
// is already running or no supervisor is there) and leaves the unit as it was.
// `GET /config/get_update_status` follows upload → updating → rebooting.
import { ApiError } from './errors.ts';
import { route, type RouteDef } from './route.ts';
import * as v from 'valibot';
import { FIRMWARE_MAX, firmwareQuery } from '../model/firmware.ts';
import { UpdateRefused } from '../firmware/verify.ts';

export const firmwareRoutes: RouteDef[] = [
  route({
    method: 'POST', path: '/config/firmware', key: 'firmware', access: 'admin', rawBody: true,
    handler: async (c, ctx) => {
      const refused = (e: UpdateRefused) => {
        c.header('Connection', 'close'); // the rest of a refused body may still be on the wire
        const status = e.reason === 'busy' || e.reason === 'unavailable' ? 409 : e.reason === 'too_large' ? 413 : 400;
        return new ApiError(status, 'update_refused', e.message, undefined, { reason: e.reason, ...e.params });
      };
      const query = c.req.query();
      if (!query.name || !query.md5_name || query.md5 === undefined) throw refused(new UpdateRefused('missing_files', 'a .zip package and its .md5 file must be uploaded together'));
      const parsed = v.safeParse(firmwareQuery, query);
      if (!parsed.success) throw refused(new UpdateRefused('file_name', 'the file names or the .md5 content are not valid'));
      const declared = Number(c.req.header('content-length') ?? NaN);
      try {
        if (declared > FIRMWARE_MAX) {
          await ctx.audit.write({ action: 'firmware_update', user: c.get('session')?.user, source: c.get('source'), detail: { name: parsed.output.name, result: 'refused', reason: 'too_large' } });
          throw new UpdateRefused('too_large', `the package exceeds ${FIRMWARE_MAX} bytes`, { max: FIRMWARE_MAX });
        }
        const { version } = await ctx.firmware.update(c.req.raw.body, parsed.output, { user: c.get('session')?.user, source: c.get('source') });
        return c.json({ state: 'updating', target: version }, 202);
      } catch (e) {
        if (e instanceof UpdateRefused) throw refused(e);
        throw e;
      }
    },
  }),
  route({
    method: 'GET', path: '/config/get_update_status', key: 'get_update_status', access: 'user',
    handler: async (c, ctx) => c.json(await ctx.firmware.status()),
  }),
];
