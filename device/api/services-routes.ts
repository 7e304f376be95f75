// The unit's system services (spec §3 service names, §4, §5 security warnings, §7 pew_system;
// security.md AUD-1): read them with the warnings that apply, change them one by one through the
// hw seam, each change audited.

import { serviceDiff } from '../model/service-states.ts';
import { serviceChangesSchema } from '../model/services.ts';
import { securityWarnings } from '../model/warnings.ts';
import { readBody } from './body.ts';
import type { DaemonContext } from './context.ts';
import { ApiError } from './errors.ts';
import { type RouteDef, route } from './route.ts';

/** The services and the security warnings of the saved configuration with them. */
export async function servicesAnswer(ctx: DaemonContext) {
  const services = await ctx.hw.services();
  return { services, warnings: securityWarnings(ctx.store.view() as Parameters<typeof securityWarnings>[0], services) };
}

export const servicesRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/config/pew_system',
    key: 'pew_system',
    access: 'user',
    handler: async (c, ctx) => c.json(await servicesAnswer(ctx)),
  }),
  route({
    method: 'POST',
    path: '/config/pew_system',
    key: 'pew_system',
    access: 'admin',
    handler: async (c, ctx) => {
      const wanted = await readBody(c, serviceChangesSchema);
      const user = c.get('session')!.user;
      const source = c.get('source');
      // only real changes reach the system (and the audit log); one after the other, in the
      // order of spec §3, so a failure leaves the ones before it applied and says which one failed
      for (const [name, enabled] of serviceDiff(await ctx.hw.services(), wanted)) {
        try {
          await ctx.hw.setService(name, enabled);
        } catch (e) {
          ctx.log.error('service change failed', { service: name, enabled, error: e instanceof Error ? e.message : String(e) });
          await ctx.audit.write({ action: 'service_change_failed', user, source, detail: { service: name, enabled } });
          throw new ApiError(500, 'save_failed', `The service ${name} could not be changed`, undefined, { service: name });
        }
        await ctx.audit.write({ action: 'service_change', user, source, detail: { service: name, enabled } });
        ctx.log.info('service changed', { service: name, enabled, user });
      }
      return c.json(await servicesAnswer(ctx));
    },
  }),
];
