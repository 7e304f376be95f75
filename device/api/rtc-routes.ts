// A PLC clock sync on request (spec §2 /datetime; §3 pew_rtc). Its status is the `rtc` entry of
// the one status answer (status-routes.ts).

import { RtcSyncError } from '../rtc/engine.ts';
import { ApiError } from './errors.ts';
import { type RouteDef, route } from './route.ts';

export const rtcRoutes: RouteDef[] = [
  route({
    method: 'POST',
    path: '/config/rtc_sync',
    key: 'rtc_sync',
    access: 'admin',
    handler: async (c, ctx) => {
      try {
        return c.json(await ctx.rtc.syncNow());
      } catch (e) {
        if (e instanceof RtcSyncError) throw new ApiError(409, 'interface_not_ready', 'Selected interface not enabled or settings not saved');
        throw e;
      }
    },
  }),
];
