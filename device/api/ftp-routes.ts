// Live state of the services that move PLC data out: the FTP send (spec §2 /ftp; §3 pew_ftpc, pew_script; §4 rename after a send):
// whether it runs, the next cycle, and the last send's time, files, bytes, result and error.
import { route, type RouteDef } from './route.ts';
import type { FtpStatus } from '../model/ftp-status.ts';
import type { ServicesStatus } from '../model/service-status.ts';

export const ftpRoutes: RouteDef[] = [
  route({
    method: 'GET', path: '/config/ftp_status', key: 'ftp_status', access: 'user',
    handler: async (c, ctx) => {
      await ctx.ftpSend.settled();
      return c.json(ctx.ftpSend.status() satisfies FtpStatus);
    },
  }),
  // the one status answer of the services driven by the PLC (device/model/service-status.ts; docs/services.md)
  route({
    method: 'GET', path: '/config/service_status', key: 'service_status', access: 'user',
    handler: async (c, ctx) => {
      await ctx.services.settled();
      return c.json({ services: ctx.services.status() } satisfies ServicesStatus);
    },
  }),
];
