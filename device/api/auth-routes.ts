// Setup of the first administrator, login, session info and logout (spec §6, §7;
// security.md AUTH-2, AUTH-4, SESS-1). Paths are fixed by the spec.
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { loginSchema, setupSchema } from '../model/users.ts';
import { ABSOLUTE_MS, COOKIE, type Session } from '../system/sessions.ts';
import { readBody } from './body.ts';
import { overTls } from './connection.ts';
import type { DaemonContext, Env } from './context.ts';
import { ApiError } from './errors.ts';
import { checkPassword } from './password-check.ts';
import { type RouteDef, route } from './route.ts';

const BASE = '/rest/api/v1/authentication';

export function startSession(c: Context<Env>, ctx: DaemonContext, user: string, role: Session['role']) {
  const old = c.get('session');
  if (old) ctx.sessions.end(old.id); // SESS-1: a new id at every login
  const s = ctx.sessions.create(user, role, c.get('source'));
  setCookie(c, COOKIE, s.id, {
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
    secure: overTls(c), // security.md SESS-1, TLS-2
    maxAge: ABSOLUTE_MS / 1000,
  });
  return { currentUser: s.user, role: s.role, csrfToken: s.csrfToken };
}

export const authRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: BASE,
    key: 'authentication',
    access: 'public',
    handler: (c, ctx) => {
      const s = c.get('session');
      if (!s) throw new ApiError(401, ctx.users.isEmpty() ? 'setup_required' : 'unauthenticated', 'Not logged in');
      return c.json({ currentUser: s.user, role: s.role, csrfToken: s.csrfToken });
    },
  }),
  route({
    method: 'POST',
    path: `${BASE}/setup`,
    key: 'authentication/setup',
    access: 'public',
    handler: async (c, ctx) => {
      if (!ctx.users.isEmpty()) throw new ApiError(409, 'already_set_up', 'The administrator already exists');
      const body = await readBody(c, setupSchema);
      if (!(await ctx.users.createFirstAdmin(body.username, body.password, new Date(ctx.hw.clock.now()))))
        throw new ApiError(409, 'already_set_up', 'The administrator already exists');
      await ctx.audit.write({ action: 'setup', user: body.username, source: c.get('source') });
      return c.json(startSession(c, ctx, body.username, 'admin'), 201);
    },
  }),
  route({
    method: 'POST',
    path: BASE,
    key: 'authentication (login)',
    access: 'public',
    handler: async (c, ctx) => {
      const body = await readBody(c, loginSchema);
      const source = c.get('source');
      const known = ctx.users.find(body.username)?.name;
      // AUD-1: failures are counted per address and minute; the name only when it is an account
      const user = await checkPassword(c, ctx, body.username, body.password, () => ctx.audit.loginFailed(source, known));
      // AUTH-4: the same answer whether the user exists or not
      if (!user) throw new ApiError(401, 'wrong_credentials', 'Wrong user name or password');
      await ctx.audit.write({ action: 'login_ok', user: user.name, source });
      return c.json(startSession(c, ctx, user.name, user.role));
    },
  }),
  route({
    method: 'POST',
    path: `${BASE}/logout`,
    key: 'authentication/logout',
    access: 'user',
    handler: async (c, ctx) => {
      const s = c.get('session')!;
      ctx.sessions.end(s.id);
      deleteCookie(c, COOKIE, { path: '/' });
      await ctx.audit.write({ action: 'logout', user: s.user, source: c.get('source') });
      return c.json({ ok: true });
    },
  }),
];
