// Counts shown in the console take the plural form of their language (typesafe-i18n plural parts,
// decided by Intl.PluralRules: French counts 0 and 1 as singular, English and German only 1).
import { describe, expect, it } from 'vitest';
import { loadFullLocales } from '../../test/support/locales.ts';
import { i18nObject } from './i18n-util.ts';

loadFullLocales();
const en = i18nObject('en');
const de = i18nObject('de');
const fr = i18nObject('fr');

describe('plural forms', () => {
  it('register counts of a control block', () => {
    expect(en.form.footprint({ first: 5, last: 5, count: 1 })).toBe('Uses DT5 – DT5 (1 register).');
    expect(en.form.footprint({ first: 5, last: 6, count: 2 })).toBe('Uses DT5 – DT6 (2 registers).');
    expect(fr.iec.footprint({ area: 'FL', first: 1, last: 1, count: 1 })).toBe('Utilise FL1\u00a0–\u00a0FL1 (1 registre).');
    expect(fr.iec.footprint({ area: 'FL', first: 1, last: 2, count: 2 })).toBe('Utilise FL1\u00a0–\u00a0FL2 (2 registres).');
    expect(fr.logger.register({ first: 500, count: 1 })).toBe('Utilise DT500 (1 registre).');
  });

  it('log files, data points and connections', () => {
    expect(fr.logger.file.count({ count: 0, max: 16 })).toBe('0 fichier journal sur 16');
    expect(fr.logger.file.count({ count: 1, max: 16 })).toBe('1 fichier journal sur 16');
    expect(fr.logger.file.count({ count: 2, max: 16 })).toBe('2 fichiers journaux sur 16');
    expect(en.logger.file.count({ count: 0, max: 1 })).toBe('0 of 1 log file');
    expect(de.logger.file.count({ count: 1, max: 16 })).toBe('1 von 16 Logdateien');
    expect(fr.iec.count({ count: 1, max: 4 })).toBe('1 connexion sur 4 (groupe de redondance)');
    expect(fr.iec.count({ count: 3, max: 4 })).toBe('3 connexions sur 4 (groupe de redondance)');
    expect(en.iec.count({ count: 1, max: 1 })).toBe('1 of 1 connection (redundancy group)');
    expect(de.logger.file.removeText({ name: 'a', count: 1 })).toBe('Logdatei a mit ihrem 1 Datenpunkt löschen? Die übrigen werden ab 1 neu nummeriert.');
    expect(fr.logger.file.removeText({ name: 'a', count: 0 })).toBe(
      'Supprimer le fichier journal a et son 0 point de données\u00a0? Les autres sont renumérotés à partir de 1.',
    );
    expect(en.fields.datapoints.count({ count: 3, max: 1 })).toBe('3 of 1 data point');
  });

  it('files, entries, certificates and minutes', () => {
    expect(en.rest.removed({ count: 1 })).toBe('1 file deleted.');
    expect(fr.rest.removed({ count: 2 })).toBe('2 fichiers supprimés.');
    expect(de.rest.removed({ count: 1 })).toBe('1 Datei gelöscht.');
    expect(en.users.page({ page: 1, pages: 1, total: 1 })).toBe('Page 1 of 1 (1 entry)');
    expect(de.users.page({ page: 1, pages: 2, total: 30 })).toBe('Seite 1 von 2 (30 Einträge)');
    expect(fr.certs.chain({ count: 1 })).toBe('1 certificat');
    expect(de.auth.locked({ minutes: 1 })).toBe('Zu viele fehlgeschlagene Anmeldeversuche. Versuchen Sie es in 1 Minute erneut.');
  });
});
