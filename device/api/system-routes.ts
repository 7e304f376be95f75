// System information and lists (spec §2 /info, §7): the spec-fixed REST paths and read-only keys.
import { join } from 'node:path';
import { FORMAT_FOLDER } from '../logger/engine.ts';
import { incompatible, MIN_VERSIONS } from '../model/versions.ts';
import { securityWarnings } from '../model/warnings.ts';
import { listFolder } from '../system/volume-files.ts';
import type { DaemonContext } from './context.ts';
import { type RouteDef, route } from './route.ts';
import { parseAudit } from './user-routes.ts';

/** the audit entries the system log view shows (newest last, like the daemon log) */
export const SYSLOG_AUDIT_MAX = 200;

const versionsOf = (ctx: DaemonContext) => ({ ...ctx.versions, minimum: MIN_VERSIONS, incompatible: incompatible(ctx.versions) });

export const systemRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/rest/api/v1',
    key: 'rest/api/v1?cache=true&js=true',
    access: 'user',
    handler: async (c, ctx) => {
      const [info, services] = await Promise.all([ctx.hw.systemInfo(), ctx.hw.services()]);
      const warnings = securityWarnings(ctx.store.view() as Parameters<typeof securityWarnings>[0], services);
      // security.md TLS-2: the certificate the console is served with, so its fingerprint can be checked
      const consoleTls = ctx.consoleTls ? { enabled: true, certificate: ctx.consoleTls.certificate() } : { enabled: false };
      // the console's own listeners with their contained faults (issue 15: every listener is guarded)
      const consoleListeners = ctx.consoleListeners?.() ?? [];
      return c.json({ ...info, services, versions: versionsOf(ctx), warnings, consoleTls, consoleListeners });
    },
  }),
  route({
    method: 'GET',
    path: '/rest/api/v1/services',
    key: 'rest/api/v1/services',
    access: 'user',
    handler: async (c, ctx) => c.json({ services: await ctx.hw.services() }),
  }),
  route({
    method: 'GET',
    path: '/config/get_ver',
    key: 'get_ver',
    access: 'user',
    handler: (c, ctx) => c.json(versionsOf(ctx)),
  }),
  route({
    method: 'GET',
    path: '/config/get_cfg',
    key: 'get_cfg',
    access: 'user',
    handler: async (c, ctx) => c.json({ files: (await listFolder(join(ctx.dataDir, FORMAT_FOLDER))).map((f) => f.name) }),
  }),
  route({
    method: 'GET',
    path: '/config/get_http_content',
    key: 'get_http_content',
    access: 'user',
    handler: async (c, ctx) => c.json({ files: (await listFolder(join(ctx.dataDir, 'http'))).map(({ name, size }) => ({ name, size })) }),
  }),
  route({
    method: 'GET',
    path: '/config/get_syslogs',
    key: 'get_syslogs',
    access: 'user',
    // spec §2 /info system log: the daemon log for every role; an administrator also gets the most
    // recent audit entries (security.md AUD-1: the audit log is for administrators only)
    handler: async (c, ctx) => {
      const entries = ctx.log.recent();
      if (c.get('session')?.role !== 'admin') return c.json({ entries });
      return c.json({ entries, audit: parseAudit(await ctx.audit.read()).slice(-SYSLOG_AUDIT_MAX) });
    },
  }),
];
