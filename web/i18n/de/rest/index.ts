// German: the texts of the REST page (/rest), loaded with the pages.
import type { NamespaceRestTranslation } from '../../i18n-types.ts';

const de_rest = {
  files: 'Dateien des HTTP-Servers',
  filesHint:
    'Für den HTTP-Server hochgeladene Dateien. Bei eingeschaltetem HTTP-Server ist jede unter http(s)://<Gerät>:<Port>/<Name> erreichbar, index.html auch unter /.',
  refresh: 'Aktualisieren',
  listFailed: 'Datei konnte nicht gelesen werden; keine Dateien gefunden.',
  none: 'Keine Dateien hochgeladen.',
  checkAll: 'Alle Dateien auswählen',
  check: '{name} auswählen',
  name: 'Name',
  size: 'Größe',
  remove: 'Auswahl löschen ({count})',
  removeTitle: 'HTTP-Dateien löschen',
  removeText: '{count} {{count:Datei|Dateien}} vom HTTP-Server löschen? Das kann nicht rückgängig gemacht werden.',
  removeYes: 'Löschen',
  removed: '{count} {{count:Datei|Dateien}} gelöscht.',
  certNote:
    'Mit Verschlüsselung zeigt der Server das hochgeladene Server-Zertifikat (server.pem oder server.crt) mit seinem Schlüssel (key.pem oder key.key). Ein neu hochgeladenes Zertifikat wird nach wenigen Sekunden verwendet.',
  stateOff: 'Der REST-Port ist geschlossen: Weder die API noch der HTTP-Server ist in den gespeicherten Einstellungen aktiviert.',
  stateListening: 'Empfangsbereit auf Port {port} ({scheme}).',
  stateNoCert: 'Nicht empfangsbereit: HTTPS benötigt das hochgeladene Server-Zertifikat und den Schlüssel.',
  stateFailed: 'Nicht empfangsbereit auf Port {port}: {detail}',
  faults: 'Anfragen, die fehlschlugen und mit einem Fehler geschlossen wurden (abgefangene Fehler): {count}',
} satisfies NamespaceRestTranslation;

export default de_rest;
