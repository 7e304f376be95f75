// Live state of the FTP send (spec §2 /ftp; §3 pew_ftpc, pew_script; §4 rename after a send):
// whether it runs, the next cycle, and the last send's time, files, bytes, result and error.
import { route, type RouteDef } from './route.ts';
import type { FtpStatus } from '../model/ftp-status.ts';

export const ftpRoutes: RouteDef[] = [
  route({
    method: 'GET', path: '/config/ftp_status', key: 'ftp_status', access: 'user',
    handler: async (c, ctx) => {
      await ctx.ftpSend.settled();
      return c.json(ctx.ftpSend.status() satisfies FtpStatus);
    },
  }),
];
