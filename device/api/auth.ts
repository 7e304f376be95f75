// Per-route access control (security.md AUTH-1, AUTHZ-1, SESS-1): the session comes from the
// cookie, the route's access level decides, and every state-changing request of a session carries
// its CSRF token in X-CSRF-Token. Public POSTs (setup, login) need a JSON body, which a foreign
// page cannot send without a CORS preflight that this daemon never grants.

import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, Next } from 'hono';
import { getCookie } from 'hono/cookie';
import { hostNamesOf, type Rest } from '../model/sections/rest.ts';
import { COOKIE } from '../system/sessions.ts';
import type { DaemonContext, Env } from './context.ts';
import { ApiError } from './errors.ts';
import { checkHost } from './host-check.ts';
import type { Access } from './route.ts';

export function sourceOf(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The access check of one request (throws the ApiError to answer); sets `source` and `session`. */
export function checkAccess(access: Access, ctx: DaemonContext, c: Context<Env>): void {
  c.set('source', sourceOf(c));
  // the route checks its own credential, Host included; a session cookie opens nothing there
  if (access === 'token') return;
  // security.md HOST-1: a DNS-rebinding page must not reach setup or login under a foreign name
  if (access === 'public') checkHost(c, ctx.hostname, hostNamesOf(ctx.store.get<Rest>('pew_api').host_names));
  const session = ctx.sessions.get(getCookie(c, COOKIE));
  if (session) c.set('session', session);
  if (access !== 'public') {
    if (!session) {
      if (ctx.users.isEmpty()) throw new ApiError(401, 'setup_required', 'Create the administrator password first');
      throw new ApiError(401, 'unauthenticated', 'Log in first');
    }
    if (access === 'admin' && session.role !== 'admin') throw new ApiError(403, 'forbidden', 'Only an administrator may change settings');
  }
  if (access !== 'public' && session && c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.header('x-csrf-token') !== session.csrfToken)
    throw new ApiError(403, 'csrf', 'Missing or wrong X-CSRF-Token header');
}

/** `checkAccess` as a middleware, for routes with more than one step (a POST behind the body limit). */
export function guard(access: Access, ctx: DaemonContext) {
  return async (c: Context<Env>, next: Next) => {
    checkAccess(access, ctx, c);
    await next();
  };
}
