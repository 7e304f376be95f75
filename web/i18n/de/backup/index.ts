// German: the texts of the backup and restore page (/backuprestore), loaded with the pages.
import type { NamespaceBackupTranslation } from '../../i18n-types.ts';

const de_backup = {
  backupTitle: 'Sicherung',
  backupIntro:
    'Speichert alle Einstellungen, die Zertifikate, die Dateien des HTTP-Servers, die Skripte und die Log-Konfigurationsdateien des Geräts in einer .i4csettings-Datei.',
  password: 'Sicherungspasswort',
  confirmPassword: 'Passwort wiederholen',
  rules: {
    chars: '{min}\u00a0–\u00a0{max} Zeichen',
    upper: 'ein Großbuchstabe',
    lower: 'ein Kleinbuchstabe',
    digit: 'eine Ziffer',
    special: 'ein Sonderzeichen',
  },
  mismatch: 'Die beiden Passwörter sind nicht gleich.',
  noPasswordWarning:
    'Ein Passwort wird empfohlen. Ohne Passwort ist die Sicherung nicht verschlüsselt und enthält keine Passwörter: beim Wiederherstellen bleiben die Passwörter erhalten, die das Gerät dann hat.',
  download: 'Sicherung herunterladen',
  backupDone: 'Sicherung {name} heruntergeladen.',
  backupFailed: 'Die Sicherungsdatei konnte nicht abgerufen werden: {reason}',
  restoreTitle: 'Wiederherstellen',
  restoreIntro:
    'Ersetzt alle Einstellungen, Zertifikate und Dateien des Geräts durch die einer Sicherungsdatei. Die Datei wird zuerst vollständig geprüft: ist etwas falsch, ändert sich nichts.',
  file: 'Sicherungsdatei (.i4csettings)',
  wrongType: 'Wählen Sie eine {ext}-Datei.',
  restorePasswordHint: 'Nur nötig, wenn die Sicherung mit Passwort erstellt wurde.',
  restore: 'Wiederherstellen',
  confirmTitle: 'Einstellungen wiederherstellen?',
  confirmText: 'Alle Einstellungen, Zertifikate und Dateien des Geräts werden durch die aus {name} ersetzt.',
  restoreDone: 'Die Einstellungen wurden wiederhergestellt.',
  restoreFailed: 'Die Einstellungen konnten nicht wiederhergestellt werden: {reason}',
  reasons: {
    not_a_backup: 'die Datei ist keine Einstellungssicherung',
    other_product: 'die Sicherung gehört zu einem anderen Produkt',
    newer_version: 'die Sicherung stammt von einer neueren Version; aktualisieren Sie zuerst die Firmware',
    unknown_version: 'Sicherungen dieser Version können nicht wiederhergestellt werden',
    damaged: 'die Datei ist abgeschnitten oder beschädigt',
    password_required: 'die Sicherung ist geschützt: geben Sie ihr Passwort ein',
    wrong_password: 'das Passwort ist nicht korrekt',
    content: 'der Inhalt der Sicherung ist nicht lesbar',
    invalid_settings: 'die Sicherung enthält ungültige Einstellungen',
    too_large: 'die Datei ist zu groß',
  },
  readOnly: 'Nur der Administrator kann Einstellungen sichern und wiederherstellen.',
} satisfies NamespaceBackupTranslation;

export default de_backup;
