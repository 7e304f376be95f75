// German: the texts of the FTP send status on /ftp, loaded with the pages.
import type { NamespaceFtpStatusTranslation } from '../../i18n-types.ts';

const de_ftpStatus = {
  title: 'Sendestatus',
  off: 'Das FTP-Senden ist nicht aktiviert.',
  plc: 'SPS-Steuerblock',
  plcOk: 'erreichbar',
  plcDown: 'nicht erreichbar',
  state: 'Zustand',
  states: { idle: 'bereit', running: 'läuft', done: 'fertig', error: 'Fehler' },
  code: 'Fehlercode {number}',
  localDir: 'Lokales Verzeichnis',
  nextCycle: 'Nächstes Senden im Zyklus',
  noCycle: 'kein Übertragungszyklus',
  retryAt: 'Nächste Wiederholung',
  noRetry: 'keine ausstehend',
  lastSend: 'Letztes Senden',
  never: 'noch keines',
  triggers: { plc: 'auf Anforderung der SPS', cycle: 'im Übertragungszyklus', script: 'durch send im Skript' },
  files: 'Gesendete Dateien',
  bytes: 'Bytes',
  failed: 'Nicht gesendet',
  held: 'Zurückgehalten (Logger schreibt noch)',
  deleted: 'Nach dem Senden gelöscht',
  renamed: 'Unter nummeriertem Namen gesendet (der eigene war vergeben)',
  attempts: 'Versuche',
  error: 'Fehler',
  none: 'keine',
  codes: {
    unknown_host: 'der Name des Servers (oder Proxys) lässt sich nicht auflösen',
    refused: 'der Port ist nicht empfangsbereit, oder die Verbindung brach beim Senden ab',
    timeout: 'keine Antwort innerhalb von 10 s',
    tls: 'TLS-Handshake fehlgeschlagen: Zertifikat nicht vertrauenswürdig oder Version abgelehnt',
    auth_failed: 'Benutzer oder Passwort abgelehnt',
    server_refused: 'der Server hat das Verzeichnis oder eine Datei abgelehnt',
    local: 'das lokale Verzeichnis fehlt oder ist nicht eingehängt, oder eine Datei lässt sich nicht lesen oder umbenennen',
    other: 'anderer Fehler (Antwort nicht verstanden, Senden durch geänderte Einstellungen beendet)',
  },
} satisfies NamespaceFtpStatusTranslation;

export default de_ftpStatus;
