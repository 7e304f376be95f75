// German: the questions before leaving, resetting or testing with unsaved settings, and their answers; loaded with the settings pages and before such a question.
import type { NamespaceConfirmTranslation } from '../../i18n-types.ts';

const de_confirm = {
  unsavedTitle: 'Einstellungen nicht gespeichert',
  unsavedLeave: 'Diese Seite enthält ungespeicherte Änderungen. Seite verlassen und die Änderungen verwerfen?',
  unsavedLogout: 'Einige Einstellungen sind geändert, aber nicht gespeichert. Abmelden und die Änderungen verwerfen?',
  logout: 'Abmelden ohne Speichern',
  stayLoggedIn: 'Angemeldet bleiben',
  unsavedTest: 'Diese Seite enthält ungespeicherte Änderungen. Der Test verwendet die gespeicherten Einstellungen. Trotzdem ausführen?',
  leave: 'Ohne Speichern verlassen',
  stay: 'Auf der Seite bleiben',
  testAnyway: 'Test ausführen',
  cancel: 'Abbrechen',
  resetTitle: 'Auf Standardwerte zurücksetzen',
  resetText: 'Alle Felder dieser Seite mit den Standardwerten füllen? Gespeichert werden sie erst beim Speichern.',
  reset: 'Zurücksetzen',
} satisfies NamespaceConfirmTranslation;

export default de_confirm;
