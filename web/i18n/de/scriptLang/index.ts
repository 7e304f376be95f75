// German: the texts of the script language (parser errors in the editor) and the script's live
// status on /script, loaded with the pages.
import type { NamespaceScriptLangTranslation } from '../../i18n-types.ts';

const de_scriptLang = {
  at: 'Zeile {line}, Spalte {column}: {message}',
  problems: '{count} Fehler im Skript: Es kann erst gespeichert und ausgeführt werden, wenn sie behoben sind.',
  noProblems: 'Keine Fehler im Skript.',
  codes: {
    unknown_statement: '„{word}“ ist keine Anweisung: read, write, file, append oder send verwenden.',
    outside_section: 'Eine Anweisung muss auf einen Abschnitt folgen: [init], [cycle N] oder [on FLAG].',
    unknown_section: '„{section}“ ist kein Abschnitt: [init], [cycle N] oder [on FLAG] verwenden.',
    duplicate_section: 'Diesen Abschnitt gibt es schon (Zeile {first}).',
    cycle_range: 'Der Zyklus muss eine ganze Zahl von Sekunden von {min} bis {max} sein.',
    bad_flag: '„{flag}“ ist kein Merker: R, bis zu 3 Ziffern und eine Hex-Ziffer schreiben (z. B. R10A).',
    bad_area: '„{area}“ ist kein Bereich: {allowed} verwenden.',
    bad_address: 'Ungültige Adresse: eine ganze Zahl von 0 bis {max} in {area}, der Wert innerhalb des Bereichs.',
    read_only_area: 'Der Bereich {area} enthält die SPS-Eingänge: Er kann nicht geschrieben werden.',
    bad_type: '„{type}“ ist kein Typ: {allowed} verwenden.',
    bad_name: '„{name}“ ist kein gültiger Name: mit einem Buchstaben beginnen, dann Buchstaben, Ziffern und Unterstriche, höchstens {max} Zeichen.',
    bad_value: '„{value}“ ist weder eine Zahl noch ein Name.',
    value_range: 'Der Wert passt nicht zum Typ {type} ({min} – {max}, ganze Zahlen außer bei REAL).',
    unknown_name: 'Keine read-Anweisung setzt „{name}“.',
    bad_file_name:
      '„{name}“ ist kein Dateiname: ein Buchstabe, dann Buchstaben, Ziffern, „_“, „-“ oder Datumsplatzhalter, Endung .csv, höchstens {max} Zeichen mit eingesetztem Datum.',
    bad_file_placeholder: '„{placeholder}“ ist kein Platzhalter für Datum oder Uhrzeit in einem Dateinamen: verwenden Sie {allowed}.',
    no_file: 'append braucht zuvor eine file-Anweisung im Skript.',
    syntax: 'Die Anweisung ist unvollständig oder hat einen Teil zu viel: siehe die Anweisungen im Standardskript.',
    too_many_lines: 'Das Skript ist zu lang: höchstens {max} Zeilen.',
    too_many_names: 'Zu viele Namen: höchstens {max}.',
    too_many_values: 'Zu viele Werte in einer Zeile: höchstens {max}.',
  },
  status: {
    title: 'Skriptstatus',
    off: 'Das Skript ist nicht aktiviert.',
    state: 'Zustand',
    states: { off: 'aus', running: 'läuft', refused: 'abgelehnt (Fehler im Skript)', error: 'angehalten (Datei nicht lesbar)' },
    section: 'Abschnitt',
    lastRun: 'Letzter Lauf',
    duration: 'Dauer',
    never: 'noch nicht',
    runs: 'Läufe',
    overruns: 'Überläufe',
    lastError: 'Letzter Fehler',
    none: 'keiner',
    line: 'Zeile {line}',
  },
} satisfies NamespaceScriptLangTranslation;

export default de_scriptLang;
