// German: the login and first-run pages.
import type { NamespaceAuthTranslation } from '../../i18n-types.ts';

const de_auth = {
  loginTitle: 'Anmelden',
  setupTitle: 'Administrator anlegen',
  setupIntro:
    'Auf diesem Gerät ist noch kein Benutzer angelegt. Wählen Sie Namen und Passwort des Administrators. Bewahren Sie das Passwort sicher auf: Niemand kann es später auslesen.',
  username: 'Benutzername',
  password: 'Passwort',
  repeat: 'Passwort wiederholen',
  passwordRule: '8 bis 40 Zeichen mit einem Großbuchstaben, einem Kleinbuchstaben, einer Ziffer und einem Sonderzeichen.',
  login: 'Anmelden',
  create: 'Anlegen und anmelden',
  mismatch: 'Die beiden Passwörter stimmen nicht überein.',
  required: 'Benutzername und Passwort sind erforderlich.',
  locked: 'Zu viele fehlgeschlagene Anmeldeversuche. Versuchen Sie es in {minutes} {{minutes:Minute|Minuten}} erneut.',
  expired: 'Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.',
} satisfies NamespaceAuthTranslation;

export default de_auth;
