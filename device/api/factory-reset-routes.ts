// Factory reset (spec §2 /info, §4; security.md AUTH-2, AUD-1): `POST /config/factory_reset` with
// `{ "confirm": "RESET" }`. The answer ends the caller's session too: the unit is back to first-run.
import { deleteCookie } from 'hono/cookie';
import { factoryResetSchema } from '../model/factory-reset.ts';
import { factoryReset } from '../system/factory-reset.ts';
import { COOKIE } from '../system/sessions.ts';
import { readBody } from './body.ts';
import { type RouteDef, route } from './route.ts';

export const factoryResetRoutes: RouteDef[] = [
  route({
    method: 'POST',
    path: '/config/factory_reset',
    key: 'factory_reset',
    access: 'admin',
    handler: async (c, ctx) => {
      await readBody(c, factoryResetSchema);
      const settled = async () => {
        await ctx.logger.settled();
        await ctx.scripts.settled();
      };
      const removed = await factoryReset({ ...ctx, settled }, { user: c.get('session')!.user, source: c.get('source') });
      deleteCookie(c, COOKIE, { path: '/' });
      return c.json({ ok: true, setupRequired: true, removed });
    },
  }),
];
