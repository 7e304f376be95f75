// Users administration, active sessions and the audit log (spec §5 password rules, §6 roles;
// security.md AUTH-3, AUTHZ-1, SESS-1, AUD-1). Every change is audited; changing a user's password
// or removing the user ends that user's sessions at once. Sessions are shown by an opaque handle,
// never by their id. The audit log is read-only here: no route edits it.
import { createHmac, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import * as v from 'valibot';
import { toIssues } from '../model/section.ts';
import { type AuditEntry, addUserSchema, auditQuerySchema, endSessionSchema, passwordChangeSchema, removeUserSchema } from '../model/users.ts';
import { ABSOLUTE_MS, IDLE_MS, type Session } from '../system/sessions.ts';
import { UserExists } from '../system/users.ts';
import { startSession } from './auth-routes.ts';
import { readBody } from './body.ts';
import type { DaemonContext, Env } from './context.ts';
import { ApiError, invalid } from './errors.ts';
import { checkPassword } from './password-check.ts';
import { type RouteDef, route } from './route.ts';

// The handle of a session is a keyed hash of its id: stable while the daemon runs, and it tells
// nothing about the id (a handle cannot be turned into a cookie).
const HANDLE_KEY = randomBytes(32);
export const sessionHandle = (id: string) => createHmac('sha256', HANDLE_KEY).update(id).digest('hex').slice(0, 24);

const alive = (s: Session, now: number) => now - s.lastSeen <= IDLE_MS && now - s.created <= ABSOLUTE_MS;

const usersOf = (ctx: DaemonContext) => ({ users: ctx.users.list() });

function who(c: Context<Env>) {
  const s = c.get('session')!;
  return { user: s.user, source: c.get('source') };
}

/** The audit lines as stored; lines that do not parse (a torn write) are left out. */
export function parseAudit(text: string): AuditEntry[] {
  const out: AuditEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as AuditEntry;
      if (typeof e.time === 'string' && typeof e.action === 'string') out.push(e);
    } catch {
      /* a torn last line after a power loss */
    }
  }
  return out;
}

export const userRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/config/users',
    key: 'users',
    access: 'admin',
    handler: (c, ctx) => c.json(usersOf(ctx)),
  }),
  route({
    method: 'POST',
    path: '/config/users/add',
    key: 'users/add',
    access: 'admin',
    handler: async (c, ctx) => {
      const body = await readBody(c, addUserSchema);
      try {
        await ctx.users.add(body.username, body.role, body.password, new Date(ctx.hw.clock.now()));
      } catch (e) {
        if (e instanceof UserExists) throw new ApiError(409, 'user_exists', 'A user of this name exists already', [{ path: 'username', code: 'user_exists' }]);
        throw e;
      }
      await ctx.audit.write({ action: 'user_add', ...who(c), detail: { name: body.username, role: body.role } });
      return c.json(usersOf(ctx), 201);
    },
  }),
  route({
    method: 'POST',
    path: '/config/users/remove',
    key: 'users/remove',
    access: 'admin',
    handler: async (c, ctx) => {
      const body = await readBody(c, removeUserSchema);
      const me = c.get('session')!;
      const target = ctx.users.find(body.username);
      if (!target) throw new ApiError(404, 'not_found', 'No such user');
      if (target.name.toLowerCase() === me.user.toLowerCase()) throw new ApiError(409, 'own_account', 'You cannot remove your own account');
      const result = await ctx.users.remove(target.name);
      if (result === 'not_found') throw new ApiError(404, 'not_found', 'No such user');
      if (result === 'last_admin') throw new ApiError(409, 'last_admin', 'The last administrator cannot be removed');
      ctx.sessions.endUser(target.name);
      await ctx.watch.drop(target.name); // a new user of the same name starts with an empty watch list
      await ctx.audit.write({ action: 'user_remove', ...who(c), detail: { name: target.name, role: target.role } });
      return c.json(usersOf(ctx));
    },
  }),
  route({
    // any signed-in role changes its own password (with the current one); an administrator also
    // sets anyone's password
    method: 'POST',
    path: '/config/users/password',
    key: 'users/password',
    access: 'user',
    handler: async (c, ctx) => {
      const body = await readBody(c, passwordChangeSchema);
      const me = c.get('session')!;
      const source = c.get('source');
      const own = !body.username || body.username.toLowerCase() === me.user.toLowerCase();
      if (!own && me.role !== 'admin') throw new ApiError(403, 'forbidden', 'Only an administrator may change the password of another user');
      const target = ctx.users.find(own ? me.user : body.username!);
      if (!target) throw new ApiError(404, 'not_found', 'No such user');
      if (own) {
        if (!body.current) throw invalid([{ path: 'current', code: 'required' }]);
        // guessing the current password counts like failed logins (security.md AUTH-4)
        const failed = () => ctx.audit.write({ action: 'password_change_failed', user: me.user, source, detail: { name: target.name } });
        if (!(await checkPassword(c, ctx, target.name, body.current, failed)))
          throw new ApiError(403, 'wrong_current_password', 'The current password is not correct', [{ path: 'current', code: 'wrong_current_password' }]);
      }
      if (!(await ctx.users.setPassword(target.name, body.password))) throw new ApiError(404, 'not_found', 'No such user');
      // SESS-1: a password change ends every session of that user; the browser that changed its
      // own password continues in a fresh session
      ctx.sessions.endUser(target.name);
      await ctx.audit.write({ action: 'password_change', user: me.user, source, detail: { name: target.name, own } });
      if (own) return c.json({ ok: true, session: startSession(c, ctx, target.name, target.role) });
      return c.json({ ok: true });
    },
  }),
  route({
    method: 'GET',
    path: '/config/sessions',
    key: 'sessions',
    access: 'admin',
    handler: (c, ctx) => {
      const now = ctx.hw.clock.now();
      const mine = c.get('session')!.id;
      const sessions = ctx.sessions
        .list()
        .filter((s) => alive(s, now))
        .sort((a, b) => b.lastSeen - a.lastSeen)
        .map((s) => ({
          handle: sessionHandle(s.id),
          user: s.user,
          role: s.role,
          source: s.source,
          created: new Date(s.created).toISOString(),
          lastSeen: new Date(s.lastSeen).toISOString(),
          current: s.id === mine,
        }));
      return c.json({ sessions });
    },
  }),
  route({
    method: 'POST',
    path: '/config/sessions/end',
    key: 'sessions/end',
    access: 'admin',
    handler: async (c, ctx) => {
      const body = await readBody(c, endSessionSchema);
      const target = ctx.sessions.list().find((s) => sessionHandle(s.id) === body.handle);
      if (!target) throw new ApiError(404, 'not_found', 'No such session (it may have ended already)');
      ctx.sessions.end(target.id);
      await ctx.audit.write({ action: 'session_end', ...who(c), detail: { name: target.user, sessionSource: target.source } });
      return c.json({ ok: true });
    },
  }),
  route({
    method: 'GET',
    path: '/config/audit',
    key: 'audit',
    access: 'admin',
    handler: async (c, ctx) => {
      const q = v.safeParse(auditQuerySchema, c.req.query());
      if (!q.success) throw invalid(toIssues(q.issues));
      const { page, size } = q.output as unknown as { page: number; size: number };
      const all = parseAudit(await ctx.audit.readAll()).reverse();
      return c.json({ entries: all.slice((page - 1) * size, page * size), total: all.length, page, size, pages: Math.max(1, Math.ceil(all.length / size)) });
    },
  }),
  route({
    // a POST: the download writes an audit entry, and no GET changes state (docs/api.md HDR-4)
    method: 'POST',
    path: '/config/audit/download',
    key: 'audit (download)',
    access: 'admin',
    handler: async (c, ctx) => {
      const text = await ctx.audit.readAll();
      await ctx.audit.write({ action: 'audit_download', ...who(c) });
      return c.body(text, 200, {
        'Content-Type': 'application/x-ndjson; charset=utf-8',
        'Content-Disposition': 'attachment; filename="audit.log"',
      });
    },
  }),
];
