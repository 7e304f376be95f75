// Accounts: the request shapes of setup and login (shared with the console's forms).
import * as v from 'valibot';
import { intText, PASSWORD_MIN, policyPassword } from './fields.ts';
import { msg } from './issues.ts';

export const ROLES = ['admin', 'user'] as const;

/** One audit log line as the daemon stores and sends it (device/system/audit.ts; the console's /info and /users show it). */
export interface AuditEntry {
  time: string;
  action: string;
  user?: string;
  source?: string;
  detail?: Record<string, unknown>;
}
export type Role = (typeof ROLES)[number];
export const USER_PASSWORD_MAX = 40; // spec §9: user password 40
export const USERNAME_MAX = 32;

const str = () => v.string(msg('type', { expected: 'string' }));

export const usernameSchema = v.pipe(
  str(),
  v.nonEmpty(msg('required')),
  v.maxLength<string, number, string>(USERNAME_MAX, msg('too_long', { max: USERNAME_MAX })),
  v.regex<string, string>(/^[A-Za-z]/, msg('must_start_with_letter')),
  v.regex<string, string>(/^[A-Za-z][A-Za-z0-9_.-]*$/, msg('invalid_characters')),
);

/** spec §5 password policy: 8-40 characters with upper, lower, digit and special character. */
export const userPasswordSchema = v.pipe(str(), v.nonEmpty(msg('required')), policyPassword(USER_PASSWORD_MAX));

export const setupSchema = v.strictObject({ username: usernameSchema, password: userPasswordSchema }, msg('type', { expected: 'object' }));

// spec §5: user name and password are required at login; lengths capped so a check stays cheap
export const loginSchema = v.strictObject(
  {
    username: v.pipe(str(), v.nonEmpty(msg('required')), v.maxLength<string, number, string>(64, msg('too_long', { max: 64 }))),
    password: v.pipe(str(), v.nonEmpty(msg('required')), v.maxLength<string, number, string>(128, msg('too_long', { max: 128 }))),
  },
  msg('type', { expected: 'object' }),
);

// Users administration (spec §5, §6; security.md AUTH-3, AUD-1): the request shapes of the users
// page, checked by the daemon and by the page's forms alike.
const obj = <T extends v.ObjectEntries>(entries: T) => v.strictObject(entries, msg('type', { expected: 'object' }));

export const addUserSchema = obj({
  username: usernameSchema,
  role: v.picklist(ROLES, msg('invalid_value', { allowed: [...ROLES] })),
  password: userPasswordSchema,
});

export const removeUserSchema = obj({
  username: v.pipe(str(), v.nonEmpty(msg('required')), v.maxLength<string, number, string>(64, msg('too_long', { max: 64 }))),
});

/**
 * A password change: without `username` (or with one's own name) it is the own password and needs
 * `current`; an administrator names another user and needs no current password.
 */
export const passwordChangeSchema = obj({
  username: v.optional(v.pipe(str(), v.maxLength<string, number, string>(64, msg('too_long', { max: 64 })))),
  current: v.optional(v.pipe(str(), v.maxLength<string, number, string>(128, msg('too_long', { max: 128 })))),
  password: userPasswordSchema,
});

/** A session is named by its opaque handle (never its id or cookie). */
export const SESSION_HANDLE_RE = /^[0-9a-f]{24}$/;
export const endSessionSchema = obj({ handle: v.pipe(str(), v.regex<string, string>(SESSION_HANDLE_RE, msg('invalid_value'))) });

/** The audit log view: newest first, `size` entries per page. */
export const AUDIT_PAGE_MAX = 200;
export const AUDIT_PAGE_DEFAULT = 50;
export const auditQuerySchema = obj({ page: intText(1, 999_999, 1), size: intText(1, AUDIT_PAGE_MAX, AUDIT_PAGE_DEFAULT) });

/** The rules of spec §5 one by one, for the live checklist under a new password field. */
export function passwordRules(pw: string): Record<'chars' | 'upper' | 'lower' | 'digit' | 'special', boolean> {
  return {
    chars: pw.length >= PASSWORD_MIN && pw.length <= USER_PASSWORD_MAX,
    upper: /[A-Z]/.test(pw),
    lower: /[a-z]/.test(pw),
    digit: /\d/.test(pw),
    special: /[^A-Za-z0-9]/.test(pw),
  };
}
