// German: the texts of the COM page (/com) and the link states other pages show, loaded with the pages.
import type { NamespaceComTranslation } from '../../i18n-types.ts';

const de_com = {
  kinds: { '0': 'RS232', '3': 'RS485/RS232', '1': 'USB', '4': 'Speicher des Geräts', '5': 'Ethernet' },
  plc: 'SPS-Einstellungen', restart: 'Neustart',
  off: 'Nicht aktiviert: Die Einstellungen bleiben erhalten, werden aber nicht verwendet.',
  protocolFixed: 'Modbus (fest)',
  internalNote: 'Der eigene Speicher des Geräts, über Modbus gelesen und geschrieben: Die Holding-Register {min}\u00a0–\u00a0{max} nehmen Ihre Daten auf.',
  offset: 'Adressversatz', offsetOff: 'Deaktiviert', offsetOn: 'Verwendet',
  test: 'SPS-Test', testing: 'Test läuft…', testNote: 'Der Test verwendet die gespeicherten Einstellungen.',
  testOk: 'Die SPS hat geantwortet.', cpu: 'CPU-Typ: {name}', cpuUnknown: 'unbekannt',
  family: 'Familie', model: 'Modell', version: 'Version', mode: 'Betriebsart',
  failed: 'SPS-Test fehlgeschlagen.',
  reasons: {
    no_answer: 'Die SPS hat nicht geantwortet.', plc_error: 'Die SPS hat mit einem Fehler geantwortet.',
    bad_reply: 'Die Antwort war nicht verständlich.', link_down: 'Die Verbindung zur SPS ist unterbrochen.',
  },
  errorCode: 'SPS-Fehlercode {code}.',
  raw: 'Rohantwort', noReply: 'keine Antwort',
  status: 'Verbindungsstatus', unavailable: 'Status nicht verfügbar',
  states: { disabled: 'deaktiviert', connecting: 'verbindet', up: 'verbunden', down: 'keine Verbindung', absent: 'nicht vorhanden' },
  baud: '{rate} Baud',
  autobaud: { searching: 'Autobaud sucht', found: 'per Autobaud gefunden', failed: 'Autobaud fehlgeschlagen' },
  stats: {
    requests: 'Anfragen', errors: 'Fehler', timeouts: 'Zeitüberschreitungen', retries: 'Wiederholungen',
    bytesOut: 'Bytes gesendet', bytesIn: 'Bytes empfangen', busyShare: 'Auslastung',
  },
} satisfies NamespaceComTranslation;

export default de_com;
