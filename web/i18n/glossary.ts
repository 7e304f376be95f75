// The words the German and French dictionaries use, one per concept, as a technician of the trade
// expects them. Each concept lists the word to use and the variants found in earlier texts that
// must not come back; glossary.test.ts holds every dictionary text to it. Add a concept here
// before translating a new one.

export interface Term {
  /** the concept, in English */
  concept: string;
  /** the word the dictionary uses */
  use: string;
  /** variants that must not appear (matched against every text of the language) */
  avoid: RegExp[];
}

export const GLOSSARY: Record<'de' | 'fr', Term[]> = {
  de: [
    { concept: 'PLC', use: 'SPS', avoid: [/\bPLC\b/] },
    { concept: 'the unit (the device itself)', use: 'Gerät', avoid: [/\b(der|die|Der|Die) Einheit\b/] },
    { concept: 'unit of measurement', use: 'Einheit', avoid: [/\bMaßeinheit\b/] },
    { concept: 'internal relay R (bit)', use: 'Merker (R-Merker)', avoid: [/Steuerflag/, /\bFlag\b/, /\bWR-Relais\b/] },
    { concept: 'listening (a port)', use: 'empfangsbereit', avoid: [/\bhört\b/] },
    { concept: 'trigger (logger)', use: 'Auslöser', avoid: [/\bTrigger\b/, /Auslösung/] },
    { concept: 'log file (logger)', use: 'Logdatei', avoid: [/Log-Datei/] },
    {
      concept: 'a record of a log file',
      use: 'Datensatz',
      avoid: [/Einträge je\b/, /Einträge werden gesammelt/, /Ein Eintrag mit/, /[Ee]rste[rn]? Eintrag/, /eines Eintrags/],
    },
    { concept: 'timeout', use: 'Timeout', avoid: [/Zeitüberschreitung/] },
    { concept: 'overlap (address ranges)', use: 'überschneiden', avoid: [/überlapp/] },
    { concept: 'redirect thread (a TCP port passed on to an interface)', use: 'Weiterleitung', avoid: [/\bThreads?\b/] },
    { concept: 'word order names', use: 'Big/Middle/Mixed with what each means', avoid: [/^(Big|Middle|Mixed)$/] },
    { concept: 'logging / to log (logger)', use: 'Aufzeichnung / aufzeichnen', avoid: [/protokollier/i, /\bProtokollieren\b/] },
    { concept: 'words (PLC data words)', use: 'Wörter', avoid: [/\bWorte\b/] },
    { concept: 'settings', use: 'Einstellungen', avoid: [/\bKonfigurationseinstellung/] },
    { concept: 'scrape token (GET /metrics, docs/monitoring.md)', use: 'Scrape-Token', avoid: [/Scrape Token/, /Abruf-?[Tt]oken/, /Scrape-Schlüssel/] },
    { concept: 'capture (traffic monitor)', use: 'Mitschnitt', avoid: [/\bCapture\b/] },
    { concept: 'a record of the traffic monitor (a frame or an event)', use: 'Eintrag', avoid: [] },
    { concept: 'frame (what goes over the wire)', use: 'Telegramm', avoid: [/\bFrames?\b/] },
    {
      concept: 'register watch (a user’s own PLC addresses read live)',
      use: 'Registerbeobachtung, Beobachtungstabelle',
      avoid: [/Watchliste|Überwachungsliste|Beobachtungsliste/],
    },
    { concept: 'quotation marks', use: '„…“', avoid: [/"/, /«|»/, /(^|[\s(])'[A-ZÄÖÜ][^']*'/] },
  ],
  fr: [
    { concept: 'PLC', use: 'automate', avoid: [/\bPLC\b/, /\bAPI de l/] },
    { concept: 'the unit (the device itself)', use: 'appareil', avoid: [/\b[lLdD][’']unité(?! de mesure)/, /<unité>/, /\bcette unité\b/] },
    { concept: 'unit of measurement', use: 'unité (de mesure)', avoid: [] },
    { concept: 'settings', use: 'paramètres', avoid: [/\bréglages?\b/] },
    { concept: 'internal relay R used as a flag', use: 'indicateur', avoid: [/\bdrapeau/i] },
    { concept: 'underscore', use: 'tiret bas', avoid: [/trait de soulignement/] },
    { concept: 'confirm a password', use: 'Confirmer le mot de passe', avoid: [/\bRépéte[rz]\b/] },
    { concept: 'conditional ("if you may need")', use: 'si vous risquez de', avoid: [/si vous pourriez/] },
    { concept: 'pick a saved value', use: 'Utiliser', avoid: [/\bReprendre\b/] },
    { concept: 'redirect thread (a TCP port passed on to an interface)', use: 'redirection', avoid: [/\bthreads?\b/i] },
    { concept: 'upload a file to the unit', use: 'charger', avoid: [/télévers/i] },
    { concept: 'the Reset button (the defaults into the form)', use: 'Réinitialiser', avoid: [/\bRétablir remplit\b/] },
    { concept: 'word order names', use: 'Big/Middle/Mixed with what each means', avoid: [/^(Big|Middle|Mixed)$/] },
    { concept: 'scrape token (GET /metrics, docs/monitoring.md)', use: 'jeton de collecte', avoid: [/\btoken\b/i, /jeton de scrap/i] },
    { concept: 'capture (traffic monitor)', use: 'capture', avoid: [] },
    { concept: 'a record of the traffic monitor (a frame or an event)', use: 'entrée', avoid: [] },
    { concept: 'frame (what goes over the wire)', use: 'trame', avoid: [/\bframes?\b/i] },
    {
      concept: 'register watch (a user’s own PLC addresses read live)',
      use: 'visualisation des registres, table de visualisation',
      avoid: [/liste de (surveillance|visualisation)/i],
    },
    { concept: 'quotation marks', use: '« … » (with non-breaking spaces)', avoid: [/"/, /“|”|„/, /(^|[\s(])'[A-Za-zÀ-ÿ][^']*'/] },
    { concept: 'apostrophe', use: '’', avoid: [/[A-Za-zÀ-ÿ]'[A-Za-zÀ-ÿ]/] },
    {
      concept: 'logging (the logger at work)',
      use: 'journalisation',
      avoid: [/^Enregistrement$/, /(arrête|démarre|arrêter|démarrer) l’enregistrement/, /enregistrement (s’arrête|arrêté)/, /Cycle d’enregistrement/],
    },
    {
      concept: 'a record of a log file (enregistrer, enregistrement: saving the settings only)',
      use: 'relevé',
      avoid: [/[Ee]nregistrements\b/, /\b([Uu]n|chaque|[Pp]remier|[Dd]ernier|d’un) enregistrement\b/],
    },
  ],
};
