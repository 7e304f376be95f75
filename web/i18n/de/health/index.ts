// German: the texts of the health plots (/health), loaded with the page.
import type { NamespaceHealthTranslation } from '../../i18n-types.ts';

const de_health = {
  intro: 'Die letzte Stunde, alle {seconds}\u00a0s ein Messpunkt.',
  waiting: 'Noch kein Messpunkt: Der erste kommt {seconds}\u00a0s nach dem Start des Geräts.',
  links: 'SPS-Verbindungen',
  noLinks: 'In der letzten Stunde lief keine SPS-Verbindung.',
  busy: 'Auslastung je Verbindung',
  requests: 'Anfragen je Verbindung',
  faults: 'Fehler und Timeouts je Verbindung',
  errorsOf: '{link}-Fehler',
  timeoutsOf: '{link}-Timeouts',
  storage: 'Speicher',
  volumes: { internal: 'Interner Speicher', usb: 'USB-Stick', temp: 'Temporärer Speicher' },
  freeSpace: 'Freier Platz',
  free: '{free} von {total} frei ({share})',
  low: 'Weniger als 10\u00a0% frei: Die Aufzeichnung hält an, wenn der Speicher knapp wird.',
  dataLogger: 'Datenlogger',
  records: 'Geschriebene Datensätze',
  daemon: 'Dienst des Geräts (Daemon)',
  cpu: 'CPU, Anteil eines Kerns',
  memory: 'Arbeitsspeicher',
  rss: 'Belegter Arbeitsspeicher',
  heap: 'JavaScript-Heap',
  units: { perSecond: 'pro Sekunde', mb: 'MB', gb: 'GB' },
  amounts: { mb: '{n}\u00a0MB', gb: '{n}\u00a0GB' },
  table: { caption: '{title}, letzte Stunde', series: 'Reihe', now: 'Jetzt', min: 'Tiefster Wert', max: 'Höchster Wert' },
  none: 'kein Wert',
} satisfies NamespaceHealthTranslation;

export default de_health;
