// German: the script file page (/script).
import type { NamespaceScriptTranslation } from '../../i18n-types.ts';

const de_script = {
  general: 'Allgemein',
  transmission: 'FTP-Übertragung',
  editor: 'Skript-Editor',
  files: 'Skriptdateien',
  loadDefault: 'Standardskript laden',
  defaultTitle: 'Standardskript laden',
  defaultText: 'Den Text im Editor durch das Standardskript ersetzen?',
  replace: 'Ersetzen',
  keep: 'Behalten',
  write: 'Datei schreiben',
  written: 'Die Skriptdatei {name} wurde geschrieben.',
  download: 'Herunterladen',
  upload: '.cfg-Datei hochladen',
  uploaded: 'Hochladen erfolgreich: {name}.',
  uploadFailed: 'Hochladen der Datei(en) fehlgeschlagen.',
  use: 'Verwenden',
  active: 'aktiv',
  noFiles: 'Keine Dateien gefunden.',
  readFailed: 'Datei konnte nicht gelesen werden.',
  size: '{size} Bytes',
  count: '{count} von {max} Bytes',
} satisfies NamespaceScriptTranslation;

export default de_script;
