// The one status answer (design/services.md "Status everywhere"; device/model/service-status.ts;
// docs/services.md): one entry per service, with the fields every service has, for the services
// the PLC drives through their control blocks (MQTT, HTTP client, e-mail), the script, the FTP send
// (spec §2 /ftp; §3 pew_ftpc), the TLS bridge (spec §2 /tls; §3 pew_tls) and the PLC clock sync
// (spec §2 /datetime; §3 pew_rtc); the last three carry their own detail (`ftp`, `tls`, `rtc`).

import type { RtcStatus } from '../model/rtc-status.ts';
import type { ServicesStatus } from '../model/service-status.ts';
import { unitTimeZone } from '../rtc/wall-time.ts';
import { OtherServicesStatus } from '../service-runtime/status-entries.ts';
import type { DaemonContext } from './context.ts';
import { type RouteDef, route } from './route.ts';

async function ntpOf(ctx: DaemonContext): Promise<RtcStatus['ntp']> {
  try {
    return (await ctx.hw.systemInfo()).datetime.ntp;
  } catch {
    return { enabled: false, synchronized: false, servers: [] };
  }
}

/** the books of the FTP send, the TLS bridge and the clock sync, one set per daemon */
const others = new WeakMap<DaemonContext, OtherServicesStatus>();
const othersOf = (ctx: DaemonContext): OtherServicesStatus => {
  let o = others.get(ctx);
  if (!o) others.set(ctx, (o = new OtherServicesStatus(ctx.hw.clock)));
  return o;
};

export const statusRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/config/iec_status',
    key: 'iec_status',
    access: 'user',
    // the IEC 104 station: its listener, each connection entry's connections, queue, station and PLC side (docs/iec104.md "Status")
    handler: async (c, ctx) => {
      await ctx.iec104.settled();
      return c.json(ctx.iec104.status());
    },
  }),
  route({
    method: 'GET',
    path: '/config/service_status',
    key: 'service_status',
    access: 'user',
    handler: async (c, ctx) => {
      await Promise.all([ctx.services.settled(), ctx.ftpSend.settled(), ctx.tls.settled(), ctx.rtc.settled()]);
      const o = othersOf(ctx);
      const rtc: RtcStatus = { unitTime: ctx.hw.clock.now(), timezone: await unitTimeZone(), ntp: await ntpOf(ctx), ...ctx.rtc.status() };
      const ftp = o.ftp(ctx.ftpSend.status(), ctx.ftpSend.counters());
      const body: ServicesStatus = { services: [...ctx.services.status(), ftp, o.tls(ctx.tls.status()), o.rtc(rtc)] };
      return c.json(body);
    },
  }),
];
