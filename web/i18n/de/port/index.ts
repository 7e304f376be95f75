// German: the texts of the ports page (/port) and the restriction editor, loaded with the pages.
import type { NamespacePortTranslation } from '../../i18n-types.ts';

const de_port = {
  intro:
    'Jede Weiterleitung öffnet einen TCP-Port für Clients und leitet ihre Anfragen an eine Schnittstelle weiter, beschränkt auf die SPS-Wörter, die ihre Einschränkungen freigeben. Ohne Einschränkung kein Zugriff; Gesperrt hat Vorrang vor einer Freigabe.',
  overview: 'Übersicht',
  overviewHint:
    'Eine Zeile je Weiterleitung; ihr Name führt zu ihren Einstellungen und Einschränkungen weiter unten. Zustand und Zähler sind die der gespeicherten Weiterleitung.',
  columns: { thread: 'Weiterleitung', port: 'Port', interface: 'Schnittstelle', state: 'Zustand', restrictions: 'Einschränkungen' },
  threadN: 'Weiterleitung {n}',
  unsaved: 'nicht gespeichert',
  noThreads: 'Kein Port ist geöffnet. Fügen Sie eine Weiterleitung hinzu, um einen zu öffnen.',
  addThread: 'Weiterleitung hinzufügen',
  removeThread: 'Weiterleitung entfernen',
  thread: 'Weiterleitung {n} · Port {port}',
  allAddresses: 'Jede Client-Adresse wird akzeptiert (0.0.0.0\u00a0–\u00a00.0.0.0).',
  gatewayNote: 'Modbus/TCP-Gateway: Jede Einschränkung erscheint in ihrer Modbus-Tabelle ab ihrem Modbus-Start.',
  restrictions: 'Einschränkungen',
  restrictionN: 'Einschränkung {n}',
  noRestrictions: 'Noch keine Einschränkung: Die Clients dieses Ports erreichen kein SPS-Wort.',
  addRestriction: 'Einschränkung hinzufügen',
  removeRestriction: 'Entfernen',
  areaRange: '{area}-Wörter 0\u00a0–\u00a0{max}',
  range: 'Bereich',
  modbusRange: 'Modbus {first}\u00a0–\u00a0{last} ({unit})',
  words: 'Register',
  bits: 'Bits',
  status: 'Portstatus',
  unavailable: 'Status nicht verfügbar',
  notSaved: 'Noch nicht gespeichert: kein Status.',
  listening: 'empfangsbereit auf {port}',
  closed: 'nicht empfangsbereit ({port})',
  stats: {
    clients: 'Clients',
    requests: 'Anfragen',
    refused: 'Abgewiesen',
    errors: 'Fehler',
    bytesIn: 'Bytes empfangen',
    bytesOut: 'Bytes gesendet',
    faults: 'Abgefangene Fehler',
  },
  test: 'Verbindungstest',
  testing: 'Test läuft…',
  testNote: 'Der Test verwendet die gespeicherten Einstellungen.',
  testOk: 'Die SPS hat über diesen Port geantwortet.',
  testFailed: 'Verbindungstest fehlgeschlagen.',
  reasons: {
    not_listening: 'Der Port ist nicht empfangsbereit.',
    refused: 'Der Port hat die Verbindung abgewiesen.',
    no_answer: 'Die SPS hat nicht geantwortet.',
    error_answer: 'Die SPS hat mit einem Fehler geantwortet.',
  },
  request: 'Gesendete Anfrage',
  raw: 'Rohantwort',
  nothing: 'nichts',
} satisfies NamespacePortTranslation;

export default de_port;
