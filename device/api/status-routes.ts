// The one status answer (design/services.md "Status everywhere"; device/model/service-status.ts;
// docs/services.md): one entry per service, with the fields every service has, for the services
// the PLC drives through their control blocks (MQTT, HTTP client, e-mail), the script, the FTP send
// (spec §2 /ftp; §3 pew_ftpc), the TLS bridge (spec §2 /tls; §3 pew_tls), the PLC clock sync
// (spec §2 /datetime; §3 pew_rtc) and the IEC 60870-5-104 station (spec §2 /iec; §3 pew_60870);
// the last four carry their own detail (`ftp`, `tls`, `rtc`, `iec`).

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

/** the books of the FTP send, the TLS bridge, the clock sync and the IEC 104 station, one set per daemon */
const others = new WeakMap<DaemonContext, OtherServicesStatus>();
const othersOf = (ctx: DaemonContext): OtherServicesStatus => {
  let o = others.get(ctx);
  if (!o) others.set(ctx, (o = new OtherServicesStatus(ctx.hw.clock)));
  return o;
};

/** The answer of `GET /config/service_status` (also the service series of `GET /metrics`). */
export async function servicesStatus(ctx: DaemonContext): Promise<ServicesStatus> {
  await Promise.all([ctx.services.settled(), ctx.ftpSend.settled(), ctx.tls.settled(), ctx.rtc.settled(), ctx.iec104.settled()]);
  const o = othersOf(ctx);
  const rtc: RtcStatus = { unitTime: ctx.hw.clock.now(), timezone: await unitTimeZone(), ntp: await ntpOf(ctx), ...ctx.rtc.status() };
  const ftp = o.ftp(ctx.ftpSend.status(), ctx.ftpSend.counters());
  return { services: [...ctx.services.status(), ftp, o.tls(ctx.tls.status()), o.rtc(rtc), o.iec(ctx.iec104.status())] };
}

export const statusRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/config/service_status',
    key: 'service_status',
    access: 'user',
    handler: async (c, ctx) => c.json(await servicesStatus(ctx)),
  }),
];
