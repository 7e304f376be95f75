// Live state of the TLS bridge and the PLC clock sync (spec §2 /tls, /datetime; §3 pew_tls, pew_rtc),
// and a clock sync on request.
import { route, type RouteDef } from './route.ts';
import { ApiError } from './errors.ts';
import type { DaemonContext } from './context.ts';
import type { TlsStatus } from '../model/tls-status.ts';
import type { RtcStatus } from '../model/rtc-status.ts';
import { RtcSyncError } from '../rtc/engine.ts';
import { unitTimeZone } from '../rtc/wall-time.ts';

async function ntpOf(ctx: DaemonContext): Promise<RtcStatus['ntp']> {
  try {
    return (await ctx.hw.systemInfo()).datetime.ntp;
  } catch {
    return { enabled: false, synchronized: false, servers: [] };
  }
}

export const tlsRtcRoutes: RouteDef[] = [
  route({
    method: 'GET', path: '/config/tls_status', key: 'tls_status', access: 'user',
    handler: async (c, ctx) => {
      await ctx.tls.settled();
      return c.json(ctx.tls.status() satisfies TlsStatus);
    },
  }),
  route({
    method: 'GET', path: '/config/rtc_status', key: 'rtc_status', access: 'user',
    handler: async (c, ctx) => {
      await ctx.rtc.settled();
      const body: RtcStatus = { unitTime: ctx.hw.clock.now(), timezone: await unitTimeZone(), ntp: await ntpOf(ctx), ...ctx.rtc.status() };
      return c.json(body);
    },
  }),
  route({
    method: 'POST', path: '/config/rtc_sync', key: 'rtc_sync', access: 'admin',
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
