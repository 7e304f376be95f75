// German: the texts of the trend graphs page (/graphs), loaded with the pages.
import type { NamespaceGraphsTranslation } from '../../i18n-types.ts';

const de_graphs = {
  intro:
    'Wählen Sie eine oder mehrere Logdateien: Jede Datei erhält ein eigenes Diagramm; ein Klick auf einen Legendeneintrag blendet dessen Datenreihe aus oder ein.',
  zoomMouse: 'Zoomen mit Strg+Ziehen oder dem Mausrad über einem Diagramm.',
  zoomTouch: 'Zoomen mit zwei Fingern über einem Diagramm (auseinanderziehen vergrößert); mit einem Finger seitwärts ziehen verschiebt die Zeitachse.',
  files: 'Logdateien',
  storages: { intern: 'Interner Speicher', usb: 'USB', temp: 'Temporärer Speicher' },
  notMounted: 'Nicht eingehängt.',
  noFiles: 'Keine Dateien gefunden.',
  refresh: 'Liste aktualisieren',
  size: '{kb} KB',
  chartType: 'Diagrammtyp',
  types: { line: 'Linie', bar: 'Balken', stacked: 'Gestapelte Balken' },
  none: 'Wählen Sie eine Logdatei, um ihr Diagramm zu sehen.',
  loading: 'Wird geladen…',
  readFailed: 'Datei konnte nicht gelesen werden.',
  invalidFormat: 'Ungültiges Datenformat im Diagramm (Datum, Uhrzeit, Trennzeichen).',
  tooLarge: 'Die Datei ist für ein Diagramm zu groß: {size} MB, höchstens {max} MB.',
  noNumbers: 'Die Datei hat keine Spalte mit Zahlen, die sich zeichnen lässt.',
  textColumns: 'Nicht gezeichnet (Text): {names}',
  skipped: 'Ausgelassene Zeilen (keine Datenzeilen): {n}',
  torn: 'Die letzte Zeile ist unvollständig (wird sie noch geschrieben?) und wurde ausgelassen.',
  range: '{from} bis {to}',
  lines: 'Datenzeilen: {n}',
  resetZoom: 'Zoom zurücksetzen',
  legend: 'Datenreihen (Klick blendet aus oder ein)',
  chart: 'Trenddiagramm von {name}',
} satisfies NamespaceGraphsTranslation;

export default de_graphs;
