// German: the wording shared by the settings forms (a label with its message, ranges, register footprints, where a problem is); loaded with the settings pages, the login pages and the services block of /info.
import type { NamespaceFormTranslation } from '../../i18n-types.ts';

const de_form = {
  labelled: '{label}: {text}',
  range: 'Bereich {min}\u00a0–\u00a0{max}',
  /** the notices of a save and a reset (shown on the settings pages, which load this part) */
  notice: {
    saved: 'Einstellungen gespeichert.',
    saveFailed: 'Speichern der Einstellungen fehlgeschlagen.',
    nothingToSave: 'Nichts zu speichern: Es wurde keine Einstellung geändert.',
    resetDone: 'Die Standardwerte sind eingetragen. Speichern Sie, um sie zu übernehmen.',
    resetSame: 'Die Standardwerte sind eingetragen: Sie sind bereits die gespeicherten Einstellungen.',
  },
  footprint: 'Belegt DT{first}\u00a0–\u00a0DT{last} ({count} Register).',
  multipleRegisters: 'Mehrere Dienste verwenden dieselben SPS-Register. Ändern Sie die Steuerregister so, dass sie sich nicht überschneiden.',
  place: {
    thread: 'Weiterleitung {n}',
    restriction: 'Einschränkung {n}',
    connection: 'Verbindung {n}',
    point: 'Datenpunkt {n}',
    header: 'Header {n}',
    entry: 'Eintrag {n}',
  },
  problems: 'Zu korrigieren:',
  problem: '{place}: {message}',
} satisfies NamespaceFormTranslation;

export default de_form;
