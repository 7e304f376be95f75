// Accounts: the request shapes of setup and login (shared with the console's forms).
import * as v from 'valibot';
import { msg } from './issues.ts';
import { policyPassword } from './fields.ts';

export const ROLES = ['admin', 'user'] as const;
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
