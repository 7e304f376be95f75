// The route table: every request the daemon answers, with the role it needs. The app registers
// exactly these, the auth middleware enforces the role, and docs/api.md has one row per entry.
import type { Context } from 'hono';
import type { DaemonContext, Env } from './context.ts';

/**
 * public: anyone (login, setup); user: any signed-in role (reads); admin: changes; token: a
 * credential of its own that the handler checks, never the console's session (`GET /metrics` and
 * its scrape token: api/metrics-routes.ts)
 */
export type Access = 'public' | 'user' | 'admin' | 'token';

export interface RouteDef {
  method: 'GET' | 'POST';
  path: string;
  /** the spec's request key or fixed path this answers (spec §7) */
  key: string;
  access: Access;
  /** the handler streams the body itself under its own cap (uploads): no JSON body limit in front */
  rawBody?: boolean;
  /** the JSON body may be larger than body.ts JSON_LIMIT (64 KiB): settings saves (body.ts CONFIG_JSON_LIMIT) */
  jsonLimit?: number;
  handler: (c: Context<Env>, ctx: DaemonContext) => Response | Promise<Response>;
}

export const route = (def: RouteDef): RouteDef => def;
