// The register watch (docs/monitor.md "Register watch"): every signed-in user keeps a list of PLC
// addresses of their own and reads its values on the update tick; the administrator may write one
// entry's value (checked against its type first, audited).
import { PlcError } from '../com/dialog.ts';
import { readWatch, watchSource, watchWords } from '../diag/watch.ts';
import { LOG_AREAS } from '../model/sections/logfile.ts';
import { type WatchValues, watchListRules, watchListSchema, watchWriteRequest } from '../model/watch.ts';
import { readBody } from './body.ts';
import { ApiError, invalid } from './errors.ts';
import { type RouteDef, route } from './route.ts';

export const watchRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/config/watch',
    key: 'watch',
    access: 'user',
    handler: async (c, ctx) => c.json({ entries: await ctx.watch.get(c.get('session')!.user) }),
  }),
  route({
    method: 'POST',
    path: '/config/watch',
    key: 'watch (save)',
    access: 'user',
    handler: async (c, ctx) => {
      const list = await readBody(c, watchListSchema);
      const issues = watchListRules(list);
      if (issues.length) throw invalid(issues);
      await ctx.watch.set(c.get('session')!.user, list.entries);
      return c.json(list);
    },
  }),
  route({
    method: 'GET',
    path: '/config/watch/values',
    key: 'watch/values',
    access: 'user',
    handler: async (c, ctx) => {
      const user = c.get('session')!.user;
      const values: WatchValues = await readWatch(ctx.com.links, await ctx.watch.get(user), user);
      return c.json(values);
    },
  }),
  route({
    method: 'POST',
    path: '/config/watch/write',
    key: 'watch/write',
    access: 'admin',
    handler: async (c, ctx) => {
      const { index, value } = await readBody(c, watchWriteRequest);
      const user = c.get('session')!.user;
      const entry = (await ctx.watch.get(user))[index];
      if (!entry) throw invalid([{ path: 'index', code: 'out_of_range', params: { min: 0, max: Math.max(0, (await ctx.watch.get(user)).length - 1) } }]);
      const w = watchWords(entry, value);
      if ('problem' in w) throw invalid([{ path: 'value', ...w.problem }]);
      const src = watchSource(entry);
      const link = ctx.com.links.get(src.interfaceId);
      if (!link) throw new ApiError(409, 'interface_not_ready', 'Selected interface not enabled or settings not saved');
      const address = `${LOG_AREAS[entry.area]}${entry.reg_addr}`;
      try {
        if ('bit' in w) await link.writeBits(LOG_AREAS[entry.area] as 'Y' | 'R', src.word * 16 + (src.bit ?? 0), [w.bit], `watch:${user}`, src.station);
        else await link.writeWords(src.area, src.word, w.words, `watch:${user}`, src.station);
      } catch (e) {
        const err = e instanceof PlcError ? e : new PlcError('link_down', String(e));
        await ctx.audit.write({
          action: 'watch_write',
          user,
          source: c.get('source'),
          detail: { interface: entry.if, address, value, ok: false, reason: err.reason },
        });
        throw new ApiError(502, 'link_failed', err.message, undefined, { reason: err.reason, ...(err.code !== undefined ? { code: err.code } : {}) });
      }
      await ctx.audit.write({ action: 'watch_write', user, source: c.get('source'), detail: { interface: entry.if, address, value, ok: true } });
      ctx.log.info('watch write', { user, interface: entry.if, address });
      return c.json({ ok: true });
    },
  }),
];
