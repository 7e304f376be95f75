// English: the login and first-run pages.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_auth = {
  loginTitle: 'Log in',
  setupTitle: 'Create the administrator',
  setupIntro: "This unit has no user yet. Choose the administrator's name and password. Keep the password safe: nobody can read it back.",
  username: 'User name',
  password: 'Password',
  repeat: 'Repeat the password',
  passwordRule: '8 to 40 characters with an upper-case letter, a lower-case letter, a digit and a special character.',
  login: 'Log in',
  create: 'Create and log in',
  mismatch: 'The two passwords differ.',
  required: 'User name and password are required.',
  locked: 'Too many failed logins. Try again in {minutes} minute{{s}}.',
  expired: 'Your session has ended. Please log in again.',
} satisfies BaseTranslation;

export default en_auth;
