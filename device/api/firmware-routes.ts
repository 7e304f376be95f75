// The firmware update (spec §2 /firmware, §4, §5, §7 get_update_status, §8; security.md FW-1):
// `POST /config/firmware?name=…&md5_name=…&md5=…` takes the package as the raw body (streamed to
// disk under FIRMWARE_MAX) with the content of its .md5 file in the query, so both files arrive in
// one request; every refusal answers 400 `update_refused` with params.reason (409 when an update
// is already running or no supervisor is there) and leaves the unit as it was.
// `GET /config/get_update_status` follows upload → updating → rebooting.

import * as v from 'valibot';
import { UpdateRefused } from '../firmware/verify.ts';
import { FIRMWARE_MAX, firmwareQuery } from '../model/firmware.ts';
import { ApiError } from './errors.ts';
import { type RouteDef, route } from './route.ts';

export const firmwareRoutes: RouteDef[] = [
  route({
    method: 'POST',
    path: '/config/firmware',
    key: 'firmware',
    access: 'admin',
    rawBody: true,
    handler: async (c, ctx) => {
      const refused = (e: UpdateRefused) => {
        c.header('Connection', 'close'); // the rest of a refused body may still be on the wire
        const status = e.reason === 'busy' || e.reason === 'unavailable' ? 409 : e.reason === 'too_large' ? 413 : 400;
        return new ApiError(status, 'update_refused', e.message, undefined, { reason: e.reason, ...e.params });
      };
      const who = { user: c.get('session')?.user, source: c.get('source') };
      const query = c.req.query();
      const name = (query.name ?? '').slice(0, 100);
      if (!query.name || !query.md5_name || query.md5 === undefined)
        throw refused(await ctx.firmware.refuse('missing_files', 'a .zip package and its .md5 file must be uploaded together', who, name));
      const parsed = v.safeParse(firmwareQuery, query);
      if (!parsed.success) throw refused(await ctx.firmware.refuse('file_name', 'the file names or the .md5 content are not valid', who, name));
      const declared = Number(c.req.header('content-length') ?? NaN);
      if (declared > FIRMWARE_MAX)
        throw refused(await ctx.firmware.refuse('too_large', `the package exceeds ${FIRMWARE_MAX} bytes`, who, name, { max: FIRMWARE_MAX }));
      try {
        const { version } = await ctx.firmware.update(c.req.raw.body, parsed.output, who);
        return c.json({ state: 'updating', target: version }, 202);
      } catch (e) {
        if (e instanceof UpdateRefused) throw refused(e);
        throw e;
      }
    },
  }),
  route({
    method: 'GET',
    path: '/config/get_update_status',
    key: 'get_update_status',
    access: 'user',
    handler: async (c, ctx) => c.json(await ctx.firmware.status()),
  }),
];
