// German: the texts of the live status of the services the PLC drives, on their pages and on /info.
import type { NamespaceServiceStatusTranslation } from '../../i18n-types.ts';

const de_serviceStatus = {
  title: 'Dienststatus', runTitle: 'Dienste im Betrieb', runIntro: 'Was jeder von der SPS gesteuerte Dienst gerade tut; alle 1,5 s aktualisiert.',
  off: 'Der Dienst ist nicht aktiviert.',
  state: 'Zustand', since: 'Seit', plc: 'SPS-Steuerblock', plcOk: 'erreichbar', plcDown: 'nicht erreichbar',
  lastSuccess: 'Letzter Erfolg', lastError: 'Letzter Fehler', never: 'noch keiner', none: 'keiner',
  code: 'Fehlercode {number}', queue: 'Warteschlange', queueValue: '{waiting} wartend von {bound}', dropped: 'Verworfen (Warteschlange voll)',
  states: {
    off: 'aus', connecting: 'verbindet', connected: 'verbunden', reconnecting: 'verbindet erneut', idle: 'bereit',
    running: 'läuft', waiting: 'wartet auf die Gegenstelle', error: 'Fehler',
  },
  counters: {
    rows: 'Zeilen erledigt', written: 'Zeilen geschrieben',
    accepted: 'Weitergeleitete Verbindungen', refused: 'Abgewiesene Clients', tlsFailures: 'Fehlgeschlagene TLS-Aushandlungen',
    errors: 'Verbindungsfehler', faults: 'Abgefangene Fehler',
    published: 'Veröffentlicht', received: 'Empfangen', requests: 'Anfragen', sends: 'Sendevorgänge', sent: 'Gesendet', failed: 'Fehlgeschlagen',
    runs: 'Durchläufe', overruns: 'Überläufe',
  },
  errors: {
    none: 'kein Fehler',
    unknown_host: 'der Name des Servers lässt sich nicht auflösen',
    refused: 'unter der Adresse ist niemand empfangsbereit, oder die Verbindung brach ab',
    timeout: 'keine Antwort in der Zeit',
    tls: 'TLS-Aushandlung fehlgeschlagen: Zertifikat nicht vertrauenswürdig oder Version abgelehnt',
    auth_failed: 'Benutzer oder Passwort abgelehnt',
    server_refused: 'der Server hat die Anfrage abgelehnt',
    local: 'eine Datei auf dem Gerät kann nicht gelesen oder geschrieben werden',
    other: 'ein anderer Fehler (eine Antwort nicht verstanden)',
    plc_area: 'ein Zeiger außerhalb des SPS-Speichers',
    bad_string: 'eine Zeichenkette ohne Endezeichen innerhalb ihrer Grenze oder länger als ihre Grenze',
    too_large: 'Nutzdaten oder Inhalt länger als ihre Grenze',
    bad_request: 'ein Anforderungswert, den der Dienst nicht kennt',
    queue_full: 'die Warteschlange war voll: ihr ältester Auftrag wurde verworfen',
    not_connected: 'nicht verbunden: der Auftrag wartet in der Warteschlange',
    table_mismatch: 'die Tabelle hat andere Spalten (oder Feldtypen) als die Zeile: die Zeilen warten',
    bad_value: 'ein Wert oder Typ, den die Datenbank nicht aufnehmen kann: die Zeile wird nicht geschrieben',
  },
} satisfies NamespaceServiceStatusTranslation;

export default de_serviceStatus;
