// Configuration sections (spec §3, §7): GET and POST per section, save-all, defaults of a section.
import { gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import { CONFIG_SECTIONS, sectionByKey } from '../model/index.ts';
import { defaultsOf } from '../model/section.ts';
import { CONFIG_JSON_LIMIT, isPlainObject, readJson } from './body.ts';
import type { DaemonContext, Env } from './context.ts';
import { ApiError, flattenIssues, invalid } from './errors.ts';
import { type RouteDef, route } from './route.ts';
import { acceptsGzip } from './static.ts';

export const CONFIG_PREFIX = '/config';

async function save(c: Context<Env>, ctx: DaemonContext, changes: Record<string, unknown>) {
  const result = await ctx.store.save(changes);
  if (!result.ok) throw invalid(flattenIssues(result.issues));
  await ctx.audit.write({ action: 'config_save', user: c.get('session')!.user, source: c.get('source'), detail: { sections: result.keys } });
  ctx.log.info('configuration saved', { sections: result.keys, user: c.get('session')!.user });
  return Object.fromEntries(result.keys.map((k) => [k, ctx.store.read(k)]));
}

const sectionRoutes = CONFIG_SECTIONS.flatMap((def): RouteDef[] => [
  route({
    method: 'GET',
    path: `${CONFIG_PREFIX}/${def.key}`,
    key: def.key,
    access: 'user',
    handler: (c, ctx) => c.body(ctx.store.readJson(def.key), 200, { 'Content-Type': 'application/json' }),
  }),
  route({
    method: 'POST',
    path: `${CONFIG_PREFIX}/${def.key}`,
    key: def.key,
    access: 'admin',
    jsonLimit: CONFIG_JSON_LIMIT,
    handler: async (c, ctx) => {
      const saved = await save(c, ctx, { [def.key]: await readJson(c) });
      return c.json(saved[def.key] as object);
    },
  }),
]);

/** The gzip of the last all-sections answer, made once per change of the sections (it is the console's largest answer). */
let packed: { text: string; gzip: Uint8Array<ArrayBuffer> } | undefined;
const gzipOf = (text: string) => (packed?.text === text ? packed : (packed = { text, gzip: new Uint8Array(gzipSync(text)) })).gzip;

export const configRoutes: RouteDef[] = [
  ...sectionRoutes,
  route({
    // the console's load at start: every section in one answer instead of one request per section
    method: 'GET',
    path: CONFIG_PREFIX,
    key: 'load-all',
    access: 'user',
    handler: (c, ctx) => {
      const text = ctx.store.readAllJson();
      const headers = { 'Content-Type': 'application/json', Vary: 'Accept-Encoding' };
      if (!acceptsGzip(c.req.header('accept-encoding'))) return c.body(text, 200, headers);
      return c.body(gzipOf(text), 200, { ...headers, 'Content-Encoding': 'gzip' });
    },
  }),
  route({
    method: 'POST',
    path: CONFIG_PREFIX,
    key: 'save-all',
    access: 'admin',
    jsonLimit: CONFIG_JSON_LIMIT,
    handler: async (c, ctx) => {
      const body = await readJson(c);
      if (!isPlainObject(body) || Object.keys(body).length === 0)
        throw new ApiError(400, 'invalid_input', 'Send an object of { section: settings }', [{ path: '', code: 'type', params: { expected: 'object' } }]);
      return c.json(await save(c, ctx, body));
    },
  }),
  route({
    method: 'GET',
    path: `${CONFIG_PREFIX}/get_reset`,
    key: 'get_reset',
    access: 'user',
    handler: (c) => {
      const key = c.req.query('section') ?? '';
      const def = sectionByKey(key);
      if (!def)
        throw new ApiError(404, 'not_found', 'Unknown section', [
          { path: 'section', code: 'invalid_value', params: { allowed: CONFIG_SECTIONS.map((d) => d.key) } },
        ]);
      return c.json(defaultsOf(def) as object);
    },
  }),
];
