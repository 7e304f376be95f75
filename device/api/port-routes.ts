// Redirect threads (spec §2 /port): live counters and the connection test of one thread.

import { type PortStatus, type PortTestResult, portCounterResetRequest, portTestRequest } from '../model/porttest.ts';
import { reasonLog } from '../model/reasons.ts';
import { interfaceById, type Pew } from '../model/sections/pew.ts';
import { type Redirect, speaksModbus } from '../model/sections/redirect.ts';
import { runPortTest } from '../redirect/port-test.ts';
import { readBody } from './body.ts';
import type { DaemonContext } from './context.ts';
import { ApiError, invalid } from './errors.ts';
import { type RouteDef, route } from './route.ts';

/** The answer of `GET /config/port_status` (also the redirect series of `GET /metrics`). */
export async function portStatus(ctx: DaemonContext): Promise<PortStatus> {
  await ctx.redirects.settled();
  return { threads: ctx.redirects.status() };
}

export const portRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/config/port_status',
    key: 'port_status',
    access: 'user',
    handler: async (c, ctx) => c.json(await portStatus(ctx)),
  }),
  route({
    method: 'POST',
    path: '/config/port_status/reset',
    key: 'port_status_reset',
    access: 'admin',
    handler: async (c, ctx) => {
      const { index } = await readBody(c, portCounterResetRequest);
      await ctx.redirects.settled();
      if (index !== undefined && !ctx.redirects.thread(index))
        throw invalid([{ path: 'index', code: 'out_of_range', params: { min: 0, max: Math.max(0, ctx.redirects.status().length - 1) } }]);
      const ports = ctx.redirects.resetCounters(index);
      await ctx.audit.write({ action: 'thread_counters_reset', user: c.get('session')!.user, source: c.get('source'), detail: { ports } });
      return c.json({ threads: ctx.redirects.status() } satisfies PortStatus);
    },
  }),
  route({
    method: 'POST',
    path: '/config/porttest',
    key: 'porttest',
    access: 'admin',
    handler: async (c, ctx) => {
      const { index } = await readBody(c, portTestRequest);
      await ctx.redirects.settled();
      const t = ctx.store.get<Redirect>('pew_redirect').threads[index];
      const thread = ctx.redirects.thread(index);
      if (!t || !thread) throw new ApiError(409, 'interface_not_ready', 'This thread is not in the saved settings: save first');
      // a thread that could not open its port: whatever holds the port is not ours to talk to
      const st = thread.status();
      if (!st.listening)
        return c.json({
          ok: false,
          index,
          reason: 'not_listening',
          message: st.reason ? reasonLog(st.reason) : `Port ${t.port} is not listening`,
          raw: '',
        } satisfies PortTestResult);
      const it = interfaceById(ctx.store.get<Pew>('pew'), t.service);
      const result = await runPortTest(
        index,
        t,
        speaksModbus(t, () => it?.protocol),
        ctx.listenHost,
        (it?.timeout ?? 1000) * 2 + 1000,
      );
      return c.json(result);
    },
  }),
];
