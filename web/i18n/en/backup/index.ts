// English: the texts of the backup and restore page (/backuprestore), loaded with the pages.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_backup = {
  backupTitle: 'Backup',
  backupIntro:
    'Saves every setting, the certificates, the HTTP server files, the scripts and the log configuration files of the unit into one .i4csettings file.',
  password: 'Backup password',
  confirmPassword: 'Repeat the password',
  rules: {
    chars: '{min} – {max} characters',
    upper: 'an upper case letter',
    lower: 'a lower case letter',
    digit: 'a digit',
    special: 'a special character',
  },
  mismatch: 'The two passwords are not the same.',
  noPasswordWarning:
    'A password is recommended. Without one the backup is not encrypted and holds no passwords: restoring it keeps the passwords the unit has at that time.',
  download: 'Download backup',
  backupDone: 'Backup {name} downloaded.',
  backupFailed: 'Failed to retrieve the backup file: {reason}',
  restoreTitle: 'Restore',
  restoreIntro:
    'Replaces all settings, certificates and files of the unit with those of a backup file. The file is checked completely first: if anything is wrong, nothing changes.',
  file: 'Backup file (.i4csettings)',
  wrongType: 'Choose a {ext} file.',
  restorePasswordHint: 'Only needed when the backup was made with a password.',
  restore: 'Restore',
  confirmTitle: 'Restore the settings?',
  confirmText: 'All settings, certificates and files of the unit will be replaced with those of {name}.',
  restoreDone: 'The settings were restored.',
  restoreFailed: 'Failed to restore the settings: {reason}',
  reasons: {
    not_a_backup: 'the file is not a settings backup',
    other_product: 'the backup belongs to another product',
    newer_version: 'the backup was made by a newer version; update the firmware first',
    unknown_version: 'backups of this version cannot be restored',
    damaged: 'the file is truncated or damaged',
    password_required: 'the backup is protected: enter its password',
    wrong_password: 'the password is not correct',
    content: 'the content of the backup cannot be read',
    invalid_settings: 'the backup holds settings that are not valid',
    too_large: 'the file is too large',
  },
  readOnly: 'Only the administrator can back up and restore the settings.',
} satisfies BaseTranslation;

export default en_backup;
