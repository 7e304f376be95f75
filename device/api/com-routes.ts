// The PLC links (spec §2 /com, §5, §8): the PLC test of one interface and the live status of all.

import { PlcError } from '../com/dialog.ts';
import { ETHERNET_ID } from '../model/plc.ts';
import { counterResetRequest, type LinkStatusView, type PlcTestResult, plcTestRequest } from '../model/plctest.ts';
import { interfaceById, type Pew } from '../model/sections/pew.ts';
import { readBody } from './body.ts';
import { ApiError } from './errors.ts';
import { type RouteDef, route } from './route.ts';

export const comRoutes: RouteDef[] = [
  route({
    method: 'POST',
    path: '/config/plctest',
    key: 'plctest',
    access: 'admin',
    handler: async (c, ctx) => {
      const { id } = await readBody(c, plcTestRequest);
      await ctx.com.settled(); // the test runs on the saved settings
      const it = interfaceById(ctx.store.get<Pew>('pew'), id);
      const link = ctx.com.links.get(id);
      if (!it?.enabled || !link) throw new ApiError(409, 'interface_not_ready', 'Selected interface not enabled or settings not saved');
      const base = { id, protocol: it.protocol };
      let result: PlcTestResult;
      try {
        result = { ok: true, ...base, ...(await link.identify()) };
      } catch (e) {
        if (id === ETHERNET_ID && link.refused) {
          throw new ApiError(409, 'tcp_port_closed', 'TCP port of selected COM port not open', undefined, { address: it.ip_port });
        }
        const err = e instanceof PlcError ? e : new PlcError('link_down', String(e));
        result = { ok: false, ...base, reason: err.reason, message: err.message, ...(err.code !== undefined ? { code: err.code } : {}), raw: err.raw };
      }
      ctx.log.info('PLC test', { interface: it.name, ok: result.ok, ...(result.ok ? { cpu: result.cpu.name } : { reason: result.reason }) });
      return c.json(result);
    },
  }),
  route({
    method: 'POST',
    path: '/config/com_status/reset',
    key: 'com_status_reset',
    access: 'admin',
    handler: async (c, ctx) => {
      const { id } = await readBody(c, counterResetRequest);
      const reset = ctx.com.links.resetCounters(id);
      await ctx.audit.write({ action: 'link_counters_reset', user: c.get('session')!.user, source: c.get('source'), detail: { interfaces: reset } });
      return c.json({ links: ctx.com.links.status() satisfies LinkStatusView[] });
    },
  }),
  route({
    method: 'GET',
    path: '/config/com_status',
    key: 'com_status',
    access: 'user',
    handler: (c, ctx) => c.json({ links: ctx.com.links.status() satisfies LinkStatusView[] }),
  }),
];
